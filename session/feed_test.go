package session

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rooms"
)

// TestFeed follows a room's snapshots through the feed into the model: each one arrives once, a
// message whose snapshot an earlier one took changes nothing, and when the player opens the room
// from another terminal the last snapshot (saying so) is read before the room is left.
func TestFeed(t *testing.T) {
	hub := rooms.NewHub(rooms.Config{Games: testGames, BotDelay: -1, Logf: t.Logf})
	t.Cleanup(func() { hub.Shutdown("test over") })
	ann := rooms.Player{ID: "SHA256:ann", Name: "ann"}
	sent := make(chan tea.Msg, 16)
	m := New(Config{Hub: hub, Player: ann, Width: 80, Height: 24, Send: func(msg tea.Msg) { sent <- msg }})
	next := func() *feed {
		t.Helper()
		select {
		case msg := <-sent:
			f, ok := msg.(*feed)
			if !ok {
				t.Fatalf("the feed sent %T, want *feed", msg)
			}
			return f
		case <-time.After(10 * time.Second):
			t.Fatal("no snapshot came")
			return nil
		}
	}
	update := func(msg tea.Msg) {
		t.Helper()
		nm, _ := m.Update(msg)
		m = nm.(Model)
	}

	update(m.open(Start{Mode: ModeNew, Game: "stonetowers", Seats: 2})())
	if m.room == nil || m.room.feed == nil {
		t.Fatal("no room screen with a feed after joining")
	}
	f := next()
	if f != m.room.feed {
		t.Fatal("the message is not the room's feed")
	}
	update(f)
	if !m.room.have || m.room.snap.Phase != rooms.Waiting {
		t.Fatalf("after the first snapshot: have %v, phase %v; want a waiting room", m.room.have, m.room.snap.Phase)
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
		update(next())
	}
	seq := m.room.snap.Seq
	if _, fresh, closed := f.take(); fresh || closed {
		t.Errorf("take after the model took the snapshot: fresh %v, closed %v; want neither", fresh, closed)
	}
	update(f) // a message whose snapshot is gone
	if m.room == nil || m.room.snap.Seq != seq {
		t.Fatal("a message without a fresh snapshot changed the room")
	}

	// Ann opens the room again elsewhere: this subscription ends.
	again, err := room.Join(ann, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(again.Leave)
	for m.room != nil {
		update(next())
	}
	if !strings.Contains(m.lobby.msg, "another terminal") {
		t.Errorf("lobby message %q, want it to say the room was opened from another terminal", m.lobby.msg)
	}
	// The feed's last message (the end) may still come; the model, in the lobby, ignores it.
	for {
		select {
		case msg := <-sent:
			update(msg)
			if m.room != nil || !strings.Contains(m.lobby.msg, "another terminal") {
				t.Fatal("a late message of the ended feed changed the lobby")
			}
			continue
		case <-time.After(50 * time.Millisecond):
		}
		break
	}
}
