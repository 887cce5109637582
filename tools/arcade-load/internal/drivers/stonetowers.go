package drivers

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
)

// stonetowersDriver plays Stone Towers. Its matches have no hidden or random part.
type stonetowersDriver struct {
	size, turns int // the board size and turns per player the rooms are opened with
}

// newStonetowers returns the driver with opts' size and turns (12 and 60 when not given or not
// numbers); it ignores other options.
func newStonetowers(opts rules.Options) Driver {
	d := stonetowersDriver{size: 12, turns: 60}
	if n, err := strconv.Atoi(opts["size"]); err == nil {
		d.size = n
	}
	if n, err := strconv.Atoi(opts["turns"]); err == nil {
		d.turns = n
	}
	return d
}

// Command opens a room of the driver's size and turns.
func (d stonetowersDriver) Command() string {
	return fmt.Sprintf("new stonetowers size=%d turns=%d", d.size, d.turns)
}

// Engine is the match the room builds (Stone Towers has no seed).
func (d stonetowersDriver) Engine(string, int) (rules.Engine, error) {
	return stonetowers.Game.New(rules.Options{"size": strconv.Itoa(d.size), "turns": strconv.Itoa(d.turns)}, 2, 1)
}

// StartMarker is the side panel's count of turns left.
func (d stonetowersDriver) StartMarker(state rules.Engine) string { return d.Marker(state, "") }

// Marker is the side panel's count of turns left, which every move changes. It is read from the
// state, not from its View, which works out every square's influence.
func (d stonetowersDriver) Marker(state rules.Engine, _ string) string {
	st := state.(*stonetowers.State)
	return fmt.Sprintf("Turns left: R %d · B %d", st.TurnsLeft(stonetowers.Red), st.TurnsLeft(stonetowers.Blue))
}

// PickMove chooses from the state's typed list of moves and writes out only the chosen one in
// notation: writing out every legal move at every ply had been a third of the tool's CPU. The
// choice is RandomMove's.
func (stonetowersDriver) PickMove(state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	if st, ok := state.(*stonetowers.State); ok {
		moves := st.LegalMoves(seat)
		return moves[rng.IntN(len(moves))].String()
	}
	return RandomMove(state, seat, rng)
}

// Seeded is false: a Stone Towers match does not depend on its seed.
func (stonetowersDriver) Seeded() bool { return false }
