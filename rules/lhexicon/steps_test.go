package lhexicon

import (
	"context"
	"math/rand/v2"
	"testing"
)

// TestSearchSteps logs the generator's steps for full searches along a seeded game
// (LHEXICON_STEPS=n positions). Skipped unless asked for.
func TestSearchSteps(t *testing.T) {
	n := envInt("LHEXICON_STEPS")
	if n == 0 {
		t.Skip("set LHEXICON_STEPS to measure")
	}
	s, _ := NewState(2, Auto, TimerOff, 1000)
	rng := rand.New(rand.NewPCG(1, 3))
	for i := 0; i < n && !s.over; i++ {
		seat := s.Turn()
		best, plays := Candidate{}, 0
		done, steps := s.generate(context.Background(), seat, 0, func(c Candidate) bool {
			plays++
			if c.Score > best.Score {
				best = c.Clone()
			}
			return true
		})
		t.Logf("ply %d: %d tiles on the board, rack %v: %d steps, %d plays, done %v, best %v %d", i,
			s.placed, tilesString(s.Rack(seat)), steps, plays, done, best.Move, best.Score)
		e, err := s.Apply(seat, Greedy{}.Move(context.Background(), s, seat, rng))
		if err != nil {
			t.Fatal(err)
		}
		s = e.(*State)
	}
}
