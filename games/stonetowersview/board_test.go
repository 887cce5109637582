package stonetowersview

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/games/gametest"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
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
