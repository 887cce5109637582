package stonetowers

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/arcade/arcade/rules"
)

// playMatch plays one game of bots a (Red) and b (Blue) with the given seed and returns the final
// state.
func playMatch(t testing.TB, a, b rules.Bot, size, turns int, seed uint64) *State {
	s, err := NewState(size, turns)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	bots := [2]rules.Bot{a, b}
	for !s.Over() {
		seat := s.Next()
		mv := bots[seat].Move(context.Background(), s, seat, rng)
		e, err := s.Apply(seat, mv)
		if err != nil {
			t.Fatalf("seed %d: bot %T played %q: %v", seed, bots[seat], mv, err)
		}
		s = e.(*State)
	}
	return s
}
