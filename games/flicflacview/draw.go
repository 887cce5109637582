package flicflacview

import (
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/arcade/arcade/rules/flicflac"
	"github.com/arcade/arcade/session/draw"
)

// glyphKind is what a cell shows.
type glyphKind uint8

const (
	glyphHex   glyphKind = iota // a free hex
	glyphPiece                  // a piece, on the board or at home
	glyphSlot                   // an empty home slot
)

// glyph is what one cell shows: the key of its memoised string.
type glyph struct {
	kind      glyphKind
	hexColour flicflac.Colour // the hex's colour (a piece's too); a slot's: Black
	shape     flicflac.Shape
	body      flicflac.Colour
	flipped   bool
	empowered bool
	doomed    bool
	reach     bool // the selected piece may go there
	picked    bool // the selected piece
	cursor    bool
}

// glyphs holds the cells every Flic Flac board has drawn.
var glyphs draw.SharedMemo[glyph]

// colourNames are the colours' names as draw.Styles.Colour knows them.
var colourNames = [...]string{"Blue", "Green", "Yellow", "Orange", "Red", "Purple"}

// colourPaint is the paint of colour c: bold for a piece, plain for a hex; black hexes dim.
func colourPaint(st draw.Styles, c flicflac.Colour, bold bool) draw.Paint {
	if c < 0 || c >= flicflac.Black {
		return st.Dim
	}
	return st.Colour(colourNames[c]).Bold(bold)
}

// hexLetter is a hex's letter: its colour's in lower case, '·' ('.' in ASCII) for black.
func hexLetter(c flicflac.Colour, st draw.Styles) string {
	if c == flicflac.Black || c < 0 {
		if st.ASCII {
			return "."
		}
		return "·"
	}
	return strings.ToLower(string(c.Letter()))
}

// marks returns a piece's opening and closing marks: "(" ")" a cylinder, "[" "]" a block; the
// closing one is '!' when it is due to be captured, '*' when empowered.
func marks(g glyph) (string, string) {
	open, closing := "(", ")"
	if g.shape == flicflac.Block {
		open, closing = "[", "]"
	}
	switch {
	case g.doomed:
		closing = "!"
	case g.empowered:
		closing = "*"
	}
	return open, closing
}

// draw draws the cell's three columns.
func (g glyph) draw(st draw.Styles) string {
	var s string
	switch g.kind {
	case glyphHex:
		side := " "
		if g.reach {
			side = "+"
		}
		s = side + colourPaint(st, g.hexColour, false).Render(hexLetter(g.hexColour, st)) + side
		if g.reach && !g.cursor {
			return st.Changed.Render(ansi.Strip(s))
		}
	case glyphSlot:
		open, closing := marks(g)
		s = st.Dim.Render(open + " " + closing)
	case glyphPiece:
		open, closing := marks(g)
		letter := string(g.body.Letter())
		if g.flipped {
			letter = strings.ToLower(letter)
		}
		body := colourPaint(st, g.body, true)
		if g.doomed {
			body = st.Dim
		}
		edge := colourPaint(st, g.hexColour, false)
		s = edge.Render(open) + body.Render(letter) + edge.Render(closing)
		if g.picked && !g.cursor {
			return st.Sel.Render(ansi.Strip(s))
		}
	}
	if g.cursor {
		return st.Cursor.Render(ansi.Strip(s))
	}
	return s
}

// pieceGlyph is what piece p shows.
func pieceGlyph(p flicflac.PieceView, hexColour flicflac.Colour) glyph {
	return glyph{kind: glyphPiece, hexColour: hexColour, shape: p.Shape, body: p.ID.Colour, flipped: p.Flipped,
		empowered: p.Empowered, doomed: p.Doomed}
}

