package session

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session/draw"
)

// The room screen's layout, decided here for the room and its replay (layoutFor, then place):
// where the board's column, the side panel and the lines under them go in a window of a given
// size. A window of 80 x 24 or more is laid out as for 80 x 24 (boardColumn); a smaller one, down
// to 60 x 20 (a phone's terminal) and below, is laid out compactly around the board's smallest
// drawing (draw.Sizer): the panel beside the board in the columns it leaves, or under it in the
// rows it leaves (with the whole panel in the board's place on tab), or, when the board cannot
// fit, a message that says what window it needs while the match goes on.

// layoutKind is how a room's body is laid out.
type layoutKind uint8

const (
	layoutWide   layoutKind = iota // as for 80 x 24: the board's column, the panel right of it (boardColumn)
	layoutBeside                   // compact: the panel right of the board, in the columns the board leaves
	layoutUnder                    // compact: the panel under the board in two columns, in the rows it leaves
	layoutSmall                    // the board does not fit: a message says what window it needs
)

// The compact layouts' measures.
const (
	compactPanelMin = 20 // the narrowest panel beside the board
	compactMsgRows  = 2  // the message lines under the body a compact layout always has room for
	underRowsMin    = 1  // the fewest panel rows under the board (while a message takes two lines)
	underRowsWant   = 8  // the panel rows the board leaves under it when it could draw more lines
	underSeatsMax   = 28 // the widest the seats' column under the board is
)

// roomLayout is where a room's body goes: decided by layoutFor from the window's size and the
// board's smallest drawing, completed by place, which draws the board.
type roomLayout struct {
	kind       layoutKind
	w, h       int // the window's size
	minW, minH int // the board's smallest drawing (boardMin)
	// wide, beside: the board's column, the panel right of it, the margin left of both. under:
	// the board's width and margin.
	boardW, panelW, margin int
	// under: the body's rows the board takes (with the blank line under it), and the panel's two
	// columns under it: the seats' (seatsW), then the rest (panelW), from column panelX.
	boardRows, seatsW, panelX int
	needW, needH              int // small: the smallest window the board plays in
}

// compactWindow reports whether a w x h window is smaller than the one the screens are laid out
// for (fullWidth x fullHeight), and so laid out compactly.
func compactWindow(w, h int) bool { return w < fullWidth || h < fullHeight }

// layoutFor decides the layout of a room's body in a w x h window for a board whose smallest
// drawing is bw x bh. A compact window keeps room for a message of compactMsgRows lines under
// the body, so that a question or an error does not change the layout; the panel goes beside the
// board when at least compactPanelMin columns are left, else under it when at least a row is.
func layoutFor(w, h, bw, bh int) roomLayout {
	l := roomLayout{w: w, h: h, minW: bw, minH: bh}
	if !compactWindow(w, h) {
		return l
	}
	rows := h - 2 - compactMsgRows // the body's rows with a message of two lines
	switch {
	case bw+1+compactPanelMin <= w && bh <= rows:
		l.kind = layoutBeside
	case bw <= w && bh+underRowsMin <= rows:
		l.kind = layoutUnder
	default:
		// The smallest window that plays: beside or under, whichever is smaller.
		l.kind = layoutSmall
		l.needW, l.needH = max(bw+1+compactPanelMin, minWidth), max(bh+2+compactMsgRows, minHeight)
		if uw, uh := max(bw, minWidth), max(bh+underRowsMin+2+compactMsgRows, minHeight); uw*uh < l.needW*l.needH {
			l.needW, l.needH = uw, uh
		}
	}
	return l
}

// msgRows is the most lines the message under the body takes in this layout on a window h rows
// high (0: no limit but its own): the body keeps the board's rows, and under it the panel's.
func (l roomLayout) msgRows(h int) int {
	switch l.kind {
	case layoutBeside:
		return max(1, h-2-l.minH)
	case layoutUnder:
		return max(1, h-2-l.minH-underRowsMin)
	case layoutSmall:
		return max(1, h-3)
	}
	return 0
}

