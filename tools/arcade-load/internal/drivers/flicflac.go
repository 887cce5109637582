package drivers

import (
	"github.com/arcade/arcade/games/flicflacview"
	"math/rand/v2"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/flicflac"
)

// flicflacDriver plays Flic Flac (the default options: side 8, a 20 s turn timer). Who gets which
// shape and the random events come from the seed.
type flicflacDriver struct{}

// newFlicflac returns the driver; Flic Flac's takes no options.
func newFlicflac(rules.Options) Driver { return flicflacDriver{} }

// Command opens a room with the default options: the turns are timed, so that the clock's
// redraws are part of what is measured.
func (flicflacDriver) Command() string { return "new flicflac" }

// Engine is the match the room builds from the seed its code derives.
func (flicflacDriver) Engine(code string, match int) (rules.Engine, error) {
	return flicflac.Game.New(rules.Options{}, 2, rules.DerivedSeed(code, match))
}

// StartMarker is the side panel's turn line of the first turn.
func (flicflacDriver) StartMarker(state rules.Engine) string {
	v := state.(*flicflac.State).ViewOf()
	return flicflacview.TurnLine(&v)
}

// Marker is a side panel line that the move leading to state changed: the moved pieces' line
// after a move (PickMove takes nothing back, so it grows), the turn line when a turn begins, the
// captors' line when a captors' turn begins.
func (flicflacDriver) Marker(state rules.Engine, _ string) string {
	if state.Outcome().Over {
		return GameOver
	}
	v := state.(*flicflac.State).ViewOf()
	if m := flicflacview.MovedLine(&v); v.CaptorsTurn || m != flicflacview.NoneMoved {
		return m
	}
	return flicflacview.TurnLine(&v)
}

// PickMove returns a random legal move of seat other than a take-back (which would bring back a
// screen already seen, that no marker tells apart).
func (flicflacDriver) PickMove(state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	ms := state.(*flicflac.State).LegalMoves(seat)
	n := 0
	for _, m := range ms {
		if m.Kind != flicflac.TakeBack {
			ms[n] = m
			n++
		}
	}
	return ms[rng.IntN(n)].String()
}

// Seeded is true: the shapes and the events are drawn from the seed.
func (flicflacDriver) Seeded() bool { return true }
