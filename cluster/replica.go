package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/arcade/arcade/storage"
)

// maxApply bounds the changes applied in one transaction of the replica.
const maxApply = 1024

// replica applies the stream to the node's database, in the stream's order, in batches: one
// transaction (and its fsyncs) takes every change that arrived while the one before committed.
// It never skips a change: when the stream delivers a change past the next one the replica lacks,
// those between were trimmed (retention.go), and the replica restores a snapshot that holds them
// (snapshot.go) or stops.
type replica struct {
	db    *storage.DB
	warnf func(string, ...any)
	msgs  chan jetstream.Msg
	snaps jetstream.ObjectStore // the snapshots (snapshot.go)

	// stream is the stream followed, and created when it was made: a stream of the same name made
	// at another time is another history, which the replica must not follow.
	stream  jetstream.Stream
	created time.Time
	// suspect is set when a consumer failed (its consumer or stream deleted, say): until the
	// stream is found to be the same one, no change it delivers reaches the replica.
	suspect atomic.Bool
	checkMu sync.Mutex // one check of the stream at a time
	// doubted is when the checks of the stream began to say, without a break, that it is missing
	// or holds fewer changes than the replica (zero while they do not): a server that was frozen,
	// or has just restarted, may answer for the stream from what it had (streamDoubt).
	doubted time.Time
	// kick asks the watchdog to look at once, and to follow the stream again if the replica
	// lacks changes it holds (catchUpTo), rather than at its next tick when it saw none come.
	kick chan struct{}

	mu      sync.Mutex
	applied uint64
	moved   chan struct{} // closed when applied moves on, then replaced
	err     error         // why the replica stopped; nil while it follows
}

// newReplica returns the replica of the stream made at created in db, with the snapshots of
// snaps.
func newReplica(db *storage.DB, warnf func(string, ...any), snaps jetstream.ObjectStore, created time.Time) *replica {
	return &replica{db: db, warnf: warnf, msgs: make(chan jetstream.Msg, maxApply), snaps: snaps, created: created,
		applied: db.Applied(), moved: make(chan struct{}), kick: make(chan struct{}, 1)}
}

// follow starts an ordered consumer of the whole stream from the first change the database
// lacks, the goroutine that applies what it brings, and its watchdog; all stop when ctx is done.
func (r *replica) follow(ctx context.Context, js jetstream.JetStream, stream jetstream.Stream, wg *sync.WaitGroup) error {
	r.stream = stream
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
	// Tried again in short tries: the consumer is made by JetStream's meta leader, and a request
	// made while it is being elected (its server was the one lost) gets no answer at all.
	cons, err := retry(cctx, func(ctx context.Context) (jetstream.Consumer, error) {
		return js.OrderedConsumer(ctx, streamName, jetstream.OrderedConsumerConfig{
			DeliverPolicy: jetstream.DeliverByStartSequencePolicy,
			OptStartSeq:   from,
		})
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: follow the stream: %w", err)
	}
	// Short pulls with a heartbeat each second, so that a consumer whose server went away is
	// noticed within seconds.
	cc, err := cons.Consume(func(m jetstream.Msg) {
		// An ordered consumer whose consumer was deleted makes itself again from the change after
		// the last it delivered, on whatever stream now has the name: a stream made anew would
		// have its first changes skipped. Nothing passes until the stream is known to be the same.
		if r.suspect.Load() && !r.sameStream(ctx) {
			return
		}
		select {
		case r.msgs <- m: // full: the consumer waits, and so does the server's flow control
		case <-ctx.Done():
		}
	}, jetstream.PullExpiry(2*time.Second), jetstream.PullHeartbeat(time.Second),
		jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
			if !errors.Is(err, jetstream.ErrNoHeartbeat) {
				r.suspect.Store(true)
			}
		}))
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
		kicked := false
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-r.kick:
			kicked = true
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
		r.checkMu.Lock()
		gone, doubting := r.judge(info, err, applied), !r.doubted.IsZero()
		r.checkMu.Unlock()
		if gone != nil {
			r.stop(gone)
			return
		}
		if doubting {
			continue // nothing is applied meanwhile (suspect), nor followed again
		}
		stalled := err == nil && info.State.LastSeq > applied && (applied == before || kicked)
		before = applied
		if !stalled {
			continue
		}
		if kicked {
			r.warnf("cluster: the replica has change %d, the stream %d, and a takeover needs them: following the stream again", applied, info.State.LastSeq)
		} else {
			r.warnf("cluster: the replica has change %d, the stream %d, and no change came for %v: following the stream again", applied, info.State.LastSeq, stallCheck)
		}
		if next, err := r.consume(ctx, js); err == nil {
			cc.Stop()
			cc = next
		}
	}
}

