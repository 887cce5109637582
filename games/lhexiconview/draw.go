package lhexiconview

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon"
	"github.com/arcade/arcade/session/draw"
)

// cellKind is how a hex is drawn.
type cellKind uint8

const (
	cellEmpty  cellKind = iota
	cellCentre          // the empty centre
	cellTrap            // an empty hex of a trap
	cellTile            // a letter tile; its tier gives its looks
	cellBlank           // a blank, as the letter it stands for
	cellWord            // a hex of the word being composed
	cellSwap            // a blank picked for a swap
)

// lhexCell is what one hex shows: the key of its memoised string.
type lhexCell struct {
	ch     byte // the letter (upper case a tile, lower case a blank), or 0 for an empty hex
	kind   cellKind
	tier   uint8 // the tile's value: 0 one point, 1 two or three, 2 four or five, 3 eight or more
	last   bool  // on the last word played
	cursor bool
}

// lhexCells holds the hexes every Lhex-i'-con board has drawn.
var lhexCells draw.SharedMemo[lhexCell]

// tierPaints are the colours of the value tiers above one point: blue, yellow, orange-red.
var tierPaints = func() (ps [4]draw.Paint) {
	ps[0] = draw.PlainPaint
	for i, c := range []string{"#87d7ff", "#ffd75f", "#ff875f"} {
		ps[i+1] = draw.NewPaint(lipgloss.NewStyle().Foreground(lipgloss.Color(c)).Bold(i > 0))
	}
	return ps
}()

// trapPaint is the colour of a trap's hexes.
var trapPaint = draw.NewPaint(lipgloss.NewStyle().Foreground(lipgloss.Color("#d7af5f")))

// tier is a letter's value tier.
func tier(t lhexicon.Tile) uint8 {
	switch v := lhexicon.LetterValue(t.Letter()); {
	case v >= 8:
		return 3
	case v >= 4:
		return 2
	case v >= 2:
		return 1
	}
	return 0
}

// glyph draws a cell's character.
func (c lhexCell) glyph(st draw.Styles) string {
	switch c.kind {
	case cellEmpty:
		if st.ASCII {
			return "."
		}
		return "·"
	case cellCentre:
		return "+"
	case cellTrap:
		if st.ASCII {
			return "#"
		}
		return "░"
	}
	return string(c.ch)
}

// draw draws a cell's character in its style.
func (c lhexCell) draw(st draw.Styles) string {
	g := c.glyph(st)
	var p draw.Paint
	switch c.kind {
	case cellEmpty:
		p = st.Dim
	case cellCentre:
		p = st.Bold
	case cellTrap:
		p = trapPaint
		if st.NoColor {
			p = draw.PlainPaint
		}
	case cellTile:
		p = tierPaints[c.tier]
		if st.NoColor {
			p = draw.PlainPaint
			if c.tier >= 2 {
				p = st.Bold
			}
		}
	case cellBlank:
		p = st.Dim
	case cellWord, cellSwap:
		p = st.Acted
		if st.NoColor {
			// Without colour Acted is bold and underlined: a letter of 4 points or more on the
			// last word played looks the same. The word being spelled is in reverse instead.
			p = st.Sel
		}
	}
	switch {
	case c.cursor:
		return st.Cursor.Render(g)
	case c.last && (c.kind == cellTile || c.kind == cellBlank):
		return draw.NewPaint(p.Style().Underline(true)).Render(g) // memoised: made once a kind
	}
	return p.Render(g)
}

// cellOf returns what h shows.
func (b *lhexBoard) cellOf(v *lhexicon.View, h lhexicon.Hex, trap []bool, last []bool, seated bool) lhexCell {
	c := lhexCell{last: last[h], cursor: seated && h == b.cur}
	t := v.Board[h]
	for _, s := range b.c.steps {
		if s.hex == h {
			c.kind, c.ch = cellWord, letterChar(s.tile)
			return c
		}
	}
	switch {
	case t == lhexicon.NoTile && trap[h]:
		c.kind = cellTrap
	case t == lhexicon.NoTile && h == v.Centre:
		c.kind = cellCentre
	case t == lhexicon.NoTile:
		c.kind = cellEmpty
	case t.IsBlank():
		c.kind, c.ch = cellBlank, letterChar(t)
		for _, x := range b.c.swaps {
			if x == h {
				c.kind = cellSwap
			}
		}
	default:
		c.kind, c.ch, c.tier = cellTile, letterChar(t), tier(t)
	}
	return c
}

// letterChar is a tile's character on the board: its letter in upper case ('Q' for Qu), in lower
// case for a blank.
func letterChar(t lhexicon.Tile) byte {
	ch := t.Spell()
	if ch == "" {
		return '?'
	}
	if t.IsBlank() {
		return ch[0]
	}
	return ch[0] - 'a' + 'A'
}

