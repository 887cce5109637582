package session

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rooms"
)

// TestRoomWakesTheModel follows a room's snapshots into the model without a goroutine of the
// session's: the first is taken on joining; the room's wake-ups (rooms.Sub.OnUpdate, Config.Wake)
// bring the later ones; a wake-up with nothing waiting changes nothing; when the player opens the
// room from another terminal, the last snapshot (saying so) is taken before the room is left,
// and a wake-up after that, in the lobby, changes nothing.
func TestRoomWakesTheModel(t *testing.T) {
	hub := rooms.NewHub(rooms.Config{Games: testGames, BotDelay: -1, Logf: t.Logf})
	t.Cleanup(func() { hub.Shutdown("test over") })
	ann := rooms.Player{ID: "SHA256:ann", Name: "ann"}
	wakes := make(chan struct{}, 1) // as Bubble Tea's: wakes not yet received make one
	wake := func() {
		select {
		case wakes <- struct{}{}:
		default:
		}
	}
	m := New(Config{Hub: hub, Boards: testBoards, Player: ann, Width: 80, Height: 24, Wake: wake})
	update := func(msg tea.Msg) {
		t.Helper()
		nm, _ := m.Update(msg)
		m = nm.(Model)
	}
	woken := func() {
		t.Helper()
		select {
		case <-wakes:
			update(tea.WakeMsg{})
		case <-time.After(10 * time.Second):
			t.Fatal("the room never woke the model")
		}
	}

	update(m.open(Start{Mode: ModeNew, Game: "stonetowers", Seats: 2})())
	if m.room == nil || !m.room.have || m.room.snap.Phase != rooms.Waiting {
		t.Fatal("joining did not take the room's first snapshot: want a waiting room")
	}
	code := m.room.snap.Code

	// Bob takes the other seat: the match starts.
	room, err := hub.Find(code, rooms.Player{ID: "SHA256:bob", Name: "bob"})
	if err != nil {
		t.Fatal(err)
	}
	bob, err := room.Join(rooms.Player{ID: "SHA256:bob", Name: "bob"}, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(bob.Leave)
	for m.room.snap.Phase != rooms.Playing {
		woken()
	}
	seq := m.room.snap.Seq
	update(tea.WakeMsg{}) // nothing waits
	if m.room == nil || m.room.snap.Seq != seq {
		t.Fatal("a wake-up with no snapshot waiting changed the room")
	}

	// Ann opens the room again elsewhere: this subscription ends.
	again, err := room.Join(ann, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(again.Leave)
	for m.room != nil {
		woken()
	}
	if !strings.Contains(m.lobby.msg, "another terminal") {
		t.Errorf("lobby message %q, want it to say the room was opened from another terminal", m.lobby.msg)
	}
	update(tea.WakeMsg{})
	if m.room != nil || !strings.Contains(m.lobby.msg, "another terminal") {
		t.Fatal("a wake-up in the lobby changed it")
	}
}
