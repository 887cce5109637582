package drivers

import (
	"fmt"
	"math/rand/v2"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/discon"
)

// disconDriver plays DISCON (the default variant). Its discs are laid out from the seed.
type disconDriver struct{}

// newDiscon returns the driver; DISCON's takes no options.
func newDiscon(rules.Options) Driver { return disconDriver{} }

// Command opens a room of the default variant.
func (disconDriver) Command() string { return "new discon" }

// Engine is the match the room builds from the seed its code derives.
func (disconDriver) Engine(code string, match int) (rules.Engine, error) {
	return discon.Game.New(rules.Options{}, 2, rules.DerivedSeed(code, match))
}

// StartMarker is the side panel's turn line.
func (d disconDriver) StartMarker(state rules.Engine) string { return d.Marker(state, "") }

// Marker is the side panel's turn line ("Red: 2 moves left"): a seat has two moves a turn, so
// every move changes it.
func (disconDriver) Marker(state rules.Engine, _ string) string {
	st := state.(*discon.State) // its Turn and MovesLeft: the whole View cost the tool a sixth of its CPU
	if st.Turn() < 0 {
		return GameOver
	}
	s := "s"
	if st.MovesLeft() == 1 {
		s = ""
	}
	return fmt.Sprintf("%s: %d move%s left", discon.SeatName(st.Turn()), st.MovesLeft(), s)
}

// PickMove is RandomMove.
func (disconDriver) PickMove(state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	return RandomMove(state, seat, rng)
}

// Seeded is true: the discs are laid out from the seed.
func (disconDriver) Seeded() bool { return true }
