package flicflac

import (
	"testing"
)

// TestBoardColours: every side from 5 to 8 has 3 side (side - 1) + 1 hexes, one black hex in
// three with six coloured neighbours (the centre black), and the colour counts of each side
// (side 8: those of RULES.md).
func TestBoardColours(t *testing.T) {
	for side := MinSide; side <= MaxSide; side++ {
		g := GeometryOf(side)
		if g.NumHexes() != 3*side*(side-1)+1 {
			t.Fatalf("side %d: %d hexes", side, g.NumHexes())
		}
		var count [Colours + 1]int
		for h := range g.NumHexes() {
			c := g.StartColourOf(Hex(h))
			count[c]++
			if c != Black {
				continue
			}
			for _, nb := range g.Neighbours(Hex(h)) {
				if nb != NoHex && g.StartColourOf(nb) == Black {
					t.Errorf("side %d: black %s touches black %s", side, g.Name(Hex(h)), g.Name(nb))
				}
			}
		}
		if c, _ := g.At(Cube{}); g.StartColourOf(c) != Black {
			t.Errorf("side %d: the centre is %s", side, g.StartColourOf(c))
		}
		// Side 8 as RULES.md gives it; sides 5 to 7 worked from its formula by a separate
		// script (the same formula, independent code).
		want := map[int][Colours + 1]int{
			5: {Blue: 3, Green: 3, Yellow: 9, Orange: 9, Red: 9, Purple: 9, Black: 19},
			6: {Blue: 9, Green: 9, Yellow: 9, Orange: 12, Red: 12, Purple: 9, Black: 31},
			7: {Blue: 15, Green: 15, Yellow: 15, Orange: 12, Red: 12, Purple: 15, Black: 43},
			8: {Blue: 21, Green: 21, Yellow: 18, Orange: 18, Red: 18, Purple: 18, Black: 55},
		}[side]
		if count != want {
			t.Errorf("side %d: %v (B G Y O R P K), want %v", side, count, want)
		}
		// Every black hex off the rim touches six hexes, all coloured.
		for h := range g.NumHexes() {
			c := g.Cubes[h]
			if g.StartColourOf(Hex(h)) != Black || max(abs(c.Q), abs(c.R), abs(c.S)) == side-1 {
				continue
			}
			n := 0
			for _, nb := range g.Neighbours(Hex(h)) {
				if nb != NoHex && g.StartColourOf(nb) != Black {
					n++
				}
			}
			if n != 6 {
				t.Errorf("side %d: black %s touches %d coloured hexes", side, g.Name(Hex(h)), n)
			}
		}
	}
	// Every black hex away from the edge touches six coloured ones (side 8: all but the rim).
	g := GeometryOf(8)
	for h := range g.NumHexes() {
		if g.StartColourOf(Hex(h)) != Black {
			continue
		}
		n := 0
		for _, nb := range g.Neighbours(Hex(h)) {
			if nb != NoHex {
				n++
			}
		}
		c := g.Cubes[h]
		if max(abs(c.Q), abs(c.R), abs(c.S)) < 7 && n != 6 {
			t.Errorf("inner black %s has %d neighbours", g.Name(Hex(h)), n)
		}
	}
}

// TestColourTable checks a few hexes against RULES.md's formula worked by hand.
func TestColourTable(t *testing.T) {
	// The rows of T, one hex for each cell: (q-r) mod 9 = row, d mod 9 = column.
	rows := map[int][3]Colour{1: {Blue, Red, Blue}, 2: {Purple, Purple, Green}, 4: {Red, Red, Yellow},
		5: {Purple, Orange, Orange}, 7: {Blue, Yellow, Yellow}, 8: {Green, Orange, Green}}
	found := 0
	for q := -7; q <= 7; q++ {
		for r := -7; r <= 7; r++ {
			c := Cube{q, r, -q - r}
			if max(abs(q), abs(r), abs(c.S)) > 7 {
				continue
			}
			d := q + 2*r
			if mod(d, 3) == 0 {
				if StartColour(c) != Black {
					t.Errorf("%v: %s, want black", c, StartColour(c))
				}
				continue
			}
			found++
			if want := rows[mod(q-r, 9)][mod(d, 9)/3]; StartColour(c) != want {
				t.Errorf("%v: %s, want %s", c, StartColour(c), want)
			}
		}
	}
	if found != 169-55 {
		t.Errorf("%d coloured hexes", found)
	}
	// Worked by hand: (1,0,-1): q-r = 1, d = 1: row 1, {1,2}: blue. (-1,0,1): q-r = 8, d = 8:
	// row 8, {7,8}: green. (4,0,-4): 4, 4: red. (2,0,-2): 2, 2: purple. (-2,0,2): 7, 7: yellow.
	// (5,0,-5): 5, 5: orange.
	for _, c := range []struct {
		cube Cube
		want Colour
	}{{Cube{1, 0, -1}, Blue}, {Cube{-1, 0, 1}, Green}, {Cube{4, 0, -4}, Red}, {Cube{2, 0, -2}, Purple},
		{Cube{-2, 0, 2}, Yellow}, {Cube{5, 0, -5}, Orange}, {Cube{1, 1, -2}, Black}} {
		if got := StartColour(c.cube); got != c.want {
			t.Errorf("%v: %s, want %s", c.cube, got, c.want)
		}
	}
}

