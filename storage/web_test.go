package storage

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
)

// playRatedTo records a finished, rated Stone Towers match of ann and bob in room code (with
// the rules against farming off: the default Options have none), ann winning when annWins.
func playRatedTo(t *testing.T, d *DB, code string, start time.Time, annWins bool) string {
	t.Helper()
	id, err := d.StartMatch(record.Match{Code: code, Game: "stonetowers", Seats: twoPlayers(), Started: start})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if err := d.AppendMove(code, i, record.Move{Seat: rules.Seat(i % 2), Move: "pass", At: start.Add(time.Duration(i) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	ranks := []int{2, 1}
	if annWins {
		ranks = []int{1, 2}
	}
	if err := d.EndMatch(code, rules.Outcome{Over: true, Scores: []int{1, 0}, Ranks: ranks}, false); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestRatingHistory: every rated match adds a point per player, in the order played, with the
// rating the standing has after it; a limit keeps the latest.
func TestRatingHistory(t *testing.T) {
	d, _ := openTemp(t)
	start := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	var ids []string
	for i := range 3 {
		ids = append(ids, playRatedTo(t, d, fmt.Sprintf("ROOM%d", i), start.Add(time.Duration(i)*time.Hour), i != 1))
	}
	h, err := d.RatingHistory("SHA256:ann", "stonetowers", 0)
	if err != nil || len(h) != 3 {
		t.Fatalf("history = %+v, %v; want 3 points", h, err)
	}
	for i, p := range h {
		if p.Match != ids[i] {
			t.Errorf("point %d is of match %s, want %s", i, p.Match, ids[i])
		}
	}
	if !(h[0].Rating.R > 1500 && h[1].Rating.R < h[0].Rating.R && h[2].Rating.R > h[1].Rating.R) {
		t.Errorf("ann won, lost, won: ratings %v, %v, %v", h[0].Rating.R, h[1].Rating.R, h[2].Rating.R)
	}
	p, _ := d.Profile("SHA256:ann", 1)
	if p.Standings[0].Rating != h[2].Rating {
		t.Errorf("the last point %+v is not the standing %+v", h[2].Rating, p.Standings[0].Rating)
	}
	last, _ := d.RatingHistory("SHA256:ann", "stonetowers", 2)
	if !slices.Equal(last, h[1:]) {
		t.Errorf("the last two: %+v, want %+v", last, h[1:])
	}
	if none, err := d.RatingHistory("SHA256:ann", "discon", 0); err != nil || len(none) != 0 {
		t.Errorf("discon history = %+v, %v", none, err)
	}
}

// TestRecentMatches: the newest finished matches first; an unfinished one is passed over.
func TestRecentMatches(t *testing.T) {
	d, _ := openTemp(t)
	start := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	a := playRatedTo(t, d, "ROOMA", start, true)
	b := playRatedTo(t, d, "ROOMB", start.Add(time.Hour), true)
	if _, err := d.StartMatch(record.Match{Code: "ROOMC", Game: "stonetowers", Seats: twoPlayers(), Started: start.Add(2 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	got, err := d.RecentMatches(5)
	if err != nil || len(got) != 2 || got[0].ID != b || got[1].ID != a {
		t.Fatalf("recent = %+v, %v; want %s, %s", got, err, b, a)
	}
	if one, _ := d.RecentMatches(1); len(one) != 1 || one[0].ID != b {
		t.Errorf("recent(1) = %+v", one)
	}
}

// TestLeaderboardPage: the pages, put together, are the whole leaderboard, ranks included.
func TestLeaderboardPage(t *testing.T) {
	d, _ := openTemp(t)
	putStandings(t, d, randomStandings(rand.New(rand.NewPCG(1, 2)), "stonetowers", 130))
	all, err := d.Leaderboard("stonetowers", 0)
	if err != nil || len(all) < 100 {
		t.Fatalf("leaderboard: %d, %v", len(all), err)
	}
	var paged []record.Standing
	for off := 0; off < 140; off += 50 {
		page, err := d.LeaderboardPage("stonetowers", off, 50)
		if err != nil {
			t.Fatal(err)
		}
		paged = append(paged, page...)
	}
	if len(paged) != len(all) {
		t.Fatalf("%d standings paged, want %d", len(paged), len(all))
	}
	for i := range all {
		if paged[i].PlayerID != all[i].PlayerID || paged[i].Rank != all[i].Rank {
			t.Errorf("standing %d: %s rank %d, want %s rank %d", i, paged[i].PlayerID, paged[i].Rank, all[i].PlayerID, all[i].Rank)
		}
	}
}
