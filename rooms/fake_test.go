package rooms

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arcade/arcade/rules"
)

// race is a tiny game for the tests: seats take turns adding 1 or 2 to a shared total; whoever
// brings it to the target wins. With the option turns=no, every seat may add at any time.
type race struct {
	free                bool
	target, total, turn int
	scores              []int
	over                bool
	winner              rules.Seat
}

// raceView is what race.View returns.
type raceView struct {
	Viewer        rules.Seat
	Total, Target int
	Turn          rules.Seat
}

func (g race) Game() string { return "race" }
func (g race) Seats() int   { return len(g.scores) }

func (g race) ToMove() []rules.Seat {
	if g.over {
		return nil
	}
	if g.free {
		all := make([]rules.Seat, len(g.scores))
		for i := range all {
			all[i] = rules.Seat(i)
		}
		return all
	}
	return []rules.Seat{rules.Seat(g.turn)}
}

func (g race) Legal(seat rules.Seat) []string {
	if g.over || (!g.free && int(seat) != g.turn) {
		return nil
	}
	return []string{"1", "2"}
}

// Canonical writes a move as "1" or "2", whatever way it was typed ("+1", "02").
func (g race) Canonical(seat rules.Seat, move string) (string, bool) {
	if _, err := g.Apply(seat, move); err != nil {
		return "", false
	}
	n, _ := strconv.Atoi(move)
	return strconv.Itoa(n), true
}

// Tell says "adds 2".
func (g race) Tell(seat rules.Seat, move string) string {
	if c, ok := g.Canonical(seat, move); ok {
		return "adds " + c
	}
	return move
}

func (g race) Apply(seat rules.Seat, move string) (rules.Engine, error) {
	if g.over {
		return nil, rules.ErrGameOver
	}
	if !g.free && int(seat) != g.turn {
		return nil, fmt.Errorf("%w: seat %d is to move", rules.ErrNotYourTurn, g.turn+1)
	}
	n, err := strconv.Atoi(move)
	if err != nil {
		return nil, fmt.Errorf("%w: %q; type 1 or 2", rules.ErrBadNotation, move)
	}
	if n != 1 && n != 2 {
		return nil, errors.New("you may add 1 or 2")
	}
	next := g
	next.scores = slices.Clone(g.scores)
	next.scores[seat] += n
	next.total += n
	if next.total >= g.target {
		next.over, next.winner = true, seat
	} else {
		next.turn = (g.turn + 1) % len(g.scores)
	}
	return next, nil
}

func (g race) View(viewer rules.Seat) any {
	return raceView{Viewer: viewer, Total: g.total, Target: g.target, Turn: rules.Seat(g.turn)}
}

func (g race) Outcome() rules.Outcome {
	o := rules.Outcome{Over: g.over, Scores: slices.Clone(g.scores)}
	if g.over {
		o.Ranks = make([]int, len(g.scores))
		for i := range o.Ranks {
			o.Ranks[i] = 2
		}
		o.Ranks[g.winner] = 1
		o.Reason = "reached " + strconv.Itoa(g.target)
	}
	return o
}

// botFunc adapts a function to rules.Bot.
type botFunc func(ctx context.Context, state rules.Engine, seat rules.Seat, rng *rand.Rand) string

func (f botFunc) Move(ctx context.Context, state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	return f(ctx, state, seat, rng)
}

var raceGame = rules.Game{
	ID:       "race",
	Name:     "Race",
	Summary:  "add 1 or 2; reach the target first",
	MinSeats: 2,
	MaxSeats: 4,
	Options: []rules.Option{
		// Every target is standard, so that the tests' targets keep their rooms rated; turns=no is
		// not, and makes a room casual.
		{Key: "target", Help: "the total to reach", Default: "10", Min: 3, Max: 1000, Standard: numbers(3, 1000)},
		{Key: "turns", Help: "take turns", Default: "yes", Choices: []string{"yes", "no"}},
	},
	New: func(opts rules.Options, seats int, seed uint64) (rules.Engine, error) {
		return race{target: opts.Int("target", 10), free: opts["turns"] == "no", scores: make([]int, seats)}, nil
	},
	Bots: []rules.BotLevel{
		{Name: "easy", Bot: botFunc(func(context.Context, rules.Engine, rules.Seat, *rand.Rand) string { return "1" })},
		{Name: "random", Bot: botFunc(func(_ context.Context, _ rules.Engine, _ rules.Seat, rng *rand.Rand) string {
			return strconv.Itoa(1 + rng.IntN(2))
		})},
		{Name: "buggy", Bot: botFunc(func(context.Context, rules.Engine, rules.Seat, *rand.Rand) string { return "7" })},
		{Name: "slow", Bot: botFunc(func(ctx context.Context, _ rules.Engine, _ rules.Seat, _ *rand.Rand) string {
			<-ctx.Done()
			return ""
		})},
		{Name: "panicky", Bot: botFunc(func(context.Context, rules.Engine, rules.Seat, *rand.Rand) string { panic("oops") })},
	},
	Rules:    "Add 1 or 2 to the total in turn. Whoever reaches the target wins.",
	Notation: "1 or 2",
}