// ErrStreamGone is the error of a node whose stream was deleted, or deleted and made again: the
// stream is the cluster's history, and a node that followed another one would skip changes.
var ErrStreamGone = fmt.Errorf("the cluster's stream %s is gone or was recreated", streamName)

// streamGone says why the stream is not the one the replica followed, and what to do.
func streamGone(format string, args ...any) error {
	return fmt.Errorf("cluster: %w: %s; this node refuses to follow it (it would skip changes) and to store more: see docs/operations.md, \"Several nodes\"",
		ErrStreamGone, fmt.Sprintf(format, args...))
}

// streamDoubt is how long the checks of the stream must go on saying that it is missing, or holds
// fewer changes than the replica, before the replica believes them and stops. Such an answer may
// come from a server that answers for the stream from what it had: one resumed after being
// frozen still takes itself for the stream's leader until it hears of the election held without
// it (an election timeout, 3 s at most here), and one just restarted has not caught up. A stream
// made again is told by its creation time, which no stale server gives, and stops the replica at
// once.
const streamDoubt = 10 * time.Second

// doubtful is an ErrStreamGone that a stale server could have caused: believed only once it has
// held for streamDoubt.
type doubtful struct{ error }

func (d doubtful) Unwrap() error { return d.error }

// checkStream returns an error wrapping ErrStreamGone (a doubtful one) when the stream info
// describes is not the history a replica that has applied every change up to applied can follow:
// it holds fewer changes. A stream that starts after the first change the replica lacks was
// trimmed behind a snapshot, which the replica restores (join, fill), or it stops there.
func checkStream(info *jetstream.StreamInfo, applied uint64) error {
	if st := info.State; st.LastSeq < applied {
		return doubtful{streamGone("it ends at change %d, and this node's replica has applied changes up to %d", st.LastSeq, applied)}
	}
	return nil
}

// verdict returns an error wrapping ErrStreamGone when info (or err, the error of getting it)
// shows that the stream is not the one the replica follows (doubtful when a stale server could
// have said so); nil when it is, or when it cannot tell (NATS out of reach).
func (r *replica) verdict(info *jetstream.StreamInfo, err error, applied uint64) error {
	switch {
	case errors.Is(err, jetstream.ErrStreamNotFound):
		return doubtful{streamGone("it is missing, and this node's replica has applied changes up to %d", applied)}
	case err != nil:
		return nil
	case !info.Created.Equal(r.created):
		return streamGone("it was made at %s, and the one this node followed at %s", info.Created.UTC().Format(time.RFC3339Nano),
			r.created.UTC().Format(time.RFC3339Nano))
	}
	return checkStream(info, applied)
}

