package flicflacview

import (
	"github.com/arcade/arcade/rules/flicflac"
)

// A hex is drawn in hexW columns: an opening mark, a letter and a closing mark. Rows are drawn
// pointy-topped (Geometry.Layout) and the hexes of neighbouring rows are offset by half a hex,
// which is a column and a half: a hex at x half hexes is drawn from column 3x/2 (rounded down)
// after the row labels.
const hexW = 3

// labelW is the width of a row's left label, the name of its first hex and a space ("a1 ").
// The right label is the number of the row's last hex, after a space.
const labelW = 3

// slotsW is the width of a home's three slots.
const slotsW = 3 * hexW

// cell is a place the cursor may stand on: a hex of the board, or the home slot of one piece.
type cell struct {
	line, col int          // where it is drawn: line from the board's top, first column
	hex       flicflac.Hex // the hex, NoHex for a home slot
	shape     flicflac.Shape
	colour    flicflac.Colour // a home slot's piece
}

// layout is where a board of one side draws its hexes and homes. Boards of the same side share
// one (layouts), which never changes.
type layout struct {
	geo   *flicflac.Geometry
	lines int // the board's lines: one a row
	width int // the board's columns, its labels and homes included
	// cells lists the hexes and the home slots in drawing order: by line, then by column.
	cells []cell
	// hexCell is the index in cells of each hex; slotCell of each home slot by shape and colour.
	hexCell  []int
	slotCell [2][flicflac.Colours]int
	// rowFirst and rowLast are each row's first and last hex.
	rowFirst, rowLast []flicflac.Hex
	// captions are where the homes' captions ("home") are drawn: line and column.
	captions [][2]int
	// edges names each shape's and colour's entry edge: "a1-h1".
	edges [2][flicflac.Colours]string
}

// layouts holds the layout of each side, made once.
var layouts = func() (ls [flicflac.MaxSide + 1]*layout) {
	for side := flicflac.MinSide; side <= flicflac.MaxSide; side++ {
		ls[side] = newLayout(flicflac.GeometryOf(side))
	}
	return ls
}()

// layoutOf returns the layout of a board of side side (clamped to the sides there are).
func layoutOf(side int) *layout {
	return layouts[min(max(side, flicflac.MinSide), flicflac.MaxSide)]
}

// halfCol is the column, after the row labels, of x half hexes.
func halfCol(x int) int { return 3 * x / 2 }

// homeGroups are the colours of the two homes of a shape, by entry edge: those entering on one
// edge, then those on the opposite one (Geometry.Entry), in wheel order.
var homeGroups = [2][3]flicflac.Colour{
	{flicflac.Blue, flicflac.Yellow, flicflac.Red},
	{flicflac.Green, flicflac.Orange, flicflac.Purple},
}

func newLayout(g *flicflac.Geometry) *layout {
	R := g.Side - 1
	l := &layout{geo: g, lines: 2*R + 1, hexCell: make([]int, g.NumHexes())}
	// The top row's label must leave room on its left for a home's slots and a space.
	margin := max(0, slotsW+1-halfCol(R))
	l.rowFirst = make([]flicflac.Hex, l.lines)
	l.rowLast = make([]flicflac.Hex, l.lines)
	for i := range l.rowFirst {
		l.rowFirst[i], l.rowLast[i] = flicflac.NoHex, flicflac.NoHex
	}
	type placed struct {
		c   cell
		key int // line * 1000 + col: the drawing order
	}
	var all []placed
	for h := range g.NumHexes() {
		hex := flicflac.Hex(h)
		row, x := g.Layout(hex)
		c := cell{line: row, col: margin + labelW + halfCol(x), hex: hex}
		all = append(all, placed{c, row*1000 + c.col})
		if l.rowFirst[row] == flicflac.NoHex || c.col < l.hexCol(g, margin, l.rowFirst[row]) {
			l.rowFirst[row] = hex
		}
		if l.rowLast[row] == flicflac.NoHex || c.col > l.hexCol(g, margin, l.rowLast[row]) {
			l.rowLast[row] = hex
		}
	}
	// The homes: each in the corner beside its entry edge, on the top or bottom line.
	rightEnd := func(row int) int { // the first column after row's right label
		last := l.rowLast[row]
		return l.hexCol(g, margin, last) + hexW + len(g.Name(last))
	}
	for sh := range 2 {
		for grp := range 2 {
			entry := g.Entry(flicflac.Shape(sh), homeGroups[grp][0])
			sumRow, sumX := 0, 0
			for _, h := range entry {
				r, x := g.Layout(h)
				sumRow, sumX = sumRow+r, sumX+x
			}
			line, capLine := 0, 1
			if sumRow > R*len(entry) {
				line, capLine = l.lines-1, l.lines-2
			}
			col := 0
			if sumX > 2*R*len(entry) {
				col = rightEnd(line) + 1
			}
			capCol := col
			if col > 0 {
				capCol = col + slotsW - len("home") // under or over the slots' right end
			}
			l.captions = append(l.captions, [2]int{capLine, capCol})
			edge := g.Name(entry[0]) + "-" + g.Name(entry[len(entry)-1])
			for i, c := range homeGroups[grp] {
				sc := cell{line: line, col: col + i*hexW, hex: flicflac.NoHex, shape: flicflac.Shape(sh), colour: c}
				all = append(all, placed{sc, line*1000 + sc.col})
				l.edges[sh][c] = edge
			}
		}
	}
	for row := range l.lines {
		l.width = max(l.width, rightEnd(row))
	}
	for _, p := range all {
		l.width = max(l.width, p.c.col+hexW)
	}
	// Sort by drawing order (insertion sort: a few hundred cells, once per side).
	for i := 1; i < len(all); i++ {
		for j := i; j > 0 && all[j].key < all[j-1].key; j-- {
			all[j], all[j-1] = all[j-1], all[j]
		}
	}
	for i, p := range all {
		l.cells = append(l.cells, p.c)
		if p.c.hex != flicflac.NoHex {
			l.hexCell[p.c.hex] = i
		} else {
			l.slotCell[p.c.shape][p.c.colour] = i
		}
	}
	return l
}

// hexCol is the first column of hex h.
func (l *layout) hexCol(g *flicflac.Geometry, margin int, h flicflac.Hex) int {
	_, x := g.Layout(h)
	return margin + labelW + halfCol(x)
}

// step returns the cell the cursor goes to from cell i: dl lines down (-1 up) or dc cells right
// (-1 left), toward column want on another line; i when there is none.
func (l *layout) step(i, dl, dc, want int) int {
	c := l.cells[i]
	if dc != 0 {
		j := i + dc
		if j >= 0 && j < len(l.cells) && l.cells[j].line == c.line {
			return j
		}
		return i
	}
	best, bestD := i, 1<<30
	for j, o := range l.cells {
		if o.line != c.line+dl {
			continue
		}
		d := abs(o.col - want)
		if d < bestD {
			best, bestD = j, d
		}
	}
	return best
}

// at returns the cell drawn at line, column col, or -1.
func (l *layout) at(line, col int) int {
	for i, c := range l.cells {
		if c.line == line && col >= c.col && col < c.col+hexW {
			return i
		}
	}
	return -1
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}
