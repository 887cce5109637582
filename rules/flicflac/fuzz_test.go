package flicflac

import (
	"math/rand/v2"
	"testing"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/rulestest"
)

// FuzzNotation: in a position reached by random play, every legal move's notation parses back
// to the same move, and any text fails as bad notation or round-trips.
func FuzzNotation(f *testing.F) {
	for _, m := range []string{"B h8", "u B", "end", "blue>h8", "b-h8", "ob3", "undo g", "e", "B h16", "K a1",
		"u", "b h08", "pass", ""} {
		f.Add(uint64(1), uint8(0), m)
		f.Add(uint64(2), uint8(40), m)
	}
	f.Fuzz(func(t *testing.T, seed uint64, plies uint8, text string) {
		s := randomPosition(t, seed, int(plies))
		rulestest.Notation(t, ParseMove, append(s.LegalMoves(0), s.LegalMoves(1)...), text)
	})
}

// FuzzApply: arbitrary text in a position reached by random play: nothing panics, a refused
// move leaves the state unchanged, an accepted one keeps the invariants and is canonical as
// Canonical writes it.
func FuzzApply(f *testing.F) {
	for _, m := range []string{"B h8", "u B", "end", "G o1", "Y a8", "R a1", "P h15", "b>c3", "u r", "x"} {
		f.Add(uint64(1), uint8(0), m)
		f.Add(uint64(3), uint8(25), m)
	}
	f.Fuzz(func(t *testing.T, seed uint64, plies uint8, text string) {
		s := randomPosition(t, seed, int(plies))
		for seat := range rules.Seat(2) {
			before := *s
			e, err := s.Apply(seat, text)
			if *s != before {
				t.Fatalf("Apply(%d, %q) changed the state", seat, text)
			}
			c, ok := s.Canonical(seat, text)
			if (err == nil) != ok {
				t.Fatalf("Apply(%d, %q): %v, but Canonical %v", seat, text, err, ok)
			}
			if err != nil {
				continue
			}
			checkInvariants(t, e.(*State))
			e2, err := s.Apply(seat, c)
			if err != nil || *e2.(*State) != *e.(*State) {
				t.Fatalf("%q and its canonical %q differ: %v", text, c, err)
			}
		}
	})
}

// randomPosition returns a match (sides and shapes from the seed, events often) after plies
// moves of random play, take-backs included.
func randomPosition(t testing.TB, seed uint64, plies int) *State {
	cfg := DefaultConfig
	cfg.Side = MinSide + int(seed%4)
	cfg.EventPercent = 25
	s, err := NewState(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 5))
	for range plies {
		if s.over {
			break
		}
		ms := s.LegalMoves(s.turn)
		if s, err = s.ApplyMove(s.turn, ms[rng.IntN(len(ms))]); err != nil {
			t.Fatal(err)
		}
	}
	return s
}
