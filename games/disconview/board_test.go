package disconview

import (
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/arcade/arcade/games/gametest"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/discon"
	"github.com/arcade/arcade/session/draw"
)

// panelWidth is the width of the room's side panel (session), which Status is given.
const panelWidth = 28

// disconSnapshot plays plies moves (all of them when plies < 0) of a seeded two-player DISCON
// match with greedy bots and returns Red's snapshot of it with the engine.
func disconSnapshot(t *testing.T, plies int) (rooms.Snapshot, rules.Engine) {
	t.Helper()
	state, moves := gametest.PlayBots(t, discon.Game, rules.Options{"variant": "premium"}, 2, 11, discon.GreedyBot{},
		func(i int, _ rules.Engine) bool { return plies >= 0 && i >= plies })
	return gametest.Snapshot("D1SCO", discon.Game, state, moves, []string{"ann", "bob"}, nil), state
}

// TestDisconPickAndJump: enter on a piece selects it, enter on one of its destinations proposes a
// move the engine accepts.
func TestDisconPickAndJump(t *testing.T) {
	snap, state := disconSnapshot(t, 0)
	b := newDisconBoard()
	key := func(code rune) string { return b.Handle(tea.KeyPressMsg{Code: code}, &snap) }
	if got := key(tea.KeyEnter); got != "" || b.sel != 1 {
		t.Fatalf("enter on the home corner proposes %q and selects %d, want piece 1", got, b.sel)
	}
	if key(tea.KeyEnter); b.sel != 2 {
		t.Errorf("a second enter on the home corner selects %d, want piece 2", b.sel)
	}
	key(tea.KeyDown)
	key(tea.KeyDown)
	key(tea.KeyRight)
	got := key(tea.KeyEnter)
	if got != "2 a1-b3" {
		t.Fatalf("enter on b3 proposes %q, want 2 a1-b3", got)
	}
	if _, err := state.Apply(0, got); err != nil {
		t.Errorf("the engine refuses %q: %v", got, err)
	}
	if b.sel != 0 {
		t.Errorf("piece %d still selected after the move", b.sel)
	}
}

// TestDisconClickAndLeave: a click acts like enter; L switches to moves that leave the tower.
func TestDisconClickAndLeave(t *testing.T) {
	snap, state := disconSnapshot(t, 8)
	v, _ := draw.ViewRef[discon.View](&snap)
	var want discon.Move
	for _, m := range v.Legal {
		if m.Leave {
			want = m
			break
		}
	}
	if want.Piece == 0 {
		t.Fatal("no move leaving a tower in the test position")
	}
	b := newDisconBoard()
	click := func(q discon.Square) string {
		return b.Handle(tea.MouseClickMsg{X: disconLeft + disconCell*q.Col() + 1, Y: disconTop + q.Row(),
			Button: tea.MouseLeft}, &snap)
	}
	click(want.From)
	if b.sel != want.Piece {
		t.Fatalf("a click on %s selects %d, want %d", want.From, b.sel, want.Piece)
	}
	b.Handle(tea.KeyPressMsg{Code: 'L', Text: "L"}, &snap)
	got := click(want.To)
	if got != want.String() {
		t.Fatalf("the click on %s proposes %q, want %q", want.To, got, want)
	}
	if _, err := state.Apply(0, got); err != nil {
		t.Errorf("the engine refuses %q: %v", got, err)
	}
}

// TestDisconASCII: in ASCII mode without colour the board and its status are plain ASCII and the
// board fits its 51 x 21 cells.
func TestDisconASCII(t *testing.T) {
	snap, _ := disconSnapshot(t, 12)
	b := newDisconBoard()
	st := *draw.NewStyles(true, true)
	v, _ := draw.ViewRef[discon.View](&snap)
	b.Handle(tea.MouseClickMsg{X: disconLeft + disconCell*v.Legal[0].From.Col(), Y: disconTop + v.Legal[0].From.Row(),
		Button: tea.MouseLeft}, &snap)
	lines := append(b.View(&snap, st, 51, 21), b.Status(&snap, st, panelWidth)...)
	for _, l := range lines {
		p := ansi.Strip(l)
		if ansi.StringWidth(p) > 51 {
			t.Errorf("line too wide: %q", p)
		}
		for _, r := range p {
			if r > 127 {
				t.Errorf("non-ASCII %q in %q", r, p)
				break
			}
		}
	}
	if len(lines) > 21+10 {
		t.Errorf("%d lines", len(lines))
	}
}

