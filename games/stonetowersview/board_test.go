package stonetowersview

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/arcade/arcade/games/gametest"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/session/draw"
)

// playedSnapshot plays plies moves of a seeded 12 x 12 game with greedy bots and returns Red's
// snapshot of it (session's golden rooms play the same).
func playedSnapshot(t *testing.T, plies int) rooms.Snapshot {
	t.Helper()
	state, moves := gametest.PlayBots(t, stonetowers.Game, rules.Options{"size": "12", "turns": "25"}, 2, 7,
		stonetowers.Greedy{}, func(i int, _ rules.Engine) bool { return plies >= 0 && i >= plies })
	return gametest.Snapshot("K7QXM", stonetowers.Game, state, moves, []string{"ann", "bob"}, nil)
}

// TestBoardCursorMakesMoves: arrows move the cursor and enter proposes the square's move.
func TestBoardCursorMakesMoves(t *testing.T) {
	snap := playedSnapshot(t, 0)
	b := newStoneBoard()
	key := func(code rune) string { return b.Handle(tea.KeyPressMsg{Code: code}, &snap) }
	key(tea.KeyUp)
	key(tea.KeyLeft)
	if got := key(tea.KeyEnter); got != "f6" {
		t.Errorf("enter after up, left from the centre proposes %q, want f6", got)
	}
	if got := b.Handle(tea.KeyPressMsg{Code: 'p', Text: "p"}, &snap); got != "pass" {
		t.Errorf("p proposes %q, want pass", got)
	}
	click := tea.MouseClickMsg{X: stoneLeft + 3*2, Y: stoneTop + 3, Button: tea.MouseLeft}
	if got := b.Handle(click, &snap); got != "" {
		t.Errorf("first click proposes %q, want only a cursor move", got)
	}
	if got := b.Handle(click, &snap); got != "c4" {
		t.Errorf("second click proposes %q, want c4", got)
	}
}

// TestNarrowBoard: in a column too narrow for squares of three columns (a small window's), the
// board draws squares of two, the markers as styles alone, within the width and its smallest size
// (MinSize), and a click finds its square there.
func TestNarrowBoard(t *testing.T) {
	snap := playedSnapshot(t, 14)
	b := newStoneBoard()
	st := *draw.NewStyles(false, false)
	w, h := b.MinSize(&snap)
	if w != stoneLeft+2*12 || h != stoneTop+12 {
		t.Fatalf("MinSize %d x %d, want %d x %d", w, h, stoneLeft+24, stoneTop+12)
	}
	lines := b.View(&snap, st, w, h)
	if len(lines) != h {
		t.Errorf("%d lines in a height of %d", len(lines), h)
	}
	for i, l := range lines {
		if n := draw.TextWidth(l); n > w {
			t.Errorf("line %d is %d columns wide, more than %d: %q", i, n, w, ansi.Strip(l))
		}
	}
	if got := ansi.Strip(lines[0]); got != "   a b c d e f g h i j k l " {
		t.Errorf("the column letters are %q", got)
	}
	click := tea.MouseClickMsg{X: stoneLeft + 2*2, Y: stoneTop + 3, Button: tea.MouseLeft}
	b.Handle(click, &snap)
	if got := b.Handle(click, &snap); got != "c4" {
		t.Errorf("two clicks on c4's two columns propose %q, want c4", got)
	}
	if wide := b.View(&snap, st, 51, 20); draw.TextWidth(wide[1]) != stoneLeft+3*12 {
		t.Errorf("at 51 columns a row is %d columns wide, want squares of three", draw.TextWidth(wide[1]))
	}
}
