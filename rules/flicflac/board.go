package flicflac

import (
	"fmt"
	"strconv"
)

// Colour is a colour of the wheel, 0 to 5 in wheel order, or Black (a hex only).
type Colour int8

// The colours, in wheel order (a colour's opposite is 3 further on), and Black.
const (
	Blue Colour = iota
	Green
	Yellow
	Orange
	Red
	Purple
	Black
)

// Colours is the number of colours of the wheel, and of pieces a player has.
const Colours = 6

var colourNames = [...]string{"blue", "green", "yellow", "orange", "red", "purple", "black"}

// colourLetters are the colours' letters: the notation's piece names, and the board's.
const colourLetters = "BGYORPK"

// String returns the colour's name in lower case: "blue", ..., "black".
func (c Colour) String() string {
	if c < 0 || int(c) >= len(colourNames) {
		return "colour" + strconv.Itoa(int(c))
	}
	return colourNames[c]
}

// Letter returns the colour's letter: B G Y O R P, and K for black.
func (c Colour) Letter() byte {
	if c < 0 || int(c) >= len(colourLetters) {
		return '?'
	}
	return colourLetters[c]
}

// Opposite returns the colour opposite c on the wheel (blue-orange, green-red, yellow-purple).
func (c Colour) Opposite() Colour { return (c + 3) % Colours }

// Shape is a player's kind of piece.
type Shape int8

// The shapes: cylinders move first.
const (
	Cylinder Shape = iota
	Block
)

// String returns "cylinder" or "block".
func (sh Shape) String() string {
	if sh == Block {
		return "block"
	}
	return "cylinder"
}

// Plural returns "cylinders" or "blocks": the name of a player in messages.
func (sh Shape) Plural() string { return sh.String() + "s" }

// Flies returns the two colours a piece of colour c shows on top: c+1 and c+2 upright, c+4 and
// c+5 flipped (mod 6).
func Flies(c Colour, flipped bool) [2]Colour {
	d := Colour(1)
	if flipped {
		d = 4
	}
	return [2]Colour{(c + d) % Colours, (c + d + 1) % Colours}
}

// flies reports whether a piece of colour c, flipped or not, flies colour x.
func flies(c Colour, flipped bool, x Colour) bool {
	d := (x - c + Colours) % Colours
	if flipped {
		return d == 4 || d == 5
	}
	return d == 1 || d == 2
}

// MinSide and MaxSide bound the board's side (room option size).
const (
	MinSide = 5
	MaxSide = 8
	// MaxHexes is the number of hexes of the largest board.
	MaxHexes = 3*MaxSide*(MaxSide-1) + 1
)

// Hex is a hex of the board: its index in the board's hex list (Geometry.Hexes), or NoHex.
type Hex int16

// NoHex is no hex: for a piece, its home.
const NoHex Hex = -1

// Cube is a hex's cube coordinates, flat-topped: columns q from the left, r growing downwards,
// s = -q-r.
type Cube struct{ Q, R, S int }

// Geometry is a board of one side: its hexes, names, neighbours and start colours. It is shared
// by every state of that side and never changes.
type Geometry struct {
	Side  int
	Cubes []Cube           // the hexes, column by column from the left, each from the top down
	names []string         // each hex's name
	index map[Cube]Hex     // the hex at each cube
	nbr   [][6]Hex         // each hex's neighbours (NoHex off the board), in direction order
	start []Colour         // each hex's colour before any Hex Slide
	rot   []Hex            // the hex each hex goes to in a Hex Slide
	entry [2][2][]Hex      // [shape][edge group] the entry edge's hexes
	dist  [][MaxHexes]int8 // hex distances
}

// directions are the six neighbours' offsets: n, ne, se, s, sw, nw (flat-topped, r downwards).
var directions = [6]Cube{{0, -1, 1}, {1, -1, 0}, {1, 0, -1}, {0, 1, -1}, {-1, 1, 0}, {-1, 0, 1}}

// colourTable is RULES.md's T: rows (q - r) mod 9 in {1, 2, 4, 5, 7, 8}, columns d mod 9 in
// {1, 2}, {4, 5}, {7, 8}.
var colourTable = map[int][3]Colour{
	1: {Blue, Red, Blue},
	2: {Purple, Purple, Green},
	4: {Red, Red, Yellow},
	5: {Purple, Orange, Orange},
	7: {Blue, Yellow, Yellow},
	8: {Green, Orange, Green},
}

func mod(a, n int) int { return ((a % n) + n) % n }

// StartColour returns the colour of the hex at c before any Hex Slide: black when q + 2r is a
// multiple of 3, else T[(q-r) mod 9][(q+2r) mod 9] (RULES.md section 5).
func StartColour(c Cube) Colour {
	d := c.Q + 2*c.R
	if mod(d, 3) == 0 {
		return Black
	}
	return colourTable[mod(c.Q-c.R, 9)][mod(d, 9)/3]
}

var geometries [MaxSide + 1]*Geometry

func init() {
	for side := MinSide; side <= MaxSide; side++ {
		geometries[side] = newGeometry(side)
	}
}

