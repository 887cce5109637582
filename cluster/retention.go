package cluster

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nats-io/nats.go/jetstream"
)

// Retention: the stream keeps what a replica or a room can still need. Behind the newest snapshot
// (snapshot.go), at position S, a replica needs nothing: one that lacks changes up to S restores
// the snapshot. So after each snapshot the node that took it purges, subject by subject, the
// changes up to the horizon S - retainWindow (the window spares a replica a few changes behind,
// a node restarted at once say, the download of a whole snapshot):
//
//   - the players' subject and the subject of every room the directory no longer lists (closed)
//     and whose match the replica has ended, up to the horizon: such a room's subject is gone
//     once its end is behind it;
//   - the subject of a room still open up to its last change, which stays whatever its age: the
//     room's host writes with the expected last sequence of its subject (the fence, store.go), so
//     an open room's last change is never purged. What a takeover rebuilds the room from is the
//     replica, not the subject.
//
// Nothing after the horizon is ever purged, so a replica that lacks a purged change finds a
// snapshot that holds it. No MaxAge or MaxMsgs on the stream: JetStream would drop the oldest
// changes whether or not a snapshot holds them, and the last change of a room still open.
//
// retainWindow is how many changes before the newest snapshot the stream keeps.
const retainWindow = 100_000

// retain trims the stream behind the newest snapshot of the bucket (see above).
func (n *Node) retain(ctx context.Context) error {
	all, err := snapshots(ctx, n.snaps, n.made)
	if err != nil || len(all) == 0 {
		return err
	}
	window := uint64(retainWindow)
	if n.cfg.retain > 0 {
		window = n.cfg.retain
	}
	if all[0].seq <= window {
		return nil
	}
	horizon := all[0].seq - window // changes up to here may go
	info, err := n.stream.Info(ctx, jetstream.WithSubjectFilter(subjectLog))
	if err != nil {
		return fmt.Errorf("cluster: trim the stream: %w", err)
	}
	if info.State.FirstSeq > horizon {
		return nil
	}
	var purged, kept int
	for subj, count := range info.State.Subjects {
		before := horizon + 1 // purge the subject's changes before this one
		if code, ok := strings.CutPrefix(subj, subjectRoomLog); ok {
			open, err := n.roomOpen(ctx, code)
			if err != nil {
				return fmt.Errorf("cluster: trim the stream: room %s: %w", code, err)
			}
			if open {
				if count <= 1 {
					continue
				}
				last, err := n.stream.GetLastMsgForSubject(ctx, subj)
				if errors.Is(err, jetstream.ErrMsgNotFound) {
					continue
				}
				if err != nil {
					return fmt.Errorf("cluster: trim the stream: room %s: %w", code, err)
				}
				before = min(before, last.Sequence)
				kept++
			}
		}
		if err := n.stream.Purge(ctx, jetstream.WithPurgeSubject(subj), jetstream.WithPurgeSequence(before)); err != nil {
			return fmt.Errorf("cluster: trim the stream: %s: %w", subj, err)
		}
		purged++
	}
	n.cfg.Logf("cluster: trimmed the stream up to change %d (snapshot at %d): %d subjects, %d of open rooms", horizon,
		all[0].seq, purged, kept)
	return nil
}

// roomOpen reports whether the room of code may still be written or taken over: the directory
// lists it, or the replica has a match of it unfinished.
func (n *Node) roomOpen(ctx context.Context, code string) (bool, error) {
	if _, ok := n.cfg.DB.ActiveMatch(code); ok {
		return true, nil
	}
	_, err := n.dir.Get(ctx, code)
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}
