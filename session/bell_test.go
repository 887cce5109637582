package session

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/teaframe"
)

// lockedBuffer is a bytes.Buffer safe for the program's and the renderer's writes.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// signals are the terminal's bell (BEL) and the window titles (OSC 2) in a program's output; a
// BEL that ends an OSC sequence is part of it.
var signals = regexp.MustCompile("\x1b\\][^\x07\x1b]*(?:\x07|\x1b\\\\)|\x07")

// TestTurnBellAndTitleBytesGolden: the bytes a player's terminal receives, as the server draws
// them (package teaframe, the bell written with the frame: Model.FrameRaw), when it becomes
// their turn: BEL and the window title "your move · GAME · CODE" (OSC 2, ended by BEL); when they
// have moved, the title without "your move" and no bell. The sequences of each step (sorted) are
// compared with the golden file, the room's code written CODE.
func TestTurnBellAndTitleBytesGolden(t *testing.T) {
	hub := rooms.NewHub(rooms.Config{Games: testGames, BotDelay: -1, Logf: t.Logf})
	t.Cleanup(func() { hub.Shutdown("test over") })
	ann, bob := rooms.Player{ID: "SHA256:ann", Name: "ann"}, rooms.Player{ID: "SHA256:bob", Name: "bob"}
	room, err := hub.Create("stonetowers", rules.Options{"size": "8", "turns": "10"}, 2, ann)
	if err != nil {
		t.Fatal(err)
	}
	code := room.Code()

	out := &lockedBuffer{}
	env := []string{"TERM=xterm-256color"}
	fr := teaframe.New(out, teaframe.Options{Width: 80, Height: 24, Env: env, Profile: colorprofile.ANSI256})
	var p *tea.Program
	m := New(Config{Hub: Local(hub), Boards: testBoards, Player: ann, Width: 80, Height: 24,
		Start: Start{Mode: ModeJoin, Code: code}, Send: func(msg tea.Msg) { p.Send(msg) }})
	p = fr.NewProgram(m, tea.WithInput(nil), tea.WithOutput(out), tea.WithWindowSize(80, 24),
		tea.WithEnvironment(env), tea.WithoutSignalHandler(), tea.WithColorProfile(colorprofile.ANSI256))
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	t.Cleanup(func() {
		p.Quit()
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Error("the program did not quit")
		}
		fr.Close()
		m.Close()
	})

	title := func(s string) string { return "\x1b]2;" + s + "\x07" }
	waiting, mine := title("Stone Towers · "+code), title("your move · Stone Towers · "+code)
	var got strings.Builder
	from := 0
	// step waits until the output since the last step holds every one of want among its
	// signals, and writes the step's signals to got; with trim, only from the first of want on.
	step := func(name string, trim bool, want ...string) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for {
			s := out.String()
			sigs := signals.FindAllString(s[from:], -1)
			ok := true
			for _, w := range want {
				if !slices.Contains(sigs, w) {
					ok = false
				}
			}
			if ok {
				if trim {
					sigs = sigs[slices.Index(sigs, want[0]):]
				}
				slices.Sort(sigs)
				got.WriteString(name + ":\n")
				for _, sig := range sigs {
					got.WriteString("\t" + strconv.Quote(strings.ReplaceAll(sig, code, "CODE")) + "\n")
				}
				from = len(s)
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the output never held %q; it holds %q", name, want, sigs)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	// The room as ann joins it, waiting for a second player: from its first title on (the
	// lobby's, "arcade", may or may not have been drawn before it).
	step("ann waits for a player", true, waiting)
	b, err := room.Join(bob, false)
	if err != nil {
		t.Fatal(err)
	}
	step("bob joins: ann's turn", false, mine, "\x07")
	for _, k := range []string{":", "b", " ", "a", "1", "enter"} {
		p.Send(keyPress(k))
	}
	step("ann builds on a1: bob's turn", false, waiting)
	if err := b.Move(context.Background(), "b h8"); err != nil {
		t.Fatal(err)
	}
	step("bob builds on h8: ann's turn", false, mine, "\x07")
	golden.RequireEqual(t, got.String())
}
