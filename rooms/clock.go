package rooms

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arcade/arcade/rules"
)

// ClockOption is the room option that sets a room's clock, besides the game's own options:
// "off", a limit per move ("2m", "90s"), or a game clock with an increment ("10m+5s"). Without
// it a rated match (every seat a person with a key) gets Config.MoveLimit a move, and any other
// is untimed.
const ClockOption = "clock"

// DefaultMoveLimit is the default of Config.MoveLimit: no rated match can stall.
const DefaultMoveLimit = 2 * time.Minute

// clockGrace is what a running clock gets back after a restart, besides the time it had when its
// turn began.
const clockGrace = 5 * time.Second

// Bounds of a clock's times.
const (
	minClock = 5 * time.Second
	maxClock = 24 * time.Hour
)

// Day is the unit of a correspondence clock: "clock=3d" is three days a move.
const Day = 24 * time.Hour

// maxDays is the longest correspondence clock, in days a move.
const maxDays = 14

// ErrBadClock: the clock option is not one a room can keep.
var ErrBadClock = errors.New(`clock must be off, a time a move ("2m", "90s", or "3d": days, for correspondence) or a game clock with an increment ("10m+5s")`)

// Clock is a room's clock: untimed (zero), a limit per move, or each player's time for the
// whole match with an increment after each of their moves.
type Clock struct {
	// Move is the time a move may take; zero for none.
	Move time.Duration
	// Game is each player's time for the match; zero for none. Increment is added after each of
	// the player's moves.
	Game, Increment time.Duration
}

// Timed reports whether the clock limits anything.
func (c Clock) Timed() bool { return c.Move > 0 || c.Game > 0 }

// Correspondence reports whether the clock is a correspondence clock: a day a move or more. A
// room of such a clock lives on with nobody connected (its seats never run out of grace: the
// clock alone ends the match), and sleeps while nobody watches it (Config.Sleep).
func (c Clock) Correspondence() bool { return c.Move >= Day }

// String writes the clock as the option takes it: "off", "2m", "10m+5s", "3d".
func (c Clock) String() string {
	switch {
	case c.Game > 0:
		return shortDuration(c.Game) + "+" + shortDuration(c.Increment)
	case c.Move > 0 && c.Move%Day == 0:
		return strconv.Itoa(int(c.Move/Day)) + "d"
	case c.Move > 0:
		return shortDuration(c.Move)
	}
	return "off"
}

// ParseClock reads the clock option: "off", "2m", "90s", "1h", "10m+5s", "5m+0s", and days a
// move for correspondence, "1d" to "14d".
func ParseClock(s string) (Clock, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "off" || s == "none" || s == "0" {
		return Clock{}, nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n < 1 || n > maxDays {
			return Clock{}, ErrBadClock
		}
		return Clock{Move: time.Duration(n) * Day}, nil
	}
	base, inc, game := strings.Cut(s, "+")
	d, err := time.ParseDuration(base)
	if err != nil || d < minClock || d > maxClock || d%time.Second != 0 {
		return Clock{}, ErrBadClock
	}
	if !game {
		return Clock{Move: d}, nil
	}
	i, err := time.ParseDuration(inc)
	if err != nil || i < 0 || i > maxClock || i%time.Second != 0 {
		return Clock{}, ErrBadClock
	}
	return Clock{Game: d, Increment: i}, nil
}

// shortDuration writes d as "2m", "1m30s", "1h", "0s".
func shortDuration(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	var b strings.Builder
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}} {
		if n := d / u.d; n > 0 {
			fmt.Fprintf(&b, "%d%s", n, u.name)
			d -= n * u.d
		}
	}
	return b.String()
}

// splitClock takes the clock option out of opts: the clock (nil when not set: the default
// applies) and the game's own options.
func splitClock(opts rules.Options) (*Clock, rules.Options, error) {
	v, ok := opts[ClockOption]
	if !ok {
		return nil, opts, nil
	}
	c, err := ParseClock(v)
	if err != nil {
		return nil, nil, err
	}
	rest := maps.Clone(opts)
	delete(rest, ClockOption)
	return &c, rest, nil
}