// rows draws the hexagon, a line a row: "a1 · · · · · · · · a8", indented half a hex a row.
func (b *lhexBoard) rows(v *lhexicon.View, st draw.Styles, seated bool) []string {
	trap := make([]bool, lhexicon.NumHexes)
	for _, t := range v.Traps {
		for _, h := range t {
			trap[h] = true
		}
	}
	last := make([]bool, lhexicon.NumHexes)
	if v.Last.Kind == lhexicon.Play || v.Last.Kind == lhexicon.Accept || v.Last.Kind == lhexicon.Challenge {
		for _, h := range v.Last.Path {
			if h.Valid() && v.Board[h] != lhexicon.NoTile {
				last[h] = true
			}
		}
	}
	lines := make([]string, 0, 2*lhexicon.Side-1)
	var line strings.Builder
	for r := range 2*lhexicon.Side - 1 {
		line.Reset()
		n := lhexicon.RowLen(r)
		row := string(rune('a' + r))
		line.WriteString(strings.Repeat(" ", indent(r)))
		line.WriteString(st.Dim.Render(row + "1"))
		for c := range n {
			h := lhexicon.At(r, c)
			line.WriteString(b.mark(h, seated))
			cell := b.cellOf(v, h, trap, last, seated)
			line.WriteString(lhexCells.Get(st, cell, func() string { return cell.draw(st) }))
		}
		end := " "
		if seated && b.cur == lhexicon.At(r, n-1) {
			end = "]"
		}
		line.WriteString(end + " " + st.Dim.Render(fmt.Sprintf("%s%d", row, n)))
		lines = append(lines, line.String())
		if b.tall {
			lines = append(lines, b.values(v, r, st))
		}
	}
	return lines
}

// values draws row r's line of values for the tall board: each tile's points under its letter.
func (b *lhexBoard) values(v *lhexicon.View, r int, st draw.Styles) string {
	n := lhexicon.RowLen(r)
	buf := []byte(strings.Repeat(" ", indent(r)+lhexLeft+2*n+2))
	for c := range n {
		h := lhexicon.At(r, c)
		t := v.Board[h]
		for _, s := range b.c.steps {
			if s.hex == h {
				t = s.tile
			}
		}
		if t == lhexicon.NoTile {
			continue
		}
		copy(buf[indent(r)+lhexLeft+2*c+1:], strconv.Itoa(t.Value()))
	}
	out := strings.TrimRight(string(buf), " ")
	if out == "" {
		return ""
	}
	return st.Dim.Render(out)
}

// tallHeight is the height from which the board is drawn two lines a row, with the values: the
// rows, and the rack, preview, cursor, hints and legend under them.
const tallHeight = 2*(2*lhexicon.Side-1) + 6

// mark is the column left of h: the cursor's opening bracket on it, the closing one after it.
func (b *lhexBoard) mark(h lhexicon.Hex, seated bool) string {
	switch {
	case !seated:
		return " "
	case h == b.cur:
		return "["
	case h.Col() > 0 && h-1 == b.cur:
		return "]"
	}
	return " "
}

func (b *lhexBoard) View(snap *rooms.Snapshot, st draw.Styles, width, height int) []string {
	v, ok := draw.ViewRef[lhexicon.View](snap)
	if !ok {
		return nil
	}
	b.settle(v, snap)
	seated := snap.You != rules.Spectator && snap.Phase == rooms.Playing
	b.tall = height >= tallHeight
	lines := b.rows(v, st, seated)
	lines = append(lines, draw.Wrap(rackLine(v, snap, st, b.c.used(len(v.Rack)), b.c.give), width)...)
	var under [][]string // each whole, what fits in height, the first first
	var hints [][]string // dropped from the last when the lines do not fit
	switch {
	case snap.Phase == rooms.Finished || v.Outcome.Over:
		// The room's reason: a match may end by the rules (the engine's) or by the room (a
		// resignation, a clock, an abandoned seat).
		why := snap.Outcome.Reason
		if why == "" {
			why = v.Outcome.Reason
		}
		over := "The game is over."
		if why != "" {
			over = "The game is over: " + why + "."
		}
		under = append(under, draw.Wrap(st.Bold.Render(over), width))
	case myTurn(v, snap):
		under = append(under, draw.Wrap(b.composing(v, st), width))
		under = append(under, draw.Wrap(b.cursorLine(v, st), width))
		hints = b.hints(v, st, width, !snap.Counts())
	case mayAnswer(v, snap):
		under = append(under, draw.Wrap(st.Bold.Render(strings.ToUpper(v.Pending)+" may be challenged:")+
			" C challenges it, A accepts it.", width))
		under = append(under, draw.Wrap(b.cursorLine(v, st), width))
	case seated:
		under = append(under, draw.Wrap(b.cursorLine(v, st), width))
		hints = [][]string{draw.Wrap(st.Dim.Render("Arrows move the cursor; you play on your turn."), width)}
	}
	b.composeDrawn = false
	for i, u := range under {
		if height > 0 && len(lines)+len(u) > height {
			return lines // (a small window's: the hints would not fit either)
		}
		lines = append(lines, u...)
		b.composeDrawn = b.composeDrawn || i == 0 && myTurn(v, snap)
	}
	hints = append(hints, legend(st, width))
	for _, h := range hints {
		if len(lines)+len(h) > height {
			break
		}
		lines = append(lines, h...)
	}
	return lines
}

