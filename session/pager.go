package session

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/session/draw"
)

// pagerKeys are the keys of every pager: the rules in a room and in the lobby, the lobby's help
// and its lists of rooms and matches.
type pagerKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

// pagerKeyMap is the key map every pager shares; it never changes.
var pagerKeyMap = newPagerKeys()

func newPagerKeys() pagerKeys {
	return pagerKeys{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑↓", "scroll")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "space"), key.WithHelp("pgdn/space", "page")),
		Top:      draw.WithHelp(firstKey, "start/end"),
		Bottom:   lastKey,
	}
}

// pager shows lines in a window of the screen and scrolls them by keys (pagerKeys). It is the one
// scrolling view of the session, in the bubbles style (a key map, update, view, help keys); bubbles'
// viewport cuts lines at the edge instead of wrapping them at words, and picks no line.
//
// As text (newTextPager) its lines are wrapped at spaces to the width it is given, keeping each
// line's indentation, and the keys move the window. As a list (newListPager) each item is wrapped
// the same way into one or more lines; the keys move the selected item and the window follows it.
type pager struct {
	keys   *pagerKeys // shared (pagerKeyMap)
	text   []string   // the lines, or the list's items, as given
	lines  []string   // text wrapped to width
	starts []int      // a list's: the index in lines of each item's first line, then len(lines)
	list   bool
	indent int // a list's items' continuation indent; -1: as wrapText finds it
	sel    int // the selected item of a list
	top    int // the first line shown
	width  int
	height int // lines shown; at least one
}

// newTextPager returns a pager of text, a line per "\n".
func newTextPager(text string) pager {
	return pager{keys: &pagerKeyMap, text: strings.Split(strings.TrimRight(text, "\n"), "\n"), height: 1, indent: -1}
}

// newListPager returns a pager of items; sel is the item selected. An item too wide for the pager
// goes on over more lines, indented by indent columns (-1: under its text after its first run of
// two spaces, as wrapText does).
func newListPager(items []string, sel, indent int) pager {
	p := pager{keys: &pagerKeyMap, text: items, list: true, height: 1, indent: indent}
	p.sel = max(0, min(sel, len(items)-1))
	return p
}

// setSize gives the pager width x height cells; it wraps the text again when the width changed and
// keeps the window within the lines (and on a list's selection).
func (p *pager) setSize(width, height int) {
	if p.lines == nil || width != p.width {
		p.wrap(max(width, 10))
	}
	p.width, p.height = width, max(height, 1)
	p.clamp()
}

// wrap breaks the text, or each item, into lines of at most width columns.
func (p *pager) wrap(width int) {
	if !p.list {
		p.lines = wrapText(reflow(p.text, width), width)
		return
	}
	p.lines, p.starts = p.lines[:0], p.starts[:0]
	for _, item := range p.text {
		p.starts = append(p.starts, len(p.lines))
		if p.indent < 0 {
			p.lines = append(p.lines, wrapText([]string{item}, width)...)
		} else {
			// Under its column, leaving room for a few words.
			p.lines = append(p.lines, wrapIndented(item, width, min(p.indent, max(width/2, width-24)))...)
		}
	}
	p.starts = append(p.starts, len(p.lines))
}

// clamp keeps the window within the lines, and a list's selected item in the window.
func (p *pager) clamp() {
	if p.list && len(p.text) > 0 {
		p.sel = max(0, min(p.sel, len(p.text)-1))
		first, end := p.starts[p.sel], p.starts[p.sel+1]
		p.top = max(p.top, end-p.height)
		p.top = min(p.top, first)
	}
	p.top = max(0, min(p.top, len(p.lines)-p.height))
}

// itemAt is the index of the item that line i is part of (i within the lines).
func (p *pager) itemAt(i int) int {
	i = max(0, min(i, len(p.lines)-1))
	n, _ := slices.BinarySearch(p.starts, i+1)
	return max(0, n-1)
}

// update moves the window, or a list's selection, by a key; it reports whether the key was the
// pager's.
func (p *pager) update(msg tea.Msg) bool {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return false
	}
	k, step := p.keys, 0
	switch {
	case key.Matches(km, k.Up):
		step = -1
	case key.Matches(km, k.Down):
		step = 1
	case key.Matches(km, k.PageUp):
		step = -p.height
	case key.Matches(km, k.PageDown):
		step = p.height
	case key.Matches(km, k.Top):
		p.top, p.sel = 0, 0
	case key.Matches(km, k.Bottom):
		p.top, p.sel = len(p.lines), len(p.text)-1
	default:
		return false
	}
	switch {
	case !p.list:
		p.top += step
	case step == 1 || step == -1:
		p.sel += step
	case step != 0 && len(p.text) > 0:
		p.sel = p.itemAt(p.starts[p.sel] + step)
	}
	p.clamp()
	return true
}

// selected is the index of a list's selected item; -1 for an empty list.
func (p *pager) selected() int {
	if len(p.text) == 0 {
		return -1
	}
	return p.sel
}

