package teaframe

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/hinshun/vt10x"
)

// fragments build random views: plain and styled text, spaces with and without a background,
// styles nested and styles left open across lines, narrow non-ASCII glyphs, and text longer than
// the screen.
func fragments(wide bool) []string {
	rev := lipgloss.NewStyle().Reverse(true)
	bg := lipgloss.NewStyle().Background(lipgloss.Color("#5f5f00"))
	f := []string{
		"plain", "a b", " ", "   ", "x", "Turns left: ", "R", "12",
		red.Render("R1"), dim.Render("·"), dim.Render("· "), rev.Render(" r" + dim.Render("·") + " "),
		bg.Render("   "), bg.Render("*b2"), red.Render("▶"), "─────", "✓", "…",
		"\x1b[1mopen", "\x1b[m", "\x1b[38;2;1;2;3mmid\x1b[0m", "\x1b[4m", "\x1b[7m", "\x1b[0m",
		strings.Repeat("long ", 12), "\t", "\x1b]8;;http://x\x07link\x1b]8;;\x07", "\x1b[2Cmove",
	}
	if wide {
		f = append(f, "漢字", red.Render("漢"), "e\u0301", "🎲", "ｗｉｄｅ", "a\u200db")
	}
	return f
}

func randomView(rng *rand.Rand, frags []string, height int) string {
	lines := make([]string, rng.IntN(height+3))
	for i := range lines {
		var b strings.Builder
		for range rng.IntN(9) {
			b.WriteString(frags[rng.IntN(len(frags))])
		}
		lines[i] = b.String()
	}
	return strings.Join(lines, "\n")
}

// mutate changes a few lines of a view, as a frame usually does.
func mutate(rng *rand.Rand, frags []string, view string) string {
	lines := strings.Split(view, "\n")
	for range 1 + rng.IntN(3) {
		i := rng.IntN(len(lines))
		var b strings.Builder
		for range rng.IntN(9) {
			b.WriteString(frags[rng.IntN(len(frags))])
		}
		lines[i] = b.String()
	}
	if rng.IntN(10) == 0 {
		lines = lines[:rng.IntN(len(lines))+1]
	}
	return strings.Join(lines, "\n")
}

