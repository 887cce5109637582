package rooms

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/arcade/arcade/rules"
)

// botToken names the position a bot was asked to move in: the room's match number and the number
// of moves played in it. A bot's answer for another position is stale and dropped.
type botToken struct{ match, ply int }

// botGrace is how long a bot may take to answer after its deadline before the room gives up on it
// and plays the first legal move for it.
const botGrace = 500 * time.Millisecond

// botRetry is how long a bot waits to try again after the Recorder refused its move.
const botRetry = time.Second

// kickBots asks every bot that may act now, and has not been asked for this position yet, for a
// move. Room goroutine only.
func (r *Room) kickBots() {
	if r.phase != Playing {
		return
	}
	tok := botToken{r.match, len(r.moves)}
	for _, seat := range r.engine.ToMove() {
		st := r.seats[seat]
		if st.bot == "" || r.thinking[seat] == tok {
			continue
		}
		r.thinking[seat] = tok
		// The generator depends only on the match seed, the move number and the seat, so that a
		// seeded match replays the same.
		rng := rand.New(rand.NewPCG(r.seed, uint64(tok.ply)<<8|uint64(seat)))
		delay, timeout := r.botPace(seat)
		go r.think(st.level, r.engine, seat, tok, rng, delay, timeout)
	}
}

// botPace returns the least time seat's bot takes for its move (Config.BotDelay) and the deadline
// of its search (Config.BotTimeout), each cut so that a turn of several moves fits in the time the
// seat has left when a clock or a timed turn runs for it: the pause at most a tenth of that time,
// the search a quarter. Room goroutine only.
func (r *Room) botPace(seat rules.Seat) (delay, timeout time.Duration) {
	delay, timeout = r.cfg.BotDelay, r.cfg.BotTimeout
	var ends time.Time
	if r.turn != nil && r.turn.Seat == seat {
		ends = r.turn.Ends
	}
	if s, e, ok := r.clockEnds(); ok && s == seat && (ends.IsZero() || e.Before(ends)) {
		ends = e
	}
	if ends.IsZero() {
		return delay, timeout
	}
	left := time.Until(ends)
	return min(delay, left/10), min(timeout, left/4)
}

// think runs on a goroutine of its own: it asks bot for a move in state under timeout, takes at
// least pause in all, and submits the move to the room (botPace gives both). A bot that panics or
// does not answer in time submits "", which the room replaces with the first legal move.
func (r *Room) think(lv rules.BotLevel, state rules.Engine, seat rules.Seat, tok botToken, rng *rand.Rand, pause, timeout time.Duration) {
	ctx, cancel := context.WithTimeout(r.ctx, timeout)
	defer cancel()
	var delay <-chan time.Time
	if pause > 0 {
		t := time.NewTimer(pause)
		defer t.Stop()
		delay = t.C
	}
	result := make(chan string, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				r.cfg.Logf("rooms: room %s: %s bot (%s) panicked: %v", r.code, r.game.ID, lv.Name, p)
				result <- ""
			}
		}()
		result <- lv.Bot.Move(ctx, state, seat, rng)
	}()

	var move string
	select {
	case move = <-result:
	case <-ctx.Done():
		late := time.NewTimer(botGrace)
		defer late.Stop()
		select {
		case move = <-result:
		case <-late.C:
			r.cfg.Logf("rooms: room %s: %s bot (%s) did not answer in time", r.code, r.game.ID, lv.Name)
		case <-r.done:
			return
		}
	}
	if delay != nil {
		select {
		case <-delay:
		case <-r.done:
			return
		}
	}
	r.post(func() { r.botMoved(seat, tok, move) })
}

// botMoved plays a bot's move, unless the position has changed since the bot was asked. An illegal
// move (a bug of the bot) is logged and replaced by the first legal move. Room goroutine only.
func (r *Room) botMoved(seat rules.Seat, tok botToken, move string) {
	if r.phase != Playing || tok != (botToken{r.match, len(r.moves)}) || r.thinking[seat] != tok ||
		r.seats[seat].bot == "" {
		return // stale: another match or another position, or no longer a bot's seat
	}
	delete(r.thinking, seat)
	err := r.apply(seat, move)
	if errors.Is(err, ErrStorageDown) {
		return // nothing can be saved until the restart, which resumes the match with its bots
	}
	if err != nil && !errors.Is(err, ErrNotSaved) {
		r.cfg.Logf("rooms: room %s: %s bot (%s) made an illegal move %q: %v; playing the first legal move instead",
			r.code, r.game.ID, r.seats[seat].bot, move, err)
		legal := r.engine.Legal(seat)
		if len(legal) == 0 {
			r.cfg.Logf("rooms: room %s: %s: seat %d is to move but has no legal move", r.code, r.game.ID, seat)
			return
		}
		if err = r.apply(seat, legal[0]); err != nil && !errors.Is(err, ErrNotSaved) {
			r.cfg.Logf("rooms: room %s: %s: the first legal move %q failed: %v", r.code, r.game.ID, legal[0], err)
			return
		}
	}
	if errors.Is(err, ErrNotSaved) {
		time.AfterFunc(botRetry, func() { r.post(r.kickBots) })
	}
}
