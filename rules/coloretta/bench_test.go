package coloretta

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/arcade/arcade/rules"
)

// BenchmarkPlayout plays whole 4-player games of 4 rounds with random legal moves through Apply.
func BenchmarkPlayout(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; b.Loop(); i++ {
		e, _ := Game.New(rules.Options{}, 4, uint64(i))
		for !e.Outcome().Over {
			seat := e.ToMove()[0]
			l := e.Legal(seat)
			e, _ = e.Apply(seat, l[r.IntN(len(l))])
		}
	}
}

func BenchmarkScoreHand(b *testing.B) {
	h := Hand{Colours: [NumColours]int{5, 3, 2, 1, 1}, Wilds: 2, Plus2: 1}
	for b.Loop() {
		ScoreHand(h)
	}
}

func BenchmarkPoints(b *testing.B) {
	h := Hand{Colours: [NumColours]int{5, 3, 2, 1, 1}, Wilds: 2, Plus2: 1}
	for b.Loop() {
		points(&h)
	}
}

// botPositions returns positions along a 3-player game, the seat to move having a choice.
func botPositions() []*State {
	s, _ := NewState(4, 3, 42)
	var out []*State
	r := rand.New(rand.NewPCG(3, 4))
	for !s.over && len(out) < 40 {
		seat := rules.Seat(s.turn)
		l := s.Legal(seat)
		if len(l) > 1 {
			out = append(out, s)
		}
		ns, _ := s.Apply(seat, Greedy.Move(context.Background(), s, seat, r))
		s = ns.(*State)
	}
	return out
}

func benchBot(b *testing.B, bot rules.Bot) {
	ps := botPositions()
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; b.Loop(); i++ {
		s := ps[i%len(ps)]
		bot.Move(context.Background(), s, rules.Seat(s.turn), r)
	}
}

func BenchmarkBotGreedy(b *testing.B) { benchBot(b, Greedy) }
func BenchmarkBotHard(b *testing.B)   { benchBot(b, Hard) }
