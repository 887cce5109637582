package storage

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
)

// someMoves returns plies moves for a match of seats seats from at, a second apart: the first
// legal moves of a stonetowers match (default options, seed 0) for two seats, so that the match
// replays; placeholders in seat order for another number of seats.
func someMoves(t *testing.T, seats, plies int, at time.Time) []record.Move {
	t.Helper()
	out := make([]record.Move, plies)
	var e rules.Engine
	if seats == 2 {
		var err error
		if e, err = stonetowers.Game.New(nil, 2, 0); err != nil {
			t.Fatal(err)
		}
	}
	for i := range out {
		out[i] = record.Move{Seat: rules.Seat(i % seats), Move: "pass", At: at.Add(time.Duration(i) * time.Second)}
		if e != nil {
			seat := e.ToMove()[0]
			mv := e.Legal(seat)[0]
			next, err := e.Apply(seat, mv)
			if err != nil {
				t.Fatal(err)
			}
			e, out[i].Seat, out[i].Move = next, seat, mv
		}
	}
	return out
}

// season makes each of the keys ids eligible for a first rated match: each plays DefaultRatingRules.NewcomerMoves
// moves against a bot in a match then abandoned (unfinished, no longer a room's), all in one
// commit.
func season(t *testing.T, d *DB, ids ...string) {
	t.Helper()
	err := d.writes.do(func(tx *bolt.Tx) error {
		for i, id := range ids {
			d.mu.Lock()
			mid := d.newID()
			d.mu.Unlock()
			code := fmt.Sprintf("SZN%02d", i)
			m := record.Match{Version: record.Version, ID: mid, Code: code, Game: "stonetowers", Started: time.Now(),
				Seats: []record.Seat{{PlayerID: id, Name: "p"}, {Name: "Ada (easy bot)", Bot: "easy"}}}
			if err := (startEntry{Match: m}).apply(tx); err != nil {
				return err
			}
			for ply, mv := range someMoves(t, 2, 2*DefaultRatingRules.NewcomerMoves, time.Now()) {
				if err := (moveEntry{ID: mid, Ply: ply, Move: mv}).apply(tx); err != nil {
					return err
				}
			}
			if err := (abandonEntry{Code: code}).apply(tx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// seasonChanges is season as changes of a replicated history, from at.
func seasonChanges(t *testing.T, at time.Time, ids ...string) []Change {
	t.Helper()
	var h []Change
	for i, id := range ids {
		code := fmt.Sprintf("SZN%02d", i)
		h = append(h, Change{Kind: ChangeStart, Code: code, At: at, Match: &record.Match{Game: "stonetowers", Started: at,
			Seats: []record.Seat{{PlayerID: id, Name: "p"}, {Name: "Ada (easy bot)", Bot: "easy"}}}})
		for ply, mv := range someMoves(t, 2, 2*DefaultRatingRules.NewcomerMoves, at) {
			h = append(h, Change{Kind: ChangeMove, Code: code, Ply: ply, Move: &mv})
		}
		h = append(h, Change{Kind: ChangeAbandon, Code: code})
	}
	return h
}

// duel records a stonetowers match of a and b in room code: each makes each moves (the last at
// end), then a wins unless aWins is false.
func duel(t *testing.T, d *DB, code string, a, b record.Seat, each int, end time.Time, aWins bool) record.Match {
	t.Helper()
	id, err := d.StartMatch(record.Match{Code: code, Game: "stonetowers", Seats: []record.Seat{a, b}, Started: end.Add(-time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	for ply, mv := range someMoves(t, 2, 2*each, end.Add(-time.Duration(2*each-1)*time.Second)) {
		if err := d.AppendMove(code, ply, mv); err != nil {
			t.Fatal(err)
		}
	}
	ranks := []int{1, 2}
	if !aWins {
		ranks = []int{2, 1}
	}
	if err := d.EndMatch(code, rules.Outcome{Over: true, Scores: []int{3 - ranks[0], 3 - ranks[1]}, Ranks: ranks}, false); err != nil {
		t.Fatal(err)
	}
	m, err := d.Match(id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// openRuled opens a new database with the arcade's rules against farming.
func openRuled(t *testing.T) *DB {
	t.Helper()
	d, err := Open(filepath.Join(t.TempDir(), "arcade.db"), Options{LockTimeout: time.Second, RatingRules: DefaultRatingRules})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

var (
	mainKey = record.Seat{PlayerID: "SHA256:main", Name: "main"}
	altKey  = record.Seat{PlayerID: "SHA256:alt", Name: "alt"}
	day1    = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
)

// ratingOf returns id's standing in stonetowers, or a zero one.
func ratingOf(t *testing.T, d *DB, id string) record.Standing {
	t.Helper()
	board, err := d.Leaderboard("stonetowers", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range board {
		if st.PlayerID == id {
			return st
		}
	}
	return record.Standing{}
}

// TestAltResignationsGainNothing: the case. A new second key makes one move and resigns,
// 13 times: the first key's rating does not move (it went from 1500 to 1860 before the rules),
// and every match is recorded, unrated.
func TestAltResignationsGainNothing(t *testing.T) {
	d := openRuled(t)
	season(t, d, mainKey.PlayerID) // the main key is a real player; the alt is new
	for i := range 13 {
		m := duel(t, d, fmt.Sprintf("ALT%02d", i), mainKey, altKey, 1, day1.Add(time.Duration(i)*time.Minute), true)
		if m.Rated || !m.Finished() || m.Unrated {
			t.Errorf("match %d: rated %v, finished %v, abandoned %v; want recorded unrated", i, m.Rated, m.Finished(), m.Unrated)
		}
	}
	if st := ratingOf(t, d, mainKey.PlayerID); st.Games != 0 {
		t.Errorf("the main key gained from the alt's resignations: %+v", st)
	}
	p, err := d.Profile(mainKey.PlayerID, 20)
	if err != nil || p.Played["stonetowers"] != 13 || p.Won["stonetowers"] != 13 {
		t.Errorf("the unrated matches in the profile: played %v, won %v, %v", p.Played, p.Won, err)
	}
}

// TestFewMovesUnrated: a match where a player made fewer than 2 moves is unrated; with 2 moves
// each it is rated.
func TestFewMovesUnrated(t *testing.T) {
	d := openRuled(t)
	season(t, d, mainKey.PlayerID, altKey.PlayerID)
	if m := duel(t, d, "FEW01", mainKey, altKey, 1, day1, true); m.Rated {
		t.Error("a match of one move each was rated")
	}
	if st := ratingOf(t, d, mainKey.PlayerID); st.Games != 0 {
		t.Errorf("after a match of one move each: %+v", st)
	}
	if m := duel(t, d, "FEW02", mainKey, altKey, 2, day1.Add(time.Minute), true); !m.Rated {
		t.Error("a match of two moves each was not rated")
	}
	if st := ratingOf(t, d, mainKey.PlayerID); st.Games != 1 || st.Rating.R <= 1500 {
		t.Errorf("after a rated win: %+v", st)
	}
}

// TestPairRatedThreeTimesADay: a pair of keys has 3 rated matches a UTC day against each other,
// by the matches' end times: the fourth that day is unrated, one a minute after midnight is rated.
func TestPairRatedThreeTimesADay(t *testing.T) {
	d := openRuled(t)
	carol := record.Seat{PlayerID: "SHA256:carol", Name: "carol"}
	season(t, d, mainKey.PlayerID, altKey.PlayerID, carol.PlayerID)
	late := time.Date(2026, 11, 21, 23, 50, 0, 0, time.UTC)
	for i := range 4 {
		m := duel(t, d, fmt.Sprintf("PAIR%d", i), mainKey, altKey, 3, late.Add(time.Duration(i)*time.Minute), i%2 == 0)
		if want := i < DefaultRatingRules.PairsPerDay; m.Rated != want {
			t.Errorf("match %d of the pair on the day: rated %v, want %v", i+1, m.Rated, want)
		}
	}
	// Another pair is not limited by this one.
	if m := duel(t, d, "OTHER", mainKey, carol, 3, late.Add(5*time.Minute), true); !m.Rated {
		t.Error("a match with another key was not rated")
	}
	if m := duel(t, d, "NEXTD", altKey, mainKey, 3, late.Add(11*time.Minute), true); !m.Rated {
		t.Errorf("the pair's first match of the next day (%v) was not rated", m.Ended)
	}
	if st := ratingOf(t, d, altKey.PlayerID); st.Games != DefaultRatingRules.PairsPerDay+1 {
		t.Errorf("alt's standing: %+v, want %d games", st, DefaultRatingRules.PairsPerDay+1)
	}
	// The counts are sealed records, which Check reads.
	if r, err := d.Check(testGames); err != nil || !r.Clean() {
		t.Fatalf("Check: %+v, %v", r, err)
	}
	err := d.writes.do(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketPairs)
		k, v := b.Cursor().First()
		v = bytes.Clone(v)
		v[1] ^= 0x01
		return b.Put(bytes.Clone(k), v)
	})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := d.Check(testGames); err != nil || len(r.Damaged) != 1 || !strings.Contains(r.Damaged[0].Reason, "pairs record") {
		t.Errorf("Check of a damaged count: %+v, %v", r, err)
	}
}

// TestFirstRatedMatchNeedsMoves: a key with no rating needs 20 moves in other matches before
// its first rated match; the moves of the match itself do not count; once rated, a key needs
// none.
func TestFirstRatedMatchNeedsMoves(t *testing.T) {
	d := openRuled(t)
	season(t, d, mainKey.PlayerID)
	if m := duel(t, d, "NEW01", mainKey, altKey, DefaultRatingRules.NewcomerMoves, day1, true); m.Rated {
		t.Errorf("the new key's first match was rated, %d moves in it and none before", DefaultRatingRules.NewcomerMoves)
	}
	// The alt has made DefaultRatingRules.NewcomerMoves moves now: its next match is rated.
	if m := duel(t, d, "NEW02", mainKey, altKey, 2, day1.Add(time.Hour), false); !m.Rated {
		t.Error("the alt's match after 20 moves was not rated")
	}
	// A rated key plays a new key with 20 moves before, each with a few moves.
	dan := record.Seat{PlayerID: "SHA256:dan", Name: "dan"}
	season(t, d, dan.PlayerID)
	if m := duel(t, d, "NEW03", altKey, dan, 2, day1.Add(2*time.Hour), true); !m.Rated {
		t.Error("a match of a rated key and a seasoned new one was not rated")
	}
}

// TestRatingRulesAcrossReplicas: the rules read the match's times, not the clock: the same
// changes applied at different times rate the same matches.
func TestRatingRulesAcrossReplicas(t *testing.T) {
	h := seasonChanges(t, day1, mainKey.PlayerID, altKey.PlayerID)
	add := func(c Change) { h = append(h, c) }
	at := day1
	for i := range 7 {
		code := fmt.Sprintf("PAIR%d", i)
		end := at.Add(time.Duration(i) * 4 * time.Hour)
		add(Change{Kind: ChangeStart, Code: code, At: end, Match: &record.Match{Game: "stonetowers", Seats: []record.Seat{mainKey, altKey}, Started: end}})
		for ply, mv := range someMoves(t, 2, 4, end) {
			add(Change{Kind: ChangeMove, Code: code, Ply: ply, Move: &mv})
		}
		add(Change{Kind: ChangeEnd, Code: code, At: end.Add(time.Minute), Outcome: rules.Outcome{Over: true, Scores: []int{2, 1}, Ranks: []int{1, 2}}})
	}
	var games []int
	for _, now := range []time.Time{time.Date(2040, 1, 1, 0, 0, 0, 0, time.UTC), day1.Add(24 * time.Hour)} {
		d := openRuled(t)
		d.now = func() time.Time { return now }
		applyAll(t, d, h)
		games = append(games, ratingOf(t, d, mainKey.PlayerID).Games)
	}
	// 10:00, 14:00, 18:00 and 22:00 on the first day; 02:00, 06:00 and 10:00 on the second.
	if games[0] != 6 || games[1] != 6 {
		t.Errorf("rated games: %v, want 6 on both replicas (3 of 4 on the first day, 3 on the second)", games)
	}
}

// TestCasualMatchChangesNoRating: a match whose room's settings were not standard (its start
// recorded Casual, as the room decides: issue 34's target=2 Flic Flac match moved ratings by 162
// points after one turn each) is recorded, played and won, and changes no rating, on the
// database and on a replica that applies the same changes; the same match of standard settings
// is rated.
func TestCasualMatchChangesNoRating(t *testing.T) {
	for _, casual := range []bool{true, false} {
		d := openRuled(t)
		season(t, d, mainKey.PlayerID, altKey.PlayerID)
		id, err := d.StartMatch(record.Match{Code: "CASU1", Game: "stonetowers", Options: rules.Options{"size": "8", "turns": "10"},
			Seats: []record.Seat{mainKey, altKey}, Started: day1, Casual: casual})
		if err != nil {
			t.Fatal(err)
		}
		for ply, mv := range someMoves(t, 2, 6, day1) {
			if err := d.AppendMove("CASU1", ply, mv); err != nil {
				t.Fatal(err)
			}
		}
		if err := d.EndMatch("CASU1", rules.Outcome{Over: true, Scores: []int{40, 24}, Ranks: []int{1, 2}}, false); err != nil {
			t.Fatal(err)
		}
		m, err := d.Match(id)
		if err != nil {
			t.Fatal(err)
		}
		if m.Casual != casual || m.Rated == casual || !m.Finished() || m.Unrated {
			t.Errorf("casual %v: recorded casual %v, rated %v, finished %v, abandoned %v", casual, m.Casual, m.Rated, m.Finished(), m.Unrated)
		}
		if st := ratingOf(t, d, mainKey.PlayerID); (st.Games == 0) != casual {
			t.Errorf("casual %v: the winner's standing %+v", casual, st)
		}
	}

	h := seasonChanges(t, day1, mainKey.PlayerID, altKey.PlayerID)
	h = append(h, Change{Kind: ChangeStart, Code: "CASU2", At: day1, Match: &record.Match{Game: "stonetowers",
		Options: rules.Options{"size": "8"}, Seats: []record.Seat{mainKey, altKey}, Started: day1, Casual: true}})
	for ply, mv := range someMoves(t, 2, 6, day1) {
		h = append(h, Change{Kind: ChangeMove, Code: "CASU2", Ply: ply, Move: &mv})
	}
	h = append(h, Change{Kind: ChangeEnd, Code: "CASU2", At: day1.Add(time.Minute), Outcome: rules.Outcome{Over: true, Scores: []int{2, 1}, Ranks: []int{1, 2}}})
	d := openRuled(t)
	applyAll(t, d, h)
	if st := ratingOf(t, d, mainKey.PlayerID); st.Games != 0 {
		t.Errorf("a replica rated the casual match: %+v", st)
	}
	p, err := d.Profile(mainKey.PlayerID, 1)
	if err != nil || len(p.Recent) != 1 || !p.Recent[0].Casual || p.Recent[0].Rated || p.Won["stonetowers"] != 1 {
		t.Errorf("the replica's record of the casual match: %+v, %v", p, err)
	}
}
