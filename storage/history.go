package storage

import (
	"bytes"
	"slices"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
)

// historyKey is the key of player id's rating in game after match: fingerprint NUL game NUL
// match ID. Match IDs sort by time, so a player's history of a game is in order under the
// prefix fingerprint NUL game NUL.
func historyKey(id, game, match string) []byte {
	return []byte(id + "\x00" + game + "\x00" + match)
}

// putHistory records player id's rating in game after the rated match p.Match, in the commit that
// rates it. tx is writable; a file that lacks the bucket (a snapshot restored from a node of a
// release before it) gets it here.
func putHistory(tx *bolt.Tx, id, game string, p record.RatingPoint) error {
	b, err := tx.CreateBucketIfNotExists(bucketHistory)
	if err != nil {
		return err
	}
	return putJSON(b, historyKey(id, game, p.Match), p)
}

// RatingHistory returns the player with key id's ratings in game after each of their latest
// rated matches, at most limit of them, oldest first. It reads the player's last entries of the
// history index, never the matches. The history starts with the release that keeps it: matches
// rated before are not in it. A damaged entry is left out (Check reports it).
func (d *DB) RatingHistory(id, game string, limit int) ([]record.RatingPoint, error) {
	var out []record.RatingPoint
	err := d.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketHistory)
		if b == nil || id == "" {
			return nil
		}
		prefix := []byte(id + "\x00" + game + "\x00")
		c := b.Cursor()
		k, v := c.Seek(append(slices.Clone(prefix), 0xff))
		if k == nil {
			k, v = c.Last()
		} else {
			k, v = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix) && (limit <= 0 || len(out) < limit); k, v = c.Prev() {
			var p record.RatingPoint
			if decode(k, v, &p) == nil {
				out = append(out, p)
			}
		}
		return nil
	})
	slices.Reverse(out)
	return out, err
}

// dropHistory deletes player id's rating history of game (a void computes it again). tx is
// writable.
func dropHistory(tx *bolt.Tx, id, game string) error {
	b := tx.Bucket(bucketHistory)
	if b == nil {
		return nil
	}
	prefix := []byte(id + "\x00" + game + "\x00")
	var keys [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		keys = append(keys, bytes.Clone(k))
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}
