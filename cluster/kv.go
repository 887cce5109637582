package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// kv is what the directory needs of a JetStream key-value bucket (arcade_rooms, arcade_nodes):
// jsKV is the bucket, and the tests have a fake of it.
type kv interface {
	// Get returns the key's latest value (jetstream.ErrKeyNotFound when it has none), as the
	// bucket's leader has it.
	Get(ctx context.Context, key string) (jetstream.KeyValueEntry, error)
	// Put writes the key's value whatever it was.
	Put(ctx context.Context, key string, value []byte) (uint64, error)
	// Create writes the key's value if it has none (jetstream.ErrKeyExists otherwise).
	Create(ctx context.Context, key string, value []byte) (uint64, error)
	// Update writes the key's value if its latest revision is last (a compare-and-set).
	Update(ctx context.Context, key string, value []byte, last uint64) (uint64, error)
	// DeleteAt deletes the key if its latest revision is last.
	DeleteAt(ctx context.Context, key string, last uint64) error
	// Keys returns the keys that have a value (jetstream.ErrNoKeysFound when none does).
	Keys(ctx context.Context) ([]string, error)
	// WatchAll sends every key's latest value, a nil, then every change, until ctx is done or
	// the watcher is stopped.
	WatchAll(ctx context.Context) (jetstream.KeyWatcher, error)
}

// jsKV is a JetStream key-value bucket as a kv.
//
// Its Get asks the bucket's stream leader (the stream's message get), not nats.go's
// KeyValue.Get: a bucket allows direct gets, which any replica answers, the nearest first, and a
// replica answers from what it has applied. One whose server was frozen, or has just restarted,
// keeps answering while it catches up (nats-server serves direct gets from a follower once it is
// 90% caught up, and goes on after it falls behind again), so a direct get could say that a room
// opened or taken over a moment ago has no entry, or name the host it had before. What a node
// decides from a Get (that a code names no room, who hosts a room, whether it still holds one)
// must be what the directory holds, so Get reads where the writes are ordered.
type jsKV struct {
	kv     jetstream.KeyValue
	nc     *nats.Conn
	bucket string
}

func newJSKV(nc *nats.Conn, b jetstream.KeyValue) jsKV {
	return jsKV{kv: b, nc: nc, bucket: b.Bucket()}
}

// msgGetResponse is JetStream's answer to a stream message get ($JS.API.STREAM.MSG.GET).
type msgGetResponse struct {
	Error   *jetstream.APIError `json:"error"`
	Message *struct {
		Subject  string    `json:"subject"`
		Sequence uint64    `json:"seq"`
		Header   []byte    `json:"hdrs"`
		Data     []byte    `json:"data"`
		Time     time.Time `json:"time"`
	} `json:"message"`
}

func (b jsKV) Get(ctx context.Context, key string) (jetstream.KeyValueEntry, error) {
	req, err := json.Marshal(struct {
		LastFor string `json:"last_by_subj"`
	}{"$KV." + b.bucket + "." + key})
	if err != nil {
		return nil, err
	}
	msg, err := b.nc.RequestWithContext(ctx, "$JS.API.STREAM.MSG.GET.KV_"+b.bucket, req)
	if err != nil {
		if errors.Is(err, nats.ErrNoResponders) {
			return nil, fmt.Errorf("bucket %s: %w", b.bucket, jetstream.ErrNoStreamResponse)
		}
		return nil, err
	}
	var resp msgGetResponse
	if err := json.Unmarshal(msg.Data, &resp); err != nil {
		return nil, fmt.Errorf("bucket %s: %w", b.bucket, err)
	}
	if resp.Error != nil {
		if resp.Error.ErrorCode == jetstream.JSErrCodeMessageNotFound {
			return nil, jetstream.ErrKeyNotFound
		}
		return nil, resp.Error
	}
	m := resp.Message
	if m == nil {
		return nil, jetstream.ErrInvalidJetStreamResponse
	}
	if len(m.Header) > 0 {
		h, err := nats.DecodeHeadersMsg(m.Header)
		if err != nil {
			return nil, fmt.Errorf("bucket %s: %w", b.bucket, err)
		}
		if op := h.Get("KV-Operation"); op == "DEL" || op == "PURGE" {
			return nil, jetstream.ErrKeyNotFound
		}
	}
	return kvEntry{bucket: b.bucket, key: key, value: m.Data, rev: m.Sequence, created: m.Time}, nil
}

func (b jsKV) Put(ctx context.Context, key string, value []byte) (uint64, error) {
	return b.kv.Put(ctx, key, value)
}

func (b jsKV) Create(ctx context.Context, key string, value []byte) (uint64, error) {
	return b.kv.Create(ctx, key, value)
}

func (b jsKV) Update(ctx context.Context, key string, value []byte, last uint64) (uint64, error) {
	return b.kv.Update(ctx, key, value, last)
}

func (b jsKV) DeleteAt(ctx context.Context, key string, last uint64) error {
	return b.kv.Delete(ctx, key, jetstream.LastRevision(last))
}

func (b jsKV) Keys(ctx context.Context) ([]string, error) { return b.kv.Keys(ctx) }

func (b jsKV) WatchAll(ctx context.Context) (jetstream.KeyWatcher, error) { return b.kv.WatchAll(ctx) }

// kvEntry is a value of a bucket as its leader gave it to jsKV.Get.
type kvEntry struct {
	bucket, key string
	value       []byte
	rev         uint64
	created     time.Time
}

func (e kvEntry) Bucket() string                  { return e.bucket }
func (e kvEntry) Key() string                     { return e.key }
func (e kvEntry) Value() []byte                   { return e.value }
func (e kvEntry) Revision() uint64                { return e.rev }
func (e kvEntry) Created() time.Time              { return e.created }
func (e kvEntry) Delta() uint64                   { return 0 }
func (e kvEntry) Operation() jetstream.KeyValueOp { return jetstream.KeyValuePut }
