package cluster

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// fakeBucket is a key-value bucket in memory, as JetStream keeps one: revisions count the
// bucket's writes, a delete leaves a marker, and with a TTL a value is gone TTL after its write.
// Each node reaches it through a fakeKV.
type fakeBucket struct {
	name string
	ttl  time.Duration

	mu       sync.Mutex
	rev      uint64
	last     map[string]*fakeEntry // each key's latest write, a delete marker included
	watchers []*fakeWatcher
}

func newFakeBucket(name string, ttl time.Duration) *fakeBucket {
	return &fakeBucket{name: name, ttl: ttl, last: map[string]*fakeEntry{}}
}

// fakeEntry is a write of a fakeBucket.
type fakeEntry struct {
	bucket, key string
	value       []byte
	rev         uint64
	at          time.Time
	op          jetstream.KeyValueOp
}

func (e *fakeEntry) Bucket() string                  { return e.bucket }
func (e *fakeEntry) Key() string                     { return e.key }
func (e *fakeEntry) Value() []byte                   { return e.value }
func (e *fakeEntry) Revision() uint64                { return e.rev }
func (e *fakeEntry) Created() time.Time              { return e.at }
func (e *fakeEntry) Delta() uint64                   { return 0 }
func (e *fakeEntry) Operation() jetstream.KeyValueOp { return e.op }

// live reports whether e is a value that has not expired (b.mu held).
func (b *fakeBucket) live(e *fakeEntry) bool {
	return e != nil && e.op == jetstream.KeyValuePut && (b.ttl == 0 || time.Since(e.at) < b.ttl)
}

// write stores a write of key and tells the watchers (b.mu held).
func (b *fakeBucket) write(key string, value []byte, op jetstream.KeyValueOp) uint64 {
	b.rev++
	e := &fakeEntry{bucket: b.name, key: key, value: slices.Clone(value), rev: b.rev, at: time.Now(), op: op}
	b.last[key] = e
	for _, w := range b.watchers {
		w.send(e)
	}
	return b.rev
}

// errWrongLast is JetStream's answer to a compare-and-set that lost.
var errWrongLast = &jetstream.APIError{Code: 400, ErrorCode: jetstream.JSErrCodeStreamWrongLastSequence,
	Description: "wrong last sequence"}

// errFakeCut is the answer to a node cut off the bucket.
var errFakeCut = errors.New("fake: cut off NATS")

// fakeLink is a node's connection to the fake buckets: while it is cut, every request fails and
// the node's watchers hear nothing until it is healed; refusePut fails its puts only (its beats).
type fakeLink struct {
	mu        sync.Mutex
	cut       bool
	refusePut bool
	lose      int // the next compare-and-sets are stored, but their answers lost
	buckets   []*fakeBucket
}

func (l *fakeLink) down(put bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cut || put && l.refusePut
}

// setCut cuts the link, or heals it: the node's watchers then hear what they missed.
func (l *fakeLink) setCut(cut bool) {
	l.mu.Lock()
	l.cut = cut
	bs := l.buckets
	l.mu.Unlock()
	if cut {
		return
	}
	for _, b := range bs {
		b.mu.Lock()
		for _, w := range b.watchers {
			if w.link == l {
				w.flush()
			}
		}
		b.mu.Unlock()
	}
}

// loseAnswers has the link store the next n compare-and-sets without answering them.
func (l *fakeLink) loseAnswers(n int) {
	l.mu.Lock()
	l.lose = n
	l.mu.Unlock()
}

// lost reports whether the answer of a compare-and-set just stored is to be lost.
func (l *fakeLink) lost() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lose == 0 {
		return false
	}
	l.lose--
	return true
}

func (l *fakeLink) refusePuts(refuse bool) {
	l.mu.Lock()
	l.refusePut = refuse
	l.mu.Unlock()
}

// fakeKV is a node's view of a fakeBucket through its link: a kv.
type fakeKV struct {
	b    *fakeBucket
	link *fakeLink
}

func (l *fakeLink) kv(b *fakeBucket) fakeKV {
	l.mu.Lock()
	l.buckets = append(l.buckets, b)
	l.mu.Unlock()
	return fakeKV{b: b, link: l}
}

