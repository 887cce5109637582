package teaframe

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// Views on the alternate screen (every screen of the arcade) are drawn by the code in this file,
// not by ultraviolet's cell renderer. The terminal's screen is known from the view's own lines:
// a line whose text (and the style open at its start) is the same as in the last frame shows the
// same cells, so only the changed lines are parsed, the old text next to the new, and compared
// cell by cell, from where their text stops being the same (commonStart) to where the rest of both
// is the same text at the same column in the same style (parsePair); the cells that differ are
// sent, with absolute cursor moves between runs of them.
// Nothing is held between frames but the lines' text and the style at each line's start: no cell
// buffers (the cells of the line being compared are in buffers shared by every session), so an
// idle session and a busy one cost the same memory, and a frame in steady state allocates nothing.
//
// The parser understands what lipgloss writes: printable text, grapheme clusters of any width,
// and SGR sequences (the style in effect is kept as the SGR parameters written since the last
// reset, and sent again as one sequence after a reset). Other escape sequences in a view (cursor
// moves, hyperlinks) are dropped; control characters but the tab (drawn as a space) too.

// cell is one column of a line as the terminal shows it.
type cell struct {
	g   string // the grapheme; "" for the columns a wide grapheme covers after its first
	pen string // SGR parameters in effect, "" for none
	w   int    // columns of g: 1 to 4, 0 for a covered column
}

// blank is an empty column in the default style: what erasing leaves.
var blank = cell{g: " ", w: 1}

// parseLine appends to out the width cells of line as drawn from its first column with the SGR
// parameters pen in effect, and returns them with the parameters in effect at the line's end.
// Columns past the text are blank; text past width is cut (the parameters are still followed).
func parseLine(out []cell, line, pen string, width int, method ansi.Method) ([]cell, string) {
	x := 0
	for i := 0; i < len(line); {
		n, g, w, params, sgr := token(line[i:], method)
		i += n
		if sgr {
			pen = applySGR(pen, params)
		} else if w > 0 {
			out, x = appendCell(out, x, g, w, pen, width)
		}
	}
	for ; x < width; x++ {
		out = append(out, blank)
	}
	return out, pen
}

// token reads the token at the start of s (an escape sequence, a character, a grapheme cluster):
// its length n, and what it does: for an SGR sequence its parameters (sgr true), for a drawn
// grapheme the grapheme g and its width w (1 to 4). A token with w == 0 and no sgr draws nothing
// (other escape sequences, control characters, zero-width clusters, which ultraviolet drops too).
// Where a token ends depends on s from its start only, never on what came before.
func token(s string, method ansi.Method) (n int, g string, w int, params string, sgr bool) {
	b := s[0]
	switch {
	case b == ansi.ESC:
		n, params, sgr = escape(s)
		return n, "", 0, params, sgr
	case b == '\t':
		return 1, " ", 1, "", false
	case b >= 0x20 && b < 0x7f && (len(s) == 1 || s[1] < 0x80):
		if b == ' ' {
			return 1, " ", 1, "", false
		}
		return 1, s[:1], 1, "", false
	case b < 0x20 || b == 0x7f:
		return 1, "", 0, "", false
	case b >= 0xc2 && b <= 0xe2: // the first byte of a rune from U+0080 to U+2FFF
		r, size := utf8.DecodeRuneInString(s)
		if len(s) == size || s[size] < 0x80 {
			if w, ok := runeAlone(r, method); ok {
				if w == 0 {
					return size, "", 0, "", false
				}
				return size, s[:size], w, "", false
			}
		}
	}
	g, w = ansi.FirstGraphemeCluster(s, method)
	if len(g) == 0 {
		return 1, "", 0, "", false
	}
	return len(g), g, max(w, 0), "", false
}

// runesAlone caches, for each rune below U+3000 (the box drawing, bullets, arrows and Latin
// letters the screens are drawn with) and each width method, whether the rune followed by an
// ASCII character is a grapheme cluster of its own (which depends on the rune only: no ASCII
// character joins the cluster before it, and only a prepended mark joins the next) and how wide
// it is: 0 not known yet, 1 not alone, 2+w alone and w columns wide. Finding a cluster's end is
// most of what parsing costs otherwise.
var runesAlone [2][0x3000]atomic.Int32