// GeometryOf returns the board of the given side (5 to 8), or nil.
func GeometryOf(side int) *Geometry {
	if side < MinSide || side > MaxSide {
		return nil
	}
	return geometries[side]
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

func newGeometry(side int) *Geometry {
	g := &Geometry{Side: side, index: map[Cube]Hex{}}
	R := side - 1
	for q := -R; q <= R; q++ {
		for r := max(-R, -R-q); r <= min(R, R-q); r++ {
			c := Cube{q, r, -q - r}
			g.index[c] = Hex(len(g.Cubes))
			g.Cubes = append(g.Cubes, c)
		}
	}
	n := len(g.Cubes)
	g.names = make([]string, n)
	g.nbr = make([][6]Hex, n)
	g.start = make([]Colour, n)
	g.rot = make([]Hex, n)
	g.dist = make([][MaxHexes]int8, n)
	for h, c := range g.Cubes {
		// Columns a, b, ... from the left (rows from the top, drawn pointy-topped); hexes
		// numbered from the bottom of the column (the left of the row).
		g.names[h] = string(rune('a'+c.Q+R)) + strconv.Itoa(min(R, R-c.Q)-c.R+1)
		for d, o := range directions {
			nb, ok := g.index[Cube{c.Q + o.Q, c.R + o.R, c.S + o.S}]
			if !ok {
				nb = NoHex
			}
			g.nbr[h][d] = nb
		}
		g.start[h] = StartColour(c)
		g.rot[h] = g.index[Cube{-c.R, -c.S, -c.Q}]
		for h2, c2 := range g.Cubes {
			g.dist[h][h2] = int8((abs(c.Q-c2.Q) + abs(c.R-c2.R) + abs(c.S-c2.S)) / 2)
		}
		for sh := range 2 {
			for grp := range 2 {
				var on bool
				switch {
				case sh == int(Cylinder) && grp == 0:
					on = c.S == R
				case sh == int(Cylinder):
					on = c.S == -R
				case grp == 0:
					on = c.R == R
				default:
					on = c.R == -R
				}
				if on {
					g.entry[sh][grp] = append(g.entry[sh][grp], Hex(h))
				}
			}
		}
	}
	return g
}

// NumHexes returns the number of hexes: 3 side (side - 1) + 1.
func (g *Geometry) NumHexes() int { return len(g.Cubes) }

// Name returns the hex's name, e.g. "h8" (the centre of side 8): its row's letter, a at the top,
// and its number in the row from the left, as drawn pointy-topped (see Layout); in RULES.md's
// flat-topped frame, the column's letter from the left and the number from the bottom.
func (g *Geometry) Name(h Hex) string {
	if h < 0 || int(h) >= len(g.names) {
		return "home"
	}
	return g.names[h]
}

// Find returns the hex named name (as Name writes it, any case), or false.
func (g *Geometry) Find(name string) (Hex, bool) {
	for h, n := range g.names {
		if n == name {
			return Hex(h), true
		}
	}
	return NoHex, false
}

// At returns the hex at cube c, or false when c is off the board.
func (g *Geometry) At(c Cube) (Hex, bool) {
	h, ok := g.index[c]
	return h, ok
}

// Neighbours returns the hex's six neighbours (NoHex off the board): n, ne, se, s, sw, nw.
func (g *Geometry) Neighbours(h Hex) [6]Hex { return g.nbr[h] }

// Adjacent reports whether hexes a and b touch.
func (g *Geometry) Adjacent(a, b Hex) bool { return g.dist[a][b] == 1 }

// Distance returns the number of steps from a to b.
func (g *Geometry) Distance(a, b Hex) int { return int(g.dist[a][b]) }

// StartColourOf returns hex h's colour before any Hex Slide.
func (g *Geometry) StartColourOf(h Hex) Colour { return g.start[h] }

// entryGroup is the edge group of a colour: blue, red and yellow enter on one edge (0), orange,
// green and purple on the opposite one (1).
func entryGroup(c Colour) int {
	if c == Blue || c == Red || c == Yellow {
		return 0
	}
	return 1
}

// Entry returns the hexes a piece of shape sh and colour c may enter from home: cylinders blue,
// red, yellow s = +R, the others s = -R; blocks blue, red, yellow r = +R, the others r = -R.
func (g *Geometry) Entry(sh Shape, c Colour) []Hex { return g.entry[sh][entryGroup(c)] }

// Layout returns where hex h is drawn on a terminal, pointy-topped (the flat-topped board turned
// a quarter turn clockwise): row 0 to 2R from the top, the row of the hex's column letter (a is
// 0), and x in half hexes from the left, 0 to 4R, so that a hex's neighbours are at x +- 2 in its
// row and at x +- 1 in the rows above and below. Its number counts from the left of the row.
func (g *Geometry) Layout(h Hex) (row, x int) {
	c := g.Cubes[h]
	R := g.Side - 1
	num := min(R, R-c.Q) - c.R + 1
	return c.Q + R, 2*(num-1) + abs(c.Q)
}

// String returns the geometry's size, for messages.
func (g *Geometry) String() string { return fmt.Sprintf("side %d", g.Side) }