// TestDisconRedrawEqualsFresh: a board that draws a whole match, frame after frame, with the
// cursor moving and pieces selected (reusing the rows, tower heights and legend it drew before),
// draws every frame exactly as a new board does, styles and all.
func TestDisconRedrawEqualsFresh(t *testing.T) {
	full, _ := disconSnapshot(t, -1)
	v, _ := draw.ViewRef[discon.View](&full)
	keys := []rune{tea.KeyRight, tea.KeyDown, tea.KeyEnter, tea.KeyLeft, 'L', tea.KeyUp, 'u'}
	for _, ascii := range []bool{false, true} {
		st := *draw.NewStyles(false, ascii)
		b := newDisconBoard()
		frames := 0
		for plies := 0; plies <= len(full.Moves); plies += 3 {
			snap, _ := disconSnapshot(t, plies)
			for i, k := range keys {
				if i%2 == plies%2 {
					b.Handle(tea.KeyPressMsg{Code: k}, &snap)
				}
				fresh := newDisconBoard()
				fresh.cur, fresh.placed, fresh.sel, fresh.leave = b.cur, b.placed, b.sel, b.leave
				width := 60 + i%2*19 // the legend at two widths
				got, want := b.View(&snap, st, width, 24), fresh.View(&snap, st, width, 24)
				if !slices.Equal(got, want) {
					t.Fatalf("ascii %v, %d plies, after key %d: redrawn\n%q\nfresh\n%q", ascii, plies, i, got, want)
				}
				frames++
			}
		}
		if frames < 50 || v.Seats != 2 {
			t.Fatalf("only %d frames compared", frames)
		}
	}
}

// TestDiscPaints: the disc colours' paints draw as their lipgloss styles do, with colour and
// without.
func TestDiscPaints(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		st := *draw.NewStyles(noColor, false)
		for _, c := range discon.Colours {
			p := discStyle(st, c)
			for _, s := range []string{"", " ", "V", "P3", "a b", "·", "two\nlines", "tab\t"} {
				if got, want := p.Render(s), p.Style().Render(s); got != want {
					t.Errorf("noColor %v %v: Render(%q) = %q, lipgloss %q", noColor, c, s, got, want)
				}
			}
		}
	}
}

// TestEscUnselects: the board takes esc from the room only while a piece is selected (or L set),
// and esc drops the selection; with none, esc is the room's (which asks whether to leave).
func TestEscUnselects(t *testing.T) {
	snap, _ := disconSnapshot(t, 0)
	b := newDisconBoard()
	esc := tea.KeyPressMsg{Code: tea.KeyEscape}
	if b.TakesKey(esc, &snap) {
		t.Fatal("the board takes esc with nothing selected")
	}
	b.Handle(tea.KeyPressMsg{Code: tea.KeyEnter}, &snap)
	if b.sel == 0 || !b.TakesKey(esc, &snap) {
		t.Fatalf("with piece %d selected the board does not take esc", b.sel)
	}
	if got := b.Handle(esc, &snap); got != "" || b.sel != 0 || b.TakesKey(esc, &snap) {
		t.Errorf("esc proposed %q and left piece %d selected", got, b.sel)
	}
	b.Handle(tea.KeyPressMsg{Code: 'L', Text: "L"}, &snap)
	if !b.TakesKey(esc, &snap) {
		t.Error("with L set the board does not take esc")
	}
	if b.Handle(esc, &snap); b.leave {
		t.Error("esc did not drop L")
	}
}
