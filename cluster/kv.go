package cluster

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"
)

// kv is what the directory needs of a JetStream key-value bucket (arcade_rooms, arcade_nodes):
// jsKV is the bucket, and the tests have a fake of it.
type kv interface {
	// Get returns the key's latest value (jetstream.ErrKeyNotFound when it has none).
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
type jsKV struct{ kv jetstream.KeyValue }

func (b jsKV) Get(ctx context.Context, key string) (jetstream.KeyValueEntry, error) {
	return b.kv.Get(ctx, key)
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
