package discon

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/arcade/arcade/rules"
)

// TestBotsDeadline checks that every bot answers with a legal move when its deadline has already
// passed. (TestBotsDeadlineTime, with the tag measure, times the answers.)
func TestBotsDeadline(t *testing.T) {
	botsAfterDeadline(t, func(string, int, time.Duration) {})
}

// botsAfterDeadline asks every bot for a move, in positions of every table size, with a deadline
// that has already passed, checks that the moves are legal and that the hard bot does not move out
// of turn, and gives report how long each answer took.
func botsAfterDeadline(t *testing.T, report func(bot string, seats int, took time.Duration)) {
	t.Helper()
	for seats := 2; seats <= 4; seats++ {
		s, _ := NewState(Premium, seats, uint64(seats))
		rng := rand.New(rand.NewPCG(1, 1))
		for range 30 * seats {
			e, err := s.Apply(s.turn, GreedyBot{}.Move(t.Context(), s, s.turn, rng))
			if err != nil {
				t.Fatal(err)
			}
			s = e.(*State)
		}
		for _, b := range Game.Bots {
			ctx, cancel := context.WithTimeout(t.Context(), time.Nanosecond)
			<-ctx.Done()
			start := time.Now()
			m := b.Bot.Move(ctx, s, s.turn, rng)
			report(b.Name, seats, time.Since(start))
			cancel()
			if _, err := s.Apply(s.turn, m); err != nil {
				t.Errorf("%s with %d players: %q: %v", b.Name, seats, m, err)
			}
		}
		if m := (HardBot{}).Move(t.Context(), s, (s.turn+1)%rules.Seat(seats), rng); m != "" {
			t.Errorf("hard bot moved %q out of turn", m)
		}
	}
}