// view returns the lines in the window, at most height of them, each at most width columns; a
// list's selected item is drawn in sel.
func (p *pager) view(sel draw.Paint) []string {
	end := min(len(p.lines), p.top+p.height)
	out := make([]string, 0, end-p.top)
	for i := p.top; i < end; i++ {
		l := draw.Fit(p.lines[i], p.width)
		if p.list && len(p.text) > 0 && i >= p.starts[p.sel] && i < p.starts[p.sel+1] {
			l = sel.Render(l)
		}
		out = append(out, l)
	}
	return out
}

// position says which lines are shown: "lines 21-40 of 58", or "" when all are.
func (p *pager) position() string {
	if len(p.lines) <= p.height {
		return ""
	}
	return fmt.Sprintf("lines %d-%d of %d", p.top+1, min(len(p.lines), p.top+p.height), len(p.lines))
}

// bindings are the keys the help line shows for the pager: only those that do something.
func (p *pager) bindings() []key.Binding {
	k := p.keys
	switch {
	case p.list && len(p.lines) > p.height:
		return []key.Binding{draw.WithHelp(k.Up, "move"), k.PageDown, k.Top}
	case p.list && len(p.text) > 1:
		return []key.Binding{draw.WithHelp(k.Up, "move")}
	case p.list || len(p.lines) <= p.height:
		return nil
	}
	return []key.Binding{k.Up, k.PageDown, k.Top}
}

// wrapText breaks each line wider than width at spaces into lines of at most width columns (a
// word wider than that is cut). A line's continuations are indented as its text is: under the
// text after its first run of two or more spaces ("  basic       any colours; ..."), else as far
// as the line itself. Lines that fit are kept as they are, tables included.
func wrapText(text []string, width int) []string {
	out := make([]string, 0, len(text))
	for _, l := range text {
		if draw.TextWidth(l) <= width {
			out = append(out, l)
			continue
		}
		out = append(out, wrapIndented(l, width, hangingIndent(l, width))...)
	}
	return out
}

// reflow joins the lines of text's paragraphs, as their author broke them for an 80-column
// screen, when the text is wider than width (a small window's): a line at the margin near the
// widest of those written for 80 columns goes on with the next when that one starts at the margin
// too (not a list's indented line, not a blank one), so that wrapText breaks the paragraph again at width, under its
// first line's hanging indent. Text whose lines written for 80 columns fit width is left as it
// is.
func reflow(text []string, width int) []string {
	broken := 0 // the widest of the lines the author broke for 80 columns
	for _, l := range text {
		if n := draw.TextWidth(l); n <= fullWidth {
			broken = max(broken, n)
		}
	}
	if broken <= width {
		return text
	}
	long := broken - 16 // (a word longer than 16 letters is rare)
	out := make([]string, 0, len(text))
	for i := 0; i < len(text); i++ {
		l := text[i]
		for i+1 < len(text) && atMargin(lastLine(l)) && draw.TextWidth(lastLine(l)) >= long && atMargin(text[i+1]) {
			i++
			l += "\n" + text[i] // (marks where the author broke it, for lastLine)
		}
		out = append(out, strings.ReplaceAll(l, "\n", " "))
	}
	return out
}

// atMargin reports whether l starts at the margin: not blank, not indented.
func atMargin(l string) bool { return l != "" && l[0] != ' ' }

// lastLine is the last of the lines joined in l (reflow).
func lastLine(l string) string {
	if i := strings.LastIndexByte(l, '\n'); i >= 0 {
		return l[i+1:]
	}
	return l
}

// wrapIndented breaks plain text l at spaces into lines of at most width columns, its
// continuations indented by indent columns.
func wrapIndented(l string, width, indent int) []string {
	var out []string
	for first := true; l != "" || first; first = false {
		room := width
		if !first {
			room -= indent
		}
		head, rest := cutAt(l, room)
		if !first {
			head = draw.Spaces(indent) + head
		}
		out = append(out, head)
		l = strings.TrimLeft(rest, " ")
	}
	return out
}

// hangingIndent is the indentation of a long line's continuations (see wrapText), at most half
// the width.
func hangingIndent(l string, width int) int {
	lead := len(l) - len(strings.TrimLeft(l, " "))
	if i := strings.Index(l[lead:], "  "); i > 0 {
		j := lead + i
		for j < len(l) && l[j] == ' ' {
			j++
		}
		if j < len(l) && utf8.RuneCountInString(l[:j]) <= width/2 {
			return utf8.RuneCountInString(l[:j])
		}
	}
	return min(lead, width/2)
}

// cutAt splits plain text l after at most width characters: at the last space that keeps the head
// within width, or at width when there is none.
func cutAt(l string, width int) (head, rest string) {
	width = max(width, 1)
	if utf8.RuneCountInString(l) <= width {
		return l, ""
	}
	cut, space, n := len(l), -1, 0
	for i := range l {
		if n == width {
			cut = i
			break
		}
		if l[i] == ' ' && i > 0 {
			space = i
		}
		n++
	}
	if cut < len(l) && l[cut] == ' ' {
		space = cut
	}
	if space > 0 && strings.TrimSpace(l[:space]) != "" {
		return strings.TrimRight(l[:space], " "), l[space:]
	}
	return l[:cut], l[cut:]
}
