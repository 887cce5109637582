package disconview

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/discon"
	"github.com/arcade/arcade/session/draw"
)

// disconKeys are the DISCON board's bindings: the grammar's (draw.KeyMap), and L. Cancel (esc)
// and StepBack (backspace) both un-pick: the pick is the one step of a turn. L only switches what
// the next move does, which enter then plays: a capital, but nothing is given up by it.
type disconKeys struct {
	Up, Down, Left, Right, Act, Leave, Cancel, StepBack key.Binding
}

// disconBoard draws a DISCON board with a cursor. Each square is four columns: a marker ('>' the
// selected piece, '+' a legal destination of it, '•' ('o' in ASCII) where a move of the latest
// turn landed; '*' is kept for the notation's "tower left behind"), two columns of
// content (a disc's colour letter "V", an ownerless stack's top letter and height "P3", a piece's
// seat letter and number "R3", a home corner's pieces "R×6") and a fourth column that marks the
// home zones ('░', '.' in ASCII).
//
// Enter on one of your pieces selects it (again on a home corner: the next of your pieces there);
// enter on a marked destination proposes the move. L toggles leaving the tower behind.
type disconBoard struct {
	keys   disconKeys
	help   []key.Binding // bindings' answer, made once
	cur    discon.Square
	placed bool
	sel    int  // the selected piece of the viewer, 1 to 6, or 0
	leave  bool // the next move leaves the tower behind

	// What view draws again from frame to frame (a board lives in one session, with one set of
	// styles): the column letters and the row numbers. The styled squares are in disconSquares.
	header    string
	rowLabels [discon.Size]string
	row       []byte   // scratch space for a row's bytes
	rows      []string // the rows as last drawn: a row drawn the same again is the same string
	// rowGlyphs holds what each row of rows shows: a row whose squares show the same again is
	// not drawn again. An allocation of its own, without pointers, that the collector skips.
	rowGlyphs *[discon.Size][discon.Size]disconGlyph
	legend    []string // disconLegend's lines for legendW
	legendW   int
	heights   []string // towerHeights' lines for heightsOf
	heightsOf [4][discon.Pieces]int
}

// NewBoard makes a board view of DISCON for one session: the catalogue's Entry.Board.
func NewBoard() draw.Board { return newDisconBoard() }

func newDisconBoard() *disconBoard {
	k := &draw.KeyMap // the grammar of every game, and L, DISCON's own
	b := &disconBoard{rowGlyphs: new([discon.Size][discon.Size]disconGlyph), keys: disconKeys{
		Up: k.Up, Down: k.Down, Left: k.Left, Right: k.Right, Act: k.Act,
		Leave:  key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "leave")),
		Cancel: k.Cancel, StepBack: k.StepBack,
	}}
	b.help = []key.Binding{b.keys.Up, b.keys.Act, b.keys.Leave} // esc and bksp are told beside the board
	return b
}

// The first square's top-left cell on the board: row labels take three columns, the column
// letters one line. A square is disconCell columns wide.
const disconLeft, disconTop, disconCell = 3, 1, 4

func (b *disconBoard) Bindings() []key.Binding { return b.help }

// myTurn reports whether the snapshot's viewer is to move.
func myTurn(v *discon.View, snap *rooms.Snapshot) bool {
	return snap.You != rules.Spectator && snap.Phase == rooms.Playing && v.Turn == snap.You
}

// settle puts the cursor on the viewer's home corner the first time and drops a selection that
// no longer makes sense (not the viewer's turn).
func (b *disconBoard) settle(v *discon.View, snap *rooms.Snapshot) {
	if !b.placed {
		b.cur = discon.At(discon.Size/2, discon.Size/2)
		if snap.You >= 0 && int(snap.You) < len(v.Homes) {
			b.cur = v.Homes[snap.You]
		}
		b.placed = true
	}
	if !myTurn(v, snap) {
		b.sel = 0
	}
}

// TakesKey claims esc while the viewer has a piece picked or the next move set to leave the
// tower behind: esc drops them, and the room asks whether to leave only when there is nothing to
// drop (draw.KeyTaker).
func (b *disconBoard) TakesKey(km tea.KeyPressMsg, snap *rooms.Snapshot) bool {
	v, ok := draw.ViewRef[discon.View](snap)
	if !ok || !key.Matches(km, b.keys.Cancel) {
		return false
	}
	b.settle(v, snap)
	return myTurn(v, snap) && (b.sel != 0 || b.leave)
}

