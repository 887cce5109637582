package draw

import (
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Fit pads or cuts s (which may hold ANSI styles) to exactly width columns.
func Fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	w := TextWidth(s)
	switch {
	case w > width:
		return ansi.Truncate(s, width, "…")
	case w == width:
		return s
	}
	return s + Spaces(width-w)
}

// AppendFit appends s fitted to width columns to buf: fit's bytes, without making a string.
func AppendFit(buf []byte, s string, width int) []byte {
	if width <= 0 {
		return buf
	}
	return AppendFitWidth(buf, s, TextWidth(s), width)
}

// AppendFitWidth is AppendFit for an s whose width is known: w must be TextWidth(s). A line kept
// with its width is fitted without being measured again.
func AppendFitWidth(buf []byte, s string, w, width int) []byte {
	if width <= 0 {
		return buf
	}
	if w > width {
		return append(buf, ansi.Truncate(s, width, "…")...)
	}
	buf = append(buf, s...)
	for n := width - w; n > 0; n -= len(blanks) {
		buf = append(buf, blanks[:min(n, len(blanks))]...)
	}
	return buf
}

// FitPieces returns AppendFitWidth's text in two pieces: s and the spaces that pad it to width
// columns, or s cut to width and "" (both "" for a width of 0 or less). w must be TextWidth(s).
// A line is fitted without being copied.
func FitPieces(s string, w, width int) (text, pad string) {
	switch {
	case width <= 0:
		return "", ""
	case w > width:
		return ansi.Truncate(s, width, "…"), ""
	}
	return s, Spaces(width - w)
}

// blanks is a line of spaces wider than any screen, for spaces to cut from.
const blanks = "                                                                                " +
	"                                                                                " +
	"                                                                                " +
	"                                                                                "

// Spaces returns n spaces (none for n <= 0), without allocating up to len(blanks).
func Spaces(n int) string {
	if n <= len(blanks) {
		return blanks[:max(n, 0)]
	}
	return strings.Repeat(" ", n)
}

// Wrap breaks plain text into lines of at most width columns at spaces.
func Wrap(s string, width int) []string {
	if oneLine(s, width) {
		return []string{s}
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		out = append(out, Fill(strings.Fields(para), width)...)
	}
	return out
}

// AppendWrap appends s wrapped to width columns (Wrap) to lines and returns them: a line that fits
// as it is, without a slice of its own.
func AppendWrap(lines []string, s string, width int) []string {
	if oneLine(s, width) {
		return append(lines, s)
	}
	return append(lines, Wrap(s, width)...)
}

// Fill lays words out on lines of at most width columns, one space between them, as many on a
// line as fit (a word wider than width gets a line of its own); no words make one empty line.
func Fill(words []string, width int) []string { return fill(words, " ", width) }

// Entries lays a legend's entries out on lines of at most width columns, as many on a line as
// fit, two spaces between them (one would read as a list's separator); an entry wider than width
// gets a line of its own.
func Entries(entries []string, width int) []string { return fill(entries, "  ", width) }

// fill lays words out on lines of at most width columns, gap between them.
func fill(words []string, gap string, width int) []string {
	var out []string
	line := ""
	for _, word := range words {
		switch {
		case line == "":
			line = word
		case TextWidth(line)+len(gap)+TextWidth(word) <= width:
			line += gap + word
		default:
			out = append(out, line)
			line = word
		}
	}
	return append(out, line)
}

// oneLine reports whether wrap would return s itself as its one line: s is empty, or its words
// are separated by single spaces with none before or after, it holds no other white space, and
// it is at most width columns wide counting as TextWidth does without lipgloss (printable ASCII,
// known glyphs, CSI and OSC sequences without spaces), whose widths add up word by word. It says
// false whenever it is unsure; wrap then does the work.
func oneLine(s string, width int) bool {
	w, space := 0, true // space: the last character was a space, or there was none yet
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ':
			if space {
				return false
			}
			w, space = w+1, true
			i++
		case c > ' ' && c < 0x7f:
			w, space = w+1, false
			i++
		case c == 0x1b:
			n := escapeLen(s[i:])
			if n == 0 || strings.ContainsAny(s[i:i+n], " ") {
				return false
			}
			i += n
		case c < 0x80:
			return false // a control (some are white space to strings.Fields), DEL
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if !narrowGlyph(r) {
				return false
			}
			w, space = w+1, false
			i += n
		}
	}
	return (s == "" || !space) && w <= width
}

// asciiGlyphs are the ASCII stand-ins of the glyphs the screens draw; each keeps its width of one.
var asciiGlyphs = map[rune]rune{
	'·': '.', '─': '-', '│': '|', '╭': '+', '╮': '+', '╰': '+', '╯': '+', '…': '~',
	'‹': '<', '›': '>', '▶': '>', '◀': '<', '✗': 'x', '✓': 'v', '×': 'x', '░': '.',
	'←': '<', '→': '>', '↑': '^', '↓': 'v', '•': '*',
}

