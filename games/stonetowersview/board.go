package stonetowersview

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/session/draw"
)

// stoneKeys are the Stone Towers board's bindings: the grammar's (draw.KeyMap). Its pass is not
// asked: the rules allow it only when nothing else is.
type stoneKeys struct {
	Up, Down, Left, Right, Act, Pass key.Binding
}

// stoneBoard draws a Stone Towers board with a cursor. Each square is three columns: a marker
// ('+' the square acted on last, '*' a square the last action's domino effect changed), the owner's
// letter (capital for a castle, small for a flag, '·' unowned) and the castle's level. In a column
// too narrow for that (a small window's), a square is two columns, the letter and the level, and
// the markers are the squares' styles alone (colours, or underlines without colour).
type stoneBoard struct {
	keys     stoneKeys
	help     []key.Binding // bindings' answer, made once
	cur      stonetowers.Square
	placed   bool
	lastSize int
	cellW    int // the columns of a square as last drawn: 3, or 2 in a narrow column

	// What view draws again from frame to frame (a board lives in one session, with one set of
	// styles): the styled squares (by look, and any others in the memo), the column letters of a
	// board size, the row numbers.
	looks      [2][stoneLooks]string // by cell width, 3 then 2
	squares    draw.Memo[stoneGlyph]
	header     string
	headerSize int // (and headerW, the square's width it was drawn for)
	headerW    int
	rowLabels  []string
	// Scratch space view reuses: each square's marker by Row*Size+Col, and a row's bytes.
	marks []byte
	row   []byte
	rows  []string // the rows as last drawn: a row drawn the same again is the same string
}

// NewBoard makes a board view of Stone Towers for one session: the catalogue's Entry.Board.
func NewBoard() draw.Board { return newStoneBoard() }

func newStoneBoard() *stoneBoard {
	k := &draw.KeyMap // the grammar of every game: Stone Towers adds no key of its own
	b := &stoneBoard{squares: draw.Memo[stoneGlyph]{}, cellW: 3, keys: stoneKeys{
		Up: k.Up, Down: k.Down, Left: k.Left, Right: k.Right, Act: k.Act, Pass: k.Pass,
	}}
	b.help = []key.Binding{b.keys.Up, b.keys.Act, b.keys.Pass}
	return b
}

func (b *stoneBoard) Bindings() []key.Binding { return b.help }

// origin is where the first square starts: row labels take three columns, the column letters one
// line.
const stoneLeft, stoneTop = 3, 1

func (b *stoneBoard) Handle(msg tea.Msg, snap *rooms.Snapshot) string {
	v, ok := draw.ViewOf[stonetowers.View](snap)
	if !ok {
		return ""
	}
	b.settle(v)
	switch msg := msg.(type) {
	case tea.MouseClickMsg:
		m := msg.Mouse()
		if m.Button != tea.MouseLeft || m.X < stoneLeft || m.Y < stoneTop {
			return ""
		}
		sq := stonetowers.Square{Col: (m.X - stoneLeft) / b.cellW, Row: m.Y - stoneTop}
		if !v.OnBoard(sq) {
			return ""
		}
		if sq == b.cur {
			return sq.String() // a second click on the same square acts
		}
		b.cur = sq
	case tea.KeyPressMsg:
		k := b.keys
		switch {
		case key.Matches(msg, k.Up):
			b.cur.Row = max(0, b.cur.Row-1)
		case key.Matches(msg, k.Down):
			b.cur.Row = min(v.Size-1, b.cur.Row+1)
		case key.Matches(msg, k.Left):
			b.cur.Col = max(0, b.cur.Col-1)
		case key.Matches(msg, k.Right):
			b.cur.Col = min(v.Size-1, b.cur.Col+1)
		case key.Matches(msg, k.Act):
			return b.cur.String()
		case key.Matches(msg, k.Pass):
			return "pass"
		}
	}
	return ""
}

// settle puts the cursor in the middle of a new board and keeps it on the board.
func (b *stoneBoard) settle(v stonetowers.View) {
	if !b.placed || b.lastSize != v.Size {
		b.cur = stonetowers.Square{Col: v.Size / 2, Row: v.Size / 2}
		b.placed, b.lastSize = true, v.Size
	}
}

// MinSize is the board in squares of two columns, without the line under it (draw.Sizer).
func (b *stoneBoard) MinSize(snap *rooms.Snapshot) (int, int) {
	v, ok := draw.ViewOf[stonetowers.View](snap)
	if !ok {
		return 0, 0
	}
	return stoneLeft + 2*v.Size, stoneTop + v.Size
}

