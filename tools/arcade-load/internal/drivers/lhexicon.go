package drivers

import (
	"context"
	"math/rand/v2"
	"strconv"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon"
)

// lhexiconDriver plays Lhex-i'-con (check=auto, no timer). Its bank is shuffled from the seed.
type lhexiconDriver struct{}

// newLhexicon returns the driver; Lhex-i'-con's takes no options.
func newLhexicon(rules.Options) Driver { return lhexiconDriver{} }

// Command opens a two-seat room with the default options.
func (lhexiconDriver) Command() string { return "new lhexicon seats=2" }

// Engine is the match the room builds from the seed its code derives.
func (lhexiconDriver) Engine(code string, match int) (rules.Engine, error) {
	return lhexicon.Game.New(rules.Options{}, 2, rules.DerivedSeed(code, match))
}

// StartMarker is the side panel's bank count at the start.
func (lhexiconDriver) StartMarker(state rules.Engine) string {
	return "Bank " + strconv.Itoa(state.(*lhexicon.State).Bank())
}

// Marker is the side panel's last-move line, "Last: NAME CRUEL 9", cut after the name (the rest
// may wrap): the seats take turns, so every move changes the name.
func (lhexiconDriver) Marker(state rules.Engine, name string) string {
	if state.Outcome().Over {
		return GameOver
	}
	return "Last: " + name
}

// loadPlays is how many plays PickMove collects before it chooses.
const loadPlays = 8

// PickMove plays one of the first plays the generator finds, most of the time, and otherwise
// passes or exchanges a tile: a few milliseconds a move, where Legal would search for 50 plays.
func (lhexiconDriver) PickMove(state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	s, ok := state.(*lhexicon.State)
	if !ok {
		return RandomMove(state, seat, rng)
	}
	if rng.IntN(10) > 0 {
		var plays []string
		s.Generate(context.Background(), seat, func(c lhexicon.Candidate) bool {
			plays = append(plays, c.Move.String())
			return len(plays) < loadPlays
		})
		if len(plays) > 0 {
			return plays[rng.IntN(len(plays))]
		}
	}
	if rack := s.Rack(seat); len(rack) > 0 && s.Bank() > 0 {
		return lhexicon.Move{Kind: lhexicon.Exchange, Give: rack[:1]}.String()
	}
	return "pass"
}

// Seeded is true: the bank is shuffled from the seed.
func (lhexiconDriver) Seeded() bool { return true }
