package drivers

import (
	"math/rand/v2"

	"github.com/arcade/arcade/rules"
)

// Driver is what the load tool's play phase knows of one game.
type Driver interface {
	// Command is the command line that opens a two-seat room for the game.
	Command() string
	// Engine returns the match numbered match (1 for a room's first) of the room code, as the
	// server builds it.
	Engine(code string, match int) (rules.Engine, error)
	// StartMarker is a text both screens show when state (a new match) has begun.
	StartMarker(state rules.Engine) string
	// Marker is a text the opponent's screen shows once the move that led to state has been
	// played, on a line the move changed; name is the mover's name.
	Marker(state rules.Engine, name string) string
	// PickMove returns a random legal move of seat in state, in notation (RandomMove, or the
	// same choice made faster).
	PickMove(state rules.Engine, seat rules.Seat, rng *rand.Rand) string
	// Seeded reports whether the game's set-up or cards depend on the match's seed: the server
	// must then derive seeds from room codes (arcade --load-test-seeds) for the tool to follow.
	Seeded() bool
}

// GameOver is what every screen shows when a match has ended: the marker of a match's last move
// for games whose usual marker would not change then.
const GameOver = "GAME OVER"

// RandomMove returns a random legal move of seat in state: one of state.Legal(seat), chosen
// with one rng.IntN.
func RandomMove(state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	legal := state.Legal(seat)
	return legal[rng.IntN(len(legal))]
}
