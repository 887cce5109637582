package session

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// fit pads or cuts s (which may hold ANSI styles) to exactly width columns.
func fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	w := lipgloss.Width(s)
	if w > width {
		return ansi.Truncate(s, width, "…")
	}
	return s + strings.Repeat(" ", width-w)
}

// block makes lines into exactly height lines of exactly width columns.
func block(lines []string, width, height int) []string {
	out := make([]string, height)
	for i := range out {
		if i < len(lines) {
			out[i] = fit(lines[i], width)
		} else {
			out[i] = strings.Repeat(" ", width)
		}
	}
	return out
}

// wrap breaks plain text into lines of at most width columns at spaces.
func wrap(s string, width int) []string {
	var out []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			switch {
			case line == "":
				line = word
			case lipgloss.Width(line)+1+lipgloss.Width(word) <= width:
				line += " " + word
			default:
				out = append(out, line)
				line = word
			}
		}
		out = append(out, line)
	}
	return out
}

// tooSmall is the screen for a terminal below the minimum size.
func tooSmall(w, h int, st styles) string {
	msg := []string{
		st.title.Render("arcade"),
		"",
		fmt.Sprintf("This window is %d x %d.", w, h),
		fmt.Sprintf("The arcade needs at least %d x %d.", minWidth, minHeight),
		"Make the window larger, or press ctrl+c to leave.",
	}
	return strings.Join(msg, "\n")
}

// helpLine draws the enabled bindings' short help on one line of at most width columns.
func helpLine(st styles, width int, bindings ...key.Binding) string {
	h := help.New()
	h.Styles.ShortKey = st.key.Style()
	h.Styles.ShortDesc = st.dim.Style()
	h.Styles.ShortSeparator = st.dim.Style()
	h.SetWidth(width)
	return fit(h.ShortHelpView(bindings), width)
}

// asciiGlyphs are the ASCII stand-ins of the glyphs the screens draw; each keeps its width of one.
var asciiGlyphs = map[rune]rune{
	'·': '.', '─': '-', '│': '|', '╭': '+', '╮': '+', '╰': '+', '╯': '+', '…': '~',
	'‹': '<', '›': '>', '▶': '>', '◀': '<', '✗': 'x', '✓': 'v', '×': 'x', '░': '.',
	'←': '<', '→': '>', '↑': '^', '↓': 'v', '•': '*',
}

// asciiOnly rewrites a finished frame for a terminal with poor Unicode: known glyphs become
// their ASCII stand-ins, and any other non-ASCII character (in names or chat) becomes '?' as many
// times as it is wide, so columns stay where they were. Escape sequences are ASCII already.
func asciiOnly(frame string) string {
	var b strings.Builder
	b.Grow(len(frame))
	for _, r := range frame {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case asciiGlyphs[r] != 0:
			b.WriteRune(asciiGlyphs[r])
		default:
			b.WriteString(strings.Repeat("?", max(1, ansi.StringWidth(string(r)))))
		}
	}
	return b.String()
}

// glyphs memoises styled strings. A board draws the same few glyphs in every frame, and styling
// one with lipgloss costs about a microsecond, which a thousand sessions pay many times a second.
// Each board has its own (a board lives in one session, with one set of styles), so it needs no
// lock; it holds at most a few hundred entries.
type glyphs map[any]string

// get returns the string for key, drawing it the first time.
func (g glyphs) get(key any, draw func() string) string {
	if s, ok := g[key]; ok {
		return s
	}
	s := draw()
	g[key] = s
	return s
}