// numbers returns the integers from lo to hi as text.
func numbers(lo, hi int) []string {
	var out []string
	for n := lo; n <= hi; n++ {
		out = append(out, strconv.Itoa(n))
	}
	return out
}

// logs collects log lines; safe for concurrent use and after the test.
type logs struct {
	mu    sync.Mutex
	lines []string
}

func (l *logs) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logs) contains(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.ContainsFunc(l.lines, func(line string) bool { return strings.Contains(line, s) })
}

// newTestHub returns a hub for the race game with test settings, shut down at the end of the test.
// Inside a synctest bubble, call it inside the bubble.
func newTestHub(t *testing.T, cfg Config) (*Hub, *logs) {
	t.Helper()
	l := &logs{}
	if cfg.Games == nil {
		cfg.Games = []rules.Game{raceGame}
	}
	if cfg.BotDelay == 0 {
		cfg.BotDelay = -1
	}
	if cfg.MoveLimit == 0 {
		cfg.MoveLimit = -1 // the tests of clocks set one
	}
	if cfg.Logf == nil {
		cfg.Logf = l.logf
	}
	var seed atomic.Uint64 // rooms start matches concurrently
	if cfg.NewSeed == nil {
		cfg.NewSeed = func(string, int) uint64 { return seed.Add(1) }
	}
	h := NewHub(cfg)
	t.Cleanup(func() { h.Shutdown("test over") })
	return h, l
}

var (
	alice = Player{ID: "SHA256:alice", Name: "alice"}
	bob   = Player{ID: "SHA256:bob", Name: "bob"}
	carol = Player{ID: "SHA256:carol", Name: "carol"}
	dave  = Player{ID: "guest-dave", Name: "dave", Guest: true}
)

// patience bounds every wait of the tests; it only guards against hanging, it measures nothing.
const patience = time.Minute

// next returns the next snapshot of s.
func next(t *testing.T, s *Sub) Snapshot {
	t.Helper()
	select {
	case snap, ok := <-s.Updates():
		if !ok {
			t.Fatalf("%s: updates closed", s.Player().Name)
		}
		return snap
	case <-time.After(patience):
		t.Fatalf("%s: no snapshot", s.Player().Name)
	}
	panic("unreachable")
}

// waitFor reads s's snapshots until one satisfies ok, and returns it.
func waitFor(t *testing.T, s *Sub, what string, ok func(Snapshot) bool) Snapshot {
	t.Helper()
	timeout := time.After(patience)
	for {
		select {
		case snap, open := <-s.Updates():
			if !open {
				t.Fatalf("%s: updates closed while waiting for %s", s.Player().Name, what)
			}
			if ok(snap) {
				return snap
			}
		case <-timeout:
			t.Fatalf("%s: still waiting for %s", s.Player().Name, what)
		}
	}
}

// pending returns the snapshot waiting in s's channel, if any, without blocking.
func pending(s *Sub) (Snapshot, bool) {
	select {
	case snap, ok := <-s.Updates():
		return snap, ok
	default:
		return Snapshot{}, false
	}
}

// closed reports whether s's channel is closed once the pending snapshot, if any, is read.
func closedAfter(t *testing.T, s *Sub) (last Snapshot, gotLast bool) {
	t.Helper()
	timeout := time.After(patience)
	for {
		select {
		case snap, ok := <-s.Updates():
			if !ok {
				return last, gotLast
			}
			last, gotLast = snap, true
		case <-timeout:
			t.Fatalf("%s: updates not closed", s.Player().Name)
		}
	}
}

func mustJoin(t *testing.T, r *Room, p Player, watch bool) *Sub {
	t.Helper()
	s, err := r.Join(p, watch)
	if err != nil {
		t.Fatalf("%s joins: %v", p.Name, err)
	}
	return s
}

func mustMove(t *testing.T, s *Sub, move string) {
	t.Helper()
	if err := s.Move(context.Background(), move); err != nil {
		t.Fatalf("%s plays %s: %v", s.Player().Name, move, err)
	}
}

func mustCreate(t *testing.T, h *Hub, opts rules.Options, seats int) *Room {
	t.Helper()
	r, err := h.Create("race", opts, seats, alice)
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	return r
}

// startPair creates a two-seat race to target with alice on seat 0 and bob on seat 1, both having
// read the snapshot that shows the match begun.
func startPair(t *testing.T, h *Hub, target int) (*Room, *Sub, *Sub) {
	t.Helper()
	r := mustCreate(t, h, rules.Options{"target": strconv.Itoa(target)}, 2)
	a := mustJoin(t, r, alice, false)
	b := mustJoin(t, r, bob, false)
	playing := func(s Snapshot) bool { return s.Phase == Playing }
	waitFor(t, a, "the match", playing)
	waitFor(t, b, "the match", playing)
	return r, a, b
}

// untimed returns the moves without their times, for comparisons.
func untimed(moves []MoveRecord) []MoveRecord {
	out := slices.Clone(moves)
	for i := range out {
		out[i].At = time.Time{}
	}
	return out
}

func chatHas(snap Snapshot, from, text string) bool {
	return slices.ContainsFunc(snap.Chat, func(c ChatLine) bool { return c.From == from && strings.Contains(c.Text, text) })
}
