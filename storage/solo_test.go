package storage

import (
	"bytes"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon"
)

var (
	ann = record.Seat{PlayerID: "SHA256:ann", Name: "ann"}
	bob = record.Seat{PlayerID: "SHA256:bob", Name: "bob"}
)

// playSolo records a solo lhexicon match of seat, ended with score (abandoned when unrated), and
// returns it. The match has no moves, so that Check replays it.
func playSolo(t *testing.T, d *DB, code string, seat record.Seat, score int, unrated bool) record.Match {
	t.Helper()
	id, err := d.StartMatch(record.Match{Code: code, Game: "lhexicon", Seats: []record.Seat{seat}, Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	out := rules.Outcome{Over: true, Scores: []int{score}, Ranks: []int{1}}
	if unrated {
		out.Ranks, out.Reason = nil, "abandoned"
	}
	if err := d.EndMatch(code, out, unrated); err != nil {
		t.Fatal(err)
	}
	m, err := d.Match(id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSoloScores: the solo table keeps each player's best score with its match and date; a lower
// score does not replace it, an equal one neither; guests' and abandoned matches stay off it; a
// solo match changes no rating and is no win (the profile shows the best score, and the match
// among the latest), and the table survives a reopen.
func TestSoloScores(t *testing.T) {
	d, path := openTemp(t)
	playSolo(t, d, "SOLO1", ann, 100, false)
	best := playSolo(t, d, "SOLO1", ann, 140, false)
	playSolo(t, d, "SOLO1", ann, 90, false)
	playSolo(t, d, "SOLO1", ann, 140, false)
	playSolo(t, d, "SOLO1", ann, 500, true) // abandoned
	playSolo(t, d, "SOLO2", bob, 120, false)
	playSolo(t, d, "SOLO3", record.Seat{PlayerID: "guest-1", Name: "gus", Guest: true}, 900, false)
	if best.Rated {
		t.Error("a solo match is marked rated")
	}

	check := func(d *DB, when string) {
		t.Helper()
		list, err := d.SoloScores("lhexicon", 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 2 {
			t.Fatalf("%s: solo table %+v, want ann and bob", when, list)
		}
		a, b := list[0], list[1]
		if a.Name != "ann" || a.Score != 140 || a.Match != best.ID || !a.Date.Equal(best.Ended) || a.Games != 4 || a.Rank != 1 {
			t.Errorf("%s: ann's entry %+v, want 140 from match %s of %v, 4 games, rank 1", when, a, best.ID, best.Ended)
		}
		if b.Name != "bob" || b.Score != 120 || b.Rank != 2 || b.Games != 1 {
			t.Errorf("%s: bob's entry %+v", when, b)
		}
		if top, _ := d.SoloScores("lhexicon", 1); len(top) != 1 || top[0].Name != "ann" {
			t.Errorf("%s: top 1 = %+v", when, top)
		}
		if other, _ := d.SoloScores("stonetowers", 0); len(other) != 0 {
			t.Errorf("%s: another game's solo table: %+v", when, other)
		}
		if board, _ := d.Leaderboard("lhexicon", 0); len(board) != 0 {
			t.Errorf("%s: solo matches rated: %+v", when, board)
		}
		p, err := d.Profile(ann.PlayerID, 10)
		if err != nil {
			t.Fatal(err)
		}
		if p.Played["lhexicon"] != 0 || p.Won["lhexicon"] != 0 || len(p.Solo) != 1 || p.Solo[0].Score != 140 || len(p.Recent) != 5 {
			t.Errorf("%s: ann's profile: played %v won %v solo %+v", when, p.Played, p.Won, p.Solo)
		}
	}
	check(d, "open")
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d2 := openAt(t, path)
	defer d2.Close()
	check(d2, "reopened")
}

// TestSoloTie: of two players with the same best score, the one who scored it first ranks first;
// both share the rank.
func TestSoloTie(t *testing.T) {
	d, _ := openTemp(t)
	playSolo(t, d, "SOLO1", bob, 70, false)
	playSolo(t, d, "SOLO2", ann, 70, false)
	list, err := d.SoloScores("lhexicon", 0)
	if err != nil || len(list) != 2 || list[0].Name != "bob" || list[0].Rank != 1 || list[1].Rank != 1 {
		t.Errorf("tie: %+v, %v; want bob then ann, both rank 1", list, err)
	}
}

// TestCheckSoloScores: Check reads the solo table like the other records: a flipped bit in a best
// score is reported damaged, and the table leaves it out.
func TestCheckSoloScores(t *testing.T) {
	d, _ := openTemp(t)
	games := []rules.Game{lhexicon.Game}
	playSolo(t, d, "SOLO1", ann, 140, false)
	playSolo(t, d, "SOLO2", bob, 120, false)
	r, err := d.Check(games)
	if err != nil || !r.Clean() || r.Matches != 2 || r.Records != 2+2 {
		t.Fatalf("Check of a clean file: %+v, %v; want 2 matches, 4 records (headers and best scores)", r, err)
	}
	err = d.writes.do(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketSolo)
		k := pairKey("lhexicon", ann.PlayerID)
		v := bytes.Clone(b.Get(k))
		v[5] ^= 0x01
		return b.Put(k, v)
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err = d.Check(games)
	if err != nil || r.Clean() || len(r.Damaged) != 1 || !strings.Contains(r.Damaged[0].Reason, "solo record") ||
		!strings.Contains(r.Damaged[0].Reason, "checksum") {
		t.Fatalf("Check of a damaged solo score: %+v, %v", r, err)
	}
	if list, _ := d.SoloScores("lhexicon", 0); len(list) != 1 || list[0].Name != "bob" {
		t.Errorf("solo table with ann's score damaged: %+v, want bob's alone", list)
	}
	// A damaged best score refuses the next score of its player, rather than be overwritten
	// unseen; the match's end fails and stays unrecorded.
	if _, err := d.StartMatch(record.Match{Code: "SOLO3", Game: "lhexicon", Seats: []record.Seat{ann}}); err != nil {
		t.Fatal(err)
	}
	if err := d.EndMatch("SOLO3", rules.Outcome{Over: true, Scores: []int{10}, Ranks: []int{1}}, false); err == nil {
		t.Error("a score recorded over a damaged best score")
	}
}