// judge is verdict held against the checks before it; the caller holds checkMu. It returns the verdict's error once the
// replica must stop, nil meanwhile. A doubtful verdict makes the replica suspect, so that nothing
// the consumer delivers is applied until a check finds the stream sound (sameStream), and is
// believed once the checks have said so for streamDoubt.
func (r *replica) judge(info *jetstream.StreamInfo, err error, applied uint64) error {
	gone := r.verdict(info, err, applied)
	switch {
	case gone == nil:
		if err == nil && !r.doubted.IsZero() {
			r.doubted = time.Time{}
			r.warnf("cluster: the stream is the one this node follows after all (a server answered for it from what it had)")
		}
		return nil
	case !errors.As(gone, new(doubtful)):
		return gone
	case r.doubted.IsZero():
		r.doubted = time.Now()
		r.suspect.Store(true)
		r.warnf("%v; checking again for %v before believing it", gone, streamDoubt)
		return nil
	case time.Since(r.doubted) < streamDoubt:
		r.suspect.Store(true)
		return nil
	}
	return gone
}

// sameStream checks the stream after a consumer failed, trying until NATS answers: true when it
// is the one followed (and clears suspect), false when it is not (and stops the replica) or ctx
// is done.
func (r *replica) sameStream(ctx context.Context) bool {
	r.checkMu.Lock()
	defer r.checkMu.Unlock()
	for r.suspect.Load() {
		r.mu.Lock()
		applied, stopped := r.applied, r.err != nil
		r.mu.Unlock()
		if stopped {
			return false
		}
		ictx, cancel := context.WithTimeout(ctx, stallCheck)
		info, err := r.stream.Info(ictx)
		cancel()
		if gone := r.judge(info, err, applied); gone != nil {
			r.stop(gone)
			return false
		}
		if err == nil && r.doubted.IsZero() {
			r.suspect.Store(false)
			break
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(250 * time.Millisecond):
		}
	}
	return true
}

// stop stops the replica for err, which the node's writes then fail with, and logs it.
func (r *replica) stop(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return
	}
	r.err = err
	r.warnf("%v", err)
	close(r.moved)
	r.moved = make(chan struct{})
}

// stopped returns why the replica stopped following the stream, nil while it follows.
func (r *replica) stopped() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// apply applies batches of changes until ctx is done or the database fails.
func (r *replica) apply(ctx context.Context) {
	batch := make([]storage.Numbered, 0, maxApply)
	for {
		if r.stopped() != nil {
			return
		}
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
		for len(batch) > 0 {
			// Up to the first change past the next one the replica lacks: the stream no longer
			// holds those between.
			r.mu.Lock()
			next := r.applied + 1
			r.mu.Unlock()
			cut := len(batch)
			for i, c := range batch {
				if c.Seq > next {
					cut = i
					break
				}
				next = max(next, c.Seq+1)
			}
			if !r.applyBatch(batch[:cut]) {
				return
			}
			batch = batch[cut:]
			if len(batch) == 0 {
				break
			}
			if err := r.fill(ctx, next, batch[0].Seq-1); err != nil {
				if ctx.Err() == nil {
					r.stop(err)
				}
				return
			}
		}
	}
}

// applyBatch applies batch, in one transaction; false when the database failed, and the replica
// stopped.
func (r *replica) applyBatch(batch []storage.Numbered) bool {
	if len(batch) == 0 {
		return true
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
	return err == nil
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
		c = storage.Change{Kind: storage.ChangeUndecodable} // applied as a skip, so that the position moves on
	}
	return append(batch, storage.Numbered{Seq: meta.Sequence.Stream, Change: c})
}

// catchUpPatience is how long catchUpTo waits for the consumer that follows the stream before it
// makes it again: its server may be the one lost, and an ordered consumer notices that only after
// missed heartbeats.
const catchUpPatience = 500 * time.Millisecond

// catchUpTo is wait for a change that must be here soon (a takeover's fence): when the replica
// has not reached seq within catchUpPatience, the watchdog follows the stream again at once.
func (r *replica) catchUpTo(ctx context.Context, seq uint64) error {
	pctx, cancel := context.WithTimeout(ctx, catchUpPatience)
	err := r.wait(pctx, seq)
	cancel()
	if err == nil || ctx.Err() != nil || r.stopped() != nil {
		return r.wait(ctx, seq)
	}
	select {
	case r.kick <- struct{}{}:
	default: // a kick is pending already
	}
	return r.wait(ctx, seq)
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
