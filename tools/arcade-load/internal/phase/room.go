package phase

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/tools/arcade-load/internal/client"
	"github.com/arcade/arcade/tools/arcade-load/internal/drivers"
	"github.com/arcade/arcade/tools/arcade-load/internal/screen"
	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
)

// Timeouts of the play phase. They bound each wait; none of them is a performance assertion.
const (
	setupTimeout = 60 * time.Second // a room's code, a join, a rematch
	moveTimeout  = 15 * time.Second // a move or a keystroke to reach a screen
)

var codeRe = regexp.MustCompile(`room ([A-Z2-9]{5})`)

// playStats is what the play phase measures; safe for concurrent use.
type playStats struct {
	move      stats.Latencies // move sent -> opponent's screen shows it
	key       stats.Latencies // ':' sent -> own screen shows the prompt
	sent      atomic.Int64
	seen      atomic.Int64
	late      atomic.Int64 // moves sent later than their schedule by more than half an interval
	rematches atomic.Int64
	errs      *stats.ErrorLog
}

// room is two clients playing a game. players[s] holds seat s.
type room struct {
	id      int
	code    string
	players [2]*client.Client
	game    drivers.Driver
	state   rules.Engine
	rng     *rand.Rand
	match   int
	plies   int     // moves played in the match
	marker  string  // the text the screens show for the position now
	sent    string  // the last move sent: the one that leads to the candidate position of resync
	acks    *ackLog // when not nil, every acknowledged move is noted in it (the churn phase)
}

// openRoom connects two clients, the first creating a room and the second joining it by its
// code, each its own way (o, e.g. to different nodes) and with its own key (keys), and waits
// until both screens show the match's start. The room's moves are chosen from a source seeded
// with id.
func openRoom(ctx context.Context, o [2]client.DialOpts, keys [2]int, id int, game drivers.Driver) (*room, error) {
	r := &room{id: id, game: game, rng: rand.New(rand.NewPCG(uint64(id), 7))}
	a, err := client.Dial(ctx, o[0], keys[0], game.Command())
	if err != nil {
		return nil, fmt.Errorf("creator: %w", err)
	}
	w := a.ExpectFunc(func(s *screen.Screen) bool { return codeRe.MatchString(s.Row(0)) })
	if _, err := a.Wait(ctx, w, setupTimeout, a.Name+" waiting for the room code"); err != nil {
		a.Close()
		return nil, err
	}
	r.code = codeRe.FindStringSubmatch(a.Row(0))[1]
	b, err := client.Dial(ctx, o[1], keys[1], "join "+r.code)
	if err != nil {
		a.Close()
		return nil, fmt.Errorf("joiner: %w", err)
	}
	r.players = [2]*client.Client{a, b}
	if err := r.newMatch(ctx); err != nil {
		r.close()
		return nil, fmt.Errorf("%w\nthe joiner's screen (%s):\n%s", err, b.Name, b.Text())
	}
	return r, nil
}

// newMatch starts the local engine for a new match and waits for both screens to show it.
func (r *room) newMatch(ctx context.Context) error {
	st, err := r.game.Engine(r.code, r.match+1)
	if err != nil {
		return err
	}
	r.state = st
	r.match++
	r.plies = 0
	r.marker = r.game.StartMarker(st)
	for _, c := range r.players {
		if err := c.WaitText(ctx, r.marker, setupTimeout); err != nil {
			return err
		}
	}
	return nil
}

func (r *room) close() {
	for _, c := range r.players {
		if c != nil {
			c.Close()
		}
	}
}

// play makes moves at the room's pace (one every half interval, so each player moves once an
// interval) from first until end, then returns. Moves sent in [from, end) are measured.
func (r *room) play(ctx context.Context, ps *playStats, first, from, end time.Time, interval time.Duration) {
	half := interval / 2
	next := first
	for {
		if d := time.Until(next); d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return
			}
		}
		now := time.Now()
		if !now.Before(end) {
			return
		}
		if now.Sub(next) > half {
			ps.late.Add(1)
		}
		if cand, err := r.ply(ctx, ps, !now.Before(from)); err != nil {
			if ctx.Err() != nil {
				return
			}
			kind := "move"
			var ke kindErr
			if errors.As(err, &ke) {
				kind = ke.kind
			}
			ps.errs.Add(kind, fmt.Errorf("room %s: %w", r.code, err))
			if !r.players[0].Alive() || !r.players[1].Alive() {
				ps.errs.Add("disconnected", fmt.Errorf("room %s: a player's connection ended", r.code))
				return
			}
			if err := r.resync(ctx, ps, cand); err != nil {
				ps.errs.Add("resync", fmt.Errorf("room %s: %w", r.code, err))
				return
			}
		}
		next = next.Add(half)
	}
}

// kindErr is an error with the kind it is counted under.
type kindErr struct {
	kind string
	err  error
}

func (e kindErr) Error() string { return e.err.Error() }
func (e kindErr) Unwrap() error { return e.err }

