package storage

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/rating"
	"github.com/arcade/arcade/record"
)

// rate updates the ratings of m's players: one Glicko-2 rating period per match, every player
// against the pre-match ratings of all the others, with pairwise results by rank. tx is writable.
func rate(tx *bolt.Tx, m record.Match, now time.Time) error {
	b := tx.Bucket(bucketRatings)
	before := make([]record.Standing, len(m.Seats))
	ratings := make([]rating.Rating, len(m.Seats))
	for i, s := range m.Seats {
		st := record.Standing{PlayerID: s.PlayerID, Game: m.Game, Rating: rating.Default}
		if _, err := getJSON(b, pairKey(m.Game, s.PlayerID), &st); err != nil {
			return fmt.Errorf("rating of %s: %w", s.PlayerID, err)
		}
		before[i], ratings[i] = st, st.Rating
	}
	after := rating.Match(ratings, m.Outcome.Ranks)
	allFirst := !slices.ContainsFunc(m.Outcome.Ranks, func(r int) bool { return r != 1 })
	for i, st := range before {
		st.Rating = after[i]
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
		if err := putJSON(b, pairKey(m.Game, st.PlayerID), st); err != nil {
			return err
		}
	}
	return nil
}

// Leaderboard returns the standings of game, best rating first, at most limit of them (0: all).
// Provisional ratings are marked; they rank after established ones. A damaged standing is left
// out (Check reports it).
func (d *DB) Leaderboard(game string, limit int) ([]record.Standing, error) {
	var out []record.Standing
	err := d.view(func(tx *bolt.Tx) error {
		prefix := []byte(game + "\x00")
		c := tx.Bucket(bucketRatings).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var st record.Standing
			if decode(k, v, &st) != nil {
				continue
			}
			st.Provisional = st.Rating.Provisional()
			out = append(out, st)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b record.Standing) int {
		if a.Provisional != b.Provisional {
			if a.Provisional {
				return 1
			}
			return -1
		}
		if a.Rating.R != b.Rating.R {
			if a.Rating.R > b.Rating.R {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
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
		rc := tx.Bucket(bucketRatings).Cursor()
		suffix := []byte("\x00" + id)
		for k, v := rc.First(); k != nil; k, v = rc.Next() {
			if !bytes.HasSuffix(k, suffix) {
				continue
			}
			var st record.Standing
			if decode(k, v, &st) != nil {
				continue
			}
			st.Provisional = st.Rating.Provisional()
			p.Standings = append(p.Standings, st)
		}
		p.Solo = d.soloOf(tx, id)
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
