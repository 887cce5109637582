package storage

import (
	"bytes"
	"fmt"
	"iter"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/rating"
	"github.com/arcade/arcade/record"
)

// rate updates the ratings of m's players: one Glicko-2 rating period per match, every player
// against the pre-match ratings of all the others, with pairwise results by rank, and their
// entries in the leaderboard index. tx is writable.
func rate(tx *bolt.Tx, m record.Match, now time.Time) error {
	b := tx.Bucket(bucketRatings)
	before := make([]record.Standing, len(m.Seats))
	ratings := make([]rating.Rating, len(m.Seats))
	had := make([]bool, len(m.Seats))
	for i, s := range m.Seats {
		st := record.Standing{PlayerID: s.PlayerID, Game: m.Game, Rating: rating.Default}
		found, err := getJSON(b, pairKey(m.Game, s.PlayerID), &st)
		if err != nil {
			return fmt.Errorf("rating of %s: %w", s.PlayerID, err)
		}
		before[i], ratings[i], had[i] = st, st.Rating, found
	}
	after := rateStandings(before, ratings, m, now)
	for i, st := range after {
		old := before[i]
		if err := putJSON(b, pairKey(m.Game, st.PlayerID), st); err != nil {
			return err
		}
		var was *record.Standing
		if had[i] {
			was = &old
		}
		if err := boardMove(tx, m.Game, m.Seats[i].PlayerID, was, st); err != nil {
			return err
		}
		if err := putHistory(tx, st.PlayerID, m.Game, record.RatingPoint{Match: m.ID, At: st.Last, Rating: st.Rating}); err != nil {
			return err
		}
	}
	return nil
}

// rateStandings returns the standings of m's players after m, from before, their standings before it,
// and their ratings: one Glicko-2 rating period, every player against the others' pre-match
// ratings, with pairwise results by rank; now is when the match ended.
func rateStandings(before []record.Standing, ratings []rating.Rating, m record.Match, now time.Time) []record.Standing {
	next := rating.Match(ratings, m.Outcome.Ranks)
	allFirst := !slices.ContainsFunc(m.Outcome.Ranks, func(r int) bool { return r != 1 })
	after := make([]record.Standing, len(before))
	for i, st := range before {
		st.Rating = next[i]
		st.Name = m.Seats[i].Name
		st.Games++
		st.Last = now.UTC()
		switch {
		case allFirst:
			st.Draws++
		case m.Outcome.Ranks[i] == 1:
			st.Wins++
		default:
			st.Losses++
		}
		after[i] = st
	}
	return after
}

// Profile returns what is known of the player with key id: name, standings and best solo scores
// per game, matches of two players or more played and won per game, and the latest recent matches (without moves), newest first. Damaged
// records (the player's, a standing, a match's header) and matches set aside are left out.
func (d *DB) Profile(id string, recent int) (record.Profile, error) {
	p := record.Profile{PlayerID: id, Played: map[string]int{}, Won: map[string]int{}}
	err := d.view(func(tx *bolt.Tx) error {
		var pl player
		if _, err := getJSON(tx.Bucket(bucketPlayers), []byte(id), &pl); err == nil {
			p.Name, p.Since = pl.Name, pl.Created
		}
		for game, v := range standingsOf(tx, id) {
			var st record.Standing
			if decode(pairKey(game, id), v, &st) != nil {
				continue
			}
			st.Provisional = st.Rating.Provisional()
			p.Standings = append(p.Standings, st)
		}
		p.Solo = soloOf(tx, id)
		prefix := []byte(id + "\x00")
		mc := tx.Bucket(bucketByPlayer).Cursor()
		matches := tx.Bucket(bucketMatches)
		// Match IDs sort by time, so walking the index backwards gives the newest first.
		k, _ := mc.Seek(append(append([]byte{}, prefix...), 0xff))
		if k == nil {
			k, _ = mc.Last()
		} else {
			k, _ = mc.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix); k, _ = mc.Prev() {
			var m record.Match
			if ok, err := getJSON(matches, k[len(prefix):], &m); err != nil || !ok {
				continue // damaged, or set aside
			}
			if m.Finished() && !m.Solo() { // a solo match has a score, not a win: see Profile.Solo
				p.Played[m.Game]++
				for i, s := range m.Seats {
					if s.PlayerID == id && i < len(m.Outcome.Ranks) && m.Outcome.Ranks[i] == 1 && !m.Unrated {
						p.Won[m.Game]++
					}
				}
			}
			if len(p.Recent) < recent {
				p.Recent = append(p.Recent, m)
			}
		}
		return nil
	})
	return p, err
}

// standingsOf yields the game and the stored standing of every game in which player id has a
// standing, in the order of the games' names. It seeks from one game's keys to the next, so it
// reads a few keys per game, not the table.
func standingsOf(tx *bolt.Tx, id string) iter.Seq2[string, []byte] {
	return func(yield func(string, []byte) bool) {
		b := tx.Bucket(bucketRatings)
		c := b.Cursor()
		for k, _ := c.First(); k != nil; {
			i := bytes.IndexByte(k, 0)
			if i < 0 {
				k, _ = c.Next()
				continue
			}
			game := string(k[:i])
			if v := b.Get(pairKey(game, id)); v != nil && !yield(game, v) {
				return
			}
			k, _ = c.Seek(append([]byte(game), 1)) // past every key of game
		}
	}
}

// Ratings returns the ratings in game of the players with keys ids, in order: rating.Default for
// a player who has none, or whose standing is damaged (Check reports it).
func (d *DB) Ratings(game string, ids []string) ([]rating.Rating, error) {
	out := make([]rating.Rating, len(ids))
	err := d.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketRatings)
		for i, id := range ids {
			st := record.Standing{Rating: rating.Default}
			if ok, err := getJSON(b, pairKey(game, id), &st); err != nil || !ok {
				st.Rating = rating.Default
			}
			out[i] = st.Rating
		}
		return nil
	})
	return out, err
}
