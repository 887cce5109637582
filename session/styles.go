package session

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// styles are the looks of the screens. Colour always comes with a letter or symbol, so a screen
// without colour (NO_COLOR, or a monochrome terminal) says the same.
type styles struct {
	title, dim, bold, err, ok, key, sel, cursor, changed, acted paint
	seat                                                        []paint
	named                                                       map[string]paint
	ascii                                                       bool
	noColor                                                     bool // no colour at all (NO_COLOR)
}

// seatColors are the players' colours in seat order: red, blue, green, yellow, magenta.
var seatColors = []color.Color{
	lipgloss.Color("#ff5f5f"), lipgloss.Color("#5f87ff"), lipgloss.Color("#5fd75f"),
	lipgloss.Color("#ffd75f"), lipgloss.Color("#d787ff"),
}

// namedColors are the colours games may give their seats, by name.
var namedColors = map[string]color.Color{
	"Red": seatColors[0], "Blue": seatColors[1], "Green": seatColors[2], "Yellow": seatColors[3],
	"Magenta": seatColors[4], "Orange": lipgloss.Color("#ffaf5f"), "Purple": lipgloss.Color("#af87ff"),
}

// The styles of the four combinations of noColor and ascii, made once: newStyles hands out
// pointers to these, which nobody changes. A session holds a pointer, not a copy: every copy would
// be some 500 bytes more for every collection to scan, per session.
var builtStyles = [2][2]styles{
	{buildStyles(false, false), buildStyles(false, true)},
	{buildStyles(true, false), buildStyles(true, true)},
}

// newStyles returns the styles with or without colour, with or without non-ASCII glyphs. They are
// shared: the caller must not change them.
func newStyles(noColor, ascii bool) *styles {
	return &builtStyles[b2i(noColor)][b2i(ascii)]
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// buildStyles makes the styles newStyles returns.
func buildStyles(noColor, ascii bool) styles {
	s := styles{ascii: ascii, noColor: noColor, named: map[string]paint{}}
	plain := lipgloss.NewStyle()
	s.bold = newPaint(plain.Bold(true))
	s.cursor = newPaint(plain.Reverse(true))
	s.sel = newPaint(plain.Reverse(true))
	if noColor {
		s.title, s.dim, s.err, s.ok, s.key = s.bold, plainPaint, s.bold, plainPaint, s.bold
		s.changed, s.acted = newPaint(plain.Underline(true)), newPaint(plain.Underline(true).Bold(true))
		for range seatColors {
			s.seat = append(s.seat, plainPaint)
		}
		for name := range namedColors {
			s.named[name] = plainPaint
		}
		return s
	}
	s.title = newPaint(plain.Bold(true).Foreground(lipgloss.Color("#ffaf00")))
	s.dim = newPaint(plain.Foreground(lipgloss.Color("#8a8a8a")))
	s.err = newPaint(plain.Foreground(lipgloss.Color("#ff5f5f")).Bold(true))
	s.ok = newPaint(plain.Foreground(lipgloss.Color("#87d787")))
	s.key = newPaint(plain.Foreground(lipgloss.Color("#ffaf00")))
	s.changed = newPaint(plain.Background(lipgloss.Color("#5f5f00")))
	s.acted = newPaint(plain.Background(lipgloss.Color("#875f00")))
	for _, c := range seatColors {
		s.seat = append(s.seat, newPaint(plain.Foreground(c).Bold(true)))
	}
	for name, c := range namedColors {
		s.named[name] = newPaint(plain.Foreground(c).Bold(true))
	}
	return s
}

// colour returns the style of a colour by name ("Red", "Orange"...), plain for an unknown name.
func (s styles) colour(name string) paint {
	if st, ok := s.named[name]; ok {
		return st
	}
	return plainPaint
}

// seatStyle returns the style of seat i (any non-negative i).
func (s styles) seatStyle(i int) paint {
	if i < 0 {
		return s.dim
	}
	return s.seat[i%len(s.seat)]
}

// turnMark is the marker of the seat whose turn it is.
func (s styles) turnMark() string {
	if s.ascii {
		return ">"
	}
	return "▶"
}