// matchClock is the clock of the room's match: the room's own, or the default for a rated
// match. Room goroutine only.
func (r *Room) matchClock() Clock {
	if r.clockSet != nil {
		return *r.clockSet
	}
	if r.cfg.MoveLimit > 0 && len(r.seats) >= 2 &&
		!slices.ContainsFunc(r.seats, func(st *seatState) bool { return st.bot != "" || st.player.Guest }) {
		return Clock{Move: r.cfg.MoveLimit}
	}
	return Clock{}
}

// startClock sets the clock of a match begun: every player's whole time. Room goroutine only.
func (r *Room) startClock() {
	r.clock = r.matchClock()
	r.times = nil
	if r.clock.Game > 0 {
		r.times = make([]time.Duration, len(r.seats))
		for i := range r.times {
			r.times[i] = r.clock.Game
		}
	}
}

// restoreClock sets the clock of a match restored with moves: each player's time is what it was
// when their turn last began (charged from the moves' times), and the player to move gets
// clockGrace more. Room goroutine only.
func (r *Room) restoreClock(started time.Time) {
	r.startClock()
	if r.clock.Correspondence() {
		// A correspondence turn's deadline is kept through restarts and sleeps: the turn began
		// with the last move (or the start), however long ago.
		r.turnFrom = started
		if n := len(r.moves); n > 0 && !r.moves[n-1].At.IsZero() {
			r.turnFrom = r.moves[n-1].At
		}
	}
	if r.times == nil {
		return
	}
	prev := started
	for _, mv := range r.moves {
		if !mv.At.IsZero() && !prev.IsZero() && int(mv.Seat) < len(r.times) {
			r.times[mv.Seat] -= mv.At.Sub(prev)
			r.times[mv.Seat] += r.clock.Increment
		}
		prev = mv.At
	}
	for i := range r.times {
		r.times[i] = max(r.times[i], 0) + clockGrace
	}
}

// armClock starts the clock of the seat to move now, after a move (or at the start), and stops
// the one before. Room goroutine only.
func (r *Room) armClock() {
	r.stopClock()
	if r.phase != Playing || !r.clock.Timed() {
		return
	}
	to := r.engine.ToMove()
	if len(to) == 0 {
		return
	}
	seat := to[0]
	left := r.clock.Move
	if r.times != nil {
		left = r.times[seat]
	}
	since := time.Now()
	if !r.turnFrom.IsZero() { // a restored correspondence turn: its time ran meanwhile
		since, r.turnFrom = r.turnFrom, time.Time{}
		left -= time.Since(since)
	}
	r.clockGen++
	gen := r.clockGen
	r.clockSeat, r.clockSince = seat, since
	r.clockTimer = time.AfterFunc(left, func() { r.post(func() { r.clockOut(gen) }) })
}

// stopClock stops the running clock. Room goroutine only.
func (r *Room) stopClock() {
	r.clockGen++
	if r.clockTimer != nil {
		r.clockTimer.Stop()
		r.clockTimer = nil
	}
}

// chargeClock charges the time since the running clock started to its seat, with the increment
// when seat (who moved) is that seat. Room goroutine only.
func (r *Room) chargeClock(seat rules.Seat) {
	if r.times == nil || r.clockTimer == nil || int(r.clockSeat) >= len(r.times) {
		return
	}
	r.times[r.clockSeat] -= time.Since(r.clockSince)
	if seat == r.clockSeat {
		r.times[seat] += r.clock.Increment
	}
}

// clockEnds returns the running clock's seat and when it runs out; false when none runs. Room
// goroutine only.
func (r *Room) clockEnds() (rules.Seat, time.Time, bool) {
	if r.clockTimer == nil {
		return 0, time.Time{}, false
	}
	left := r.clock.Move
	if r.times != nil {
		left = r.times[r.clockSeat]
	}
	return r.clockSeat, r.clockSince.Add(left), true
}