// ASCIIOnly rewrites a finished frame for a terminal with poor Unicode: known glyphs become
// their ASCII stand-ins, and any other non-ASCII character (in names or chat) becomes '?' as many
// times as it is wide, so columns stay where they were. Escape sequences are ASCII already.
func ASCIIOnly(frame string) string {
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

// narrowBits marks the non-ASCII characters below U+2800 that TextWidth counts itself, one column
// each: the keys of asciiGlyphs and the box drawing and block elements (U+2500 to U+259F). Any
// other non-ASCII character makes it ask lipgloss.
var narrowBits = func() (bits [0x2800 / 64]uint64) {
	set := func(r rune) {
		if r >= 0x80 && r < 0x2800 {
			bits[r/64] |= 1 << (r % 64)
		}
	}
	for r := range asciiGlyphs {
		set(r)
	}
	for r := rune(0x2500); r <= 0x259f; r++ {
		set(r)
	}
	return bits
}()

// narrowGlyph reports whether TextWidth may count r (non-ASCII) as one column by itself.
func narrowGlyph(r rune) bool {
	return r >= 0 && r < 0x2800 && narrowBits[r/64]&(1<<(r%64)) != 0
}

// TextWidth returns lipgloss.Width(s), the widest line's columns, without lipgloss's grapheme
// segmentation for the text the screens draw: printable ASCII is one column, other C0 controls
// none; CSI sequences (ESC '[' parameters and intermediates, a final byte 0x40 to 0x7E) and OSC
// sequences (ESC ']' printable ASCII, then BEL or ESC '\') take none; narrowGlyph's characters
// are one column. On anything else (another escape, a control byte inside a sequence, an
// unfinished one, DEL, invalid UTF-8, any other non-ASCII character, which may be wide or join its
// neighbour into one cluster) it returns lipgloss.Width(s) for the whole string.
func TextWidth(s string) int {
	width, line := 0, 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			line++
			i++
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[': // CSI, the SGR sequences of styles
			j := i + 2
			for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
				j++
			}
			if j == len(s) || s[j] < 0x40 || s[j] > 0x7e {
				return lipgloss.Width(s)
			}
			i = j + 1
		case c == '\n':
			width, line = max(width, line), 0
			i++
		case c == 0x1b:
			n := escapeLen(s[i:])
			if n == 0 {
				return lipgloss.Width(s)
			}
			i += n
		case c < 0x20:
			i++
		case (c == 0xc2 || c == 0xc3) && i+1 < len(s) && s[i+1]&0xc0 == 0x80: // U+0080 to U+00FF
			if !narrowGlyph(rune(c&0x1f)<<6 | rune(s[i+1]&0x3f)) {
				return lipgloss.Width(s)
			}
			line++
			i += 2
		case c == 0xe2 && i+2 < len(s) && s[i+1]&0xc0 == 0x80 && s[i+2]&0xc0 == 0x80: // U+2000 to U+2FFF
			if !narrowGlyph(rune(c&0x0f)<<12 | rune(s[i+1]&0x3f)<<6 | rune(s[i+2]&0x3f)) {
				return lipgloss.Width(s)
			}
			line++
			i += 3
		default: // DEL, another character, invalid UTF-8
			return lipgloss.Width(s)
		}
	}
	return max(width, line)
}

// escapeLen returns the length of the CSI or OSC sequence s starts with (at its ESC), or 0 when s
// does not start with a whole one that TextWidth knows to take no columns.
func escapeLen(s string) int {
	if len(s) < 2 {
		return 0
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			switch c := s[i]; {
			case c >= 0x20 && c <= 0x3f: // parameters and intermediates
			case c >= 0x40 && c <= 0x7e:
				return i + 1
			default:
				return 0
			}
		}
	case ']':
		for i := 2; i < len(s); i++ {
			switch c := s[i]; {
			case c == 0x07:
				return i + 1
			case c == 0x1b:
				if i+1 < len(s) && s[i+1] == '\\' {
					return i + 2
				}
				return 0
			case c < 0x20 || c >= 0x7f:
				return 0
			}
		}
	}
	return 0
}

// KeepLine sets lines[i] (i at most len(lines)) to the text of b, keeping the string there when
// it holds the same bytes (see sameString), and returns lines.
func KeepLine(lines []string, i int, b []byte) []string {
	if i < len(lines) {
		lines[i] = sameString(lines[i], b)
		return lines
	}
	return append(lines, string(b))
}

// sameString returns b as a string: old itself when it holds the same bytes, so that a line
// drawn again unchanged costs no allocation (and compares equal to the old one at a glance).
func sameString(old string, b []byte) string {
	if string(b) == old { // compared without a conversion
		return old
	}
	return string(b)
}

// Plural is "s" for a count other than 1, "" for 1: fmt.Sprintf("%d seat%s", n, Plural(n)).
func Plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// PartSep is the separator between the parts of a line: " · ", " - " in ASCII.
func PartSep(st Styles) string {
	if st.ASCII {
		return " - "
	}
	return " · "
}
