package session

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session/draw"
)

// roomClock is the room's clock: the time a timed turn has left, drawn in the panel under the
// turn lines ("2:41 left for your turn"), and the tick that has the panel drawn again when that
// time, or a dropped seat's countdown, shows its next value. It takes no keys (like bubbles'
// timer), so it has no key map. It draws the snapshot the room shows it (show).
type roomClock struct {
	snap  *rooms.Snapshot
	board draw.Board
	// ticks is the session's waker, whose goroutine sends the tick asked for last (armTick);
	// without it (a screen drawn alone, in tests) the clock does not tick. gen counts the ticks
	// asked for, and a tick of an older generation (sent as a newer was asked for) is stale.
	ticks *waker
	gen   int
	// turnEnds is when the timed turn last seen ends, and turnLong how long it had when first
	// seen: a short turn (Flic Flac's 20 s) warns only near its end, not all along.
	turnEnds time.Time
	turnLong time.Duration
}

// show has the clock draw snap, seen through board; the room gives it its own snapshot, which
// it replaces at every update.
func (c *roomClock) show(snap *rooms.Snapshot, board draw.Board) { c.snap, c.board = snap, board }

// current reports whether msg is the tick asked for last, not a stale one.
func (c *roomClock) current(msg tickMsg) bool { return msg.gen == c.gen }

// Update takes the clock's tick: the current one asks for the next (tick); a stale one, sent
// before a newer was asked for, does nothing, since the newer one draws. It returns no command:
// the clock's timer sends the ticks.
func (c *roomClock) Update(msg tea.Msg) {
	if t, ok := msg.(tickMsg); ok && c.current(t) {
		c.tick()
	}
}

// tick asks for the countdown's next tick, when a dropped seat's countdown or a timed turn's
// clock is showing, at the moment the clock shows its next value (or in a second, for a seat's
// countdown). It stops the tick on its way, if any: a snapshot brings a clock of its own (the
// turn passed, a move reset it), and the tick asked for the clock before would come too early,
// drawing a panel that had not changed, or too late, leaving the new clock frozen for up to 10 s
// (a game clock in tens of seconds handing over to one in its last 70 s). So one tick is on its
// way at a time, and it comes when the panel changes: at most a frame a second. The tick is a
// tickMsg the session's waker sends to the program (ticks): a snapshot re-arms its timer, and
// no tick starts a goroutine.
func (c *roomClock) tick() {
	c.stopTick()
	if !c.countingDown() || c.ticks == nil {
		return
	}
	s := c.snap
	next := time.Second
	if cl := s.Clock; !cl.Ends.IsZero() && s.Phase == rooms.Playing {
		if _, d := clockShown(time.Until(cl.Ends)); d > 0 {
			next = d // when the turn's clock shows its next value
		}
		if c.countingAway() {
			next = min(next, time.Second)
		}
	}
	c.gen++
	c.ticks.armTick(next, c.gen)
}

// stopTick stops the tick on its way, if one is (on leaving the room too). A tick sent already
// still comes, stale.
func (c *roomClock) stopTick() {
	if c.ticks != nil {
		c.ticks.stopTick()
	}
}

// countingDown reports whether a timed turn's clock or a dropped seat's countdown is showing.
func (c *roomClock) countingDown() bool {
	if c.snap == nil {
		return false
	}
	return (c.snap.Phase == rooms.Playing && !c.snap.Clock.Ends.IsZero()) || c.countingAway()
}

// countingAway reports whether a dropped seat's countdown is showing.
func (c *roomClock) countingAway() bool {
	for _, s := range c.snap.Seats {
		if !s.GraceUntil.IsZero() && !s.Abandoned && !s.Connected {
			return true
		}
	}
	return false
}

