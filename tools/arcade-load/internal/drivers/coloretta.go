package drivers

import (
	"fmt"
	"math/rand/v2"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/coloretta"
)

// colorettaDriver plays Coloretta. Its deck is shuffled from the seed.
type colorettaDriver struct{}

// newColoretta returns the driver; Coloretta's takes no options.
func newColoretta(rules.Options) Driver { return colorettaDriver{} }

// Command opens a room with the default options.
func (colorettaDriver) Command() string { return "new coloretta" }

// Engine is the match the room builds from the seed its code derives.
func (colorettaDriver) Engine(code string, match int) (rules.Engine, error) {
	return coloretta.Game.New(rules.Options{}, 2, rules.DerivedSeed(code, match))
}

// StartMarker is the side panel's deck count at the start.
func (colorettaDriver) StartMarker(state rules.Engine) string {
	return fmt.Sprintf("Deck %d", state.View(rules.Spectator).(coloretta.View).DeckSize)
}

// Marker is the side panel's last-move line, "Last: NAME drew red", cut after the name (the rest
// may wrap): the same player's draw and placement still change the line.
func (colorettaDriver) Marker(state rules.Engine, name string) string {
	if state.Outcome().Over {
		return GameOver
	}
	return "Last: " + name
}

// PickMove is RandomMove.
func (colorettaDriver) PickMove(state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	return RandomMove(state, seat, rng)
}

// Seeded is true: the deck is shuffled from the seed.
func (colorettaDriver) Seeded() bool { return true }
