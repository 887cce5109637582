package storage

import (
	"bytes"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
)

// RatingRules keep ratings from being farmed with a second key (docs/rules.md, "Ratings"). A
// rateable match (record.Match.Rateable) changes ratings only when:
//
//   - every player made at least MinMoves moves in it;
//   - no pair of its players has had PairsPerDay rated matches together on the UTC day of its
//     end;
//   - every player who has no rating yet, in any game, made NewcomerMoves moves in other
//     matches before it.
//
// Otherwise it is recorded, unrated (Rated unset). The rules read nothing but the file and the
// match's own times, so every node of a cluster, applying match ends in the same order with the
// same rules, decides the same. The zero value has no rules: every rateable match is rated.
type RatingRules struct {
	// MinMoves is the least number of moves each player makes in a rated match.
	MinMoves int
	// PairsPerDay is the most rated matches of a pair of keys a UTC day; 0: no limit.
	PairsPerDay int
	// NewcomerMoves is the least number of moves a key makes in other matches before its first
	// rated match.
	NewcomerMoves int
}

// DefaultRatingRules are the arcade's rules: 2 moves each, 3 rated matches of a pair a day, 20
// moves before a first rated match.
var DefaultRatingRules = RatingRules{MinMoves: 2, PairsPerDay: 3, NewcomerMoves: 20}

// mayRate reports whether the rateable match m, whose moves are in tx, may change ratings under
// rules.
func (rules RatingRules) mayRate(tx *bolt.Tx, m record.Match) bool {
	moved := make([]int, len(m.Seats))
	eachMove(tx, m.ID, func(mv record.Move) bool {
		if int(mv.Seat) >= 0 && int(mv.Seat) < len(moved) {
			moved[mv.Seat]++
		}
		return true
	})
	for _, n := range moved {
		if n < rules.MinMoves {
			return false
		}
	}
	pairs := tx.Bucket(bucketPairs)
	for _, k := range pairKeys(m) {
		var n int
		if rules.PairsPerDay <= 0 {
			break
		}
		if _, err := getJSON(pairs, k, &n); err != nil || n >= rules.PairsPerDay {
			return false // a damaged count counts as full (Check reports it)
		}
	}
	for _, s := range m.Seats {
		if rules.NewcomerMoves <= 0 || rated(tx, s.PlayerID) {
			continue
		}
		if movesBefore(tx, s.PlayerID, m.ID, rules.NewcomerMoves) < rules.NewcomerMoves {
			return false
		}
	}
	return true
}

// countRated counts the rated match m for each pair of its players on its day, and forgets the
// counts of days before the day before it, when the rules limit pairs. tx is writable.
func (rules RatingRules) countRated(tx *bolt.Tx, m record.Match) error {
	if rules.PairsPerDay <= 0 {
		return nil
	}
	pairs := tx.Bucket(bucketPairs)
	for _, k := range pairKeys(m) {
		var n int
		if _, err := getJSON(pairs, k, &n); err != nil {
			n = rules.PairsPerDay // damaged: written anew, full
		}
		if err := putJSON(pairs, k, n+1); err != nil {
			return err
		}
	}
	// Days sort as their keys do: drop a bounded number of the oldest at a time.
	cutoff := []byte(dayOf(m.Ended.Add(-24 * time.Hour)))
	var old [][]byte
	c := pairs.Cursor()
	for k, _ := c.First(); k != nil && bytes.Compare(k, cutoff) < 0 && len(old) < 64; k, _ = c.Next() {
		old = append(old, bytes.Clone(k))
	}
	for _, k := range old {
		if err := pairs.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// dayOf returns the UTC day of t, as the pairs bucket's keys begin with it.
func dayOf(t time.Time) string { return t.UTC().Format("2006-01-02") }

// pairKeys returns the keys of the pairs of m's players (two different keys) on the day m ended.
func pairKeys(m record.Match) [][]byte {
	day := dayOf(m.Ended)
	var out [][]byte
	for i, a := range m.Seats {
		for _, b := range m.Seats[i+1:] {
			x, y := a.PlayerID, b.PlayerID
			if x == y {
				continue
			}
			if x > y {
				x, y = y, x
			}
			out = append(out, []byte(day+"\x00"+x+"\x00"+y))
		}
	}
	return out
}

// rated reports whether player id has a standing in some game.
func rated(tx *bolt.Tx, id string) bool {
	for range standingsOf(tx, id) {
		return true
	}
	return false
}

// movesBefore counts the moves player id made in matches other than match, up to need: it stops
// counting there.
func movesBefore(tx *bolt.Tx, id, match string, need int) int {
	n := 0
	matches := tx.Bucket(bucketMatches)
	prefix := []byte(id + "\x00")
	c := tx.Bucket(bucketByPlayer).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && n < need; k, _ = c.Next() {
		mid := string(k[len(prefix):])
		if mid == match {
			continue
		}
		var m record.Match
		if ok, err := getJSON(matches, []byte(mid), &m); err != nil || !ok {
			continue // damaged, or set aside
		}
		mine := make([]bool, len(m.Seats))
		for i, s := range m.Seats {
			mine[i] = s.PlayerID == id
		}
		eachMove(tx, mid, func(mv record.Move) bool {
			if int(mv.Seat) >= 0 && int(mv.Seat) < len(mine) && mine[mv.Seat] {
				n++
			}
			return n < need
		})
	}
	return n
}

// eachMove calls fn with the moves of match id in order, while it returns true. A damaged move
// is skipped (Check reports it).
func eachMove(tx *bolt.Tx, id string, fn func(record.Move) bool) {
	prefix := append([]byte(id), 0)
	c := tx.Bucket(bucketMoves).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var mv record.Move
		if decode(k, v, &mv) != nil {
			continue
		}
		if !fn(mv) {
			return
		}
	}
}
