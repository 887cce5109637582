package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/arcade/arcade/storage"
)

// maxApply bounds the changes applied in one transaction of the replica.
const maxApply = 1024

// replica applies the stream to the node's database, in the stream's order, in batches: one
// transaction (and its fsyncs) takes every change that arrived while the one before committed.
type replica struct {
	db    *storage.DB
	warnf func(string, ...any)
	msgs  chan jetstream.Msg

	mu      sync.Mutex
	applied uint64
	moved   chan struct{} // closed when applied moves on, then replaced
	err     error         // why the replica stopped; nil while it follows
}

func newReplica(db *storage.DB, warnf func(string, ...any)) *replica {
	return &replica{db: db, warnf: warnf, msgs: make(chan jetstream.Msg, maxApply),
		applied: db.Applied(), moved: make(chan struct{})}
}

// follow starts an ordered consumer of the whole stream from the first change the database
// lacks, the goroutine that applies what it brings, and its watchdog; all stop when ctx is done.
func (r *replica) follow(ctx context.Context, js jetstream.JetStream, stream jetstream.Stream, wg *sync.WaitGroup) error {
	cc, err := r.consume(ctx, js)
	if err != nil {
		return err
	}
	wg.Add(2)
	go func() {
		defer wg.Done()
		r.apply(ctx)
	}()
	go func() {
		defer wg.Done()
		r.watch(ctx, js, stream, cc)
	}()
	return nil
}

// consume starts an ordered consumer from the first change the replica lacks.
func (r *replica) consume(ctx context.Context, js jetstream.JetStream) (jetstream.ConsumeContext, error) {
	r.mu.Lock()
	from := r.applied + 1
	r.mu.Unlock()
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	cons, err := js.OrderedConsumer(cctx, streamName, jetstream.OrderedConsumerConfig{
		DeliverPolicy: jetstream.DeliverByStartSequencePolicy,
		OptStartSeq:   from,
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: follow the stream: %w", err)
	}
	// Short pulls with a heartbeat each second, so that a consumer whose server went away is
	// noticed within seconds.
	cc, err := cons.Consume(func(m jetstream.Msg) {
		select {
		case r.msgs <- m: // full: the consumer waits, and so does the server's flow control
		case <-ctx.Done():
		}
	}, jetstream.PullExpiry(2*time.Second), jetstream.PullHeartbeat(time.Second))
	if err != nil {
		return nil, fmt.Errorf("cluster: follow the stream: %w", err)
	}
	return cc, nil
}

// stallCheck is how often the watchdog compares the replica with the stream.
const stallCheck = 2 * time.Second

// watch starts the consumer again when the stream holds changes the replica lacks and the
// replica has not moved on since the last look. An ordered consumer whose server went away makes
// itself again, but with requests of 10 s and a backoff to 10 s between them, while the stream
// elects a leader: a replica could lag the cluster for 20 s. A change delivered twice (by the
// old consumer and the new) is applied once (storage.DB.Apply skips what it has).
func (r *replica) watch(ctx context.Context, js jetstream.JetStream, stream jetstream.Stream, cc jetstream.ConsumeContext) {
	t := time.NewTicker(stallCheck)
	defer t.Stop()
	defer func() { cc.Stop() }()
	var before uint64
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		r.mu.Lock()
		applied, stopped := r.applied, r.err != nil
		r.mu.Unlock()
		if stopped {
			return
		}
		ictx, cancel := context.WithTimeout(ctx, stallCheck)
		info, err := stream.Info(ictx)
		cancel()
		stalled := err == nil && info.State.LastSeq > applied && applied == before
		before = applied
		if !stalled {
			continue
		}
		r.warnf("cluster: the replica has change %d, the stream %d, and no change came for %v: following the stream again", applied, info.State.LastSeq, stallCheck)
		if next, err := r.consume(ctx, js); err == nil {
			cc.Stop()
			cc = next
		}
	}
}

// apply applies batches of changes until ctx is done or the database fails.
func (r *replica) apply(ctx context.Context) {
	batch := make([]storage.Numbered, 0, maxApply)
	for {
		batch = batch[:0]
		select {
		case <-ctx.Done():
			return
		case m := <-r.msgs:
			batch = r.add(batch, m)
		}
	more:
		for len(batch) < maxApply {
			select {
			case m := <-r.msgs:
				batch = r.add(batch, m)
			default:
				break more
			}
		}
		if len(batch) == 0 {
			continue
		}
		skipped, err := r.db.ApplyAll(batch)
		for _, s := range skipped {
			r.warnf("cluster: a change of the stream was not applied: %v", s)
		}
		r.mu.Lock()
		if err != nil {
			r.err = fmt.Errorf("cluster: the replica stopped: %w", err)
			r.warnf("%v", r.err)
		} else {
			for _, c := range batch { // a change delivered again after a restart may come late
				r.applied = max(r.applied, c.Seq)
			}
		}
		close(r.moved)
		r.moved = make(chan struct{})
		r.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// add decodes m onto batch; a message that is not a change is skipped, with a warning.
func (r *replica) add(batch []storage.Numbered, m jetstream.Msg) []storage.Numbered {
	meta, err := m.Metadata()
	if err != nil {
		r.warnf("cluster: a message of the stream without metadata: %v", err)
		return batch
	}
	var c storage.Change
	if err := json.Unmarshal(m.Data(), &c); err != nil {
		c = storage.Change{Kind: "undecodable"} // applied as a skip, so that the position moves on
	}
	return append(batch, storage.Numbered{Seq: meta.Sequence.Stream, Change: c})
}

// wait blocks until the replica has applied the change at seq (and every one before), the
// replica has stopped, or ctx is done.
func (r *replica) wait(ctx context.Context, seq uint64) error {
	for {
		r.mu.Lock()
		applied, moved, err := r.applied, r.moved, r.err
		r.mu.Unlock()
		if applied >= seq {
			return nil
		}
		if err != nil {
			return err
		}
		select {
		case <-moved:
		case <-ctx.Done():
			return fmt.Errorf("cluster: waiting for the replica to reach change %d (it has %d): %w", seq, applied, ctx.Err())
		}
	}
}
