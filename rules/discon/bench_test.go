package discon

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/arcade/arcade/rules"
)

// BenchmarkPlayout plays whole random two-player Premium games.
func BenchmarkPlayout(b *testing.B) {
	start := time.Now()
	n := 0
	for i := 0; b.Loop(); i++ {
		rng := rand.New(rand.NewPCG(uint64(i), 4))
		s, _ := NewState(Premium, 2, uint64(i))
		for !s.over {
			ms := s.LegalMoves(s.turn)
			s, _ = s.ApplyMove(s.turn, ms[rng.IntN(len(ms))])
		}
		n++
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "playouts/s")
}

// midgame returns a two-player Premium position after 40 moves of greedy play.
func midgame(b *testing.B) *State {
	s, _ := NewState(Premium, 2, 99)
	rng := rand.New(rand.NewPCG(99, 5))
	for range 40 {
		e, err := s.Apply(s.turn, GreedyBot{}.Move(context.Background(), s, s.turn, rng))
		if err != nil {
			b.Fatal(err)
		}
		s = e.(*State)
	}
	return s
}

func BenchmarkLegal(b *testing.B) {
	s := midgame(b)
	for b.Loop() {
		s.Legal(s.turn)
	}
}

func benchBot(b *testing.B, bot rules.Bot) {
	s := midgame(b)
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		bot.Move(context.Background(), s, s.turn, rng)
	}
}

func BenchmarkBotEasy(b *testing.B)   { benchBot(b, EasyBot{}) }
func BenchmarkBotGreedy(b *testing.B) { benchBot(b, GreedyBot{}) }
func BenchmarkBotHard(b *testing.B)   { benchBot(b, HardBot{}) }

// BenchmarkBotHard4 times the hard bot in a four-player Premium position after 60 greedy moves.
func BenchmarkBotHard4(b *testing.B) {
	s, _ := NewState(Premium, 4, 98)
	rng := rand.New(rand.NewPCG(98, 5))
	for range 60 {
		e, err := s.Apply(s.turn, GreedyBot{}.Move(context.Background(), s, s.turn, rng))
		if err != nil {
			b.Fatal(err)
		}
		s = e.(*State)
	}
	for b.Loop() {
		HardBot{}.Move(context.Background(), s, s.turn, rng)
	}
}

// viewSink keeps BenchmarkView's views, as a room keeps them in its snapshots.
var viewSink any

// BenchmarkView makes the view a room shows after every move, through the engine's interface as a
// room does (a view that stays on the stack would measure less than a room pays).
func BenchmarkView(b *testing.B) {
	var e rules.Engine = midgame(b)
	b.ReportAllocs()
	for b.Loop() {
		viewSink = e.View(rules.Spectator)
	}
}