// runeAlone reports whether rune r, followed by an ASCII character or nothing, is a grapheme
// cluster of its own, and its width, as ansi.FirstGraphemeCluster measures it with method.
func runeAlone(r rune, method ansi.Method) (w int, ok bool) {
	m := 0
	switch method {
	case ansi.WcWidth:
	case ansi.GraphemeWidth:
		m = 1
	default:
		return 0, false
	}
	if r < 0 || int(r) >= len(runesAlone[m]) {
		return 0, false
	}
	c := &runesAlone[m][r]
	v := c.Load()
	if v == 0 {
		v = 1
		if g, gw := ansi.FirstGraphemeCluster(string(r)+"a", method); len(g) == utf8.RuneLen(r) {
			v = 2 + int32(max(gw, 0))
		}
		c.Store(v)
	}
	return int(v - 2), v >= 2
}

// appendCell appends to out the cells of grapheme g, w columns wide, drawn at column x with pen,
// on a line width columns wide, and returns them with the column after it. A grapheme that would
// cross the right edge is not drawn: the columns left to the edge are blank.
func appendCell(out []cell, x int, g string, w int, pen string, width int) ([]cell, int) {
	if x+w > width {
		for ; x < width; x++ {
			out = append(out, blank)
		}
		return out, x
	}
	out = append(out, cell{g: g, pen: pen, w: w})
	for range w - 1 {
		out = append(out, cell{pen: pen})
	}
	return out, x + w
}

// parsePair parses two versions of a line, old drawn from oldPen and line from pen, as parseLine
// does, token by token in step, until the rest of both is the same text from the same column with
// the same SGR parameters in effect: the rest then draws the same cells, and is not parsed.
// It returns the cells of both up to there (to the line's end, width columns, if they never
// meet), and with same true the byte offset in line where they met, and the SGR parameters in
// effect there (at line's end if they never met).
func parsePair(oldCells, cells []cell, old, line, oldPen, pen string, width int,
	method ansi.Method) (oldOut, out []cell, same bool, at int, endPen string) {
	suffix := 0
	for suffix < len(old) && suffix < len(line) && old[len(old)-1-suffix] == line[len(line)-1-suffix] {
		suffix++
	}
	i, j, xo, x := 0, 0, 0, 0
	for i < len(old) || j < len(line) {
		ro, r := len(old)-i, len(line)-j
		if ro == r && r <= suffix && xo == x && oldPen == pen {
			// Both chains of tokens are at the same place of the same text: they stay together.
			return oldCells, cells, true, j, pen
		}
		if ro >= r {
			n, g, w, params, sgr := token(old[i:], method)
			i += n
			if sgr {
				oldPen = applySGR(oldPen, params)
			} else if w > 0 {
				oldCells, xo = appendCell(oldCells, xo, g, w, oldPen, width)
			}
			continue
		}
		n, g, w, params, sgr := token(line[j:], method)
		j += n
		if sgr {
			pen = applySGR(pen, params)
		} else if w > 0 {
			cells, x = appendCell(cells, x, g, w, pen, width)
		}
	}
	for ; xo < width; xo++ {
		oldCells = append(oldCells, blank)
	}
	for ; x < width; x++ {
		cells = append(cells, blank)
	}
	return oldCells, cells, false, len(line), pen
}

// escape measures the escape sequence at the start of s: its length, and for an SGR sequence
// (CSI ... m) its parameters.
func escape(s string) (n int, params string, sgr bool) {
	if len(s) < 2 {
		return len(s), "", false
	}
	switch s[1] {
	case '[':
		j := 2
		for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
			j++
		}
		if j == len(s) {
			return j, "", false
		}
		if s[j] == 'm' {
			return j + 1, s[2:j], true
		}
		return j + 1, "", false
	case ']', 'P', '_', '^', 'X':
		// A string sequence: up to BEL or ST (ESC \).
		for j := 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1, "", false
			}
			if s[j] == ansi.ESC && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2, "", false
			}
		}
		return len(s), "", false
	}
	return 2, "", false
}

// applySGR returns the parameters in effect after an SGR sequence with params.
func applySGR(pen, params string) string {
	switch {
	case params == "" || params == "0":
		return ""
	case pen == "":
		return params
	}
	k := penPair{pen, params}
	if s, ok := joinedPens.Load(k); ok {
		return s.(string)
	}
	s := pen + ";" + params
	if joinedCount.Load() < maxJoinedPens {
		// The key's strings point into a view's text: the map keeps copies.
		if _, loaded := joinedPens.LoadOrStore(penPair{strings.Clone(pen), strings.Clone(params)}, s); !loaded {
			joinedCount.Add(1)
		}
	}
	return s
}

