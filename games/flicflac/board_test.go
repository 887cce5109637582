package flicflac

import (
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/arcade/arcade/games/gametest"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/flicflac"
	"github.com/arcade/arcade/session/draw"
)

// The room's board column at 80 x 24 and its side panel's width (session).
const colW, colH, panelWidth = 51, 21, 28

// play plays a seeded Flic Flac match with greedy bots (events off unless opts say) until stop
// says so and returns ann's snapshot with the engine.
func play(t *testing.T, opts rules.Options, stop func(i int, s *flicflac.State) bool) (rooms.Snapshot, *flicflac.State) {
	t.Helper()
	if opts == nil {
		opts = rules.Options{"shape": "cylinders"}
	}
	state, moves := gametest.PlayBots(t, flicflac.Game, opts, 2, 3, flicflac.Greedy{},
		func(i int, s rules.Engine) bool { return stop(i, s.(*flicflac.State)) })
	return gametest.Snapshot("FL1CF", flicflac.Game, state, moves, []string{"ann", "bob"}, nil), state.(*flicflac.State)
}

// press gives the board one key.
func press(b *board, snap *rooms.Snapshot, k string) string {
	switch k {
	case "enter":
		return b.Handle(tea.KeyPressMsg{Code: tea.KeyEnter}, snap)
	case "right":
		return b.Handle(tea.KeyPressMsg{Code: tea.KeyRight}, snap)
	case "left":
		return b.Handle(tea.KeyPressMsg{Code: tea.KeyLeft}, snap)
	case "up":
		return b.Handle(tea.KeyPressMsg{Code: tea.KeyUp}, snap)
	case "down":
		return b.Handle(tea.KeyPressMsg{Code: tea.KeyDown}, snap)
	}
	return b.Handle(tea.KeyPressMsg{Code: rune(k[0]), Text: k}, snap)
}

func plainLines(lines []string) string {
	var out []string
	for _, l := range lines {
		out = append(out, strings.TrimRight(ansi.Strip(l), " "))
	}
	return strings.Join(out, "\n")
}

func TestDump(t *testing.T) {
	if os.Getenv("DUMP") == "" {
		t.Skip()
	}
	snap, _ := play(t, nil, func(i int, s *flicflac.State) bool { return i >= 40 && s.Turn() == 0 })
	b := newBoard()
	press(b, &snap, "n")
	st := draw.NewStyles(true, false)
	t.Log("\n" + plainLines(b.View(&snap, *st, colW, colH)))
	t.Log("\n" + plainLines(b.Status(&snap, *st, panelWidth)))
	y, th := b.TurnText(&snap)
	t.Log(y, "|", th)
}
