package session

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/hinshun/vt10x"

	"github.com/arcade/arcade/rooms"
)

// TestFlowNewRoomAgainstABot drives the whole program with a real hub: from the lobby, a new
// Stone Towers room with one bot, a move played with enter, the bot's answer, back to the lobby.
func TestFlowNewRoomAgainstABot(t *testing.T) {
	hub := rooms.NewHub(rooms.Config{Games: testGames, BotDelay: -1, Logf: t.Logf})
	t.Cleanup(func() { hub.Shutdown("test over") })
	var tm *teatest.TestModel // set before the room is opened, which is when Send is first called
	m := New(Config{Hub: Local(hub), Boards: testBoards, Player: rooms.Player{ID: "SHA256:ann", Name: "ann"}, Width: 80, Height: 24,
		Send: func(msg tea.Msg) { tm.Send(msg) }})
	tm = teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	// The renderer writes only the cells that changed, so the output is read through a terminal
	// emulator and the test looks at the screen, as a person would.
	term := vt10x.New(vt10x.WithSize(80, 24))
	var mu sync.Mutex
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		buf := make([]byte, 4096)
		for {
			select {
			case <-stop:
				return
			default:
			}
			n, err := tm.Output().Read(buf)
			mu.Lock()
			// A terminal's line discipline turns "\n" into "\r\n" (ONLCR), and the renderer counts
			// on it; the emulator is given what a terminal would show.
			_, _ = term.Write(bytes.ReplaceAll(buf[:n], []byte("\n"), []byte("\r\n")))
			mu.Unlock()
			if err != nil && err != io.EOF {
				return
			}
			if n == 0 {
				time.Sleep(5 * time.Millisecond)
			}
		}
	}()
	waitFor := func(want string) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for {
			mu.Lock()
			screen := term.String()
			mu.Unlock()
			if strings.Contains(screen, want) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the screen never showed %q:\n%s", want, screen)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	keys := func(codes ...rune) {
		for _, c := range codes {
			tm.Send(tea.KeyPressMsg{Code: c})
		}
	}
	waitFor("Welcome")
	keys(tea.KeyDown, tea.KeyEnter)                           // New room
	keys(tea.KeyDown, tea.KeyDown, tea.KeyDown, tea.KeyRight) // Bots: 1
	waitFor("Bot level")
	keys(tea.KeyEnter)
	waitFor("playing")
	keys(tea.KeyEnter) // build in the middle
	waitFor("Turns left: R 24 · B 24")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	waitFor("Leave the room?")
	keys(tea.KeyEnter)
	waitFor("Welcome")
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	final := tm.FinalModel(t, teatest.WithFinalTimeout(time.Minute)).(Model)
	if final.room != nil {
		t.Error("the room is still open after esc")
	}
	if s := hub.Stats(); s.Subscribers != 0 || s.Moves < 2 {
		t.Errorf("hub after the flow: %+v (want no subscribers and at least 2 moves)", s)
	}
}