// joinedPens maps the parameters in effect and those of an SGR sequence that adds to them (a
// style set inside another, as a highlighted square's piece) to the parameters then in effect,
// so that parsing a frame makes no garbage. Screens use a few dozen; about the first
// maxJoinedPens are kept (sessions adding at once may pass it by a few), for every session.
var (
	joinedPens  sync.Map // penPair -> string
	joinedCount atomic.Int64
)

const maxJoinedPens = 4096

type penPair struct{ pen, params string }

// sgrCache maps a colour profile and SGR parameters to the sequence that sets them from scratch,
// with colours converted to the profile. A session uses a few dozen; they are shared.
var sgrCache sync.Map // sgrKey -> string

type sgrKey struct {
	profile colorprofile.Profile
	pen     string
}

// penSequence returns the sequence that resets the terminal's style and then sets pen.
func penSequence(p colorprofile.Profile, pen string) string {
	if pen == "" {
		return "\x1b[m"
	}
	k := sgrKey{p, pen}
	if s, ok := sgrCache.Load(k); ok {
		return s.(string)
	}
	seq := "\x1b[0;" + pen + "m"
	if p != colorprofile.TrueColor {
		var b bytes.Buffer
		_, _ = (&colorprofile.Writer{Forward: &b, Profile: p}).WriteString(seq)
		seq = b.String()
	}
	sgrCache.Store(sgrKey{p, strings.Clone(pen)}, seq) // pen may point into a view's text, or a line assembled (text)
	return seq
}

// altWriter writes the changes of one frame on the alternate screen, keeping track of where the
// cursor is and which style is in effect.
type altWriter struct {
	out     *bytes.Buffer
	profile colorprofile.Profile
	width   int
	x, y    int // cursor; x == -1 when unknown (or past the last column)
	pen     string
	penSet  bool // pen is known to be in effect
}

// maxGap is the longest run of unchanged cells written over rather than skipped with a cursor
// move (which costs 4 to 8 bytes).
const maxGap = 4

// moveTo places the cursor at column x of row y.
func (a *altWriter) moveTo(x, y int) {
	if a.x == x && a.y == y {
		return
	}
	a.out.WriteString("\x1b[")
	switch {
	case a.y == y && a.x >= 0 && x > a.x:
		a.out.WriteString(strconv.Itoa(x - a.x))
		a.out.WriteByte('C')
	case x == 0:
		a.out.WriteString(strconv.Itoa(y + 1))
		a.out.WriteByte('H')
	default:
		a.out.WriteString(strconv.Itoa(y + 1))
		a.out.WriteByte(';')
		a.out.WriteString(strconv.Itoa(x + 1))
		a.out.WriteByte('H')
	}
	a.x, a.y = x, y
}

// setPen puts pen in effect.
func (a *altWriter) setPen(pen string) {
	if a.penSet && a.pen == pen {
		return
	}
	a.out.WriteString(penSequence(a.profile, pen))
	a.pen, a.penSet = pen, true
}

// put writes cells[from:to] at row y, cells[0] being column x0.
func (a *altWriter) put(cells []cell, from, to, x0, y int) {
	a.moveTo(x0+from, y)
	for _, c := range cells[from:to] {
		if c.w == 0 {
			continue // covered by the wide grapheme before it
		}
		a.setPen(c.pen)
		a.out.WriteString(c.g)
		a.x += c.w
	}
	if a.x >= a.width {
		a.x = -1 // a pending wrap: the next move must be absolute
	}
}

// blankFrom returns the first column from which cells are all blank.
func blankFrom(cells []cell) int {
	i := len(cells)
	for i > 0 && cells[i-1] == blank {
		i--
	}
	return i
}