func (b *disconBoard) Handle(msg tea.Msg, snap *rooms.Snapshot) string {
	v, ok := draw.ViewRef[discon.View](snap)
	if !ok {
		return ""
	}
	b.settle(v, snap)
	switch msg := msg.(type) {
	case tea.MouseClickMsg:
		m := msg.Mouse()
		if m.Button != tea.MouseLeft || m.X < disconLeft || m.Y < disconTop {
			return ""
		}
		r, c := m.Y-disconTop, (m.X-disconLeft)/disconCell
		if r >= discon.Size || c >= discon.Size {
			return ""
		}
		b.cur = discon.At(r, c)
		return b.act(v, snap)
	case tea.KeyPressMsg:
		return b.key(msg, v, snap)
	}
	return ""
}

// key handles a key press on the board.
func (b *disconBoard) key(msg tea.KeyPressMsg, v *discon.View, snap *rooms.Snapshot) string {
	r, c := b.cur.Row(), b.cur.Col()
	k := b.keys
	switch {
	case key.Matches(msg, k.Up):
		r = max(0, r-1)
	case key.Matches(msg, k.Down):
		r = min(discon.Size-1, r+1)
	case key.Matches(msg, k.Left):
		c = max(0, c-1)
	case key.Matches(msg, k.Right):
		c = min(discon.Size-1, c+1)
	case key.Matches(msg, k.Act):
		return b.act(v, snap)
	case key.Matches(msg, k.Leave):
		b.leave = !b.leave
	case key.Matches(msg, k.Cancel), key.Matches(msg, k.StepBack):
		b.sel, b.leave = 0, false
	}
	b.cur = discon.At(r, c)
	return ""
}

// act is enter on the cursor's square: it proposes the selected piece's move there, or selects
// (cycles through) the viewer's pieces there, or drops the selection.
func (b *disconBoard) act(v *discon.View, snap *rooms.Snapshot) string {
	if !myTurn(v, snap) {
		return ""
	}
	if m, ok := b.moveTo(v, b.cur); ok {
		b.sel, b.leave = 0, false
		return m.String()
	}
	b.sel = nextPiece(v.Squares[b.cur].Pieces, snap.You, b.sel)
	return ""
}

// nextPiece returns the number of seat's piece among pieces after the one numbered cur (the
// first when cur is not among them, wrapping round), or 0 when seat has none there.
func nextPiece(pieces []discon.PieceID, seat rules.Seat, cur int) int {
	var mine []int
	for _, p := range pieces {
		if p.Seat == seat {
			mine = append(mine, p.Num)
		}
	}
	if len(mine) == 0 {
		return 0
	}
	i := slices.Index(mine, cur)
	return mine[(i+1)%len(mine)]
}

// moves returns the selected piece's legal moves in the current leave mode.
func (b *disconBoard) moves(v *discon.View) []discon.Move {
	if b.sel == 0 {
		return nil
	}
	var out []discon.Move
	for _, m := range v.Legal {
		if m.Piece == b.sel && m.Leave == b.leave {
			out = append(out, m)
		}
	}
	return out
}

// moveTo returns the selected piece's legal move to q in the current leave mode.
func (b *disconBoard) moveTo(v *discon.View, q discon.Square) (discon.Move, bool) {
	for _, m := range b.moves(v) {
		if m.To == q {
			return m, true
		}
	}
	return discon.Move{}, false
}

