package rooms

import (
	"errors"
	"time"

	"github.com/arcade/arcade/rules"
)

// TurnClock is the time of the turn now being played, in a match whose engine times its turns
// (rules.TurnTimer): the seat whose time runs and when it runs out. Ends is zero when no turn
// is timed.
type TurnClock struct {
	Seat rules.Seat
	Ends time.Time
}

// Left returns the time the turn has left at now, rounded up to the second (a clock that shows
// 0:00 has run out), and zero when no turn is timed.
func (c TurnClock) Left(now time.Time) time.Duration {
	if c.Ends.IsZero() {
		return 0
	}
	left := c.Ends.Sub(now)
	if left <= 0 {
		return 0
	}
	return (left + time.Second - 1).Truncate(time.Second)
}

// turnTimer is a room's running turn timer.
type turnTimer struct {
	TurnClock
	turn  int    // rules.TurnLimit.Turn
	gen   uint64 // the timer's generation: a callback of an older one does nothing
	timer *time.Timer
}

// armTurn starts the timer of the turn now due when the engine times it, unless it is the turn
// whose timer runs (same seat, same rules.TurnLimit.Turn: a turn of several moves, or an
// opponent's answer during it); any other timer is stopped. restart starts it in any case (a
// match begun or resumed). Room goroutine only.
func (r *Room) armTurn(restart bool) {
	tt, timed := r.engine.(rules.TurnTimer)
	if r.phase != Playing || !timed {
		r.stopTurn()
		return
	}
	tl, ok := tt.TurnLimit()
	if !ok || tl.Seat < 0 || int(tl.Seat) >= len(r.seats) || tl.Limit <= 0 {
		r.stopTurn()
		return
	}
	if t := r.turn; !restart && t != nil && t.Seat == tl.Seat && t.turn == tl.Turn {
		return
	}
	r.stopTurn()
	r.turnGen++
	gen := r.turnGen
	r.turn = &turnTimer{TurnClock: TurnClock{Seat: tl.Seat, Ends: time.Now().Add(tl.Limit)}, turn: tl.Turn, gen: gen}
	r.turn.timer = time.AfterFunc(tl.Limit, func() { r.post(func() { r.timeUp(gen) }) })
}

// stopTurn stops the turn timer, if one runs. Room goroutine only.
func (r *Room) stopTurn() {
	if r.turn != nil {
		r.turn.timer.Stop()
		r.turn = nil
	}
	r.turnGen++
}

// timeUp plays, for the seat whose time ran out, the move the rules play then; it is recorded
// like any other move. A refused write tries again a little later, as a bot's does. Room
// goroutine only.
func (r *Room) timeUp(gen uint64) {
	t := r.turn
	if t == nil || t.gen != gen || r.phase != Playing {
		return
	}
	tl, ok := r.engine.(rules.TurnTimer).TurnLimit()
	if !ok || tl.Seat != t.Seat || tl.Turn != t.turn {
		r.armTurn(true)
		return
	}
	seat, move := tl.Seat, tl.Timeout
	r.system("time is up for %s: %s", r.seats[seat].name(), rules.TellMove(r.engine, seat, move))
	err := r.apply(seat, move)
	switch {
	case err == nil:
	case errors.Is(err, ErrStorageDown):
		// nothing can be saved until the restart, which gives the turn its time again
	case errors.Is(err, ErrNotSaved):
		r.clockRetry(gen)
	default:
		r.cfg.Logf("rooms: room %s: %s: the timeout move %q of seat %d failed: %v", r.code, r.game.ID, move, seat, err)
	}
}

// clockRetry tries the timeout of generation gen again after botRetry. Room goroutine only.
func (r *Room) clockRetry(gen uint64) {
	r.turn.timer = time.AfterFunc(botRetry, func() { r.post(func() { r.timeUp(gen) }) })
}

// turnClock returns the running turn's clock for snapshots. Room goroutine only.
func (r *Room) turnClock() TurnClock {
	if r.turn == nil {
		return TurnClock{}
	}
	return r.turn.TurnClock
}
