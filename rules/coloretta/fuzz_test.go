package coloretta

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/rulestest"
)

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"d", "p1", "t5", "P3", " d ", "x", "p0", "t6", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMove(s)
		if err != nil {
			return
		}
		again, err := ParseMove(m.String())
		if err != nil || again != m || again.String() != m.String() {
			t.Fatalf("%q -> %v -> %v, %v", s, m, again, err)
		}
	})
}

// FuzzApply plays a game from a fuzzed seed and seat count with moves picked by the fuzzed bytes:
// each byte is a seat and a string from junk (mostly illegal). Accepted moves must be legal,
// refused ones must change nothing, and the cards must all be accounted for.
func FuzzApply(f *testing.F) {
	f.Add(uint64(1), uint8(3), []byte{0, 1, 2, 3, 4, 5, 6})
	f.Add(uint64(7), uint8(2), []byte("d1d2d3t1t2"))
	f.Add(uint64(99), uint8(5), []byte{0x10, 0x20, 0x30, 0x00, 0x11})
	f.Fuzz(func(t *testing.T, seed uint64, seats uint8, moves []byte) {
		s, err := NewState(1, int(seats%4)+2, seed)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range moves {
			seat := rules.Seat(int(b>>5) % s.seats)
			if b&0x10 != 0 {
				seat = rules.Seat(s.turn) // mostly the seat to move
			}
			mv := junk[int(b&0x0f)%len(junk)]
			legal := s.Legal(seat)
			before := *s
			ne, err := s.Apply(seat, mv)
			if !reflect.DeepEqual(before, *s) {
				t.Fatal("Apply changed its receiver")
			}
			if err != nil {
				if m, perr := ParseMove(mv); perr == nil && slices.Contains(legal, m.String()) {
					t.Fatalf("legal %q refused: %v", mv, err)
				}
				continue
			}
			m, _ := ParseMove(mv)
			if !slices.Contains(legal, m.String()) {
				t.Fatalf("illegal %q accepted (legal %v)", mv, legal)
			}
			s = ne.(*State)
			if s.over {
				return
			}
			if census(s) != fullDeck(s.ncol) {
				t.Fatalf("census %+v", census(s))
			}
		}
	})
}

// FuzzNotation: in a position reached by random play (fuzzed seats, rounds and seed), every
// legal move's notation parses back to the same move, and arbitrary text either fails with
// ErrBadNotation or gives a move whose notation parses back to it.
func FuzzNotation(f *testing.F) {
	// The notation's worked examples (game.go) and near misses.
	for _, s := range []string{"d", "p3", "t2", "D", " t5 ", "p1", "p5", "p6", "t0", "d1", "take 2", ""} {
		f.Add(uint64(1), uint8(0), uint8(0), s)
		f.Add(uint64(2), uint8(3), uint8(40), s)
	}
	f.Fuzz(func(t *testing.T, seed uint64, shape, plies uint8, text string) {
		s, err := NewState(int(shape/4)%maxRounds+1, int(shape%4)+2, seed)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 1))
		for range int(plies) {
			ms := s.LegalMoves(rules.Seat(s.turn))
			if s.over || len(ms) == 0 {
				break
			}
			if s, err = s.ApplyMove(rules.Seat(s.turn), ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
		var legal []Move
		for seat := range rules.Seat(s.seats) {
			legal = append(legal, s.LegalMoves(seat)...)
		}
		rulestest.Notation(t, ParseMove, legal, text)
	})
}
