package coloretta

import (
	"reflect"
	"slices"
	"testing"

	"github.com/arcade/arcade/rules"
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