// row sends what it takes to turn row y from old into cur, both the cells from column x0 on, to
// the right edge when toEdge, else to a column from which the row's cells are the same in both
// (the columns before x0 are the same in both too).
func (a *altWriter) row(y, x0 int, old, cur []cell, toEdge bool) {
	n := len(cur)
	clearFrom := n // the erase below needs the row's last cells: with them only
	if toEdge {
		clearFrom = blankFrom(cur)
	}
	for x := 0; x < n; {
		if old[x] == cur[x] {
			x++
			continue
		}
		start := x
		for start > 0 && (old[start].w == 0 || cur[start].w == 0) {
			start-- // rewrite a wide grapheme whole
		}
		end := x + 1
		for j := end; j < n; {
			if old[j] != cur[j] {
				j++
				end = j
				continue
			}
			k := j
			for k < n && old[k] == cur[k] {
				k++
			}
			if k == n || k-j > maxGap {
				break
			}
			j = k
		}
		for end < n && (old[end].w == 0 || cur[end].w == 0) {
			end++
		}
		if end > clearFrom && clearFrom < n {
			// The rest of the row is blank: write up to it, then erase the rest of the line.
			if start < clearFrom {
				a.put(cur, start, clearFrom, x0, y)
			} else {
				a.moveTo(x0+start, y)
			}
			if a.x < 0 {
				return // the last column was written: nothing is left to erase
			}
			a.setPen("")
			a.out.WriteString(ansi.EraseLineRight)
			return
		}
		a.put(cur, start, end, x0, y)
		x = end
	}
}

// sameStartMargin is how many bytes the two versions of a line must still share after a token
// (an escape sequence, a character, a grapheme cluster) for commonStart to step over it: where a
// token ends can depend on the character after it (a combining mark joins the letter before it),
// never on more than one.
const sameStartMargin = 8

// commonStart returns where two versions of a line, drawn from the same SGR parameters pen,
// stop being the same: a byte offset at which both have had the same text (so the same cells),
// the column it falls on, and the SGR parameters in effect there. Only what follows needs to be
// parsed and compared. It stops at the last token that ends sameStartMargin bytes before the
// first byte that differs, and before a token that would reach past width columns.
func commonStart(old, line, pen string, width int, method ansi.Method) (off, x int, penAt string) {
	p := 0
	for p < len(old) && p < len(line) && old[p] == line[p] {
		p++
	}
	penAt = pen
	for i := 0; i < p; {
		n, w, params, sgr := 1, 1, "", false
		if b := old[i]; b < 0x20 || b >= 0x7f || i+1 == len(old) || old[i+1] >= 0x80 {
			n, _, w, params, sgr = token(old[i:], method) // all but printable ASCII before ASCII
		}
		end := i + n
		if end+sameStartMargin > p || x+w > width {
			break
		}
		if sgr {
			pen = applySGR(pen, params)
		}
		i, x = end, x+w
		off, penAt = i, pen
	}
	return off, x, penAt
}

// scratch holds the cells of the two versions of a line being compared, and the text of the
// frame's lines that were assembled from pieces.
type scratch struct {
	old, cur []cell
	text     []byte
}

var scratchPool = sync.Pool{New: func() any { return &scratch{} }}

// text returns the text of a line given in pieces: a line of one piece is that piece; one of
// several is assembled at the end of the frame's scratch text and read through a string that
// shares its bytes. The scratch text only grows during a frame (a growth leaves the bytes read
// before where they were), so what is read from it (a cell's grapheme, the style in effect) is
// good until the frame's end; nothing may outlive the frame but through keepPen, which copies.
// assembled says which.
func (sc *scratch) lineText(pieces []string) (s string, assembled bool) {
	switch len(pieces) {
	case 0:
		return "", false
	case 1:
		return pieces[0], false
	}
	start := len(sc.text)
	for _, p := range pieces {
		sc.text = append(sc.text, p...)
	}
	b := sc.text[start:]
	return unsafe.String(unsafe.SliceData(b), len(b)), true
}

// keptPens are copies of the SGR parameters in effect at the start of lines, read from lines
// assembled from pieces (lineText): a line's pen is kept for the next frame, when the bytes it
// was read from have been used again. A screen uses a few dozen; about the first maxJoinedPens are
// kept, for every session, and past them each is copied.
var (
	keptPens  sync.Map // string -> the same string, in bytes of its own
	keptCount atomic.Int64
)

// keepPen returns pen in bytes of its own: from keptPens, without allocating, once it is there.
func keepPen(pen string) string {
	if pen == "" {
		return ""
	}
	if s, ok := keptPens.Load(pen); ok {
		return s.(string)
	}
	s := strings.Clone(pen)
	if keptCount.Load() < maxJoinedPens {
		if _, loaded := keptPens.LoadOrStore(s, s); !loaded {
			keptCount.Add(1)
		}
	}
	return s
}