func (b *disconBoard) View(snap *rooms.Snapshot, st draw.Styles, width, height int) []string {
	v, ok := draw.ViewRef[discon.View](snap)
	if !ok {
		return nil
	}
	b.settle(v, snap)
	marks := b.marks(v)
	lines := make([]string, 0, discon.Size+16)
	lines = append(lines, b.columnLetters(st))
	seated := snap.You != rules.Spectator && snap.Phase == rooms.Playing
	for r := range discon.Size {
		var glyphs [discon.Size]disconGlyph
		for c := range discon.Size {
			q := discon.At(r, c)
			glyphs[c] = glyphOf(&v.Squares[q], marks[q], seated && q == b.cur)
		}
		if r >= len(b.rows) || glyphs != b.rowGlyphs[r] {
			row := append(b.row[:0], b.rowLabel(r, st)...)
			for c := range discon.Size {
				row = append(row, b.square(glyphs[c], &v.Squares[discon.At(r, c)], st)...)
			}
			b.rows = draw.KeepLine(b.rows, r, row)
			b.rowGlyphs[r] = glyphs
			b.row = row
		}
		lines = append(lines, b.rows[r])
	}
	// Under the grid, each whole, what fits in height (a small window's), the first first.
	if height > 0 && len(lines)+1 > height {
		return lines
	}
	lines = append(lines, "")
	if snap.Phase == rooms.Finished {
		if tv := towerValues(v, st, width); height <= 0 || len(lines)+len(tv) <= height {
			lines = append(lines, tv...)
		}
		return lines
	}
	if seated {
		n := len(lines)
		lines = draw.AppendWrap(lines, b.describe(v, st), width)
		lines = append(draw.AppendWrap(lines, b.selection(v, snap, st), width), "")
		if height > 0 && len(lines) > height {
			return lines[:n]
		}
	}
	hs := b.towerHeights(v, st)
	if height > 0 && len(lines)+len(hs) > height {
		return lines
	}
	lines = append(lines, hs...)
	if b.legend == nil || b.legendW != width {
		b.legend, b.legendW = disconLegend(st, width), width
	}
	if height <= 0 || len(lines)+len(b.legend) <= height {
		lines = append(lines, b.legend...)
	}
	return lines
}

// MinSize is the grid alone (draw.Sizer).
func (b *disconBoard) MinSize(*rooms.Snapshot) (int, int) {
	return disconLeft + disconCell*discon.Size, disconTop + discon.Size
}

// towerHeights returns towerHeights(v, st), drawn again only when a height has changed.
func (b *disconBoard) towerHeights(v *discon.View, st draw.Styles) []string {
	var hs [4][discon.Pieces]int // DISCON seats at most four
	for seat := range min(v.Seats, len(hs)) {
		for n := 1; n <= discon.Pieces; n++ {
			hs[seat][n-1] = len(v.Piece(rules.Seat(seat), n).Tower)
		}
	}
	if b.heights == nil || len(b.heights) != v.Seats || hs != b.heightsOf {
		b.heights, b.heightsOf = towerHeights(v, st), hs
	}
	return b.heights
}

// towerHeights lists the height of every piece's tower, a line per seat: "Red  1:3 2:0 3:5 ...".
func towerHeights(v *discon.View, st draw.Styles) []string {
	var lines []string
	for seat := range v.Seats {
		s := rules.Seat(seat)
		parts := []string{st.Colour(discon.SeatName(s)).Render(fmt.Sprintf("%-7s", discon.SeatName(s)))}
		for n := 1; n <= discon.Pieces; n++ {
			parts = append(parts, fmt.Sprintf("%d:%-2d", n, len(v.Piece(s, n).Tower)))
		}
		lines = append(lines, strings.Join(parts, " "))
	}
	return lines
}

// towerValues lists every tower at the end with its storeys, bottom first, and its value under
// the variant: "Red 148  1 PPVV=12  2 I=8 ...", wrapped to width.
func towerValues(v *discon.View, st draw.Styles, width int) []string {
	lines := []string{st.Bold.Render("Towers (bottom first) and their values")}
	for seat := range v.Seats {
		s := rules.Seat(seat)
		text := st.Colour(discon.SeatName(s)).Render(discon.SeatName(s)) + fmt.Sprintf(" %d:", v.Scores[seat])
		for n := 1; n <= discon.Pieces; n++ {
			p := v.Piece(s, n)
			tower := towerLetters(p.Tower)
			if tower == "" {
				tower = "-"
			}
			text += fmt.Sprintf(" %d:%s=%d", n, tower, p.Value)
		}
		lines = append(lines, draw.Wrap(text, width)...)
	}
	return lines
}

