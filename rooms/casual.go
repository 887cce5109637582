package rooms

import (
	"time"

	"github.com/arcade/arcade/rules"
)

// Only standard settings are rated (docs/rules.md, "Ratings"). A room whose game options are not
// all standard (rules.Option.Standard), or whose clock is not, is casual for its whole life: none
// of its matches changes a rating, whoever plays them. The room decides it when it is created,
// from its options, and every match records it with its start (Event.Casual,
// record.Match.Casual), so that the store's rating step, on every node of a cluster, and a room
// resumed elsewhere read the same decision.

// The shortest standard clocks: a limit a move, and a game clock (whatever its increment).
const (
	StandardMoveClock = time.Minute
	StandardGameClock = 5 * time.Minute
)

// Standard reports whether c is a clock a rated room may set: a limit of at least
// StandardMoveClock a move, or a game clock of at least StandardGameClock. A room that sets no
// clock has the server's default (Config.MoveLimit), which is standard whatever it is; one that
// sets clock=off, or a shorter clock, is casual.
func (c Clock) Standard() bool {
	return c.Move >= StandardMoveClock || c.Game >= StandardGameClock
}

// Casual returns the settings of a room of g with opts (the game's options as Resolve keeps them,
// and the room's clock option when set) that make the room casual, as "key=value" in the order
// the game lists its options, the clock last: nil when the room would be rated (if its seats are
// people with keys). A clock that does not parse is left to Hub.Create to refuse.
func Casual(g rules.Game, opts rules.Options) []string {
	var clock *Clock
	if v, ok := opts[ClockOption]; ok {
		if c, err := ParseClock(v); err == nil {
			clock = &c
		}
	}
	return casualOf(g, opts, clock)
}

// casualOf is Casual with the clock apart: nil when it is the default.
func casualOf(g rules.Game, opts rules.Options, clock *Clock) []string {
	out := g.NonStandard(opts)
	if clock != nil && !clock.Standard() {
		out = append(out, ClockOption+"="+clock.String())
	}
	return out
}
