package teaframe

import (
	"bytes"
	"strconv"
	"sync"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// Views on the alternate screen (every screen of the arcade) are drawn by the code in this file,
// not by ultraviolet's cell renderer. The terminal's screen is known from the view's own lines:
// a line whose text (and the style open at its start) is the same as in the last frame shows the
// same cells, so only the changed lines are parsed, the old text next to the new, and compared
// cell by cell, from where their text stops being the same (commonStart); the cells that differ
// are sent, with absolute cursor moves between runs of them.
// Nothing is held between frames but the lines' text: no cell buffers, so an idle session and a
// busy one cost the same memory.
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
		b := line[i]
		switch {
		case b == ansi.ESC:
			n, params, sgr := escape(line[i:])
			i += n
			if sgr {
				pen = applySGR(pen, params)
			}
			continue
		case b == '\t':
			b = ' '
			fallthrough
		case b >= 0x20 && b < 0x7f && (i+1 == len(line) || line[i+1] < 0x80):
			if x < width {
				g := line[i : i+1]
				if b == ' ' {
					g = " "
				}
				out = append(out, cell{g: g, pen: pen, w: 1})
				x++
			}
			i++
			continue
		case b < 0x20 || b == 0x7f:
			i++
			continue
		}
		g, w := ansi.FirstGraphemeCluster(line[i:], method)
		if len(g) == 0 {
			i++
			continue
		}
		i += len(g)
		if w <= 0 {
			continue // zero-width clusters are dropped, as ultraviolet drops them
		}
		if x+w > width {
			// A wide grapheme that would cross the right edge is not drawn.
			for ; x < width; x++ {
				out = append(out, blank)
			}
			continue
		}
		out = append(out, cell{g: g, pen: pen, w: w})
		for range w - 1 {
			out = append(out, cell{pen: pen})
		}
		x += w
	}
	for ; x < width; x++ {
		out = append(out, blank)
	}
	return out, pen
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
	return pen + ";" + params
}

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
	sgrCache.Store(k, seq)
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

// row sends what it takes to turn row y from old into cur, both the cells from column x0 to the
// right edge (a.width-x0 of them; the columns before x0 are the same in both).
func (a *altWriter) row(y, x0 int, old, cur []cell) {
	n := len(cur)
	clearFrom := blankFrom(cur)
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
		b := old[i]
		end, w := i+1, 0
		params, sgr := "", false
		switch {
		case b == ansi.ESC:
			var n int
			n, params, sgr = escape(old[i:])
			end = i + n
		case b == '\t' || b >= 0x20 && b < 0x7f && i+1 < len(old) && old[i+1] < 0x80:
			w = 1
		case b < 0x20 || b == 0x7f:
		default:
			g, gw := ansi.FirstGraphemeCluster(old[i:], method)
			end, w = i+max(len(g), 1), max(gw, 0)
		}
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

// scratch holds the cells of the two versions of a line being compared.
type scratch struct{ old, cur []cell }

var scratchPool = sync.Pool{New: func() any { return &scratch{} }}

// altFrame writes into out what turns the alternate screen showing the lines oldLines (whose
// lines start with the SGR parameters in oldPens) into one showing lines, on a screen width
// columns wide. With full, the screen is first erased. It returns the SGR parameters in effect
// at the start of each line, for the next frame.
func altFrame(out *bytes.Buffer, profile colorprofile.Profile, method ansi.Method, width int,
	oldLines, oldPens, lines []string, full bool) []string {
	a := altWriter{out: out, profile: profile, width: width, x: -1}
	if full {
		a.setPen("")
		out.WriteString(ansi.CursorHomePosition + ansi.EraseEntireScreen)
		a.x, a.y = 0, 0
		oldLines, oldPens = nil, nil
	}
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	pens := make([]string, len(lines))
	pen, oldPen := "", ""
	for y := range max(len(lines), len(oldLines)) {
		var line, old string
		if y < len(lines) {
			line = lines[y]
			pens[y] = pen
		}
		hadOld := y < len(oldLines)
		if hadOld {
			old, oldPen = oldLines[y], oldPens[y]
		}
		if hadOld && old == line && oldPen == pen && y < len(lines) {
			// The same text from the same style: the same cells. Only the style at its end is
			// needed, which the next line starts from; the last frame's next line started from
			// it too, so it is only worked out again at the end of the last frame.
			if y+1 < len(oldPens) {
				pen = oldPens[y+1]
			} else {
				pen = endPen(line, pen)
			}
			continue
		}
		// A line drawn again from the same style keeps its cells up to where its text changes:
		// only the rest is parsed and compared.
		off, x0, from, oldFrom := 0, 0, pen, oldPen
		if hadOld && oldPen == pen {
			off, x0, from = commonStart(old, line, pen, width, method)
			oldFrom = from
		}
		var cur []cell
		cur, pen = parseLine(sc.cur[:0], line[off:], from, width-x0, method)
		sc.cur = cur
		var prev []cell
		if hadOld {
			prev, _ = parseLine(sc.old[:0], old[off:], oldFrom, width-x0, method)
		} else {
			prev = sc.old[:0]
			for range width {
				prev = append(prev, blank)
			}
		}
		sc.old = prev
		a.row(y, x0, prev, cur)
	}
	return pens
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
