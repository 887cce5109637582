package session

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/games/gametest"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/discon"
	"github.com/arcade/arcade/session/draw"
)

// disconSnapshot plays plies moves (all of them when plies < 0) of a seeded two-player DISCON
// match with greedy bots and returns Red's snapshot of it with the engine.
func disconSnapshot(t *testing.T, plies int) (rooms.Snapshot, rules.Engine) {
	t.Helper()
	state, moves := gametest.PlayBots(t, discon.Game, rules.Options{"variant": "premium"}, 2, 11, discon.GreedyBot{},
		func(i int, _ rules.Engine) bool { return plies >= 0 && i >= plies })
	return gametest.Snapshot("D1SCO", discon.Game, state, moves, []string{"ann", "bob"}, defaultChat), state
}

// The DISCON board's geometry (games/disconview): row labels take three columns and the column
// letters one line; a square is four columns wide.
const disconLeft, disconTop, disconCell = 3, 1, 4

func TestDisconRoomGolden(t *testing.T) {
	snap, _ := disconSnapshot(t, 12)
	v, _ := draw.ViewRef[discon.View](&snap)
	if v.Turn != 0 {
		t.Fatal("not Red's turn")
	}
	m := roomModel(t, snap)
	// Pick the piece of the first legal move: the board is drawn from the screen's second line.
	from := v.Legal[0].From
	next, _ := m.Update(tea.MouseClickMsg{X: disconLeft + disconCell*from.Col(), Y: 1 + disconTop + from.Row(),
		Button: tea.MouseLeft})
	m = next.(Model)
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
}

func TestDisconEndGolden(t *testing.T) {
	snap, _ := disconSnapshot(t, -1)
	checkEndScreen(t, snap)
}