// marks returns each square's marker, by square: '>' the selected piece, '+' its destinations,
// lastMark where a move of the latest turn landed, 0 none.
func (b *disconBoard) marks(v *discon.View) (marks [discon.Size * discon.Size]byte) {
	mark := func(q discon.Square, m byte) {
		if q.Valid() {
			marks[q] = m
		}
	}
	if v.LastSeat >= 0 {
		for _, m := range v.LastTurn {
			mark(m.To, lastMark)
		}
	}
	if b.sel != 0 {
		mark(v.Piece(v.Turn, b.sel).Square, '>')
		for _, m := range v.Legal {
			if m.Piece == b.sel && m.Leave == b.leave { // b.moves
				mark(m.To, '+')
			}
		}
	}
	return marks
}

// columnLetters draws the line of column letters over the board, once.
func (b *disconBoard) columnLetters(st draw.Styles) string {
	if b.header == "" {
		var head strings.Builder
		head.WriteString("   ")
		for c := range discon.Size {
			fmt.Fprintf(&head, " %c  ", 'a'+c)
		}
		b.header = st.Dim.Render(strings.TrimRight(head.String(), " "))
	}
	return b.header
}

// rowLabel draws row r's number (from 0), once per row.
func (b *disconBoard) rowLabel(r int, st draw.Styles) string {
	if b.rowLabels[r] == "" {
		b.rowLabels[r] = st.Dim.Render(fmt.Sprintf("%2d ", r+1))
	}
	return b.rowLabels[r]
}

// disconGlyph is what a drawn square shows: the key of its memoised string. Fields a square's
// drawing does not use are left zero (the pieces' numbers under a home corner's count, the discs
// under a piece), so that the memo stays small.
type disconGlyph struct {
	pieces int            // how many pieces stand there
	piece  discon.PieceID // the first of them
	discs  int            // how many discs lie there, when no piece stands there
	top    discon.Colour  // the top one
	zone   rules.Seat
	mark   byte
	cursor bool
}

// glyphOf returns what square sq shows with mark, under the cursor or not.
func glyphOf(sq *discon.SquareView, mark byte, cursor bool) disconGlyph {
	g := disconGlyph{pieces: len(sq.Pieces), zone: sq.Zone, mark: mark, cursor: cursor}
	switch {
	case g.pieces > 1:
		g.piece.Seat = sq.Pieces[0].Seat
	case g.pieces == 1:
		g.piece = sq.Pieces[0]
	case len(sq.Stack) > 0:
		g.discs, g.top = len(sq.Stack), sq.Stack[len(sq.Stack)-1]
	}
	return g
}

// disconSquares holds the squares every DISCON board has drawn.
var disconSquares draw.SharedMemo[disconGlyph]

// square draws one square's four columns, g being what it shows (glyphOf), highlighted for the
// cursor or a destination.
func (b *disconBoard) square(g disconGlyph, sq *discon.SquareView, st draw.Styles) string {
	mark, cursor := g.mark, g.cursor
	return disconSquares.Get(st, g, func() string {
		cell := b.cell(*sq, mark, st)
		switch {
		case cursor:
			return st.Cursor.Render(ansi.Strip(cell)) // reverse video over the whole cell
		case mark == '+':
			return st.Changed.Render(cell)
		}
		return cell
	})
}

// cell draws one square's four columns.
func (b *disconBoard) cell(sq discon.SquareView, mark byte, st draw.Styles) string {
	m := " "
	if mark != 0 {
		m = string(mark)
	}
	body := disconContent(sq, st)
	if draw.TextWidth(body) < 3 {
		body += zoneMark(sq.Zone, st)
	}
	if mark == lastMark {
		m = st.Acted.Render(lastGlyph(st))
	}
	return m + body
}

// disconContent draws what stands or lies on a square in two or three columns.
func disconContent(sq discon.SquareView, st draw.Styles) string {
	switch n := len(sq.Pieces); {
	case n > 1:
		x := "×"
		if st.ASCII {
			x = "x"
		}
		return st.Colour(discon.SeatName(sq.Pieces[0].Seat)).Render(string(discon.SeatLetter(sq.Pieces[0].Seat)) + x + strconv.Itoa(n))
	case n == 1:
		return st.Colour(discon.SeatName(sq.Pieces[0].Seat)).Render(sq.Pieces[0].String())
	}
	switch h := len(sq.Stack); h {
	case 0:
		return "  "
	case 1:
		return discStyle(st, sq.Stack[0]).Render(string(sq.Stack[0].Letter())) + " "
	default:
		top := sq.Stack[h-1]
		return discStyle(st, top).Render(string(top.Letter()) + strconv.Itoa(h))
	}
}

