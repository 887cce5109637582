package session

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/flicflac"
)

// TestMovesKeepTheirOrder: a move and "end" made one after the other (one SSH packet) reach the
// room in that order even when Bubble Tea runs the second command first: the turn ends with the
// piece moved, not before it.
func TestMovesKeepTheirOrder(t *testing.T) {
	hub := rooms.NewHub(rooms.Config{Games: []rules.Game{flicflac.Game}, BotDelay: -1, Logf: t.Logf})
	t.Cleanup(func() { hub.Shutdown("test over") })
	ann, bob := rooms.Player{ID: "SHA256:ann", Name: "ann"}, rooms.Player{ID: "SHA256:bob", Name: "bob"}
	// Untimed, no events, the shapes fixed: the start does not depend on the match's seed.
	opts := rules.Options{"timer": "0", "captors": "0", "events": "0", "shape": "cylinders"}
	room, err := hub.Create("flicflac", opts, 2, ann)
	if err != nil {
		t.Fatal(err)
	}
	subs := map[rules.Seat]*rooms.Sub{}
	for _, p := range []rooms.Player{ann, bob} {
		s, err := room.Join(p, false)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Leave)
		subs[s.Seat()] = s
	}
	var snap rooms.Snapshot
	for snap.Phase != rooms.Playing {
		select {
		case snap = <-subs[0].Updates():
		case <-time.After(time.Minute):
			t.Fatal("the match did not begin")
		}
	}
	mover := snap.ToMove[0]
	state, err := flicflac.Game.New(opts, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	var first string
	for _, mv := range state.Legal(mover) {
		if mv != "end" {
			first = mv
			break
		}
	}
	if first == "" {
		t.Fatal("no move but end")
	}
	r := &roomScreen{sub: subs[mover]}
	move, end := r.move(first), r.move("end")
	answers := make(chan tea.Msg, 2)
	go func() { answers <- end() }()
	time.Sleep(50 * time.Millisecond) // a chance for end to go first, were it not held
	answers <- move()
	for range 2 {
		if m := (<-answers).(moveDoneMsg); m.err != nil {
			t.Errorf("a move refused: %v", m.err)
		}
	}
	for len(snap.Moves) < 2 {
		select {
		case snap = <-subs[mover].Updates():
		case <-time.After(time.Minute):
			t.Fatalf("the moves did not come: %+v", snap.Moves)
		}
	}
	if snap.Moves[0].Move != first || snap.Moves[1].Move != "end" {
		t.Errorf("the room played %+v, want %s then end", snap.Moves, first)
	}
}

// TestLongMoveTypedWhole: the move prompt takes as long a move as the room does (rooms.MaxMove):
// a long Lhex-i'-con play, written out with its path, is not cut at the prompt.
func TestLongMoveTypedWhole(t *testing.T) {
	const long = "a4 restabilized se,se,ne,se,sw,w,sw,se,ne,se,sw" // 48 characters
	m := roomModel(t, playedSnapshot(t, 14))
	m = pressKeys(m, ":")
	next, _ := m.Update(tea.PasteMsg{Content: long})
	m = next.(Model)
	if got := m.room.prompt.input.text(); got != long {
		t.Errorf("the prompt holds %q, want %q", got, long)
	}
}