// clockOut ends the match for the seat whose time ran out: in a two-seat match the opponent
// wins, rated, unless the engine (rules.Winnable) is certain the opponent cannot win, when the
// match is a draw; alone, the match ends with its score; with three seats or more a bot plays
// the seat on and it ranks last (as a resignation). Room goroutine only.
func (r *Room) clockOut(gen uint64) {
	if gen != r.clockGen || r.phase != Playing {
		return
	}
	r.clockTimer = nil
	seat := r.clockSeat
	if r.times != nil {
		r.times[seat] = 0
	}
	st := r.seats[seat]
	name := st.name()
	out := r.engine.Outcome()
	out.Scores = slices.Clone(out.Scores)
	out.Over = true
	out.Reason = name + " ran out of time"
	switch {
	case len(r.seats) == 1:
		out.Ranks = []int{1}
		r.finish(out, false)
	case len(r.seats) == 2:
		out.Ranks = []int{1, 1}
		other := 1 - seat
		if w, ok := r.engine.(rules.Winnable); ok && !w.CanWin(other) {
			out.Reason += "; " + r.seats[other].name() + " cannot win: a draw"
		} else {
			out.Ranks[seat] = 2
		}
		r.finish(out, false)
	case st.bot != "" || len(r.game.Bots) == 0:
		// A bot's time (or a game without bots): the others play on, untimed.
		r.system("%s ran out of time; the clock stops", name)
		r.clock = Clock{}
	default:
		lv := r.game.Bots[len(r.game.Bots)/2]
		if old := st.sub; old != nil {
			old.setSeat(rules.Spectator)
			r.spectators++
		}
		st.resigned, st.sub = true, nil
		r.clearGrace(st)
		r.seatBot(st, lv, "")
		r.system("%s ran out of time; %s plays on for them, and the seat ranks last", name, st.name())
		if err := r.record(Event{Kind: EventTakeover, Seat: seat}); err != nil {
			r.cfg.Logf("rooms: room %s: recording a timeout: %v", r.code, err)
		}
		r.armClock()
		r.kickBots()
	}
	r.broadcast()
}

// clockShown returns the clock as snapshots show it: the seat to move and when its time runs out
// (the earlier of the game's own turn timer and the room's clock), and each player's time when
// their turns began (a game clock). Room goroutine only.
func (r *Room) clockShown() (TurnClock, []time.Duration) {
	tc := r.turnClock()
	if seat, ends, ok := r.clockEnds(); ok && (tc.Ends.IsZero() || ends.Before(tc.Ends)) {
		tc = TurnClock{Seat: seat, Ends: ends}
	}
	return tc, slices.Clone(r.times)
}

// corr reports whether the room keeps a correspondence clock (Clock.Correspondence): the
// match's, or before the first match the one the room was created with. Room goroutine only.
func (r *Room) corr() bool {
	if r.match > 0 {
		return r.clock.Correspondence()
	}
	return r.clockSet != nil && r.clockSet.Correspondence()
}

// due is when the next turn of a correspondence match begun now runs out: a whole clock from
// now; zero for any other match. Room goroutine only.
func (r *Room) due() time.Time {
	if !r.clock.Correspondence() {
		return time.Time{}
	}
	return time.Now().Add(r.clock.Move)
}

// optionsRecorded are the options a match is recorded with: the game's and the clock.
func (r *Room) optionsRecorded() rules.Options {
	opts := maps.Clone(r.opts)
	if r.match > 0 {
		opts[ClockOption] = r.clock.String()
	}
	return opts
}

// clockLabel describes the match's clock in a few words, for the room's panel: "2m a move",
// "10m+5s", "untimed".
func clockLabel(c Clock) string {
	switch {
	case c.Game > 0:
		return fmt.Sprintf("clock %s each, +%s a move", shortDuration(c.Game), shortDuration(c.Increment))
	case c.Move > 0:
		return "clock " + c.String() + " a move"
	}
	return "untimed"
}
