package cluster

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/arcade/arcade/storage"
)

// Snapshots: a node's replica, copied whole with the position it has reached (storage.DB.Snapshot),
// is kept in the JetStream object store arcade_snapshots, replicated as the stream is, under the
// name replica-POSITION. A node whose replica is empty, or lacks changes the stream no longer holds,
// restores the newest snapshot of the stream it follows (storage.DB.Restore) and follows the stream
// from the change after it; the stream is then trimmed behind the snapshots (retention.go).
const (
	bucketSnapshots = "arcade_snapshots"
	snapshotPrefix  = "replica-"
	// metaSeq and metaStream are the snapshot's metadata: its position, and when the stream it
	// is a replica of was made (a snapshot of another stream of the same name is never used).
	metaSeq    = "seq"
	metaStream = "stream"
	// snapshotsKept is how many snapshots the bucket keeps: the newest, and the one before in
	// case the newest cannot be read.
	snapshotsKept = 2
)

// When a node takes a snapshot by itself: it looks every snapshotCheck (give or take a fifth), and
// takes one when its replica has changes the newest snapshot lacks and that snapshot is
// snapshotPeriod old, or when the replica is snapshotEvery changes past it and the snapshot is
// snapshotGap old. A snapshot copies the whole replica, which holds every match ever played, so
// they are far apart: the stream keeps the changes between (retention.go).
const (
	snapshotCheck  = time.Minute
	snapshotEvery  = 100_000
	snapshotGap    = 5 * time.Minute
	snapshotPeriod = time.Hour
)

// snapshotInfo is what the bucket says of a snapshot.
type snapshotInfo struct {
	name    string
	seq     uint64
	stream  time.Time
	modTime time.Time
}

// snapshots returns the snapshots of the stream made at created, newest first.
func snapshots(ctx context.Context, store jetstream.ObjectStore, created time.Time) ([]snapshotInfo, error) {
	// The bucket's List waits for an answer that never comes when the bucket is empty and its
	// last-message request fails (a bucket just made, whose replicas are not all up yet): an
	// empty bucket is told from its size first.
	status, err := store.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("cluster: list the snapshots: %w", err)
	}
	if status.Size() == 0 {
		return nil, nil
	}
	objs, err := store.List(ctx)
	if errors.Is(err, jetstream.ErrNoObjectsFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cluster: list the snapshots: %w", err)
	}
	var out []snapshotInfo
	for _, o := range objs {
		if o.Deleted || !strings.HasPrefix(o.Name, snapshotPrefix) {
			continue
		}
		seq, err := strconv.ParseUint(o.Metadata[metaSeq], 10, 64)
		if err != nil {
			continue
		}
		made, err := time.Parse(time.RFC3339Nano, o.Metadata[metaStream])
		if err != nil || !made.Equal(created) {
			continue
		}
		out = append(out, snapshotInfo{name: o.Name, seq: seq, stream: made, modTime: o.ModTime})
	}
	slices.SortFunc(out, func(a, b snapshotInfo) int { return cmp.Compare(b.seq, a.seq) })
	return out, nil
}

// Snapshot copies the node's replica into the bucket arcade_snapshots now, as a snapshot a node
// can start from, and then trims the stream behind the newest snapshot (retention.go). It returns
// the snapshot's position (0: the replica is empty, and nothing was stored). Nodes take snapshots
// by themselves too; Snapshot is for an operator or a test that wants one now.
func (n *Node) Snapshot(ctx context.Context) (uint64, error) {
	n.snapMu.Lock()
	defer n.snapMu.Unlock()
	if err := n.rep.stopped(); err != nil {
		return 0, err
	}
	seq, err := n.putSnapshot(ctx)
	if err != nil || seq == 0 {
		return seq, err
	}
	if err := n.dropSnapshots(ctx); err != nil {
		n.cfg.Warnf("%v", err)
	}
	if err := n.retain(ctx); err != nil {
		return seq, err
	}
	return seq, nil
}

