package disconview

import (
	"fmt"
	"math/rand/v2"

	"github.com/arcade/arcade/games/load"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/discon"
)

// Driver plays DISCON (the default variant) in the load tool. Its discs are laid out from the
// seed.
type Driver struct{}

// NewDriver returns the load tool's driver; DISCON's takes no options.
func NewDriver(rules.Options) load.Driver { return Driver{} }

// Command opens a room of the default variant.
func (Driver) Command() string { return "new discon" }

// Engine is the match the room builds from the seed its code derives.
func (Driver) Engine(code string, match int) (rules.Engine, error) {
	return discon.Game.New(rules.Options{}, 2, rules.DerivedSeed(code, match))
}

// StartMarker is the side panel's turn line.
func (d Driver) StartMarker(state rules.Engine) string { return d.Marker(state, "") }

// Marker is the side panel's turn line ("Red: 2 moves left"): a seat has two moves a turn, so
// every move changes it.
func (Driver) Marker(state rules.Engine, _ string) string {
	st := state.(*discon.State) // its Turn and MovesLeft: the whole View cost the tool a sixth of its CPU
	if st.Turn() < 0 {
		return load.GameOver
	}
	s := "s"
	if st.MovesLeft() == 1 {
		s = ""
	}
	return fmt.Sprintf("%s: %d move%s left", discon.SeatName(st.Turn()), st.MovesLeft(), s)
}

// PickMove is load.RandomMove.
func (Driver) PickMove(state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	return load.RandomMove(state, seat, rng)
}

// Seeded is true: the discs are laid out from the seed.
func (Driver) Seeded() bool { return true }