func (b *stoneBoard) View(snap *rooms.Snapshot, st draw.Styles, width, height int) []string {
	v, ok := draw.ViewOf[stonetowers.View](snap)
	if !ok {
		return nil
	}
	b.settle(v)
	n := v.Size
	b.cellW = 3
	if width > 0 && width < stoneLeft+3*n {
		b.cellW = 2
	}
	marks := b.markSquares(v)
	lines := make([]string, 0, n+3)
	lines = append(lines, b.columnLetters(n, st))
	seated := snap.You != rules.Spectator && snap.Phase == rooms.Playing
	for r := range n {
		row := append(b.row[:0], b.rowLabel(r, st)...)
		for c, sq := range v.Grid[r][:n] {
			row = append(row, b.square(sq.Cell, marks[r*n+c], seated && r == b.cur.Row && c == b.cur.Col, st)...)
		}
		b.rows = draw.KeepLine(b.rows, r, row)
		lines = append(lines, b.rows[r])
		b.row = row
	}
	if seated {
		n := len(lines)
		lines = draw.AppendWrap(append(lines, ""), b.describe(v, snap.You, v.ToMove == snap.You, st), width)
		if height > 0 && len(lines) > height {
			lines = lines[:n] // (a small window's) the line under the board does not fit
		}
	}
	return lines
}

// markSquares returns each square's marker by Row*Size+Col: '+' a square the last action acted
// on, '*' one its domino effect changed, 0 none. The slice is the board's, reused by the next
// call.
func (b *stoneBoard) markSquares(v stonetowers.View) []byte {
	n := v.Size
	b.marks = append(b.marks[:0], make([]byte, n*n)...)
	for _, c := range v.Changes {
		if !v.OnBoard(c.Square) {
			continue
		}
		i := c.Square.Row*n + c.Square.Col
		if c.Wave == 0 {
			b.marks[i] = '+'
		} else if b.marks[i] == 0 {
			b.marks[i] = '*'
		}
	}
	return b.marks
}

// columnLetters draws the line of column letters over a board of size n, once per size.
func (b *stoneBoard) columnLetters(n int, st draw.Styles) string {
	if b.header == "" || b.headerSize != n || b.headerW != b.cellW {
		var head strings.Builder
		head.WriteString("   ")
		for c := range n {
			if b.cellW == 2 {
				fmt.Fprintf(&head, "%c ", 'a'+c)
			} else {
				fmt.Fprintf(&head, " %c ", 'a'+c)
			}
		}
		b.header, b.headerSize, b.headerW = st.Dim.Render(head.String()), n, b.cellW
	}
	return b.header
}

// rowLabel draws row r's number (from 0), once per row.
func (b *stoneBoard) rowLabel(r int, st draw.Styles) string {
	for len(b.rowLabels) <= r {
		b.rowLabels = append(b.rowLabels, st.Dim.Render(fmt.Sprintf("%2d ", len(b.rowLabels)+1)))
	}
	return b.rowLabels[r]
}

// stoneGlyph is what a drawn square looks like: the key of its memoised string.
type stoneGlyph struct {
	cell   stonetowers.Cell
	mark   byte
	cursor bool
	narrow bool // two columns
}

// stoneLooks is the number of looks the board's table holds: owner Nobody, Red or Blue, level 0
// to 3, marker none, '+' or '*', under the cursor or not.
const stoneLooks = 3 * 4 * 3 * 2

// look returns g's place in the board's table, or false for a look beyond it (kept in the memo).
func (g stoneGlyph) look() (int, bool) {
	owner, level, m := int(g.cell.Owner)+1, g.cell.Level, 0
	switch g.mark {
	case 0:
	case '+':
		m = 1
	case '*':
		m = 2
	default:
		return 0, false
	}
	if owner < 0 || owner > 2 || level < 0 || level > 3 {
		return 0, false
	}
	i := ((owner*4+level)*3 + m) * 2
	if g.cursor {
		i++
	}
	return i, true
}

// square draws one square, highlighted for the cursor or the last action's marks: once per look,
// kept in the board's table (a drawn square is never empty) or, past it, its memo.
func (b *stoneBoard) square(c stonetowers.Cell, mark byte, cursor bool, st draw.Styles) string {
	g := stoneGlyph{c, mark, cursor, b.cellW == 2}
	i, ok := g.look()
	if !ok {
		return b.squares.Get(g, func() string { return b.drawSquare(g, st) })
	}
	looks := &b.looks[b2i(g.narrow)]
	if looks[i] == "" {
		looks[i] = b.drawSquare(g, st)
	}
	return looks[i]
}

func b2i(v bool) int {
	if v {
		return 1
	}
	return 0
}

// drawSquare draws a square's look.
func (b *stoneBoard) drawSquare(g stoneGlyph, st draw.Styles) string {
	cell := b.cell(g.cell, g.mark, st)
	if g.narrow {
		cell = cell[1:] // the marker is the style alone
	}
	switch {
	case g.cursor:
		return st.Cursor.Render(cell)
	case g.mark == '+':
		return st.Acted.Render(cell)
	case g.mark == '*':
		return st.Changed.Render(cell)
	}
	return cell
}

