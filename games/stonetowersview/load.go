package stonetowersview

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/arcade/arcade/games/load"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
)

// Driver plays Stone Towers in the load tool. Its matches have no hidden or random part.
type Driver struct {
	// Size and Turns are the board size and turns per player the rooms are opened with.
	Size, Turns int
}

// NewDriver returns the load tool's driver with opts' size and turns (12 and 60 when not given
// or not numbers); it ignores other options.
func NewDriver(opts rules.Options) load.Driver {
	d := Driver{Size: 12, Turns: 60}
	if n, err := strconv.Atoi(opts["size"]); err == nil {
		d.Size = n
	}
	if n, err := strconv.Atoi(opts["turns"]); err == nil {
		d.Turns = n
	}
	return d
}

// Command opens a room of the driver's size and turns.
func (d Driver) Command() string {
	return fmt.Sprintf("new stonetowers size=%d turns=%d", d.Size, d.Turns)
}

// Engine is the match the room builds (Stone Towers has no seed).
func (d Driver) Engine(string, int) (rules.Engine, error) {
	return stonetowers.Game.New(rules.Options{"size": strconv.Itoa(d.Size), "turns": strconv.Itoa(d.Turns)}, 2, 1)
}

// StartMarker is the side panel's count of turns left.
func (d Driver) StartMarker(state rules.Engine) string { return d.Marker(state, "") }

// Marker is the side panel's count of turns left, which every move changes. It is read from the
// state, not from its View, which works out every square's influence.
func (d Driver) Marker(state rules.Engine, _ string) string {
	st := state.(*stonetowers.State)
	return fmt.Sprintf("Turns left: R %d · B %d", st.TurnsLeft(stonetowers.Red), st.TurnsLeft(stonetowers.Blue))
}

// PickMove chooses from the state's typed list of moves and writes out only the chosen one in
// notation: writing out every legal move at every ply had been a third of the tool's CPU. The
// choice is load.RandomMove's.
func (Driver) PickMove(state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	if st, ok := state.(*stonetowers.State); ok {
		moves := st.LegalMoves(seat)
		return moves[rng.IntN(len(moves))].String()
	}
	return load.RandomMove(state, seat, rng)
}

// Seeded is false: a Stone Towers match does not depend on its seed.
func (Driver) Seeded() bool { return false }