// MinSize is the board drawn a line a row, with the rack's line (draw.Sizer).
func (b *lhexBoard) MinSize(snap *rooms.Snapshot) (int, int) {
	v, ok := draw.ViewRef[lhexicon.View](snap)
	if !ok {
		return 0, 0
	}
	w := 0
	for r := range 2*lhexicon.Side - 1 {
		n := lhexicon.RowLen(r)
		w = max(w, indent(r)+lhexLeft+2*n+2+len(fmt.Sprintf("%c%d", 'a'+r, n)))
	}
	rack := draw.Wrap(rackLine(v, snap, *draw.NewStyles(true, false), make([]bool, len(v.Rack)), nil), w)
	return w, 2*lhexicon.Side - 1 + len(rack)
}

// rackLine shows the viewer's rack with each tile's value ("Rack C3 R1 ?0 Qu10"), the tiles the
// word takes as "--" and those picked for an exchange in brackets; to a spectator, how many tiles
// each player holds.
func rackLine(v *lhexicon.View, snap *rooms.Snapshot, st draw.Styles, used []bool, give []int) string {
	if snap.You == rules.Spectator || v.Viewer == rules.Spectator {
		var parts []string
		for seat, n := range v.RackSizes {
			parts = append(parts, fmt.Sprintf("%s %d", playerName(snap, rules.Seat(seat)), n))
		}
		return st.Dim.Render("Racks (hidden): ") + strings.Join(parts, ", ") + st.Dim.Render(" tiles")
	}
	picked := make([]bool, len(v.Rack))
	for _, i := range give {
		if i < len(picked) {
			picked[i] = true
		}
	}
	parts := []string{st.Bold.Render("Rack")}
	for i, t := range v.Rack {
		s := rackLabel(t)
		switch {
		case picked[i]:
			s = st.Acted.Render("[" + s + "]")
		case used[i]:
			s = st.Dim.Render(strings.Repeat("-", len(s)))
		}
		parts = append(parts, s)
	}
	if len(v.Rack) == 0 {
		parts = append(parts, st.Dim.Render("empty"))
	}
	return strings.Join(parts, " ")
}

// rackLabel is a rack tile with its value: "C3", "Qu10", "?0" for a blank.
func rackLabel(t lhexicon.Tile) string {
	if t == lhexicon.Blank {
		return "?0"
	}
	name := strings.ToUpper(t.Spell())
	if t.Letter() == lhexicon.QU {
		name = "Qu"
	}
	return fmt.Sprintf("%s%d", name, t.Value())
}

// wordText writes the word being composed as the board shows it: tiles in upper case, blanks in
// lower case.
func (b *lhexBoard) wordText() string {
	var w strings.Builder
	for _, s := range b.c.steps {
		if s.tile.IsBlank() {
			w.WriteString(s.tile.Spell())
		} else {
			w.WriteString(strings.ToUpper(s.tile.Spell()))
		}
	}
	return w.String()
}

// composing says what is being composed and what it would do: the word and its score, or why it
// is not a play yet; the exchange, the swap, the pass awaiting enter.
func (b *lhexBoard) composing(v *lhexicon.View, st draw.Styles) string {
	c := &b.c
	switch c.mode {
	case modeExchange:
		n := len(c.give)
		if n == 0 {
			return st.Bold.Render("Exchange:") + fmt.Sprintf(" type the tiles to give back (bank %d).", v.Bank)
		}
		return st.Bold.Render("Exchange:") + fmt.Sprintf(" enter gives back %d tile%s.", n, plural(n))
	case modeSwap:
		hs := make([]string, len(c.swaps))
		for i, h := range c.swaps {
			hs[i] = fmt.Sprintf("%s (%s)", h, tileName(v.Board[h].Letter()))
		}
		return st.Bold.Render("Swap") + " the blank on " + strings.Join(hs, " and ") +
			" for your tile: enter swaps; s on a blank adds or drops it."
	}
	if len(c.steps) == 0 {
		switch {
		case b.hint != "" && c.mode == modeNone && !c.blank:
			if h, ok := strings.CutPrefix(b.hint, "Hint:"); ok {
				return st.Bold.Render("Hint:") + h
			}
			return b.hint
		case c.blank:
			return st.Bold.Render("*") + " the next letter you type is played with the blank."
		case c.mode == modeWord:
			return st.Bold.Render("Word:") + " type its letters; the first goes on " + b.cur.String() + "."
		case sumBoard(v) == 0:
			return "First word: on the centre (+); enter starts it."
		}
		return "enter starts a word on the cursor's hex."
	}
	word := b.wordText()
	p, err := v.Preview(c.move())
	if err != nil {
		return st.Bold.Render(word) + ": " + whyNot(err) + "."
	}
	score := fmt.Sprintf("%d", p.Letters)
	if p.Bonus > 0 {
		score += fmt.Sprintf(" + trap %d = %d", p.Bonus, p.Score)
	}
	blank := ""
	if c.blank {
		blank = " (* blank next)"
	}
	return st.OK.Render(st.Bold.Render(word)+" scores "+score) + ": enter plays it." + blank
}