// place draws the board's column with drawBoard (which draws the board in at most the width and
// height it is given) for a w-column window whose body has bodyH rows, and completes the layout
// with where the board and the panel go.
func (l *roomLayout) place(w, bodyH int, drawBoard func(width, height int) []string) []string {
	switch l.kind {
	case layoutWide:
		lines, colW, panelW, margin := boardColumn(w, func(width int) []string { return drawBoard(width, bodyH) })
		l.boardW, l.panelW, l.margin = colW, panelW, margin
		return lines
	case layoutBeside:
		// The board as wide as at 80 columns, or what the narrowest panel leaves; then as wide as
		// its grid, the lines under it wrapped to that, so that the panel keeps its place as they
		// change (the cursor's square said in words). The panel takes the rest, up to
		// panelWideWidth, and the two are centred as one block.
		colW := min(w-compactPanelMin-1, fullWidth-panelWidth-1)
		lines := trimBlankTail(drawBoard(colW, bodyH))
		if _, _, g := l.grid(lines); g < colW {
			colW = g
			lines = trimBlankTail(drawBoard(colW, bodyH))
		}
		l.boardW = max(min(drawnWidth(lines), colW), 1)
		l.panelW = min(panelWideWidth, w-l.boardW-1)
		l.margin = (w - l.boardW - 1 - l.panelW) / 2
		return cutBlanks(lines, l.boardW)
	case layoutUnder:
		// The board over the panel: it draws the lines under its grid while it leaves the panel
		// underRowsWant rows, and a blank line parts them when the panel keeps a row for itself.
		// Its grid is centred; the lines under it start where it does.
		boardH := max(l.minH, min(bodyH-underRowsMin, bodyH-1-underRowsWant))
		lines := trimBlankTail(drawBoard(w, boardH))
		lead, drawn, _ := l.grid(lines)
		if l.margin = (w-(drawn-lead))/2 - lead; l.margin > 0 { // (a board may centre itself)
			lines = trimBlankTail(drawBoard(w-l.margin, boardH))
		}
		l.margin = max(l.margin, 0)
		lines = lines[:min(len(lines), boardH)]
		l.boardW = max(min(drawnWidth(lines), w-l.margin), 1)
		l.boardRows = len(lines)
		if bodyH-l.boardRows > 3 { // (and the panel keeps three)
			l.boardRows++
		}
		l.seatsW = min(underSeatsMax, (w-1)/2)
		l.panelW = min(panelWideWidth, w-l.seatsW-1)
		l.panelX = (w - l.seatsW - 1 - l.panelW) / 2
		return cutBlanks(lines, l.boardW)
	}
	return nil
}

// grid is where the board's grid is drawn in lines (the first minH of them, which the lines of
// text under it do not widen): from column lead (the spaces its lines all start with) to column
// drawn (its widest line's end but trailing spaces), in columns columns (its widest line's, its
// spaces too: a square's last column may be one), at least its smallest drawing's width both.
func (l roomLayout) grid(lines []string) (lead, drawn, columns int) {
	lead = -1
	for _, g := range lines[:min(len(lines), l.minH)] {
		plain := strings.TrimRight(ansi.Strip(g), " ")
		if plain == "" {
			continue
		}
		if n := len(plain) - len(strings.TrimLeft(plain, " ")); lead < 0 || n < lead {
			lead = n
		}
		drawn, columns = max(drawn, draw.TextWidth(plain)), max(columns, draw.TextWidth(g))
	}
	lead = max(lead, 0)
	return lead, max(drawn, lead+l.minW, 1), max(columns, lead+l.minW, 1)
}

// panelRows is how many of the body's bodyH rows the panel under the board has.
func (l roomLayout) panelRows(bodyH int) int { return max(0, bodyH-l.boardRows) }

// upWidth is the width of the whole panel drawn in the board's place (tab, under the board) on a
// w-column window, and the margin left of it.
func upWidth(w int) (width, margin int) {
	width = min(w, panelWideWidth)
	return width, (w - width) / 2
}

// trimBlankTail is lines without the blank lines at their end.
func trimBlankTail(lines []string) []string {
	n := len(lines)
	for n > 0 && strings.TrimSpace(ansi.Strip(lines[n-1])) == "" {
		n--
	}
	return lines[:n]
}

