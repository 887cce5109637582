package flicflac

import (
	"testing"

	"github.com/arcade/arcade/rules"
)

// testState returns a match on side 8 where seat 0 has the cylinders, without random events.
func testState(t testing.TB) *State {
	t.Helper()
	cfg := DefaultConfig
	cfg.RandomShape, cfg.Shape, cfg.EventPercent = false, Cylinder, 0
	s, err := NewState(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// hex returns the hex named name on s's board.
func hex(t testing.TB, s *State, name string) Hex {
	t.Helper()
	h, ok := s.geo.Find(name)
	if !ok {
		t.Fatalf("no hex %s", name)
	}
	return h
}

// put stands seat's piece of colour c on h (from wherever it is), flipped or not.
func put(s *State, seat rules.Seat, c Colour, h Hex, flipped bool) {
	id := int(seat)*Colours + int(c)
	s.sendHome(id)
	s.pieces[id].hex, s.pieces[id].flipped = h, flipped
	s.occ[h] = int8(id + 1)
}

// mustPlay applies move for seat and fails the test when it is refused.
func mustPlay(t testing.TB, s *State, seat rules.Seat, move string) *State {
	t.Helper()
	e, err := s.Apply(seat, move)
	if err != nil {
		t.Fatalf("%q by seat %d: %v", move, seat, err)
	}
	return e.(*State)
}

// refused checks that Apply refuses move and leaves s unchanged.
func refused(t testing.TB, s *State, seat rules.Seat, move string) error {
	t.Helper()
	before := *s
	_, err := s.Apply(seat, move)
	if err == nil {
		t.Fatalf("%q by seat %d was accepted", move, seat)
	}
	if *s != before {
		t.Fatalf("%q changed the state", move)
	}
	return err
}

// spec is a piece of a test position: its shape (the cylinders are seat 0), colour, face, and
// whether it stands on a hex of its own colour (else on another hex, maybe black).
type spec struct {
	shape     Shape
	colour    Colour
	flipped   bool
	empowered bool
}

// cluster stands the pieces of specs on free hexes of s, away from every piece already there,
// so that exactly the pairs of edges touch, each empowered as its spec says. It returns the
// pieces' ids in spec order, or fails the test when no such place exists.
func cluster(t testing.TB, s *State, specs []spec, edges [][2]int) []int {
	t.Helper()
	adj := make([][]bool, len(specs))
	for i := range adj {
		adj[i] = make([]bool, len(specs))
	}
	for _, e := range edges {
		adj[e[0]][e[1]], adj[e[1]][e[0]] = true, true
	}
	at := make([]Hex, len(specs))
	var search func(i int) bool
	search = func(i int) bool {
		if i == len(specs) {
			return true
		}
		sp := specs[i]
		for h := range Hex(s.geo.NumHexes()) {
			c := s.colours[h]
			if s.occ[h] != 0 || (c == sp.colour) != sp.empowered {
				continue
			}
			ok := true
			for _, nb := range s.geo.nbr[h] { // away from the pieces already on the board
				if nb != NoHex && s.occ[nb] != 0 {
					ok = false
				}
			}
			for j := 0; j < i && ok; j++ {
				ok = at[j] != h && s.geo.Adjacent(at[j], h) == adj[i][j]
			}
			if !ok {
				continue
			}
			at[i] = h
			if search(i + 1) {
				return true
			}
		}
		return false
	}
	if !search(0) {
		t.Fatalf("no place for %v", specs)
	}
	ids := make([]int, len(specs))
	for i, sp := range specs {
		seat := s.SeatOf(sp.shape)
		put(s, seat, sp.colour, at[i], sp.flipped)
		ids[i] = int(seat)*Colours + int(sp.colour)
	}
	return ids
}