// TestWheel: the order, the opposites and the colours a piece flies.
func TestWheel(t *testing.T) {
	opp := map[Colour]Colour{Blue: Orange, Green: Red, Yellow: Purple, Orange: Blue, Red: Green, Purple: Yellow}
	for c, o := range opp {
		if c.Opposite() != o {
			t.Errorf("%s's opposite is %s, want %s", c, c.Opposite(), o)
		}
	}
	for _, f := range []struct {
		c       Colour
		flipped bool
		want    [2]Colour
	}{
		{Blue, false, [2]Colour{Green, Yellow}}, {Blue, true, [2]Colour{Red, Purple}},
		{Yellow, false, [2]Colour{Orange, Red}}, {Yellow, true, [2]Colour{Blue, Green}},
		{Purple, false, [2]Colour{Blue, Green}}, {Purple, true, [2]Colour{Orange, Red}},
		{Red, true, [2]Colour{Yellow, Orange}}, {Orange, true, [2]Colour{Green, Yellow}},
	} {
		if got := Flies(f.c, f.flipped); got != f.want {
			t.Errorf("%s flipped %v flies %v, want %v", f.c, f.flipped, got, f.want)
		}
		for x := Blue; x < Black; x++ {
			if flies(f.c, f.flipped, x) != (x == f.want[0] || x == f.want[1]) {
				t.Errorf("%s flipped %v: flies(%s) wrong", f.c, f.flipped, x)
			}
		}
	}
	if colourLetters[:Colours] != "BGYORP" {
		t.Error("letters")
	}
}

// TestEntryEdges: each shape and colour enters on its edge of R + 1 hexes, named as the rules
// text says for side 8.
func TestEntryEdges(t *testing.T) {
	for side := MinSide; side <= MaxSide; side++ {
		g := GeometryOf(side)
		R := side - 1
		for sh := Cylinder; sh <= Block; sh++ {
			for c := Blue; c < Black; c++ {
				e := g.Entry(sh, c)
				if len(e) != side {
					t.Fatalf("side %d %s %s: %d entry hexes", side, c, sh, len(e))
				}
				for _, h := range e {
					cb := g.Cubes[h]
					var on bool
					upper := c == Blue || c == Red || c == Yellow
					switch {
					case sh == Cylinder && upper:
						on = cb.S == R
					case sh == Cylinder:
						on = cb.S == -R
					case upper:
						on = cb.R == R
					default:
						on = cb.R == -R
					}
					if !on {
						t.Errorf("side %d %s %s enters on %s %v", side, c, sh, g.Name(h), cb)
					}
				}
			}
		}
	}
	g := GeometryOf(8)
	for _, c := range []struct {
		sh          Shape
		c           Colour
		first, last string
	}{{Cylinder, Blue, "a8", "h15"}, {Cylinder, Orange, "h1", "o1"}, {Block, Red, "a1", "h1"}, {Block, Purple, "h15", "o8"}} {
		e := g.Entry(c.sh, c.c)
		names := map[string]bool{}
		for _, h := range e {
			names[g.Name(h)] = true
		}
		if !names[c.first] || !names[c.last] {
			t.Errorf("%s %s enters on %v, want %s to %s", c.c, c.sh, names, c.first, c.last)
		}
	}
}

// TestHexNames: names are unique, round-trip through Find, and the centre is h8.
func TestHexNames(t *testing.T) {
	for side := MinSide; side <= MaxSide; side++ {
		g := GeometryOf(side)
		seen := map[string]bool{}
		for h := range g.NumHexes() {
			n := g.Name(Hex(h))
			if seen[n] {
				t.Fatalf("side %d: %s twice", side, n)
			}
			seen[n] = true
			if back, ok := g.Find(n); !ok || back != Hex(h) {
				t.Fatalf("side %d: %s finds %d", side, n, back)
			}
		}
	}
	g := GeometryOf(8)
	if c, _ := g.At(Cube{}); g.Name(c) != "h8" {
		t.Errorf("centre %s", g.Name(c))
	}
}

// TestLayout: drawn pointy-topped, neighbours are beside or diagonally above and below, every
// hex has a place of its own, rows are the column letters and numbers run from the left.
func TestLayout(t *testing.T) {
	for side := MinSide; side <= MaxSide; side++ {
		g := GeometryOf(side)
		R := side - 1
		seen := map[[2]int]bool{}
		for h := range Hex(g.NumHexes()) {
			row, x := g.Layout(h)
			if row < 0 || row > 2*R || x < 0 || x > 4*R || seen[[2]int{row, x}] || (row+x+R)%2 != 0 {
				t.Fatalf("side %d: %s at row %d x %d", side, g.Name(h), row, x)
			}
			seen[[2]int{row, x}] = true
			if n := g.Name(h); int(n[0]-'a') != row {
				t.Fatalf("%s on row %d", n, row)
			}
			for _, nb := range g.Neighbours(h) {
				if nb == NoHex {
					continue
				}
				r2, x2 := g.Layout(nb)
				dr, dx := abs(r2-row), abs(x2-x)
				if !(dr == 0 && dx == 2 || dr == 1 && dx == 1) {
					t.Fatalf("side %d: %s (%d,%d) and its neighbour %s (%d,%d)", side, g.Name(h), row, x, g.Name(nb), r2, x2)
				}
			}
		}
	}
	g := GeometryOf(8)
	for _, c := range []struct {
		name   string
		row, x int
	}{{"a1", 0, 7}, {"h1", 7, 0}, {"h15", 7, 28}, {"h8", 7, 14}, {"o1", 14, 7}} {
		h, _ := g.Find(c.name)
		if row, x := g.Layout(h); row != c.row || x != c.x {
			t.Errorf("%s at %d,%d, want %d,%d", c.name, row, x, c.row, c.x)
		}
	}
}
