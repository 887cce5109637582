package stonetowers

import (
	"math/rand/v2"
	"testing"
)

// TestCanonicalAndTell: a bare square, as the cursor plays it, is recorded as what it does ("b a3",
// then "f a3") and told in words, and every legal move of real positions is its own canonical form
// and parses back to itself.
func TestCanonicalAndTell(t *testing.T) {
	s, err := NewState(9, 20)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := s.Canonical(0, "a3"); !ok || c != "b a3" {
		t.Errorf("Canonical(a3) = %q, %v; want b a3", c, ok)
	}
	if w := s.Tell(0, "a3"); w != "builds a castle on a3" {
		t.Errorf("Tell(a3) = %q", w)
	}
	s = mustPlay(t, s, "a3")
	s = mustPlay(t, s, "i9")
	if c, ok := s.Canonical(0, "A3"); !ok || c != "f a3" {
		t.Errorf("Canonical(A3) on Red's castle = %q, %v; want f a3", c, ok)
	}
	if w := s.Tell(0, "a3"); w != "fortifies a3 to level 2" {
		t.Errorf("Tell(a3) = %q", w)
	}
	if _, ok := s.Canonical(1, "a3"); ok {
		t.Error("Blue's move accepted on Red's turn")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for !s.Over() {
		seat := s.Next()
		moves := s.LegalMoves(seat)
		for _, m := range moves {
			got, err := ParseMove(m.String())
			if err != nil || got != m {
				t.Fatalf("ParseMove(%q) = %v, %v", m, got, err)
			}
			if c, ok := s.Canonical(seat, m.String()); !ok || c != m.String() {
				t.Fatalf("Canonical(%q) = %q, %v", m, c, ok)
			}
		}
		s = mustPlay(t, s, moves[rng.IntN(len(moves))].String())
	}
}
