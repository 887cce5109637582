package flicflac

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arcade/arcade/rules"
)

// pathsReach is the rules written as directly as possible: every path of 1 to 3 steps, no hex
// entered holding a piece, every hex entered coloured unless the path is one step.
func pathsReach(s *State, id int) []Hex {
	p := s.pieces[id]
	set := map[Hex]bool{}
	var walk func(h Hex, steps int)
	walk = func(h Hex, steps int) {
		for _, nb := range s.geo.nbr[h] {
			if nb == NoHex || s.occ[nb] != 0 {
				continue
			}
			if steps == 0 {
				set[nb] = true // one step: black or coloured
			}
			if s.colours[nb] == Black {
				continue
			}
			set[nb] = true
			if steps < 2 {
				walk(nb, steps+1)
			}
		}
	}
	walk(p.hex, 0)
	delete(set, p.hex)
	var out []Hex
	for h := range set {
		out = append(out, h)
	}
	slices.Sort(out)
	return out
}

// TestReachMatchesPaths: on random crowded boards, Reach is exactly the hexes at the end of a
// legal path.
func TestReachMatchesPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		s := testState(t)
		n := s.geo.NumHexes()
		for id := range Pieces {
			for {
				h := Hex(rng.IntN(n))
				if s.occ[h] == 0 {
					put(s, rules.Seat(id/Colours), Colour(id%Colours), h, rng.IntN(2) == 0)
					break
				}
			}
		}
		for c := range Colours {
			p := PieceID{s.turn, Colour(c)}
			got := s.Reach(p)
			want := pathsReach(s, p.id())
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d: %s on %s reaches %v, want %v", trial, s.PieceName(p),
					s.geo.Name(s.pieces[p.id()].hex), names(s, got), names(s, want))
			}
		}
	}
}

func names(s *State, hs []Hex) []string {
	var out []string
	for _, h := range hs {
		out = append(out, s.geo.Name(h))
	}
	return out
}

// findHex returns a hex satisfying ok, scanning in order.
func findHex(t *testing.T, s *State, ok func(Hex) bool) Hex {
	t.Helper()
	for h := range Hex(s.geo.NumHexes()) {
		if ok(h) {
			return h
		}
	}
	t.Fatal("no such hex")
	return NoHex
}

// middleHexes finds a coloured hex in the middle of s's board and, among its neighbours, a black
// one and a coloured one (NoHex when there is none).
func middleHexes(t *testing.T, s *State) (mid, black, coloured Hex) {
	t.Helper()
	g := s.geo
	mid = findHex(t, s, func(h Hex) bool {
		c := g.Cubes[h]
		return s.colours[h] != Black && max(abs(c.Q), abs(c.R), abs(c.S)) <= 3
	})
	black, coloured = NoHex, NoHex
	for _, nb := range g.nbr[mid] {
		if s.colours[nb] == Black && black == NoHex {
			black = nb
		}
		if s.colours[nb] != Black && coloured == NoHex {
			coloured = nb
		}
	}
	return mid, black, coloured
}