// View draws the clock's lines, which end the panel's turn lines: the time the timed turn has
// left, when the game times its turns ("2:41 left for your turn"; "2:41 left" under "Waiting for
// bob (Blue)."; "bob (Blue) has 2:41" when others are waited for too), with every player's time
// under it on a game clock, then a blank line. Without a timed turn it is the blank line alone.
func (c *roomClock) View(st draw.Styles, w int) []string {
	s := c.snap
	if s == nil || s.Clock.Ends.IsZero() || int(s.Clock.Seat) >= len(s.Seats) {
		return []string{""}
	}
	cl := s.Clock
	clock := clockTextWarning(st, time.Until(cl.Ends), c.warning())
	text := clock + " left for your turn"
	switch {
	case cl.Seat == s.You:
	case len(s.ToMove) == 1 && s.ToMove[0] == cl.Seat:
		text = clock + " left" // the line above names them: "Waiting for bob (Blue)."
	default:
		text = s.Seats[cl.Seat].Name + " (" + seatTag(c.board, st, int(cl.Seat)) + ") has " + clock
	}
	lines := wrapKeepingParens(text, w)
	// A game clock: every player's time, the running one's ticking.
	if s.TimeControl.Game > 0 && len(s.Times) == len(s.Seats) {
		parts := make([]string, len(s.Times))
		for i, t := range s.Times {
			if rules.Seat(i) == cl.Seat {
				t = time.Until(cl.Ends)
			}
			parts[i] = seatTag(c.board, st, i) + " " + clockText(st, t)
		}
		lines = append(lines, draw.Wrap(strings.Join(parts, " · "), w)...)
	}
	return append(lines, "")
}

// warning is the time left under which the turn's clock is drawn as a warning: clockWarning, or
// the last quarter of a short turn.
func (c *roomClock) warning() time.Duration {
	if cl := c.snap.Clock; !cl.Ends.Equal(c.turnEnds) {
		c.turnEnds, c.turnLong = cl.Ends, time.Until(cl.Ends)
	}
	return min(clockWarning, c.turnLong/4)
}

// turnLine is the turn's clock on one line, for the rules, which hide the panel: "Your turn: 0:12
// left", or "bob (Blue) has 0:12"; "" without a timed turn.
func (c *roomClock) turnLine(st draw.Styles) string {
	s := c.snap
	if s == nil || s.Phase != rooms.Playing || s.Clock.Ends.IsZero() || int(s.Clock.Seat) >= len(s.Seats) {
		return ""
	}
	cl := s.Clock
	clock := clockTextWarning(st, time.Until(cl.Ends), c.warning())
	if cl.Seat == s.You {
		return "Your turn: " + clock + " left"
	}
	return s.Seats[cl.Seat].Name + " (" + seatTag(c.board, st, int(cl.Seat)) + ") has " + clock
}

// clockFine is the time left under which a clock is shown to the second; above it, to ten
// seconds, so that a long clock costs a frame every ten seconds, not every second.
const clockFine = 70 * time.Second

// clockShown returns how a clock with raw time left shows it and how long until it shows another
// value: the whole seconds left, rounded down, and above clockFine those rounded down to ten
// seconds, so that a clock never shows more than a player has (10:03 left, with an increment,
// shows 10:00, not 10:10; 19.6 s shows 0:19, not 0:20). It shows 0:00 in the turn's last
// second.
func clockShown(raw time.Duration) (shown, next time.Duration) {
	if raw <= 0 {
		return 0, 0
	}
	shown = raw / time.Second * time.Second
	if shown > clockFine {
		shown = shown / (10 * time.Second) * (10 * time.Second)
	}
	return shown, raw - shown + clockLate // it shows less once less than shown is left
}

// clockLate is how long after a clock's value has run out it is drawn again: a tick asked for at
// the very instant could find the same value left.
const clockLate = time.Millisecond

// clockWarning is the time left under which a turn's clock is drawn as a warning.
const clockWarning = 30 * time.Second

// clockText writes a time left as a clock shows it (clockShown), "2:40", in bold, or as a warning
// when it runs short.
func clockText(st draw.Styles, raw time.Duration) string {
	return clockTextWarning(st, raw, clockWarning)
}

// clockTextWarning is clockText warning from warn on.
func clockTextWarning(st draw.Styles, raw, warn time.Duration) string {
	left, _ := clockShown(raw)
	clock := fmt.Sprintf("%d:%02d", int(left.Minutes()), int(left.Seconds())%60)
	if left <= warn {
		return st.Err.Render(clock)
	}
	return st.Bold.Render(clock)
}
