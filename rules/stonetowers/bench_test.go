package stonetowers

import (
	"context"
	"math/rand/v2"
	"testing"
)

// BenchmarkPlayout plays whole random games (12 x 12, 25 turns each) through the public API.
func BenchmarkPlayout(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	actions := 0
	for b.Loop() {
		s, _ := NewState(DefaultSize, DefaultTurns)
		for !s.Over() {
			ms := s.LegalMoves(s.Next())
			ns, err := s.Play(s.Next(), ms[rng.IntN(len(ms))])
			if err != nil {
				b.Fatal(err)
			}
			s = ns
			actions++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
	b.ReportMetric(float64(actions)/b.Elapsed().Seconds(), "actions/s")
}

// midgame returns a 12 x 12 position after 24 actions of greedy play.
func midgame(b testing.TB, size int) *State {
	s, _ := NewState(size, DefaultTurns)
	rng := rand.New(rand.NewPCG(7, 7))
	for range 24 {
		e, err := s.Apply(s.Next(), Greedy{}.Move(context.Background(), s, s.Next(), rng))
		if err != nil {
			b.Fatal(err)
		}
		s = e.(*State)
	}
	return s
}

// BenchmarkBotHard times one move of the hard bot in a 12 x 12 middle game.
func BenchmarkBotHard(b *testing.B) {
	s := midgame(b, DefaultSize)
	rng := rand.New(rand.NewPCG(1, 1))
	for b.Loop() {
		Hard{}.Move(context.Background(), s, s.Next(), rng)
	}
}

// BenchmarkBotHard16 times one move of the hard bot in a 16 x 16 middle game.
func BenchmarkBotHard16(b *testing.B) {
	s := midgame(b, MaxSize)
	rng := rand.New(rand.NewPCG(1, 1))
	for b.Loop() {
		Hard{}.Move(context.Background(), s, s.Next(), rng)
	}
}

// BenchmarkBotGreedy times one move of the greedy bot in a 12 x 12 middle game.
func BenchmarkBotGreedy(b *testing.B) {
	s := midgame(b, DefaultSize)
	rng := rand.New(rand.NewPCG(1, 1))
	for b.Loop() {
		Greedy{}.Move(context.Background(), s, s.Next(), rng)
	}
}
