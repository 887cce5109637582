package draw

import (
	"image/color"
	"strings"

	"charm.land/lipgloss/v2"
)

// Paint is a lipgloss style of colours and attributes that draws one line of text without
// lipgloss's work. For such a style lipgloss.Style.Render writes the style's opening SGR sequence,
// the text and a reset, whatever the text; paint derives both sequences once, when it is made, and
// Render writes them around the text itself: the bytes lipgloss would write, at the cost of a
// string concatenation. Whatever paint cannot prove identical it leaves to lipgloss (see
// Render). A paint is small and is copied freely: the style lives behind a pointer.
type Paint struct {
	style       *lipgloss.Style
	open, close string // the sequences lipgloss writes before and after a line of text
	fast        bool   // open and close may be used: the style has only colours and attributes
}

// paintSentinel is the text NewPaint renders to find the style's sequences: a private-use rune,
// which no SGR sequence holds.
const paintSentinel = "\uE000"

// NewPaint wraps s. The fast path is on only when s has nothing but colours and attributes
// that style the text as one run: no underline or strikethrough (lipgloss styles spaces apart
// then), no width, height, padding, margins, border, alignment box, transform, hyperlink or set
// string, and when rendering the sentinel, "" and " " agrees with open+text+close.
func NewPaint(s lipgloss.Style) Paint {
	p := Paint{style: &s}
	top, right, bottom, left := s.GetPadding()
	mtop, mright, mbottom, mleft := s.GetMargin()
	link, _ := s.GetHyperlink()
	simple := !s.GetUnderline() && !s.GetStrikethrough() && !s.GetUnderlineSpaces() && !s.GetStrikethroughSpaces() &&
		s.GetWidth() == 0 && s.GetHeight() == 0 && s.GetMaxWidth() == 0 && s.GetMaxHeight() == 0 &&
		top|right|bottom|left == 0 && mtop|mright|mbottom|mleft == 0 &&
		s.GetBorderStyle() == (lipgloss.Border{}) && s.GetHorizontalBorderSize() == 0 && s.GetVerticalBorderSize() == 0 &&
		s.GetTransform() == nil && link == "" && s.Value() == ""
	if !simple {
		return p
	}
	out := s.Render(paintSentinel)
	i := strings.Index(out, paintSentinel)
	if i < 0 || strings.Count(out, paintSentinel) != 1 {
		return p
	}
	p.open, p.close = out[:i], out[i+len(paintSentinel):]
	for _, probe := range []string{"", " ", "a b"} {
		if s.Render(probe) != p.open+probe+p.close {
			p.open, p.close = "", ""
			return p
		}
	}
	p.fast = true
	return p
}

// PlainPaint is the style with no looks at all: Render returns its text as it is (tabs aside).
var PlainPaint = NewPaint(lipgloss.NewStyle())

// Render draws strs joined by spaces (as lipgloss joins them) in the style: the style's sequences
// around the text when the text is one line without tabs or carriage returns (lipgloss changes
// those), else lipgloss.Style.Render's own output. The result is byte for byte lipgloss's.
func (p Paint) Render(strs ...string) string {
	if p.style == nil {
		return PlainPaint.Render(strs...) // the zero paint is the plain style
	}
	if !p.fast {
		return p.style.Render(strs...)
	}
	var text string
	switch len(strs) {
	case 0:
	case 1:
		text = strs[0]
	default:
		text = strings.Join(strs, " ")
	}
	if !plainLine(text) {
		return p.style.Render(text)
	}
	if p.open == "" && p.close == "" {
		return text
	}
	return p.open + text + p.close
}

// plainLine reports whether s has none of the characters lipgloss.Style.Render rewrites in a style
// of colours and attributes: newline, carriage return, tab.
func plainLine(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\n' || c == '\r' || c == '\t' {
			return false
		}
	}
	return true
}

// Style returns the lipgloss style, for code that wants one (bubbles' help styles).
func (p Paint) Style() lipgloss.Style {
	if p.style == nil {
		return lipgloss.NewStyle()
	}
	return *p.style
}

// GetForeground returns the style's foreground colour, lipgloss.NoColor when it has none.
func (p Paint) GetForeground() color.Color { return p.Style().GetForeground() }

// Bold returns the paint of the style made bold (or not); the style itself when it is already.
func (p Paint) Bold(b bool) Paint {
	if p.Style().GetBold() == b {
		return p
	}
	return NewPaint(p.Style().Bold(b))
}
