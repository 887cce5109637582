package session

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
)

// TestJoinAfterTheSessionEnded: a room joined after the session has ended (its program gone, so
// the joined message is never handled) is left at once, not held by nobody.
func TestJoinAfterTheSessionEnded(t *testing.T) {
	hub := rooms.NewHub(rooms.Config{Games: []rules.Game{stonetowers.Game}})
	t.Cleanup(func() { hub.Shutdown("test over") })
	for _, start := range []Start{
		{Mode: ModeNew, Game: "stonetowers", Seats: 2},
		{Mode: ModeNew, Game: "stonetowers", Seats: 2, Bots: 1, BotLevel: "easy"},
	} {
		m := New(Config{Hub: Local(hub), Boards: testBoards, Player: rooms.Player{ID: "SHA256:ann", Name: "ann"},
			Start: start, Width: 80, Height: 24, Send: func(tea.Msg) {}})
		open := m.Init() // the join, which runs while the session ends
		m.Close()
		if _, ok := open().(joinedMsg); !ok {
			t.Fatalf("%+v: Init did not open the room", start)
		}
		if n := hub.Stats().Subscribers; n != 0 {
			t.Errorf("%+v: %d subscribers after the session ended", start, n)
		}
	}
}
