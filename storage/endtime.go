package storage

import (
	"bytes"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
)

// endTime returns when match e.ID ended. A match its moves ended (over and not abandoned) ended
// with its last move: the end is recorded just after that move or, when the server stopped in
// between, by the room restored at the next start, which must not date the match, and the
// players' ratings, to the restart. Otherwise, or when the last move has no time or cannot be
// read, the match ended at e.Ended.
func endTime(tx *bolt.Tx, e endEntry) time.Time {
	if !e.Outcome.Over || e.Unrated {
		return e.Ended
	}
	moves := tx.Bucket(bucketMoves)
	prefix := append([]byte(e.ID), 0)
	c := moves.Cursor()
	k, _ := c.Seek(append(append([]byte{}, prefix...), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))
	if k == nil {
		k, _ = c.Last()
	} else {
		k, _ = c.Prev()
	}
	if k == nil || !bytes.HasPrefix(k, prefix) {
		return e.Ended
	}
	var last record.Move
	if ok, err := getJSON(moves, k, &last); err != nil || !ok || last.At.IsZero() {
		return e.Ended
	}
	return last.At.UTC()
}
