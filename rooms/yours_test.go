package rooms

import (
	"slices"
	"testing"
	"time"

	"github.com/arcade/arcade/rules"
)

// TestYoursListsAPlayersUnfinishedMatches: Yours lists the matches a player sits in that are
// waiting or played, the player's turn first, then the other played ones, then the waiting
// ones; an ended match, a room without the player and a guest's seat are not listed.
func TestYoursListsAPlayersUnfinishedMatches(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	mine, _, _ := startPair(t, h, 10) // the oldest: alice moves first
	theirs, a, _ := startPair(t, h, 10)
	mustMove(t, a, "1")
	waiting := mustCreate(t, h, nil, 2)
	mustJoin(t, waiting, alice, false)
	_, e, f := startPair(t, h, 10)
	mustMove(t, e, "1")
	mustMove(t, f, "1")
	if err := e.Resign(); err != nil {
		t.Fatal(err)
	}
	other := mustCreate(t, h, nil, 2)
	mustJoin(t, other, bob, false)
	mustJoin(t, other, carol, false)
	guests := mustCreate(t, h, nil, 2)
	mustJoin(t, guests, dave, false)

	want := []string{mine.Code(), theirs.Code(), waiting.Code()}
	var got []string
	deadline := time.Now().Add(patience)
	for { // each room publishes its summary just after its snapshots
		got = got[:0]
		for _, s := range Yours(h.List(), alice.ID) {
			got = append(got, s.Code)
		}
		if slices.Equal(got, want) || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("alice's matches: %v, want %v (her turn, bob's, waiting)", got, want)
	}
	list := Yours(h.List(), alice.ID)
	if s := list[0]; s.SeatOf(alice.ID) != 0 || !s.ToPlay(0) || s.ToPlay(1) {
		t.Errorf("alice's turn: seat %d, to move %v", s.SeatOf(alice.ID), s.ToMove)
	}
	if s := list[1]; s.ToPlay(0) || !s.ToPlay(1) {
		t.Errorf("bob's turn: to move %v", s.ToMove)
	}
	if got := Yours(h.List(), ""); got != nil {
		t.Errorf("a guest's matches: %v", got)
	}
	for _, s := range h.List() {
		if s.Code == guests.Code() && s.Players != nil {
			t.Errorf("a guest's seat is listed by its ID: %q", s.Players)
		}
	}
}

// TestYoursPutsTheClosestClockFirst: of the matches whose move is the player's, the one whose
// clock ends first comes first, an untimed one after the timed ones.
func TestYoursPutsTheClosestClockFirst(t *testing.T) {
	now := time.Now()
	turn := func(code string, ends time.Time) Summary {
		return Summary{Code: code, Phase: Playing, Players: []string{"k", "j"}, ToMove: []rules.Seat{0},
			Clock: TurnClock{Seat: 0, Ends: ends}, Created: now}
	}
	list := []Summary{
		turn("UNTMD", time.Time{}),
		{Code: "THEIR", Phase: Playing, Players: []string{"k", "j"}, ToMove: []rules.Seat{1}, Created: now.Add(time.Hour)},
		turn("LATER", now.Add(time.Minute)),
		turn("SOONR", now.Add(time.Second)),
		{Code: "ENDED", Phase: Finished, Players: []string{"k", "j"}},
	}
	var got []string
	for _, s := range Yours(list, "k") {
		got = append(got, s.Code)
	}
	if want := []string{"SOONR", "LATER", "UNTMD", "THEIR"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}