func (k fakeKV) Get(_ context.Context, key string) (jetstream.KeyValueEntry, error) {
	if k.link.down(false) {
		return nil, errFakeCut
	}
	k.b.mu.Lock()
	defer k.b.mu.Unlock()
	e := k.b.last[key]
	if !k.b.live(e) {
		return nil, jetstream.ErrKeyNotFound
	}
	return e, nil
}

func (k fakeKV) Put(_ context.Context, key string, value []byte) (uint64, error) {
	if k.link.down(true) {
		return 0, errFakeCut
	}
	k.b.mu.Lock()
	defer k.b.mu.Unlock()
	return k.b.write(key, value, jetstream.KeyValuePut), nil
}

func (k fakeKV) Create(_ context.Context, key string, value []byte) (uint64, error) {
	if k.link.down(false) {
		return 0, errFakeCut
	}
	k.b.mu.Lock()
	defer k.b.mu.Unlock()
	if k.b.live(k.b.last[key]) {
		return 0, jetstream.ErrKeyExists
	}
	return k.b.write(key, value, jetstream.KeyValuePut), nil
}

func (k fakeKV) Update(_ context.Context, key string, value []byte, last uint64) (uint64, error) {
	if k.link.down(false) {
		return 0, errFakeCut
	}
	k.b.mu.Lock()
	defer k.b.mu.Unlock()
	if e := k.b.last[key]; e == nil || e.rev != last {
		return 0, errWrongLast
	}
	rev := k.b.write(key, value, jetstream.KeyValuePut)
	if k.link.lost() {
		return 0, nats.ErrTimeout
	}
	return rev, nil
}

func (k fakeKV) DeleteAt(_ context.Context, key string, last uint64) error {
	if k.link.down(false) {
		return errFakeCut
	}
	k.b.mu.Lock()
	defer k.b.mu.Unlock()
	if e := k.b.last[key]; e == nil || e.rev != last {
		return errWrongLast
	}
	k.b.write(key, nil, jetstream.KeyValueDelete)
	return nil
}

func (k fakeKV) Keys(context.Context) ([]string, error) {
	if k.link.down(false) {
		return nil, errFakeCut
	}
	k.b.mu.Lock()
	defer k.b.mu.Unlock()
	var keys []string
	for key, e := range k.b.last {
		if k.b.live(e) {
			keys = append(keys, key)
		}
	}
	if len(keys) == 0 {
		return nil, jetstream.ErrNoKeysFound
	}
	slices.Sort(keys)
	return keys, nil
}

func (k fakeKV) WatchAll(ctx context.Context) (jetstream.KeyWatcher, error) {
	if k.link.down(false) {
		return nil, errFakeCut
	}
	w := &fakeWatcher{link: k.link, ch: make(chan jetstream.KeyValueEntry, 4096)}
	w.ctx, w.cancel = context.WithCancel(ctx)
	k.b.mu.Lock()
	for _, e := range k.b.last {
		if k.b.live(e) {
			w.ch <- e
		}
	}
	w.ch <- nil
	k.b.watchers = append(k.b.watchers, w)
	k.b.mu.Unlock()
	go func() {
		<-w.ctx.Done()
		k.b.mu.Lock()
		defer k.b.mu.Unlock()
		k.b.watchers = slices.DeleteFunc(k.b.watchers, func(o *fakeWatcher) bool { return o == w })
		close(w.ch)
	}()
	return w, nil
}

// fakeWatcher is a watcher of a fakeBucket; its bucket's mu guards pending.
type fakeWatcher struct {
	link    *fakeLink
	ctx     context.Context
	cancel  context.CancelFunc
	ch      chan jetstream.KeyValueEntry
	pending []jetstream.KeyValueEntry // what it missed while its link was cut
}

func (w *fakeWatcher) send(e jetstream.KeyValueEntry) {
	if w.link.down(false) {
		w.pending = append(w.pending, e)
		return
	}
	w.ch <- e
}

func (w *fakeWatcher) flush() {
	for _, e := range w.pending {
		w.ch <- e
	}
	w.pending = nil
}

func (w *fakeWatcher) Context() context.Context                { return w.ctx }
func (w *fakeWatcher) Updates() <-chan jetstream.KeyValueEntry { return w.ch }
func (w *fakeWatcher) Stop() error                             { w.cancel(); return nil }
