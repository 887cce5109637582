package discon

import (
	"math/rand/v2"
	"testing"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/rulestest"
)

// FuzzApply decodes and applies arbitrary text in a position reached by random play: nothing
// panics, a refused move leaves the state alone, an accepted one keeps the invariants, and every
// decodable move round-trips through its canonical form.
func FuzzApply(f *testing.F) {
	for _, m := range []string{"3 c4-d6", "3 c4-d6*", "1 a1-b3", "2c2", "4 d6 leave", "pass", "end",
		"9 j10", "", "1 a10-b8 l", "6 J10-H9", "3 c4 x d6"} {
		f.Add(uint64(1), uint8(0), m)
		f.Add(uint64(2), uint8(30), m)
	}
	f.Fuzz(func(t *testing.T, seed uint64, plies uint8, text string) {
		seats := 2 + int(seed%3)
		s, err := NewState(Variant(seed/3%uint64(len(variantNames))), seats, seed)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 3))
		for range int(plies) {
			if s.over {
				break
			}
			ms := s.LegalMoves(s.turn)
			s, err = s.ApplyMove(s.turn, ms[rng.IntN(len(ms))])
			if err != nil {
				t.Fatal(err)
			}
		}
		if m, err := ParseMove(text); err == nil {
			again, err := ParseMove(m.String())
			if err != nil || again != m {
				t.Fatalf("%q decodes to %+v, whose form %q decodes to %+v, %v", text, m, m, again, err)
			}
		}
		for seat := range rules.Seat(seats) {
			before := *s
			e, err := s.Apply(seat, text)
			if *s != before {
				t.Fatalf("Apply(%d, %q) changed the state", seat, text)
			}
			if err == nil {
				checkInvariants(t, e.(*State))
			}
		}
	})
}

// FuzzNotation: in a position reached by random play (fuzzed variant, seats and seed), every
// legal move's notation parses back to the same move, and arbitrary text either fails with
// ErrBadNotation or gives a move whose notation parses back to it.
func FuzzNotation(f *testing.F) {
	// The notation's worked examples (game.go), the looser forms ParseMove takes, and near misses.
	for _, m := range []string{"3 d6", "3 c4-d6", "3 d6*", "3 d6 leave", "3 c4-d6*", "3c4d6", "3 c4 d6",
		"3 c4xd6", "3 d6 l", "pass", "end", "PASS", "0 d6", "7 d6", "3 k6", "3 d11", "3 d0", "3", "3 d6**", ""} {
		f.Add(uint64(1), uint8(0), m)
		f.Add(uint64(5), uint8(40), m)
	}
	f.Fuzz(func(t *testing.T, seed uint64, plies uint8, text string) {
		seats := 2 + int(seed%3)
		s, err := NewState(Variant(seed/3%uint64(len(variantNames))), seats, seed)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 7))
		for range int(plies) {
			ms := s.LegalMoves(s.turn)
			if s.over || len(ms) == 0 {
				break
			}
			if s, err = s.ApplyMove(s.turn, ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
		var legal []Move
		for seat := range rules.Seat(seats) {
			legal = append(legal, s.LegalMoves(seat)...)
		}
		rulestest.Notation(t, ParseMove, legal, text)
	})
}