// altFrame writes into out what turns the alternate screen showing the lines oldLines (whose
// lines start with the SGR parameters in oldPens) into one showing lines, on a screen width
// columns wide. With full, the screen is first erased. It returns the SGR parameters in effect
// at the start of each line, and at the end of the last, for the next frame, in pens (whose array
// it reuses; it must not share oldPens' array).
//
// A line whose pieces and starting style are those of the last frame's line costs a comparison
// of strings. A changed line is parsed, next to its last version, from where their text stops
// being the same (commonStart) to where the rest of both is the same text at the same column
// (parsePair), and only the cells in between are compared.
func altFrame(out *bytes.Buffer, profile colorprofile.Profile, method ansi.Method, width int,
	oldLines frameLines, oldPens []string, lines frameLines, full bool, pens []string) []string {
	a := altWriter{out: out, profile: profile, width: width, x: -1}
	if full {
		a.setPen("")
		out.WriteString(ansi.CursorHomePosition + ansi.EraseEntireScreen)
		a.x, a.y = 0, 0
		oldLines, oldPens = frameLines{}, nil
	}
	var sc *scratch
	n, oldN := lines.len(), oldLines.len()
	pens = slices.Grow(pens[:0], n+1)[:n+1]
	pen, oldPen := "", ""
	for y := range max(n, oldN) {
		var now, was []string // the line's pieces now and in the last frame
		if y < n {
			now = lines.at(y)
			pens[y] = pen
		} else if y == n {
			pens[y] = pen
		}
		hadOld := y < oldN
		if hadOld {
			was, oldPen = oldLines.at(y), oldPens[y]
		}
		if hadOld && y < n && oldPen == pen && samePieces(was, now) {
			// The same text from the same style: the same cells. Only the style at its end is
			// needed, which the next line starts from; the last frame's next line (or its end)
			// started from it too.
			pen = nextPen(oldPens, y, now, pen)
			continue
		}
		if sc == nil {
			sc = scratchPool.Get().(*scratch)
			sc.text = sc.text[:0]
		}
		line, assembled := sc.lineText(now)
		if !hadOld {
			var cur []cell
			cur, pen = parseLine(sc.cur[:0], line, pen, width, method)
			prev := sc.old[:0]
			for range width {
				prev = append(prev, blank)
			}
			sc.old, sc.cur = prev, cur
			a.row(y, 0, prev, cur, true)
			if assembled {
				pen = keepPen(pen)
			}
			continue
		}
		old, oldAssembled := sc.lineText(was)
		assembled = assembled || oldAssembled
		// A line drawn again keeps its cells up to where its text changes, from the same style,
		// and from where the rest of its text is the same at the same column in the same style.
		off, x0, from, oldFrom := 0, 0, pen, oldPen
		if oldPen == pen {
			off, x0, from = commonStart(old, line, pen, width, method)
			oldFrom = from
		}
		prev, cur, same, at, end := parsePair(sc.old[:0], sc.cur[:0], old[off:], line[off:], oldFrom, from,
			width-x0, method)
		sc.old, sc.cur = prev, cur
		a.row(y, x0, prev, cur, !same)
		switch {
		case y >= n:
		case !same:
			pen = end
		default:
			// The rest of the line is the rest of the old one, from the same style: so is the
			// style at its end.
			pen = nextPen(oldPens, y, []string{line[off+at:]}, end)
		}
		if assembled {
			pen = keepPen(pen)
		}
	}
	if n >= oldN {
		pens[n] = pen
	}
	if sc != nil {
		scratchPool.Put(sc)
	}
	return pens
}

// nextPen returns the SGR parameters in effect at the end of line y, whose text from pieces on is
// the last frame's from the style pen: the style the last frame's next line (or its end) started
// from, or if the last frame kept none, the one the pieces leave.
func nextPen(oldPens []string, y int, pieces []string, pen string) string {
	if y+1 < len(oldPens) {
		return oldPens[y+1]
	}
	return endPens(pieces, pen)
}

// endPens is endPen of pieces one after the other.
func endPens(pieces []string, pen string) string {
	for _, p := range pieces {
		pen = endPen(p, pen)
	}
	return pen
}

// endPen returns the SGR parameters in effect after line, drawn with pen in effect at its start.
func endPen(line, pen string) string {
	for i := 0; i < len(line); i++ {
		if line[i] != ansi.ESC {
			continue
		}
		n, params, sgr := escape(line[i:])
		if sgr {
			pen = applySGR(pen, params)
		}
		i += n - 1
	}
	return pen
}
