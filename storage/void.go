package storage

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/rating"
	"github.com/arcade/arcade/record"
)

// A void: an operator takes a match out of the ratings (it was played with a stolen key, or
// thrown). Its game's ratings are computed again from the matches that count, in the order they
// were rated: the bucket rated lists each game's rated matches so, written in the commit that rates
// a match (endEntry), so that every replica, applying the same changes in the same order,
// recomputes the same ratings. The rules against farming are not decided again: a match that was
// left unrated stays so, and the others count as they did.

// ErrNotVoidable: the match cannot be voided (it is unfinished, unrated, or void already).
var ErrNotVoidable = errors.New("the match cannot be voided")

// ratedKey returns the bucket rated's key of the rated match numbered n in game.
func ratedKey(game string, n uint64) []byte {
	return binary.BigEndian.AppendUint64(append([]byte(game), 0), n)
}

// putRated lists match id as game's latest rated match. tx is writable.
func putRated(tx *bolt.Tx, game, id string) error {
	b := tx.Bucket(bucketRated)
	n, err := b.NextSequence()
	if err != nil {
		return err
	}
	return putBinding(b, ratedKey(game, n), id)
}

// migrateRated lists the rated matches of a file written before the bucket rated, each game's in
// the order they ended (ties by ID): the order they were rated in, but for matches that ended
// within the same moment of a commit. tx is writable.
func migrateRated(tx *bolt.Tx) error {
	var rated []record.Match
	err := tx.Bucket(bucketMatches).ForEach(func(k, v []byte) error {
		var m record.Match
		if decode(k, v, &m) == nil && m.Rated && !m.Voided {
			rated = append(rated, m)
		}
		return nil
	})
	if err != nil {
		return err
	}
	slices.SortFunc(rated, func(a, b record.Match) int {
		return cmp.Or(a.Ended.Compare(b.Ended), strings.Compare(a.ID, b.ID))
	})
	for _, m := range rated {
		if err := putRated(tx, m.Game, m.ID); err != nil {
			return fmt.Errorf("migrate rated: %w", err)
		}
	}
	return nil
}

// applyVoid voids match c.ID for the operator c.By (c.Text the reason): the match is marked void
// and unrated, and its game's ratings are recomputed without it (recompute).
func applyVoid(tx *bolt.Tx, c Change) error {
	m, err := header(tx, c.ID)
	switch {
	case err != nil:
		return err
	case !m.Finished():
		return fmt.Errorf("%w: match %s is not over", ErrNotVoidable, c.ID)
	case m.Voided:
		return fmt.Errorf("%w: match %s is void already", ErrNotVoidable, c.ID)
	case !m.Rated:
		return fmt.Errorf("%w: match %s did not count for ratings", ErrNotVoidable, c.ID)
	}
	if err := checkReason("a reason", c.Text, MaxReason); err != nil {
		return err
	}
	m.Rated, m.Voided = false, true
	if err := putJSON(tx.Bucket(bucketMatches), []byte(m.ID), m); err != nil {
		return err
	}
	b := tx.Bucket(bucketRated)
	prefix := append([]byte(m.Game), 0)
	var entry []byte
	cur := b.Cursor()
	for k, v := cur.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = cur.Next() {
		if id, err := decodeBinding(k, v, false); err == nil && id == m.ID {
			entry = bytes.Clone(k)
			break
		}
	}
	if entry != nil {
		if err := b.Delete(entry); err != nil {
			return err
		}
	}
	if err := recompute(tx, m.Game); err != nil {
		return fmt.Errorf("recompute the ratings of %s: %w", m.Game, err)
	}
	return logAction(tx, record.Action{Kind: "void", Target: m.ID, Text: c.Text, By: c.By, At: c.At})
}

// recompute computes the ratings of game again: every standing of the game is dropped, with its
// entry in the leaderboard index and its player's rating history of the game, and the game's rated matches are rated again in the order they
// were (bucket rated), each as of its end, as endEntry rated it (rated, in memory: each standing
// is written once); a standing's name then follows the renames of its player. A listed match that
// cannot be read is left out (Check reports it). tx is writable.
func recompute(tx *bolt.Tx, game string) error {
	ratings := tx.Bucket(bucketRatings)
	prefix := append([]byte(game), 0)
	var keys [][]byte
	var olds []*record.Standing
	cur := ratings.Cursor()
	for k, v := cur.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = cur.Next() {
		keys = append(keys, bytes.Clone(k))
		var st record.Standing
		if decode(k, v, &st) == nil {
			olds = append(olds, &st)
		} else {
			olds = append(olds, nil) // damaged: its index entry, if any, is found at the next start
		}
	}
	for i, k := range keys {
		if olds[i] != nil {
			if err := boardDrop(tx, game, string(k[len(prefix):]), *olds[i]); err != nil {
				return err
			}
		}
		if err := ratings.Delete(k); err != nil {
			return err
		}
		if err := dropHistory(tx, string(k[len(prefix):]), game); err != nil {
			return err
		}
	}
	// The matches are rated in memory, as rate would one by one, and each standing written once.
	standings := map[string]*record.Standing{}
	var order []string // the players, in the order they first played
	matches := tx.Bucket(bucketMatches)
	rc := tx.Bucket(bucketRated).Cursor()
	for k, v := rc.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = rc.Next() {
		id, err := decodeBinding(k, v, false)
		if err != nil {
			continue
		}
		var m record.Match
		if ok, err := getJSON(matches, []byte(id), &m); !ok || err != nil || !m.Rated {
			continue
		}
		before := make([]record.Standing, len(m.Seats))
		rs := make([]rating.Rating, len(m.Seats))
		for i, s := range m.Seats {
			st, ok := standings[s.PlayerID]
			if !ok {
				st = &record.Standing{PlayerID: s.PlayerID, Game: game, Rating: rating.Default}
				standings[s.PlayerID] = st
				order = append(order, s.PlayerID)
			}
			before[i], rs[i] = *st, st.Rating
		}
		for i, st := range rateStandings(before, rs, m, m.Ended) {
			*standings[m.Seats[i].PlayerID] = st
			// The rating history follows the ratings: each point written again.
			if err := putHistory(tx, st.PlayerID, game, record.RatingPoint{Match: m.ID, At: st.Last, Rating: st.Rating}); err != nil {
				return err
			}
		}
	}
	for _, id := range order {
		st := *standings[id]
		if err := putJSON(ratings, pairKey(game, id), st); err != nil {
			return err
		}
		if err := boardMove(tx, game, id, nil, st); err != nil {
			return err
		}
	}
	// Names, after every match: a player renamed since shows the new name, as renameStandings
	// made it before.
	type renamed struct {
		id     string
		st, to record.Standing
	}
	var all []renamed
	cur = ratings.Cursor()
	for k, v := cur.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = cur.Next() {
		var st record.Standing
		if decode(k, v, &st) != nil {
			continue
		}
		id := string(k[len(prefix):])
		if to := renamedTo(tx, id, st.Name); to != st.Name {
			after := st
			after.Name = to
			all = append(all, renamed{id, st, after})
		}
	}
	for _, r := range all {
		if err := putJSON(ratings, pairKey(game, r.id), r.to); err != nil {
			return err
		}
		if err := boardMove(tx, game, r.id, &r.st, r.to); err != nil {
			return err
		}
	}
	return nil
}