// cell draws one square's three columns (unstyled but for the owner's colour when not under the
// cursor or a mark).
func (b *stoneBoard) cell(c stonetowers.Cell, mark byte, st draw.Styles) string {
	m := markOf(mark)
	switch {
	case c.Owner == stonetowers.Nobody:
		dot := "·"
		if st.ASCII {
			dot = "."
		}
		return m + st.Dim.Render(dot) + " "
	case c.IsCastle():
		return m + st.SeatStyle(int(c.Owner)).Render(fmt.Sprintf("%s%d", draw.SeatLetter(int(c.Owner)), c.Level))
	}
	return m + st.SeatStyle(int(c.Owner)).Render(strings.ToLower(draw.SeatLetter(int(c.Owner)))) + " "
}

// markOf is a square's marker column: mark, or a space for none.
func markOf(mark byte) string {
	if mark != 0 {
		return string(mark)
	}
	return " "
}

// describe says what the cursor's square is and, on the viewer's turn, what enter would do there.
func (b *stoneBoard) describe(v stonetowers.View, me rules.Seat, myTurn bool, st draw.Styles) string {
	sq := v.At(b.cur)
	inf := sq.Influence
	what := "unowned"
	switch {
	case sq.IsCastle():
		what = fmt.Sprintf("%s castle %d", stonetowers.SeatName(sq.Owner), sq.Level)
	case sq.Owner != stonetowers.Nobody:
		what = stonetowers.SeatName(sq.Owner) + " flag"
	}
	act := ""
	switch {
	case sq.Owner != stonetowers.Nobody && sq.Owner != me:
		act = "enemy land"
	case sq.IsCastle() && sq.Level < 3:
		act = "fortify"
	case sq.IsCastle():
		act = "full strength"
	default:
		act = "build"
	}
	line := fmt.Sprintf("%s %s · influence R%d B%d", b.cur, what, inf[0], inf[1])
	if !myTurn {
		return line
	}
	return line + " · " + st.Bold.Render(act)
}

func (b *stoneBoard) Status(snap *rooms.Snapshot, st draw.Styles, width int) []string {
	v, ok := draw.ViewOf[stonetowers.View](snap)
	if !ok {
		return nil
	}
	lines := []string{fmt.Sprintf("Turns left: %s %d · %s %d",
		st.SeatStyle(0).Render("R"), v.TurnsLeft[0], st.SeatStyle(1).Render("B"), v.TurnsLeft[1])}
	if draw.TextWidth(lines[0]) > width {
		lines[0] = "Turns: " + lines[0][len("Turns left: "):] // a narrow panel's
	}
	if lm := v.LastMove; lm != nil {
		who := st.SeatStyle(int(lm.Seat)).Render(stonetowers.SeatName(lm.Seat))
		lines = draw.AppendWrap(lines, fmt.Sprintf("Last: %s %s", who, pastTense(lm.Move)), width)
		if d := dominoSummary(v); d != "" {
			lines = append(lines, draw.Wrap(d, width)...)
		}
	}
	const legend = "R2 castle·r flag·* changed"
	if draw.TextWidth(legend) <= width {
		return append(lines, st.Dim.Render(legend))
	}
	for _, l := range draw.Wrap(legend, width) { // a narrow panel's
		lines = append(lines, st.Dim.Render(l))
	}
	return lines
}

// dominoSummary counts what the last action's resolution changed.
func dominoSummary(v stonetowers.View) string {
	counts := map[stonetowers.ChangeKind]int{}
	for _, c := range v.Changes {
		if c.Wave > 0 {
			counts[c.Kind]++
		}
	}
	var parts []string
	if n := counts[stonetowers.LandClaimed] + counts[stonetowers.FlagTaken]; n > 0 {
		parts = append(parts, fmt.Sprintf("took %d", n))
	}
	if n := counts[stonetowers.CastleDestroyed]; n > 0 {
		parts = append(parts, fmt.Sprintf("destroyed %d castle%s", n, draw.Plural(n)))
	}
	if len(parts) == 0 {
		return ""
	}
	s := strings.Join(parts, ", ")
	if v.Waves > 1 {
		s += fmt.Sprintf(" in %d waves", v.Waves)
	}
	return s
}

func (b *stoneBoard) Score(snap *rooms.Snapshot, seat int) string {
	v, ok := draw.ViewOf[stonetowers.View](snap)
	if !ok || seat > 1 {
		return ""
	}
	return strconv.Itoa(v.Scores[seat])
}

// pastTense says what a move did: "built e5", "fortified e5", "passed".
func pastTense(m stonetowers.Move) string {
	switch m.Action {
	case stonetowers.Build:
		return "built " + m.Square.String()
	case stonetowers.Fortify:
		return "fortified " + m.Square.String()
	}
	return "passed"
}