// putSnapshot streams a copy of the replica into the bucket and returns its position.
func (n *Node) putSnapshot(ctx context.Context) (uint64, error) {
	pr, pw := io.Pipe()
	var seq uint64
	begun := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := n.cfg.DB.Snapshot(pw, func(applied uint64, _ int64) error {
			seq = applied
			close(begun)
			return nil
		})
		pw.CloseWithError(err)
		done <- err
	}()
	select {
	case <-begun:
	case err := <-done:
		return 0, fmt.Errorf("cluster: snapshot: %w", err)
	}
	if seq == 0 {
		pr.CloseWithError(errors.New("the replica is empty"))
		<-done
		return 0, nil
	}
	meta := jetstream.ObjectMeta{Name: fmt.Sprintf("%s%020d", snapshotPrefix, seq),
		Description: fmt.Sprintf("node %s's replica at change %d", n.id, seq),
		Metadata: map[string]string{metaSeq: strconv.FormatUint(seq, 10),
			metaStream: n.made.UTC().Format(time.RFC3339Nano)}}
	_, err := n.snaps.Put(ctx, meta, pr)
	pr.CloseWithError(err) // lets the copy end when the put stopped reading
	werr := <-done
	if err == nil {
		err = werr
	}
	if err != nil {
		return 0, fmt.Errorf("cluster: store the snapshot at change %d: %w", seq, err)
	}
	n.cfg.Logf("cluster: stored a snapshot of the replica at change %d", seq)
	return seq, nil
}

// dropSnapshots deletes the snapshots of the stream beyond the snapshotsKept newest.
func (n *Node) dropSnapshots(ctx context.Context) error {
	all, err := snapshots(ctx, n.snaps, n.made)
	if err != nil {
		return err
	}
	for _, s := range all[min(len(all), snapshotsKept):] {
		if err := n.snaps.Delete(ctx, s.name); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
			return fmt.Errorf("cluster: delete snapshot %s: %w", s.name, err)
		}
	}
	return nil
}

// snapshotLoop takes a snapshot when one is due (see snapshotEvery), until ctx is done.
func (n *Node) snapshotLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(snapshotCheck*4/5 + rand.N(snapshotCheck*2/5)):
		}
		if n.rep.stopped() != nil {
			continue
		}
		lctx, cancel := context.WithTimeout(ctx, time.Minute)
		due, err := n.snapshotDue(lctx)
		cancel()
		if err != nil {
			n.cfg.Warnf("%v", err)
			continue
		}
		if !due {
			continue
		}
		// The copy takes as long as the replica is big: no deadline but the node's end.
		if _, err := n.Snapshot(ctx); err != nil && ctx.Err() == nil {
			n.cfg.Warnf("%v", err)
		}
	}
}

// snapshotDue reports whether the replica has changes enough past the newest snapshot.
func (n *Node) snapshotDue(ctx context.Context) (bool, error) {
	all, err := snapshots(ctx, n.snaps, n.made)
	if err != nil {
		return false, err
	}
	applied := n.cfg.DB.Applied()
	since, at := n.made, uint64(0)
	if len(all) > 0 {
		since, at = all[0].modTime, all[0].seq
	}
	if applied <= at {
		return false, nil
	}
	age := time.Since(since)
	return age >= snapshotPeriod || (applied-at >= snapshotEvery && age >= snapshotGap), nil
}

