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
	gen   uint64 // the timer's generation: a callback of an older one does nothing
	timer *time.Timer
}

// armTurn starts the timer of the turn now due when the engine times it. A turn that was already
// timed keeps its time when the move just played was another seat's (an opponent's answer to a
// challenge does not give the seat to move its time again); any other timer is stopped. by is the
// seat that made the last move, or rules.Spectator at the start of a match. Room goroutine only.
func (r *Room) armTurn(by rules.Seat) {
	tt, timed := r.engine.(rules.TurnTimer)
	if r.phase != Playing || !timed {
		r.stopTurn()
		return
	}
	seat, limit, _, ok := tt.TurnLimit()
	if !ok || seat < 0 || int(seat) >= len(r.seats) || limit <= 0 {
		r.stopTurn()
		return
	}
	if t := r.turn; t != nil && t.Seat == seat && by != rules.Spectator && by != seat {
		return
	}
	r.stopTurn()
	r.turnGen++
	gen := r.turnGen
	r.turn = &turnTimer{TurnClock: TurnClock{Seat: seat, Ends: time.Now().Add(limit)}, gen: gen}
	r.turn.timer = time.AfterFunc(limit, func() { r.post(func() { r.timeUp(gen) }) })
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
	seat, _, move, ok := r.engine.(rules.TurnTimer).TurnLimit()
	if !ok || seat != t.Seat {
		r.armTurn(rules.Spectator)
		return
	}
	r.system("%s ran out of time: %s", r.seats[seat].name(), move)
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