// boardColumn draws the board's column with drawBoard (which draws it in the width it is given) for
// a w-column window of at least fullWidth columns, and says how wide the column is, the panel's
// width and the margin left of the column. On the narrowest window the column is what the panel
// leaves. On a wider one it is as wide as on the narrowest, or as the board's grid when that is
// wider, so that it does not change as the board's lines of text do; the panel gets the room up to
// panelWideWidth, and the two are centred as one block.
func boardColumn(w int, drawBoard func(width int) []string) (lines []string, colW, panelW, margin int) {
	colW = min(w, minRoomWidth) - panelWidth - 1
	lines = drawBoard(colW)
	if w <= minRoomWidth {
		return lines, colW, panelWidth, 0
	}
	if d := drawnWidth(lines); d > colW {
		colW = min(d, w-panelWidth-1)
		lines = drawBoard(colW)
	}
	panelW = min(panelWideWidth, w-colW-1)
	return cutBlanks(lines, colW), colW, panelW, (w - colW - 1 - panelW) / 2
}

// cutBlanks cuts lines wider than w to w columns without a "…" where what they lose is only the
// spaces a board pads its lines with; a line that loses more is left for draw.Fit to cut with one.
func cutBlanks(lines []string, w int) []string {
	out := lines
	for i, l := range lines {
		if draw.TextWidth(l) > w && drawnWidth(lines[i:i+1]) <= w {
			if &out[0] == &lines[0] {
				out = slices.Clone(lines)
			}
			out[i] = ansi.Truncate(l, w, "")
		}
	}
	return out
}

// drawnWidth is the width of the widest of lines, without their trailing spaces.
func drawnWidth(lines []string) int {
	n := 0
	for _, l := range lines {
		n = max(n, draw.TextWidth(strings.TrimRight(ansi.Strip(l), " ")))
	}
	return n
}

// boardMin is the smallest size board draws snap in (draw.Sizer); a board that cannot say is as
// large as it draws snap in a w x h body.
func boardMin(b draw.Board, snap *rooms.Snapshot, st draw.Styles, w, h int) (int, int) {
	if s, ok := b.(draw.Sizer); ok {
		return s.MinSize(snap)
	}
	lines := trimBlankTail(b.View(snap, st, w, h))
	return drawnWidth(lines), len(lines)
}

// bodyRow is what one row of the body is composed of: margin columns, then a fitted to aW
// columns, then, when bW is not 0, a space and b fitted to bW columns.
type bodyRow struct {
	margin, aW, bW int
	a, b           string
	aw, bw         int // the widths of a and b (draw.TextWidth)
}

// row returns row i of a body laid out as l, from the board's lines and the panel's: for wide and
// beside the board's line beside the panel's; for under the board's lines, then the seats' column
// (panel) beside the rest (under); with the whole panel up, the panel's lines alone.
func (l roomLayout) row(i int, board, panel, under *lineSet, up bool) bodyRow {
	switch {
	case up:
		pw, margin := upWidth(l.w)
		a, aw := panel.at(i)
		return bodyRow{margin: margin, a: a, aw: aw, aW: pw}
	case l.kind == layoutUnder && i < l.boardRows:
		a, aw := board.at(i)
		return bodyRow{margin: l.margin, a: a, aw: aw, aW: l.boardW}
	case l.kind == layoutUnder:
		a, aw := panel.at(i - l.boardRows)
		b, bw := under.at(i - l.boardRows)
		return bodyRow{margin: l.panelX, a: a, aw: aw, aW: l.seatsW, b: b, bw: bw, bW: l.panelW}
	}
	a, aw := board.at(i)
	b, bw := panel.at(i)
	return bodyRow{margin: l.margin, a: a, aw: aw, aW: l.boardW, b: b, bw: bw, bW: l.panelW}
}

// pieces sets the rowPieces pieces of the row's text (appendRow's) in out: the margin's spaces,
// a and the spaces that fit it, then, when bW is not 0, a space, b and the spaces that fit it
// (else three empty pieces): the row is drawn without its text being joined.
func (r bodyRow) pieces(out []string) {
	out[0] = draw.Spaces(r.margin)
	out[1], out[2] = draw.FitPieces(r.a, r.aw, r.aW)
	out[3], out[4], out[5] = "", "", ""
	if r.bW > 0 {
		out[3] = " "
		out[4], out[5] = draw.FitPieces(r.b, r.bw, r.bW)
	}
}