// join restores the newest snapshot into the replica before it follows the stream, when the
// replica is empty (quicker than applying the whole stream) or lacks changes the stream no longer
// holds (the only way on). A replica that lacks changes that neither the stream nor a snapshot
// holds is refused with an error wrapping ErrStreamGone.
func (r *replica) join(ctx context.Context, info *jetstream.StreamInfo) error {
	applied := r.db.Applied()
	first := info.State.FirstSeq
	if info.State.Msgs > 0 && first > applied+1 {
		return r.restoreNewest(ctx, applied, first-1, func() error {
			return streamGone("it starts at change %d, and this node's replica lacks changes %d to %d, which no snapshot holds",
				first, applied+1, first-1)
		})
	}
	if applied > 0 {
		return nil
	}
	if err := r.restoreNewest(ctx, 0, 0, nil); err != nil {
		if ctx.Err() != nil {
			return err
		}
		// The stream holds every change: the replica applies them all instead.
		r.warnf("%v; applying the whole stream instead", err)
	}
	return nil
}

// fill restores the newest snapshot into the replica, which lacks changes from to upto that the
// stream no longer holds (it delivered a later one): they were trimmed behind a snapshot. It fails,
// wrapping ErrStreamGone, when no snapshot holds them.
func (r *replica) fill(ctx context.Context, from, upto uint64) error {
	r.warnf("cluster: the stream no longer holds changes %d to %d, which this node's replica lacks: restoring the newest snapshot", from, upto)
	return r.restoreNewest(ctx, from-1, upto, func() error {
		return streamGone("changes %d to %d are no longer in it, and no snapshot holds them", from, upto)
	})
}

// restoreNewest restores the newest snapshot of the stream when it is past applied and holds the
// changes up to need; when none is, it returns gone() (nil when need is 0: nothing was needed).
// It tries again while NATS does not answer, or the snapshot chosen went meanwhile (a newer one
// came), until ctx is done; a snapshot that is damaged, or a replica that fails, ends it.
func (r *replica) restoreNewest(ctx context.Context, applied, need uint64, gone func() error) error {
	for {
		// A bucket just made (the cluster's nodes starting together) may not be known yet to the
		// server asked: each try is brief.
		actx, cancel := context.WithTimeout(ctx, 10*time.Second)
		all, err := snapshots(actx, r.snaps, r.created)
		cancel()
		if err == nil {
			if len(all) == 0 || all[0].seq <= applied || all[0].seq < need {
				if gone == nil {
					return nil
				}
				return gone()
			}
			err = r.restore(ctx, all[0])
			if err == nil || errors.Is(err, storage.ErrDamaged) || errors.Is(err, storage.ErrFailed) ||
				errors.Is(err, storage.ErrBehind) {
				return err
			}
		}
		if ctx.Err() != nil {
			return err
		}
		r.warnf("%v; trying again", err)
		select {
		case <-ctx.Done():
			return err
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// restore replaces the replica with the snapshot s: downloaded next to the replica's file, its
// digest checked, then restored in one transaction. No change is applied meanwhile (the caller
// is the goroutine that applies them, or Start before it).
func (r *replica) restore(ctx context.Context, s snapshotInfo) error {
	began := time.Now()
	f, err := os.CreateTemp(filepath.Dir(r.db.Path()), ".snapshot-*")
	if err != nil {
		return fmt.Errorf("cluster: restore snapshot %s: %w", s.name, err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	obj, err := r.snaps.Get(ctx, s.name)
	if err != nil {
		return fmt.Errorf("cluster: restore snapshot %s: %w", s.name, err)
	}
	_, err = io.Copy(f, obj) // the object's reader checks its digest at the end
	obj.Close()
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		return fmt.Errorf("cluster: restore snapshot %s: %w", s.name, err)
	}
	at, err := r.db.Restore(f.Name())
	if err != nil {
		return fmt.Errorf("cluster: restore snapshot %s: %w", s.name, err)
	}
	if at != s.seq {
		r.warnf("cluster: snapshot %s says change %d, and holds the replica at change %d", s.name, s.seq, at)
	}
	r.mu.Lock()
	r.applied = at
	close(r.moved)
	r.moved = make(chan struct{})
	r.mu.Unlock()
	r.warnf("cluster: restored the replica from snapshot %s (change %d) in %v", s.name, at, time.Since(began).Round(time.Millisecond))
	return nil
}