// glyphAt returns what cell i of the layout shows.
func (b *board) glyphAt(v *flicflac.View, l *layout, i int, reach []bool, cursor bool) glyph {
	c := l.cells[i]
	var g glyph
	if c.hex != flicflac.NoHex {
		hv := &v.Hexes[c.hex]
		if hv.Piece >= 0 {
			g = pieceGlyph(v.Pieces[hv.Piece], hv.Colour)
			g.picked = b.sel >= 0 && hv.Piece == b.selID(v)
		} else {
			g = glyph{kind: glyphHex, hexColour: hv.Colour, reach: reach[c.hex]}
		}
	} else {
		seat := seatOf(v, c.shape)
		p := v.Piece(seat, c.colour)
		if p.Hex == flicflac.NoHex {
			g = pieceGlyph(p, flicflac.Black)
			g.picked = b.sel >= 0 && int(p.ID.Seat)*flicflac.Colours+int(p.ID.Colour) == b.selID(v)
		} else {
			g = glyph{kind: glyphSlot, hexColour: flicflac.Black, shape: c.shape}
		}
	}
	g.cursor = cursor && i == b.cur
	return g
}

// boardLines draws the hexagon and the homes, a line a row: "a1 ·  g  b ... a8", the homes'
// slots in the corners beside their entry edges.
func (b *board) boardLines(v *flicflac.View, l *layout, st draw.Styles, cursor bool) []string {
	reach := make([]bool, len(v.Hexes))
	if b.sel >= 0 && int(b.sel) < len(v.Reach) {
		for _, h := range v.Reach[b.sel] {
			reach[h] = true
		}
	}
	lines := make([]string, 0, l.lines)
	rc := &b.rows
	if rc.lay != l || rc.noColor != st.NoColor || rc.ascii != st.ASCII {
		*rc = rowCache{lay: l, noColor: st.NoColor, ascii: st.ASCII, glyphs: make([][]glyph, l.lines),
			text: make([]string, l.lines)}
	}
	i := 0
	for row := range l.lines {
		start := i
		gs := rc.scratch[:0]
		for ; i < len(l.cells) && l.cells[i].line == row; i++ {
			gs = append(gs, b.glyphAt(v, l, i, reach, cursor))
		}
		rc.scratch = gs
		if rc.glyphs[row] == nil || !slices.Equal(gs, rc.glyphs[row]) {
			rc.text[row] = b.drawRow(l, st, row, start, gs)
			rc.glyphs[row] = append(rc.glyphs[row][:0], gs...)
		}
		lines = append(lines, rc.text[row])
	}
	return lines
}

// rowCache holds the board's rows as last drawn, each with the glyphs it shows: a row that shows
// the same glyphs again is not drawn again (a move changes two or three rows of fifteen).
type rowCache struct {
	lay            *layout
	noColor, ascii bool
	glyphs         [][]glyph
	text           []string
	scratch        []glyph
}

// drawRow draws row row of the layout, whose cells from start show gs, with its labels and
// the homes' slots and captions on it.
func (b *board) drawRow(l *layout, st draw.Styles, row, start int, gs []glyph) string {
	type segment struct {
		col  int
		text string
		w    int
	}
	var segs []segment
	for _, cp := range l.captions {
		if cp[0] == row {
			segs = append(segs, segment{cp[1], st.Dim.Render("home"), 4})
		}
	}
	first, last := l.rowFirst[row], l.rowLast[row]
	for k, g := range gs {
		c := l.cells[start+k]
		if c.hex == first {
			segs = append(segs, segment{c.col - labelW, st.Dim.Render(l.geo.Name(first)), len(l.geo.Name(first))})
		}
		segs = append(segs, segment{c.col, glyphs.Get(st, g, func() string { return g.draw(st) }), hexW})
		if c.hex == last {
			num := l.geo.Name(last)[1:]
			segs = append(segs, segment{c.col + hexW + 1, st.Dim.Render(num), len(num)})
		}
	}
	slices.SortStableFunc(segs, func(a, b segment) int { return a.col - b.col })
	var line strings.Builder
	col := 0
	for _, sg := range segs {
		if sg.col > col {
			line.WriteString(draw.Spaces(sg.col - col))
			col = sg.col
		}
		line.WriteString(sg.text)
		col += sg.w
	}
	return line.String()
}

// legend explains the board's glyphs in lines of at most width columns.
func legend(st draw.Styles, width int) []string {
	black := "·"
	if st.ASCII {
		black = "."
	}
	parts := []string{"(B) cylinder", "[B] block", "(b) flipped", "B* empowered", "B! to be captured",
		"r red hex", black + " black", "+ may go"}
	// Two spaces between entries: one would read "red hex · black" as a list, the black hex's dot
	// as a separator.
	return draw.Entries(parts, width)
}
