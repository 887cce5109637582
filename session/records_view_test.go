package session

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/rating"
	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/session/draw"
)

// fakeRecords serves fixed records.
type fakeRecords struct{}

var when = time.Date(2026, 11, 21, 20, 15, 0, 0, time.UTC)

func (fakeRecords) Leaderboard(game string, limit int) ([]record.Standing, error) {
	return []record.Standing{
		{Rank: 1, PlayerID: "SHA256:bob", Name: "bob", Game: game, Rating: rating.Rating{R: 1662.3, RD: 95, Vol: 0.06}, Games: 14, Wins: 10, Losses: 3, Draws: 1},
		{Rank: 2, PlayerID: "SHA256:x", Name: "ann", Game: game, Rating: rating.Rating{R: 1540.2, RD: 120, Vol: 0.06}, Provisional: true, Games: 4, Wins: 2, Losses: 2},
		{Rank: 3, PlayerID: "SHA256:alice", Name: "alice", Game: game, Rating: rating.Rating{R: 1500, RD: 300, Vol: 0.06}, Provisional: true, Games: 1, Losses: 1},
	}, nil
}

// fakeRecords' solo scores: one for alice, one for ann.
func (fakeRecords) SoloScores(game string, limit int) ([]record.SoloScore, error) {
	return []record.SoloScore{
		{Rank: 1, PlayerID: "SHA256:alice", Name: "alice", Game: game, Score: 212, Match: "2kq8xm4a7b9", Date: when.Add(-48 * time.Hour), Games: 9},
		{Rank: 2, PlayerID: "SHA256:x", Name: "ann", Game: game, Score: 143, Match: "2kq8xm4a7b5", Date: when, Games: 2},
	}, nil
}

func (fakeRecords) Profile(id string, recent int) (record.Profile, error) {
	seats := []record.Seat{{PlayerID: "SHA256:x", Name: "ann"}, {PlayerID: "SHA256:bob", Name: "bob"}}
	return record.Profile{PlayerID: id, Name: "ann", Since: when,
		Standings: []record.Standing{{Game: "stonetowers", Rating: rating.Rating{R: 1540.2, RD: 120}, Games: 4}},
		Solo:      []record.SoloScore{{Game: "lhexicon", Score: 143, Match: "2kq8xm4a7b5", Date: when, Games: 2}},
		Played:    map[string]int{"stonetowers": 5}, Won: map[string]int{"stonetowers": 2},
		Recent: []record.Match{
			{ID: "2kq8xm4a7b5", Game: "lhexicon", Seats: seats[:1], Started: when.Add(time.Hour), Ended: when.Add(2 * time.Hour),
				Outcome: rules.Outcome{Over: true, Scores: []int{143}, Ranks: []int{1}}},
			{ID: "2kq8xm4a7b2", Game: "stonetowers", Seats: seats, Started: when, Ended: when.Add(20 * time.Minute),
				Outcome: rules.Outcome{Over: true, Scores: []int{70, 52}, Ranks: []int{1, 2}}, Rated: true},
			// Between keys, left unrated by the rules against farming.
			{ID: "2kq8xm4a7b1", Game: "stonetowers", Seats: seats, Started: when.Add(-30 * time.Minute), Ended: when.Add(-20 * time.Minute),
				Outcome: rules.Outcome{Over: true, Scores: []int{3, 5}, Ranks: []int{2, 1}}},
			{ID: "2kq8xm39zz2", Game: "stonetowers", Started: when.Add(-time.Hour),
				Seats: []record.Seat{seats[0], {PlayerID: "SHA256:bs", Name: "bob-smith"}}},
		}}, nil
}

func (fakeRecords) Match(id string) (record.Match, error) { return record.Match{}, nil }

func recordsModel() Model {
	return New(Config{Hub: fakeHub{append(testGames, soloGame)}, Boards: testBoards, Records: fakeRecords{},
		Player: rooms.Player{ID: "SHA256:x", Name: "ann"}, Width: 80, Height: 24})
}

func TestLeaderboardGolden(t *testing.T) {
	m := press(recordsModel(), "down", "down", "down", "down", "enter")
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
}

// soloGame is a game that may be played alone, as Lhex-i'-con: its leaderboard has a solo table.
var soloGame = rules.Game{ID: "lhexicon", Name: "Lhex-i'-con", MinSeats: 1, MaxSeats: 4}

// TestLeaderboardSoloGolden: the leaderboard of a game that may be played alone shows its ratings
// and its best solo scores, both in 80 x 24.
func TestLeaderboardSoloGolden(t *testing.T) {
	m := press(recordsModel(), "down", "down", "down", "down", "enter", "right")
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
}

func TestMyMatchesGolden(t *testing.T) {
	m := press(recordsModel(), "down", "down", "down", "down", "down", "enter")
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
}

// stoneMatch is the record of playedSnapshot's match after 12 moves.
func stoneMatch(t *testing.T) record.Match {
	snap := playedSnapshot(t, 12)
	m := record.Match{ID: "2kq8xm4a7b2", Game: "stonetowers", Options: rules.Options{"size": "12", "turns": "25"},
		Seed: 7, Started: when, Seats: []record.Seat{{PlayerID: "SHA256:x", Name: "ann"}, {PlayerID: "SHA256:bob", Name: "bob"}}}
	for _, mv := range snap.Moves {
		m.Moves = append(m.Moves, record.Move{Seat: mv.Seat, Move: mv.Move})
	}
	return m
}

// TestReplayGolden: a recorded match replays; the screen shows the board after the chosen move
// and the moves around it, and the keys step back and forth.
func TestReplayGolden(t *testing.T) {
	r := replayOf(t, stoneMatch(t), stonetowers.Game)
	for _, k := range []string{"G", "h", "h"} {
		r.update(keyPress(k))
	}
	if r.at != 10 {
		t.Fatalf("after end, back, back the replay shows move %d, want 10", r.at)
	}
	out := r.view(*draw.NewStyles(false, false), 80, 24)
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
	r.update(keyPress("g"))
	if r.at != 0 {
		t.Errorf("g goes to move %d, want 0", r.at)
	}
}

// noRecords are the records of a player who has played nothing yet.
type noRecords struct{ fakeRecords }

func (noRecords) Profile(id string, recent int) (record.Profile, error) {
	return record.Profile{PlayerID: id, Name: "ann", Since: when}, nil
}

// TestMyMatchesEmptyGolden: with no matches, "My matches" says so, under no empty table head.
func TestMyMatchesEmptyGolden(t *testing.T) {
	m := New(Config{Hub: fakeHub{append(testGames, soloGame)}, Boards: testBoards, Records: noRecords{},
		Player: rooms.Player{ID: "SHA256:x", Name: "ann"}, Width: 80, Height: 24})
	out := press(m, "down", "down", "down", "down", "down", "enter").View().Content
	checkSize(t, out, 80, 24)
	if p := plain(out); strings.Contains(p, "RESULT") || !strings.Contains(p, "No matches yet.") {
		t.Errorf("an empty \"My matches\" shows a table head, or does not say there are none:\n%s", p)
	}
	golden.RequireEqual(t, plain(out))
}