// TestSteps: a step onto a black neighbour flips the piece; a path may not cross a black hex
// nor a piece; a piece moves once a turn; a take-back restores hex and face and lets it move
// again; entering from home onto black flips too.
func TestSteps(t *testing.T) {
	s := testState(t)
	g := s.geo
	mid, black, coloured := middleHexes(t, s)
	put(s, 0, Blue, mid, false)
	n := mustPlay(t, s, 0, "B "+g.Name(black))
	if !n.pieces[Blue].flipped || n.pieces[Blue].hex != black {
		t.Fatal("a step onto black did not flip")
	}
	if err := refused(t, n, 0, "B "+g.Name(mid)); !errors.Is(err, ErrMoved) {
		t.Fatalf("a second move: %v", err)
	}
	n = mustPlay(t, n, 0, "u B")
	if n.pieces[Blue].flipped || n.pieces[Blue].hex != mid || n.occ[black] != 0 {
		t.Fatal("the take-back did not restore the piece")
	}
	if err := refused(t, n, 0, "u B"); !errors.Is(err, ErrNoTakeBack) {
		t.Fatalf("a second take-back: %v", err)
	}
	n = mustPlay(t, n, 0, "B "+g.Name(coloured))
	if n.pieces[Blue].flipped {
		t.Fatal("a step onto a coloured hex flipped")
	}

	// Paths: every hex two steps away through a black hex only is out of reach, unless another
	// coloured path leads there.
	reach := s.Reach(PieceID{0, Blue})
	for _, h := range reach {
		if g.Distance(mid, h) > 3 {
			t.Fatalf("%s reaches %s, %d steps away", g.Name(mid), g.Name(h), g.Distance(mid, h))
		}
		if g.Distance(mid, h) > 1 && s.colours[h] == Black {
			t.Fatalf("a path ends on black %s", g.Name(h))
		}
	}
	// Ring the piece with pieces on every coloured neighbour: it may only step to a black one.
	r := *s
	i := 0
	for _, nb := range g.nbr[mid] {
		if r.colours[nb] != Black {
			put(&r, 1, Colour(i), nb, false)
			i++
		}
	}
	for _, h := range r.Reach(PieceID{0, Blue}) {
		if r.colours[h] != Black || !g.Adjacent(mid, h) {
			t.Fatalf("a ringed piece reaches %s", g.Name(h))
		}
	}

	// From home: the green cylinder's edge (s = -R); onto a black hex it flips.
	e := g.Entry(Cylinder, Green)
	var eb Hex = NoHex
	for _, h := range e {
		if s.colours[h] == Black {
			eb = h
		}
	}
	if eb == NoHex {
		t.Fatal("no black hex on the edge")
	}
	n = mustPlay(t, s, 0, "green "+g.Name(eb))
	if !n.pieces[Green].flipped {
		t.Fatal("entering onto black did not flip")
	}
	n = mustPlay(t, n, 0, "undo g")
	if n.pieces[Green].hex != NoHex || n.pieces[Green].flipped {
		t.Fatal("taking back an entry did not send it home upright")
	}
	// Off the edge: refused, and says where the edge is.
	if err := refused(t, s, 0, "G h8"); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("entering off the edge: %v", err)
	}
	// Somebody else's turn, a hex that does not exist, a taken hex.
	refused(t, s, 1, "B "+g.Name(coloured))
	refused(t, s, 0, "B o15")
	put(s, 1, Red, coloured, false)
	if err := refused(t, s, 0, "B "+g.Name(coloured)); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("onto a piece: %v", err)
	}
}

// TestTakeBackBlocked: a piece cannot be taken back while its start hex is taken.
func TestTakeBackBlocked(t *testing.T) {
	s := testState(t)
	g := s.geo
	a := hex(t, s, "h8")
	put(s, 0, Blue, a, false)
	var to Hex
	for _, h := range s.Reach(PieceID{0, Blue}) {
		to = h
		break
	}
	n := mustPlay(t, s, 0, "B "+g.Name(to))
	// The red cylinder enters... rather, stand it there directly: only a move can do it in
	// play when a path leads there, which the test does not need.
	put(n, 0, Red, a, false)
	if err := refused(t, n, 0, "u B"); !errors.Is(err, ErrNoTakeBack) {
		t.Fatalf("take-back onto a taken hex: %v", err)
	}
}

// TestOffBoardHex: a hex off the board is refused by its name, as the board writes it, not as
// "not a move"; and the state is left alone.
func TestOffBoardHex(t *testing.T) {
	s := testState(t)
	for move, hex := range map[string]string{"B z9": "z9", "B Z9": "z9", "b h16": "h16", "Blue to P3": "p3", "B o15": "o15"} {
		err := refused(t, s, 0, move)
		want := "there is no hex " + hex + " on this board (side 8)"
		if err.Error() != want || errors.Is(err, rules.ErrBadNotation) {
			t.Errorf("%q: %v, want %q", move, err, want)
		}
	}
}
