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
// lacks, and the goroutine that applies what it brings; both stop when ctx is done.
func (r *replica) follow(ctx context.Context, js jetstream.JetStream, wg *sync.WaitGroup) error {
	cons, err := js.OrderedConsumer(ctx, streamName, jetstream.OrderedConsumerConfig{
		DeliverPolicy: jetstream.DeliverByStartSequencePolicy,
		OptStartSeq:   r.applied + 1,
	})
	if err != nil {
		return fmt.Errorf("cluster: follow the stream: %w", err)
	}
	// Short pulls with a heartbeat each second: when the server that serves the consumer goes
	// away, the consumer is made again on another within a few seconds, not the default's 30.
	cc, err := cons.Consume(func(m jetstream.Msg) {
		select {
		case r.msgs <- m: // full: the consumer waits, and so does the server's flow control
		case <-ctx.Done():
		}
	}, jetstream.PullExpiry(2*time.Second), jetstream.PullHeartbeat(time.Second))
	if err != nil {
		return fmt.Errorf("cluster: follow the stream: %w", err)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer cc.Stop()
		r.apply(ctx)
	}()
	return nil
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
			r.applied = batch[len(batch)-1].Seq
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
