package lhexicon

import (
	"slices"
	"testing"
)

// TestReshuffle: a reshuffle changes the bank's order alone (the racks, the board, the scores and
// the turn stay), the same salt gives the same order and another salt another, and the state
// reshuffled is left as it was.
func TestReshuffle(t *testing.T) {
	s := position(t, 530, 6)
	before := s.bag
	a := s.Reshuffle(1).(*State)
	if s.bag != before {
		t.Fatal("Reshuffle changed its state")
	}
	if a.board != s.board || a.racks != s.racks || a.scores != s.scores || a.turn != s.turn || a.nbag != s.nbag {
		t.Fatal("a reshuffle changed more than the bank")
	}
	if a.bag == s.bag {
		t.Error("the bank's order is the same")
	}
	bank := func(x *State) []Tile {
		b := slices.Clone(x.bag[:x.nbag])
		slices.Sort(b)
		return b
	}
	if !slices.Equal(bank(a), bank(s)) {
		t.Error("the bank holds other tiles")
	}
	if b := s.Reshuffle(1).(*State); b.bag != a.bag {
		t.Error("the same salt gave another order")
	}
	if c := s.Reshuffle(2).(*State); c.bag == a.bag {
		t.Error("another salt gave the same order")
	}
}