// whyNot is a refused play's error without the reason's name where the words after it say it all
// ("uses no tile on the board: the word must use at least one tile already on the board").
func whyNot(err error) string {
	msg := err.Error()
	for _, e := range []error{lhexicon.ErrNotWord, lhexicon.ErrNoBoardTile, lhexicon.ErrCentre, lhexicon.ErrNotInRack,
		lhexicon.ErrNoNewTile, lhexicon.ErrNotPath} {
		if p := e.Error() + ": "; errors.Is(err, e) && strings.HasPrefix(msg, p) {
			return msg[len(p):]
		}
	}
	return msg
}

// sumBoard counts the tiles on the board.
func sumBoard(v *lhexicon.View) int {
	n := 0
	for _, t := range v.Board {
		if t != lhexicon.NoTile {
			n++
		}
	}
	return n
}

// cursorLine names the hex under the cursor and what it holds, or says what the last key could
// not do.
func (b *lhexBoard) cursorLine(v *lhexicon.View, st draw.Styles) string {
	if b.c.note != "" {
		return st.Err.Render(b.c.note)
	}
	h := b.cur
	parts := []string{st.Bold.Render(h.String())}
	t := v.Board[h]
	for _, s := range b.c.steps {
		if s.hex == h && s.isNew {
			t = s.tile
			parts = append(parts, "your new tile")
		}
	}
	switch {
	case t == lhexicon.NoTile:
		what := "empty"
		if h == v.Centre {
			what = "the centre, empty"
		}
		for _, tr := range v.Traps {
			for _, x := range tr {
				if x == h {
					what = fmt.Sprintf("empty, in a trap of %d hex%s", len(tr), pluralEs(len(tr)))
				}
			}
		}
		parts = append(parts, what)
	case t.IsBlank():
		parts = append(parts, fmt.Sprintf("a blank as %s, 0 points", tileName(t.Letter())))
	default:
		parts = append(parts, fmt.Sprintf("%s, %d point%s", tileName(t), t.Value(), plural(t.Value())))
	}
	for i, s := range b.c.steps {
		if s.hex == h {
			parts = append(parts, fmt.Sprintf("letter %d of the word", i+1))
		}
	}
	return strings.Join(parts, draw.PartSep(st))
}

// hints tells the keys of the turn, a line each; h among them when hintable (a match that counts
// for nothing).
func (b *lhexBoard) hints(v *lhexicon.View, st draw.Styles, width int, hintable bool) [][]string {
	sep := draw.PartSep(st)
	line := func(parts ...string) []string { return draw.Wrap(st.Dim.Render(strings.Join(parts, sep)), width) }
	arrows := "←→↑↓ move"
	if st.ASCII {
		arrows = "arrows move"
	}
	switch {
	case b.c.mode == modeExchange:
		return [][]string{line("letters pick", "* blank", "bksp undo", "esc cancels")}
	case b.c.mode == modeWord || b.c.blank:
		return [][]string{line(arrows, "letters place", "* blank", "bksp undo"), line("space marks a tile", "esc clears")}
	case b.c.mode == modeNone:
		more := []string{"space marks a tile", "s swaps a blank", "p pass"}
		if v.Seats == 1 {
			more = append(more, "e end")
		}
		lines := [][]string{line(arrows, "enter starts a word", "x exchange"), line(more...)}
		if hintable {
			lines = append(lines, line("h suggests a word"))
		}
		return lines
	}
	return nil
}

// legend explains the board's glyphs.
func legend(st draw.Styles, width int) []string {
	trap := "░"
	if st.ASCII {
		trap = "#"
	}
	sep := draw.PartSep(st)
	return draw.Wrap(st.Dim.Render("+ centre"+sep+trap+" trap, 3 a hex"+sep+"e blank as E"+sep+"bold 4+"), width)
}