// vtCells is every cell of the emulator: character, colours and attributes.
func vtCells(vt vt10x.Terminal) string {
	var b strings.Builder
	cols, rows := vt.Size()
	for y := range rows {
		for x := range cols {
			g := vt.Cell(x, y)
			fmt.Fprintf(&b, "%c%d/%d/%d ", g.Char, g.FG, g.BG, g.Mode)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestAltScreenMatchesFreshDraw: after any sequence of frames, an emulator shows exactly what
// one that got only the last frame shows: the same characters, colours and attributes.
func TestAltScreenMatchesFreshDraw(t *testing.T) {
	frags := fragments(false)
	for _, profile := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ASCII} {
		rng := rand.New(rand.NewPCG(1, uint64(profile)))
		o := opts
		o.Profile = profile
		tm := newTerm(t, o)
		view := randomView(rng, frags, o.Height)
		var sent int
		for i := range 400 {
			if i%25 == 0 {
				view = randomView(rng, frags, o.Height)
			} else {
				view = mutate(rng, frags, view)
			}
			sent += len(tm.frame(view))
			fresh := newTerm(t, o)
			fresh.frame(view)
			if got, want := vtCells(tm.vt), vtCells(fresh.vt); got != want {
				t.Fatalf("profile %v, frame %d: the screen differs from a fresh draw\nview %q\ngot:\n%s\nwant:\n%s",
					profile, i, view, tm.screen(), fresh.screen())
			}
		}
		t.Logf("profile %v: 400 frames, %d bytes", profile, sent)
	}
}

// screenModel is a terminal that knows only what the alternate-screen renderer sends (cursor
// position and forward moves, erasing, SGR, printing), with grapheme widths as ansi measures
// them: the check for wide graphemes, which vt10x draws one column wide.
type screenModel struct {
	w, h  int
	cells [][]string // grapheme and SGR parameters; "" for a covered column
	x, y  int
	pen   string
}

func newScreenModel(w, h int) *screenModel {
	m := &screenModel{w: w, h: h}
	m.cells = make([][]string, h)
	for y := range m.cells {
		m.cells[y] = make([]string, w)
		m.eraseRight(0, y)
	}
	return m
}

func (m *screenModel) eraseRight(x, y int) {
	for ; x < m.w; x++ {
		m.cells[y][x] = " |"
	}
}

func (m *screenModel) write(t *testing.T, s string) {
	for len(s) > 0 {
		if s[0] == ansi.ESC {
			n, params, sgr := escape(s)
			seq := s[:n]
			s = s[n:]
			switch {
			case sgr:
				m.pen = applySGR("", params)
				if strings.HasPrefix(m.pen, "0;") {
					m.pen = m.pen[2:]
				}
			case seq == "\x1b[2J":
				for y := range m.h {
					m.eraseRight(0, y)
				}
			case seq == "\x1b[K":
				m.eraseRight(m.x, m.y)
			case strings.HasSuffix(seq, "C"):
				k, _ := strconv.Atoi(seq[2 : len(seq)-1])
				m.x += max(k, 1)
			case strings.HasSuffix(seq, "H"):
				m.x, m.y = 0, 0
				if p := seq[2 : len(seq)-1]; p != "" {
					row, col, _ := strings.Cut(p, ";")
					r, _ := strconv.Atoi(row)
					m.y = r - 1
					if col != "" {
						c, _ := strconv.Atoi(col)
						m.x = c - 1
					}
				}
			case strings.HasPrefix(seq, "\x1b[?"), strings.HasPrefix(seq, "\x1b]"), strings.HasPrefix(seq, "\x1b[>"),
				strings.HasPrefix(seq, "\x1b[<"), strings.HasPrefix(seq, "\x1b[="), strings.HasSuffix(seq, " q"):
			default:
				t.Fatalf("the model does not know %q", seq)
			}
			continue
		}
		g, w := ansi.FirstGraphemeCluster(s, ansi.WcWidth)
		s = s[len(g):]
		if m.x+w > m.w || m.y >= m.h {
			t.Fatalf("%q written past the screen at %d,%d", g, m.x, m.y)
		}
		m.cells[m.y][m.x] = g + "|" + m.pen
		for i := 1; i < w; i++ {
			m.cells[m.y][m.x+i] = ""
		}
		m.x += w
	}
}

func (m *screenModel) String() string {
	var b strings.Builder
	for _, row := range m.cells {
		b.WriteString(strings.Join(row, "\x00"))
		b.WriteByte('\n')
	}
	return b.String()
}

// TestAltScreenWideGraphemes: with wide graphemes and combining marks in the views, a screen
// updated frame by frame holds the same cells as one drawn from scratch.
func TestAltScreenWideGraphemes(t *testing.T) {
	frags := fragments(true)
	rng := rand.New(rand.NewPCG(2, 3))
	o := opts
	var out bytes.Buffer
	r := New(&out, o)
	live := newScreenModel(o.Width, o.Height)
	view := randomView(rng, frags, o.Height)
	for i := range 400 {
		if i%25 == 0 {
			view = randomView(rng, frags, o.Height)
		} else {
			view = mutate(rng, frags, view)
		}
		out.Reset()
		r.draw(tea.View{Content: view, AltScreen: true})
		live.write(t, out.String())

		var fo bytes.Buffer
		fr := New(&fo, o)
		fr.draw(tea.View{Content: view, AltScreen: true})
		fresh := newScreenModel(o.Width, o.Height)
		fresh.write(t, fo.String())
		if live.String() != fresh.String() {
			t.Fatalf("frame %d: the screen differs from a fresh draw\nview %q\ngot:\n%s\nwant:\n%s", i, view, live, fresh)
		}
	}
}

// TestParseLine: cells of styled text, wide graphemes, cut at the width, with the style carried.
func TestParseLine(t *testing.T) {
	cells, pen := parseLine(nil, "a\x1b[1mb\x1b[m漢\x1b[31m", "", 6, ansi.WcWidth)
	want := []cell{{"a", "", 1}, {"b", "1", 1}, {"漢", "", 2}, {"", "", 0}, blank, blank}
	if fmt.Sprint(cells) != fmt.Sprint(want) || pen != "31" {
		t.Errorf("parseLine = %v, %q; want %v, \"31\"", cells, pen, want)
	}
	cells, _ = parseLine(nil, "abc漢", "", 4, ansi.WcWidth)
	if got := fmt.Sprint(cells); got != fmt.Sprint([]cell{{"a", "", 1}, {"b", "", 1}, {"c", "", 1}, blank}) {
		t.Errorf("a wide grapheme across the edge: %v", got)
	}
}

// TestCommonStart: where two versions of a line stop being the same, both have the same cells
// before it, and parsing each from there, with the style in effect there, gives the rest of its
// cells and the style at its end, as parsing it whole does.
func TestCommonStart(t *testing.T) {
	frags := fragments(true)
	rng := rand.New(rand.NewPCG(4, 5))
	line := func() string {
		var b strings.Builder
		for range rng.IntN(9) {
			b.WriteString(frags[rng.IntN(len(frags))])
		}
		return b.String()
	}
	for i := range 20000 {
		old := line()
		cur := old[:rng.IntN(len(old)+1)] + line() // often a shared start, cut anywhere
		pen := []string{"", "1", "38;2;1;2;3"}[i%3]
		width := 10 + rng.IntN(80)
		oldCells, oldEnd := parseLine(nil, old, pen, width, ansi.WcWidth)
		curCells, curEnd := parseLine(nil, cur, pen, width, ansi.WcWidth)
		off, x, at := commonStart(old, cur, pen, width, ansi.WcWidth)
		if !slices.Equal(oldCells[:x], curCells[:x]) {
			t.Fatalf("%q and %q: cells before column %d differ", old, cur, x)
		}
		for _, c := range []struct {
			s     string
			cells []cell
			end   string
		}{{old, oldCells, oldEnd}, {cur, curCells, curEnd}} {
			rest, end := parseLine(nil, c.s[off:], at, width-x, ansi.WcWidth)
			if !slices.Equal(rest, c.cells[x:]) || end != c.end {
				t.Fatalf("%q (against %q, width %d, pen %q): parsed from byte %d, column %d, pen %q:\n%v %q\nwant\n%v %q",
					c.s, old, width, pen, off, x, at, rest, end, c.cells[x:], c.end)
			}
		}
	}
}

// TestParsePair: parsing two versions of a line in step gives the cells parsing each whole gives,
// up to the column where they are found to go on the same, after which both whole parses have
// the same cells; the style it returns is the one in effect there in both (or at the line's end).
func TestParsePair(t *testing.T) {
	frags := fragments(true)
	rng := rand.New(rand.NewPCG(6, 7))
	line := func() string {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(frags[rng.IntN(len(frags))])
		}
		return b.String()
	}
	met := 0
	for i := range 20000 {
		tail := line()
		old := line() + tail
		cur := line() + tail[rng.IntN(len(tail)+1):] // often a shared end, cut anywhere
		if i%2 == 0 {
			old, cur = cur, old
		}
		pens := []string{"", "1", "38;2;1;2;3"}
		oldPen, pen := pens[i%3], pens[(i/3)%3]
		width := 10 + rng.IntN(80)
		oldCells, _ := parseLine(nil, old, oldPen, width, ansi.WcWidth)
		curCells, curEnd := parseLine(nil, cur, pen, width, ansi.WcWidth)
		po, pc, same, at, end := parsePair(nil, nil, old, cur, oldPen, pen, width, ansi.WcWidth)
		if len(po) != len(pc) {
			t.Fatalf("%q and %q: %d and %d cells", old, cur, len(po), len(pc))
		}
		x := len(pc)
		if !slices.Equal(po, oldCells[:x]) || !slices.Equal(pc, curCells[:x]) {
			t.Fatalf("%q and %q (pens %q, %q, width %d): cells differ from whole parses:\n%v\n%v\nwant\n%v\n%v",
				old, cur, oldPen, pen, width, po, pc, oldCells, curCells)
		}
		if !same {
			if x != width || end != curEnd {
				t.Fatalf("%q and %q: not met, %d cells and style %q; want %d and %q", old, cur, x, end, width, curEnd)
			}
			continue
		}
		met++
		if !slices.Equal(oldCells[x:], curCells[x:]) || !strings.HasSuffix(old, cur[at:]) {
			t.Fatalf("%q and %q (width %d): met at byte %d, column %d, but the rest differs", old, cur, width, at, x)
		}
		if rest, restEnd := parseLine(nil, cur[at:], end, width-x, ansi.WcWidth); !slices.Equal(rest, curCells[x:]) || restEnd != curEnd {
			t.Fatalf("%q from byte %d with style %q: not the rest of the whole parse", cur, at, end)
		}
	}
	if met < 1000 {
		t.Errorf("the versions met in %d lines of 20000", met)
	}
}

// TestTokenRunesAlone: a rune below U+3000 followed by ASCII (or nothing) is read as
// ansi.FirstGraphemeCluster reads it, with either width method, whether it stands alone (as the
// table of runes alone has it) or not.
func TestTokenRunesAlone(t *testing.T) {
	for _, method := range []ansi.Method{ansi.WcWidth, ansi.GraphemeWidth} {
		for r := rune(0x80); r < 0x3000; r++ {
			if !utf8.ValidRune(r) {
				continue
			}
			for _, next := range []string{"", "a", " ", "~", "\t", "\x1b[m", "\n"} {
				s := string(r) + next
				n, g, w, _, sgr := token(s, method)
				wantG, wantW := ansi.FirstGraphemeCluster(s, method)
				wantN := max(len(wantG), 1)
				if wantW <= 0 || len(wantG) == 0 {
					wantG, wantW = "", 0 // nothing drawn: the grapheme does not matter
				}
				if w == 0 {
					g = ""
				}
				if n != wantN || g != wantG || w != wantW || sgr {
					t.Fatalf("method %v, %q: token %d %q %d, want %d %q %d", method, s, n, g, w, wantN, wantG, wantW)
				}
			}
		}
	}
}

// TestPiecesMatchLines: a view given in pieces (PieceViewer) sends, frame after frame, the bytes
// the same view given as whole lines sends, in every colour profile, with styles left open across
// lines (whose parameters are kept from text assembled in scratch space that later frames use
// again), lines of one piece and of none, and the model's slices of pieces reused and changed
// after each frame.
func TestPiecesMatchLines(t *testing.T) {
	for _, wide := range []bool{false, true} {
		frags := fragments(wide)
		for _, profile := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ASCII} {
			rng := rand.New(rand.NewPCG(33, uint64(profile)))
			o := opts
			o.Profile = profile
			var viaPieces, viaLines bytes.Buffer
			rp, rl := New(&viaPieces, o), New(&viaLines, o)
			v := tea.View{AltScreen: true}
			var pieces [][]string // the model's, reused from frame to frame
			randomLine := func() []string {
				var l []string
				for range rng.IntN(7) {
					l = append(l, frags[rng.IntN(len(frags))])
				}
				return l
			}
			for i := range 600 {
				if i%40 == 0 || len(pieces) == 0 {
					pieces = pieces[:0]
					for range 1 + rng.IntN(o.Height+2) {
						pieces = append(pieces, randomLine())
					}
				} else {
					for range 1 + rng.IntN(3) {
						y := rng.IntN(len(pieces))
						pieces[y] = append(pieces[y][:0], randomLine()...) // the same array, other pieces
					}
					if rng.IntN(12) == 0 {
						pieces = pieces[:1+rng.IntN(len(pieces))]
					}
				}
				lines := make([]string, len(pieces))
				for y, l := range pieces {
					lines[y] = strings.Join(l, "")
				}
				viaPieces.Reset()
				viaLines.Reset()
				rp.DrawPieces(v, pieces)
				rl.DrawLines(v, lines)
				if viaPieces.String() != viaLines.String() {
					t.Fatalf("profile %v, frame %d: from pieces\n%q\nfrom lines\n%q", profile, i, viaPieces.String(), viaLines.String())
				}
			}
		}
	}
}
