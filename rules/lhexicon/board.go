package lhexicon

import (
	"fmt"
	"strconv"
	"strings"
)

// Side is the number of hexes along each side of the board.
const Side = 8

// NumHexes is the number of hexes of the board: 3 x Side x (Side-1) + 1.
const NumHexes = 3*Side*(Side-1) + 1

// rows is the number of rows of the board, a to o from the top.
const rows = 2*Side - 1

// Hex is a hex of the board, 0 to NumHexes-1, row by row from the top and left to right in a row.
// Its notation is the row letter a to o from the top and the position in the row from 1 at the
// left: the top row a1 to a8, the middle row h1 to h15, the centre h8.
type Hex int16

// NoHex stands for "no hex".
const NoHex Hex = -1

// Dir is one of the six directions from a hex to a neighbour, clockwise from east.
type Dir uint8

// The six directions. Rows are drawn offset by half a hex, so a hex touches two hexes of the row
// above (NW, NE), two of its own row (W, E) and two of the row below (SW, SE).
const (
	E Dir = iota
	SE
	SW
	W
	NW
	NE
)

var dirNames = [6]string{"e", "se", "sw", "w", "nw", "ne"}

// String returns the direction's notation: e, se, sw, w, nw or ne.
func (d Dir) String() string {
	if d > NE {
		return "?"
	}
	return dirNames[d]
}

// ParseDir decodes a direction (any case).
func ParseDir(s string) (Dir, bool) {
	s = strings.ToLower(s)
	for i, n := range dirNames {
		if n == s {
			return Dir(i), true
		}
	}
	return 0, false
}

// axial (q, r) offsets of the six directions, r growing downwards.
var dirDelta = [6][2]int{{1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}, {1, -1}}

// The board's geometry, computed once.
var (
	hexQ, hexR [NumHexes]int8     // axial coordinates, centre (0, 0)
	neighbour  [NumHexes][6]Hex   // by direction; NoHex off the board
	onEdge     [NumHexes]bool     // on the board's outer ring
	rowStart   [rows + 1]Hex      // first hex of each row; rowStart[rows] = NumHexes
	hexAt      = map[[2]int]Hex{} // axial coordinates -> hex
)

// Centre is the centre hex, h8; the first word covers it.
var Centre Hex

func init() {
	n := Hex(0)
	for r := -(Side - 1); r <= Side-1; r++ {
		rowStart[r+Side-1] = n
		for q := max(-(Side - 1), -(Side-1)-r); q <= min(Side-1, Side-1-r); q++ {
			hexQ[n], hexR[n] = int8(q), int8(r)
			hexAt[[2]int{q, r}] = n
			onEdge[n] = max(abs(q), abs(r), abs(q+r)) == Side-1
			if q == 0 && r == 0 {
				Centre = n
			}
			n++
		}
	}
	rowStart[rows] = n
	for h := range Hex(NumHexes) {
		for d, v := range dirDelta {
			nb, ok := hexAt[[2]int{int(hexQ[h]) + v[0], int(hexR[h]) + v[1]}]
			if !ok {
				nb = NoHex
			}
			neighbour[h][d] = nb
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Valid reports whether h is a hex of the board.
func (h Hex) Valid() bool { return h >= 0 && h < NumHexes }

// Row returns the hex's row, 0 (a, the top) to 14 (o).
func (h Hex) Row() int { return int(hexR[h]) + Side - 1 }

// Col returns the hex's position in its row, 0 at the left.
func (h Hex) Col() int { return int(h - rowStart[h.Row()]) }

// RowLen returns the number of hexes in row r (0 to 14): 8 at the top and bottom, 15 in the middle.
func RowLen(r int) int { return rows - abs(r-(Side-1)) }

// At returns the hex in row r (0-based from the top) at position c (0-based from the left), or
// NoHex.
func At(r, c int) Hex {
	if r < 0 || r >= rows || c < 0 || c >= RowLen(r) {
		return NoHex
	}
	return rowStart[r] + Hex(c)
}

// Step returns the neighbour of h in direction d, or NoHex off the board.
func (h Hex) Step(d Dir) Hex { return neighbour[h][d] }

// Neighbours returns the six neighbours of h by direction, NoHex where the board ends.
func (h Hex) Neighbours() [6]Hex { return neighbour[h] }

// OnEdge reports whether h is on the board's outer ring: an empty region touching it is no trap.
func (h Hex) OnEdge() bool { return onEdge[h] }

// DirTo returns the direction from h to its neighbour n, or false when they are not neighbours.
func (h Hex) DirTo(n Hex) (Dir, bool) {
	for d, x := range neighbour[h] {
		if x == n && n != NoHex {
			return Dir(d), true
		}
	}
	return 0, false
}

// Distance returns the number of steps from h to g.
func (h Hex) Distance(g Hex) int {
	dq, dr := int(hexQ[h])-int(hexQ[g]), int(hexR[h])-int(hexR[g])
	return max(abs(dq), abs(dr), abs(dq+dr))
}

// String returns the hex's notation, e.g. "h8"; "-" for an invalid hex.
func (h Hex) String() string {
	if !h.Valid() {
		return "-"
	}
	return string(rune('a'+h.Row())) + strconv.Itoa(h.Col()+1)
}

// ParseHex decodes a hex such as "h8" or "O3" (any case).
func ParseHex(s string) (Hex, error) {
	bad := fmt.Errorf("%q is not a hex: write a row a to o and a position from 1, e.g. h8", s)
	if len(s) < 2 {
		return NoHex, bad
	}
	r := int(lower(s[0])) - 'a'
	c, err := strconv.Atoi(s[1:])
	if r < 0 || r >= rows || err != nil || s[1] == '+' || s[1] == '-' {
		return NoHex, bad
	}
	h := At(r, c-1)
	if h == NoHex {
		return NoHex, fmt.Errorf("there is no hex %s: row %c has hexes 1 to %d", s, 'a'+r, RowLen(r))
	}
	return h, nil
}

func lower(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}
