package lhexicon

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// position returns a seeded 2-player position after plies moves of greedy play.
func position(tb testing.TB, seed uint64, plies int) *State {
	tb.Helper()
	s, err := NewState(2, Auto, TimerOff, seed)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	for range plies {
		if s.over {
			break
		}
		seat := s.ToMove()[0]
		e, err := s.Apply(seat, Greedy{}.Move(context.Background(), s, seat, rng))
		if err != nil {
			tb.Fatal(err)
		}
		s = e.(*State)
	}
	return s
}

// BenchmarkGreedyMove times Greedy on a few seeded midgame positions.
func BenchmarkGreedyMove(b *testing.B) {
	var ps []*State
	for seed := range uint64(4) {
		ps = append(ps, position(b, seed, 6+int(seed)*3))
	}
	i := 0
	for b.Loop() {
		s := ps[i%len(ps)]
		s.BestPlay(context.Background(), s.turn, nil)
		i++
	}
}

// TestBotTimes measures Greedy's and Hard's move times over seeded positions: the figures of
// docs/performance.md (LHEXICON_BOTTIMES=200 for 200 positions). Skipped unless asked for.
func TestBotTimes(t *testing.T) {
	n := envInt("LHEXICON_BOTTIMES")
	if n == 0 {
		t.Skip("set LHEXICON_BOTTIMES=200 to measure")
	}
	var times []time.Duration
	var nodes []int
	for i := range n {
		s := position(t, uint64(1000+i), i%30)
		if s.over {
			continue
		}
		seat := s.ToMove()[0]
		start := time.Now()
		Greedy{}.Move(context.Background(), s, seat, rand.New(rand.NewPCG(1, 1)))
		times = append(times, time.Since(start))
		nodes = append(nodes, s.placed)
	}
	slices.Sort(times)
	t.Logf("greedy over %d positions: median %v, p90 %v, worst %v", len(times), times[len(times)/2],
		times[len(times)*9/10], times[len(times)-1])
}
