package session

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/games/gametest"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/coloretta"
)

// colorettaNames are the players of the test tables, in seat order.
var colorettaNames = []string{"ann", "bob", "cid", "dee", "eve"}

// colorettaPlay plays a seeded Coloretta match of seats players with greedy bots until stop says
// so (or the game ends) and returns ann's snapshot of it with the engine.
func colorettaPlay(t *testing.T, seats int, opts rules.Options, stop func(i int, v coloretta.View) bool) (rooms.Snapshot, rules.Engine) {
	t.Helper()
	state, moves := gametest.PlayBots(t, coloretta.Game, opts, seats, 5, coloretta.Greedy,
		func(i int, s rules.Engine) bool { return stop(i, s.View(0).(coloretta.View)) })
	chat := []rooms.ChatLine{{Text: "ann sits down"}, {From: "bob", Text: "good luck!"}}
	return gametest.Snapshot("C0L0R", coloretta.Game, state, moves, colorettaNames[:seats], chat), state
}

// colorettaMid plays at least plies moves and stops at ann's turn, when she may draw.
func colorettaMid(t *testing.T, seats, plies int) (rooms.Snapshot, rules.Engine) {
	t.Helper()
	return colorettaPlay(t, seats, nil, func(i int, v coloretta.View) bool {
		return i >= plies && v.ToMove == 0 && slicesHas(v.Legal, "d")
	})
}

// colorettaScreen draws snap's room at 80 x 24, checks its size and returns it.
func colorettaScreen(t *testing.T, snap rooms.Snapshot) string {
	t.Helper()
	out := roomModel(t, snap).View().Content
	checkSize(t, out, 80, 24)
	return out
}

func TestColorettaRoomGolden(t *testing.T) {
	snap, _ := colorettaMid(t, 3, 30)
	golden.RequireEqual(t, plain(colorettaScreen(t, snap)))
}

// TestColorettaDrawnGolden: five players fit, with a card drawn by ann.
func TestColorettaDrawnGolden(t *testing.T) {
	snap, state := colorettaMid(t, 5, 22)
	state, err := state.Apply(0, "d")
	if err != nil {
		t.Fatal(err)
	}
	snap.View, snap.ToMove = state.View(0), state.ToMove()
	out := colorettaScreen(t, snap)
	golden.RequireEqual(t, plain(out))
	for _, n := range colorettaNames {
		if !strings.Contains(out, n) {
			t.Errorf("%s is missing from the screen", n)
		}
	}
}

func TestColorettaRoundEndGolden(t *testing.T) {
	snap, _ := colorettaPlay(t, 3, nil, func(_ int, v coloretta.View) bool { return v.RoundEnded })
	out := colorettaScreen(t, snap)
	golden.RequireEqual(t, plain(out))
	if !strings.Contains(out, "Round 1 scored") {
		t.Error("no scoring on the round's end")
	}
}

func TestColorettaEndGolden(t *testing.T) {
	snap, _ := colorettaPlay(t, 4, rules.Options{"rounds": "2"}, func(int, coloretta.View) bool { return false })
	checkEndScreen(t, snap, "Final round 2 scored")
}

// slicesHas reports whether ss holds s.
func slicesHas(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
