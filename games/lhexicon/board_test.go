package lhexicon

import (
	"testing"

	"github.com/arcade/arcade/games/gametest"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon"
)

// panelWidth is the width of the room's side panel (session), which Status is given.
const panelWidth = 28

// lhexSnapshot plays plies moves (all of them when plies < 0) of a seeded two-player match with
// greedy bots and returns ann's snapshot of it with the engine.
func lhexSnapshot(t *testing.T, opts rules.Options, seats int, seed uint64, plies int) (rooms.Snapshot, rules.Engine) {
	t.Helper()
	state, moves := gametest.PlayBots(t, lhexicon.Game, opts, seats, seed, lhexicon.Greedy{},
		func(i int, _ rules.Engine) bool { return plies >= 0 && i >= plies })
	return gametest.Snapshot("LH3X1", lhexicon.Game, state, moves, []string{"ann", "bob", "cid", "dee"}[:seats], nil), state
}