// ply plays one move: the mover opens the prompt (timed: keystroke to redraw), types the move
// and presses enter; the opponent's screen must then show the new turn counts (timed: move to
// opponent's screen). On an error after the move was sent, cand is the position it would lead to.
func (r *room) ply(ctx context.Context, ps *playStats, measure bool) (cand rules.Engine, err error) {
	seat := r.state.ToMove()[0]
	mover, opp := r.players[seat], r.players[1-seat]
	move := r.game.PickMove(r.state, seat, r.rng)
	next, err := r.state.Apply(seat, move)
	if err != nil {
		return nil, fmt.Errorf("local engine refused %q: %w", move, err)
	}
	mover.SetRole(client.RoleMoving)
	opp.SetRole(client.RoleWaiting)

	prompt := mover.ExpectNew("move:")
	t0 := time.Now()
	if err := mover.Send(":"); err != nil {
		return nil, kindErr{"send", err}
	}
	at, err := mover.Wait(ctx, prompt, moveTimeout, mover.Name+" waiting for the move prompt")
	if err != nil {
		return nil, kindErr{"prompt", err}
	}
	if measure {
		ps.key.Add(at.Sub(t0))
	}

	want := r.game.Marker(next, mover.Name)
	r.sent = move
	seen := opp.ExpectNew(want)
	mine := mover.Expect(want)
	t1 := time.Now()
	if err := mover.Send(move + "\r"); err != nil {
		return next, kindErr{"send", err}
	}
	ps.sent.Add(1)
	at, err = opp.Wait(ctx, seen, moveTimeout, fmt.Sprintf("%s waiting for %s's move %q (%s)", opp.Name, mover.Name, move, want))
	if err != nil {
		return next, kindErr{"move-unseen", err}
	}
	ps.seen.Add(1)
	r.acked(seat, move)
	if measure {
		ps.move.Add(at.Sub(t1))
	}
	if _, err := mover.Wait(ctx, mine, moveTimeout, mover.Name+" waiting for its own move"); err != nil {
		return next, kindErr{"move-unseen", err}
	}
	r.advance(next, want)
	if next.Outcome().Over {
		return nil, r.rematch(ctx, ps)
	}
	return nil, nil
}

// rematch waits for both screens to show the end, asks for a rematch from both seats, and waits for
// the new match, in which the players have swapped seats.
func (r *room) rematch(ctx context.Context, ps *playStats) error {
	for _, c := range r.players {
		if err := c.WaitText(ctx, "GAME OVER", setupTimeout); err != nil {
			return kindErr{"rematch", err}
		}
	}
	for _, c := range r.players {
		if err := c.Send("r"); err != nil {
			return kindErr{"send", err}
		}
	}
	r.players[0], r.players[1] = r.players[1], r.players[0]
	if err := r.newMatch(ctx); err != nil {
		return kindErr{"rematch", err}
	}
	ps.rematches.Add(1)
	return nil
}

// resync brings the room back to a known state after a failed move: when the mover's prompt is
// open it is closed (escape closes a prompt, but would leave the room from the board, so it is
// only sent to an open prompt), and when a screen shows that the move was played after all (cand's
// turn counts), the local engine adopts it.
func (r *room) resync(ctx context.Context, ps *playStats, cand rules.Engine) error {
	for _, c := range r.players {
		if !strings.Contains(c.Text(), "move:") {
			continue
		}
		if err := c.Send("\x1b"); err != nil {
			return err
		}
		deadline := time.Now().Add(moveTimeout)
		for strings.Contains(c.Text(), "move:") {
			if time.Now().After(deadline) {
				return fmt.Errorf("%s: the move prompt does not close", c.Name)
			}
			if err := sleep(ctx, 50*time.Millisecond); err != nil {
				return err
			}
		}
	}
	if cand == nil {
		return nil
	}
	seat := r.state.ToMove()[0]
	want := r.game.Marker(cand, r.players[seat].Name)
	for _, c := range r.players {
		if strings.Contains(c.Text(), want) {
			r.acked(seat, r.sent)
			r.advance(cand, want)
			if cand.Outcome().Over {
				return r.rematch(ctx, ps)
			}
			return nil
		}
	}
	return nil
}

// acked notes that the move numbered r.plies of the match, seat's move, reached a screen.
func (r *room) acked(seat rules.Seat, move string) {
	if r.acks != nil {
		r.acks.add(r.code, r.match, r.plies, seat, move)
	}
}

// advance makes state, whose screens show marker, the room's position: one move further.
func (r *room) advance(state rules.Engine, marker string) {
	r.state = state
	r.plies++
	r.marker = marker
}

// runRooms plays every room until end and waits for them.
func runRooms(ctx context.Context, rs []*room, ps *playStats, start, from, end time.Time, interval time.Duration) {
	var wg sync.WaitGroup
	half := interval / 2
	for i, r := range rs {
		// Spread the rooms' first moves over half an interval so that moves arrive at a steady rate.
		first := start.Add(time.Duration(int64(half) * int64(i) / int64(max(len(rs), 1))))
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.play(ctx, ps, first, from, end, interval)
		}()
	}
	wg.Wait()
}
