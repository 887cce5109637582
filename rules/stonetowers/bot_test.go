package stonetowers

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/arcade/arcade/rules"
)

// foreign is an engine that is not a *State, to check the bots' fallback.
type foreign struct{ *State }

// TestBotsPlayLegalMoves checks every bot on positions from random games of every size, and on a
// position where only a pass is legal.
func TestBotsPlayLegalMoves(t *testing.T) {
	ctx := context.Background()
	for _, lvl := range Game.Bots {
		for g, size := range []int{8, 11, 16} {
			rng := rand.New(rand.NewPCG(uint64(g), 3))
			s, _ := NewState(size, 10)
			for !s.Over() {
				seat := s.Next()
				mv := lvl.Bot.Move(ctx, s, seat, rng)
				if !slices.Contains(s.Legal(seat), mv) {
					t.Fatalf("%s on %dx%d played %q, not in %v", lvl.Name, size, size, mv, s.Legal(seat))
				}
				// Alternate with random moves so the bot meets varied positions.
				if seat == Blue {
					ms := s.Legal(seat)
					mv = ms[rng.IntN(len(ms))]
				}
				s = mustPlay(t, s, mv)
			}
		}
		only := picture(t, "b b b\nb b b\nb b b", Red, 2, false)
		if mv := lvl.Bot.Move(ctx, only, Red, rand.New(rand.NewPCG(1, 1))); mv != "pass" {
			t.Errorf("%s played %q where only pass is legal", lvl.Name, mv)
		}
		s, _ := NewState(8, 10)
		if mv := lvl.Bot.Move(ctx, foreign{s}, Red, rand.New(rand.NewPCG(1, 1))); !slices.Contains(s.Legal(Red), mv) {
			t.Errorf("%s played %q on a foreign engine", lvl.Name, mv)
		}
	}
}

// TestHardDeadline checks that Hard answers legally when its context is already done, and when
// it has a short deadline. (TestHardDeadlineTime, with the tag measure, times the answers.)
func TestHardDeadline(t *testing.T) {
	hardDeadline(t)
}

// hardDeadline asks Hard for a move in a large midgame with its context already done, then with
// a deadline of 5 ms, checks that both moves are legal and returns how long each took.
func hardDeadline(t *testing.T) (cancelled, hurried time.Duration) {
	t.Helper()
	s := midgame(t, MaxSize)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	mv := Hard{}.Move(ctx, s, s.Next(), rand.New(rand.NewPCG(1, 1)))
	cancelled = time.Since(start)
	if !slices.Contains(s.Legal(s.Next()), mv) {
		t.Errorf("cancelled Hard played %q", mv)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancel()
	start = time.Now()
	mv = Hard{}.Move(ctx, s, s.Next(), rand.New(rand.NewPCG(1, 1)))
	hurried = time.Since(start)
	if !slices.Contains(s.Legal(s.Next()), mv) {
		t.Errorf("hurried Hard played %q", mv)
	}
	return cancelled, hurried
}

// TestBotsReproducible checks that a seeded match replays exactly.
func TestBotsReproducible(t *testing.T) {
	for _, lvl := range Game.Bots {
		a := playMatch(t, lvl.Bot, Greedy{}, 10, 12, 77)
		b := playMatch(t, lvl.Bot, Greedy{}, 10, 12, 77)
		if draw(a) != draw(b) {
			t.Errorf("%s: the same seed gave two different games", lvl.Name)
		}
	}
}

var _ = []rules.Bot{Easy{}, Greedy{}, Hard{}}
