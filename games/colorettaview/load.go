package colorettaview

import (
	"fmt"
	"math/rand/v2"

	"github.com/arcade/arcade/games/load"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/coloretta"
)

// Driver plays Coloretta in the load tool. Its deck is shuffled from the seed.
type Driver struct{}

// NewDriver returns the load tool's driver; Coloretta's takes no options.
func NewDriver(rules.Options) load.Driver { return Driver{} }

// Command opens a room with the default options.
func (Driver) Command() string { return "new coloretta" }

// Engine is the match the room builds from the seed its code derives.
func (Driver) Engine(code string, match int) (rules.Engine, error) {
	return coloretta.Game.New(rules.Options{}, 2, rules.DerivedSeed(code, match))
}

// StartMarker is the side panel's deck count at the start.
func (Driver) StartMarker(state rules.Engine) string {
	return fmt.Sprintf("Deck %d", state.View(rules.Spectator).(coloretta.View).DeckSize)
}

// Marker is the side panel's last-move line, "Last: NAME drew red", cut after the name (the rest
// may wrap): the same player's draw and placement still change the line.
func (Driver) Marker(state rules.Engine, name string) string {
	if state.Outcome().Over {
		return load.GameOver
	}
	return "Last: " + name
}

// PickMove is load.RandomMove.
func (Driver) PickMove(state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	return load.RandomMove(state, seat, rng)
}

// Seeded is true: the deck is shuffled from the seed.
func (Driver) Seeded() bool { return true }
