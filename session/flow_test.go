package session

import (
	"bytes"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/arcade/arcade/rooms"
)

// TestFlowNewRoomAgainstABot drives the whole program with a real hub: from the lobby, a new
// Stone Towers room with one bot, a move played with enter, the bot's answer, back to the lobby.
func TestFlowNewRoomAgainstABot(t *testing.T) {
	hub := rooms.NewHub(rooms.Config{Games: testGames, BotDelay: -1, Logf: t.Logf})
	t.Cleanup(func() { hub.Shutdown("test over") })
	m := New(Config{Hub: hub, Player: rooms.Player{ID: "SHA256:ann", Name: "ann"}, Width: 80, Height: 24})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	waitFor := func(want string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(want)) },
			teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	}
	keys := func(codes ...rune) {
		for _, c := range codes {
			tm.Send(tea.KeyPressMsg{Code: c})
		}
	}
	waitFor("Welcome")
	keys(tea.KeyEnter)                                        // New room
	keys(tea.KeyDown, tea.KeyDown, tea.KeyDown, tea.KeyRight) // Bots: 1
	waitFor("Bot level")
	keys(tea.KeyEnter)
	waitFor("playing")
	keys(tea.KeyEnter)          // build in the middle
	waitFor("Last: Blue built") // the renderer sends changed cells only: wait for whole new text
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	waitFor("Welcome")
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model)
	if final.room != nil {
		t.Error("the room is still open after esc")
	}
	if s := hub.Stats(); s.Subscribers != 0 || s.Moves < 2 {
		t.Errorf("hub after the flow: %+v (want no subscribers and at least 2 moves)", s)
	}
}