// zoneMark is the fourth column of a square: a shade in a home zone, else a space.
func zoneMark(zone rules.Seat, st draw.Styles) string {
	if zone < 0 {
		return " "
	}
	if st.ASCII {
		return st.Colour(discon.SeatName(zone)).Render(".")
	}
	return st.Colour(discon.SeatName(zone)).Render("░")
}

// discColors are the disc colours' screen colours: violet, pink, blue, ivory.
var discColors = [4]string{"#af87ff", "#ff87d7", "#5fafff", "#ffffd7"}

// discPaints are the styles of the disc colours' letters, in discColors' order.
var discPaints = func() (ps [len(discColors)]draw.Paint) {
	for i, c := range discColors {
		ps[i] = draw.NewPaint(lipgloss.NewStyle().Foreground(lipgloss.Color(c)))
	}
	return ps
}()

// discStyle returns the style of a disc colour's letter: coloured unless the styles have no
// colour at all (NO_COLOR).
func discStyle(st draw.Styles, c discon.Colour) draw.Paint {
	if st.NoColor || int(c) >= len(discColors) {
		return draw.PlainPaint
	}
	return discPaints[c]
}

// lastMark is the marker of a square where a move of the latest turn landed; lastGlyph draws it.
const lastMark = 'o'

// lastGlyph is how lastMark is drawn: a bullet, or 'o' in ASCII.
func lastGlyph(st draw.Styles) string {
	if st.ASCII {
		return "o"
	}
	return "•"
}

// disconLegend explains the board's marks on two dim lines.
func disconLegend(st draw.Styles, width int) []string {
	var discs []string
	for _, c := range discon.Colours {
		discs = append(discs, discStyle(st, c).Render(string(c.Letter()))+st.Dim.Render(" "+c.String()))
	}
	zone := zoneMark(0, draw.Styles{ASCII: st.ASCII})
	first := strings.Join(discs, "  ") + st.Dim.Render("  P3 stack of 3")
	second := st.Dim.Render("R3 Red's piece 3  ") + zone + st.Dim.Render(" home zone  "+lastGlyph(st)+" last turn  + jump")
	if draw.TextWidth(first) <= width && draw.TextWidth(second) <= width {
		return []string{draw.Fit(first, width), draw.Fit(second, width)}
	}
	// A narrow column (a small window's): the legend's entries on as many lines as they take.
	entries := append(discs, st.Dim.Render("P3 stack of 3"), st.Dim.Render("R3 Red's piece 3"), zone+st.Dim.Render(" home zone"),
		st.Dim.Render(lastGlyph(st)+" last turn"), st.Dim.Render("+ jump"))
	return draw.Entries(entries, width)
}

// towerLetters writes storeys bottom to top as letters, e.g. "VVP".
func towerLetters(cs []discon.Colour) string {
	b := make([]byte, len(cs))
	for i, c := range cs {
		b[i] = c.Letter()
	}
	return string(b)
}

// describe says what is on the cursor's square.
func (b *disconBoard) describe(v *discon.View, st draw.Styles) string {
	sq := v.Squares[b.cur]
	parts := []string{st.Bold.Render(b.cur.String())}
	switch {
	case len(sq.Pieces) > 1:
		var ids []string
		for _, p := range sq.Pieces {
			ids = append(ids, p.String())
		}
		parts = append(parts, discon.SeatName(sq.Pieces[0].Seat)+" home: "+strings.Join(ids, " "))
	case len(sq.Pieces) == 1:
		p := v.Piece(sq.Pieces[0].Seat, sq.Pieces[0].Num)
		what := st.Colour(discon.SeatName(p.ID.Seat)).Render(p.ID.String()) + " (" + discon.SeatName(p.ID.Seat) + ")"
		if len(p.Tower) == 0 {
			parts = append(parts, what+" no tower")
		} else {
			parts = append(parts, fmt.Sprintf("%s tower %s = %d pts", what, towerLetters(p.Tower), p.Value))
		}
	case len(sq.Stack) == 1:
		parts = append(parts, sq.Stack[0].String()+" disc")
	case len(sq.Stack) > 1:
		parts = append(parts, fmt.Sprintf("stack %s (%d)", towerLetters(sq.Stack), len(sq.Stack)))
	default:
		parts = append(parts, "empty")
	}
	if sq.Zone >= 0 {
		parts = append(parts, discon.SeatName(sq.Zone)+" zone")
	}
	return strings.Join(parts, draw.PartSep(st))
}