// appendRow appends the row's text to buf.
func (r bodyRow) appendRow(buf []byte) []byte {
	buf = append(buf, draw.Spaces(r.margin)...)
	buf = draw.AppendFitWidth(buf, r.a, r.aw, r.aW)
	if r.bW > 0 {
		buf = draw.AppendFitWidth(append(buf, ' '), r.b, r.bw, r.bW)
	}
	return buf
}

// smallLines are the body of a room whose board does not fit the window (layoutSmall), rows
// lines at most: what window it needs, that the match goes on, whose turn it is with its clock,
// and how to leave, each wrapped whole to the window's width, with blank lines between them when
// there is room; on a window too small for all, the least needed ("the match goes on") first
// makes way.
func smallLines(l roomLayout, snap *rooms.Snapshot, turn string, rows int) []string {
	replaying := snap.Code == replayCode
	w := max(l.w-2, 1)
	need := fmt.Sprintf("This board needs a window of at least %d x %d; this one is %d x %d.", l.needW, l.needH, l.w, l.h)
	var goesOn, leave string
	switch {
	case replaying:
		goesOn = "Make the window larger to see the board."
	case snap.Phase == rooms.Playing:
		goesOn = "The match goes on: make the window larger to see the board."
	case snap.Phase == rooms.Finished:
		goesOn = "The match is over: make the window larger to see how it ended."
	default:
		goesOn = "Make the window larger to see the room."
	}
	if turn != "" && snap.Phase == rooms.Playing {
		turn += "."
	} else {
		turn = ""
	}
	switch {
	case replaying:
		leave = "esc goes back to the lobby."
	case snap.Phase == rooms.Playing && snap.You != rules.Spectator:
		leave = "esc leaves the room: it asks first, and your seat waits for you."
	default:
		leave = "esc leaves the room."
	}
	paras := [][]string{wrapKeepingParens(need, w), wrapKeepingParens(goesOn, w), draw.Wrap(turn, w), draw.Wrap(leave, w)}
	if turn == "" {
		paras = slices.Delete(paras, 2, 3)
	}
	count := func(blanks bool) int {
		n := 0
		for _, p := range paras {
			n += len(p)
			if blanks {
				n++
			}
		}
		return n
	}
	if count(false) > rows {
		paras = slices.Delete(paras, 1, 2) // the match goes on: the turn's line says so
	}
	blanks := count(true) <= rows
	var lines []string
	for _, p := range paras {
		if blanks {
			lines = append(lines, "")
		}
		for _, line := range p {
			lines = append(lines, " "+line)
		}
	}
	return lines
}

// fitHelp makes a help line's keys fit w columns (a small window's, mostly): the keys before the
// last tail of them (the rules, leave or cancel, the panel's tab under the board) make way, the
// nearest to those first, rather than have the line cut.
func fitHelp(keys []key.Binding, w, tail int) []key.Binding {
	for helpWidth(keys) > w && len(keys) > tail {
		keys = slices.Delete(keys, len(keys)-tail-1, len(keys)-tail)
	}
	return keys
}

// helpTail is how many of keys, the room's help line's, end it whatever else it shows
// (helpKeys): esc, and before it the rules and, under the board, the panel's tab, when there.
func (r *roomScreen) helpTail(keys []key.Binding) int {
	n := min(1, len(keys))
	for i := len(keys) - 2; i >= 0 && i >= len(keys)-3; i-- {
		switch keys[i].Help().Key {
		case r.keys.Rules.Help().Key, panelKeyMap.Moves.Help().Key:
			n++
			continue
		}
		break
	}
	return n
}

// fitLobbyHelp makes a lobby page's help line fit w columns: its first keys (the arrows', which
// every page has) make way, the first first, for the keys that choose and go back, rather than
// have the line cut.
func fitLobbyHelp(keys []key.Binding, w int) []key.Binding {
	for helpWidth(keys) > w && len(keys) > 2 {
		keys = keys[1:]
	}
	return keys
}
