package lhexicon

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arcade/arcade/rules"
)

// The tiles Hard cannot see are the bank and the other racks: with the bank empty, exactly the
// opponent's rack.
func TestUnseen(t *testing.T) {
	s := position(t, 7, 40)
	for s.nbag > 0 && !s.over {
		seat := s.ToMove()[0]
		s = mustPlay(t, s, seat, Greedy{}.Move(t.Context(), s, seat, nil))
	}
	if s.over {
		t.Skip("the game ended before the bank was empty")
	}
	for seat := range rules.Seat(2) {
		got := s.unseen(seat)
		want := s.Rack(1 - seat)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("seat %d sees %v unseen, the other rack is %v", seat, tilesString(got), tilesString(want))
		}
	}
	s = position(t, 8, 6)
	if n, want := len(s.unseen(0)), s.nbag+s.nrack[1]; n != want {
		t.Errorf("%d tiles unseen, want the bank and the other rack: %d", n, want)
	}
}

// Hard's move depends only on the state and the rng, and is legal; with its context done before
// it starts, it still returns a legal move.
func TestHardDeterministicAndLegal(t *testing.T) {
	for seed := range uint64(2) {
		s := position(t, 500+seed, 8+int(seed)*4)
		seat := s.ToMove()[0]
		a := Hard{}.Move(t.Context(), s, seat, rand.New(rand.NewPCG(seed, 1)))
		b := Hard{}.Move(t.Context(), s, seat, rand.New(rand.NewPCG(seed, 1)))
		if a != b {
			t.Errorf("seed %d: %q then %q from the same state and rng", seed, a, b)
		}
		if _, err := s.Apply(seat, a); err != nil {
			t.Errorf("seed %d: %q: %v", seed, a, err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		mv := Hard{}.Move(ctx, s, seat, rand.New(rand.NewPCG(seed, 1)))
		if _, err := s.Apply(seat, mv); err != nil {
			t.Errorf("seed %d, context done: %q: %v", seed, mv, err)
		}
	}
}
