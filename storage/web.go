package storage

import (
	"bytes"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
)

// The reads of the web companion (package web): each a bounded read of an index or of the
// newest keys of a bucket, never a walk of a whole table.

// recentScan bounds how many of the newest match headers RecentMatches reads to find its
// finished ones: matches still being played, quarantined or damaged are passed over.
const recentScan = 400

// RecentMatches returns the newest finished matches (by start), at most limit of them, newest
// first, without their moves. It walks the matches bucket backwards from its last key (match IDs
// sort by time), reading at most recentScan headers.
func (d *DB) RecentMatches(limit int) ([]record.Match, error) {
	var out []record.Match
	err := d.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketMatches)
		c := b.Cursor()
		read := 0
		for k, v := c.Last(); k != nil && len(out) < limit && read < recentScan; k, v = c.Prev() {
			read++
			var m record.Match
			if decode(k, v, &m) != nil || !m.Finished() {
				continue
			}
			out = append(out, m)
		}
		return nil
	})
	return out, err
}

// LeaderboardPage returns limit standings of game from the offset-th on (0 is the first),
// ranked as Leaderboard ranks them. The first page of at most cachedPage comes from
// Leaderboard's cache; a later one skips offset keys of the leaderboard index (keys only,
// nothing decoded) and decodes the limit standings after them.
func (d *DB) LeaderboardPage(game string, offset, limit int) ([]record.Standing, error) {
	if offset <= 0 {
		return d.Leaderboard(game, limit)
	}
	var out []record.Standing
	err := d.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketBoard)
		if b == nil {
			all := sortedBoard(tx, game, offset+limit)
			if offset < len(all) {
				out = all[offset:]
			}
			return nil
		}
		ratings := tx.Bucket(bucketRatings)
		prefix := append([]byte(game), 0)
		c := b.Cursor()
		k, _ := c.Seek(prefix)
		rank := 0
		for ; k != nil && bytes.HasPrefix(k, prefix) && len(out) < limit; k, _ = c.Next() {
			if rank < offset {
				if _, _, ok := boardPlayer(k); ok {
					rank++ // a damaged standing under a sound key counts, where readBoard skips it: rare, and only shifts a rank
				}
				continue
			}
			_, id, ok := boardPlayer(k)
			if !ok {
				continue
			}
			var st record.Standing
			if found, err := getJSON(ratings, pairKey(game, id), &st); err != nil || !found || !bytes.Equal(boardKey(game, id, st), k) {
				continue
			}
			st.Provisional = st.Rating.Provisional()
			rank++
			st.Rank = rank
			out = append(out, st)
		}
		return nil
	})
	return out, err
}