// selection says which piece is selected and whether its tower will be left behind.
func (b *disconBoard) selection(v *discon.View, snap *rooms.Snapshot, st draw.Styles) string {
	if !myTurn(v, snap) {
		return "" // the room says whose turn it is
	}
	leave := "takes its tower"
	if b.leave {
		leave = st.Bold.Render("LEAVES its tower")
	}
	if b.sel == 0 {
		if b.leave {
			return "Next move " + leave + draw.PartSep(st) + "enter picks a piece"
		}
		return st.Dim.Render("enter on one of your pieces picks it")
	}
	p := v.Piece(snap.You, b.sel)
	n := len(b.moves(v))
	if n == 0 && b.leave && len(p.Tower) == 0 {
		return fmt.Sprintf("%s has no tower to leave (L)", p.ID)
	}
	return strings.Join([]string{st.Bold.Render(p.ID.String()) + " picked", fmt.Sprintf("%d jump%s", n, draw.Plural(n)),
		leave, "esc drops"}, draw.PartSep(st))
}

func (b *disconBoard) Status(snap *rooms.Snapshot, st draw.Styles, width int) []string {
	v, ok := draw.ViewRef[discon.View](snap)
	if !ok {
		return nil
	}
	var lines []string
	if v.Turn >= 0 {
		lines = draw.AppendWrap(lines, fmt.Sprintf("%s: %d move%s left",
			st.Colour(discon.SeatName(v.Turn)).Render(discon.SeatName(v.Turn)), v.MovesLeft, draw.Plural(v.MovesLeft)), width)
	}
	lines = draw.AppendWrap(lines, "Variant "+v.Variant.String(), width)
	lines = draw.AppendWrap(lines, disconLimits(v), width)
	rounds := v.QuietLimit / max(1, v.Seats)
	lines = draw.AppendWrap(lines, fmt.Sprintf("Discs %d%squiet rounds %d/%d", v.DiscsOnBoard, draw.PartSep(st), v.QuietRounds, rounds), width)
	if v.Note != "" {
		lines = append(lines, draw.Wrap(v.Note, width)...)
	}
	if v.LastSeat >= 0 && len(v.LastTurn) > 0 {
		// The latest turn, both moves: "Last: G2 j10-i8, G2 i8-g7" (Green's piece 2).
		who := st.Colour(discon.SeatName(v.LastSeat)).Render(string(discon.SeatLetter(v.LastSeat)))
		moves := make([]string, len(v.LastTurn))
		for i, m := range v.LastTurn {
			moves[i] = who + m.String()
		}
		lines = append(lines, draw.Wrap("Last: "+strings.Join(moves, ", "), width)...)
	}
	return lines
}

// disconLimits says how high and how many-coloured a tower may be, or the Elementary goal.
func disconLimits(v *discon.View) string {
	if v.GoalTowers > 0 {
		return fmt.Sprintf("Goal %d towers of %d+", v.GoalTowers, v.GoalStoreys)
	}
	s := fmt.Sprintf("Max %d high", v.HeightLimit)
	if !v.HeightEnforced {
		s = fmt.Sprintf("Over %d high costs", v.HeightLimit)
	}
	if v.ColourLimit < 4 {
		s += fmt.Sprintf(", %d colour%s", v.ColourLimit, draw.Plural(v.ColourLimit))
	}
	return s
}

func (b *disconBoard) Score(snap *rooms.Snapshot, seat int) string {
	v, ok := draw.ViewRef[discon.View](snap)
	if !ok || seat >= len(v.Scores) {
		return ""
	}
	return strconv.Itoa(v.Scores[seat])
}

// SeatLabel names DISCON's seats by their own colours: Red, Green, Yellow, Orange.
func (b *disconBoard) SeatLabel(seat int) (string, string) {
	s := rules.Seat(seat)
	return string(discon.SeatLetter(s)), discon.SeatName(s)
}
