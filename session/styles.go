package session

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// styles are the looks of the screens. Colour always comes with a letter or symbol, so a screen
// without colour (NO_COLOR, or a monochrome terminal) says the same.
type styles struct {
	title, dim, bold, err, ok, key, sel, cursor, changed, acted lipgloss.Style
	seat                                                        []lipgloss.Style
	named                                                       map[string]lipgloss.Style
	ascii                                                       bool
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

func newStyles(noColor, ascii bool) styles {
	s := styles{ascii: ascii, named: map[string]lipgloss.Style{}}
	plain := lipgloss.NewStyle()
	s.bold = plain.Bold(true)
	s.cursor = plain.Reverse(true)
	s.sel = plain.Reverse(true)
	if noColor {
		s.title, s.dim, s.err, s.ok, s.key = s.bold, plain, s.bold, plain, s.bold
		s.changed, s.acted = plain.Underline(true), plain.Underline(true).Bold(true)
		for range seatColors {
			s.seat = append(s.seat, plain)
		}
		for name := range namedColors {
			s.named[name] = plain
		}
		return s
	}
	s.title = plain.Bold(true).Foreground(lipgloss.Color("#ffaf00"))
	s.dim = plain.Foreground(lipgloss.Color("#8a8a8a"))
	s.err = plain.Foreground(lipgloss.Color("#ff5f5f")).Bold(true)
	s.ok = plain.Foreground(lipgloss.Color("#87d787"))
	s.key = plain.Foreground(lipgloss.Color("#ffaf00"))
	s.changed = plain.Background(lipgloss.Color("#5f5f00"))
	s.acted = plain.Background(lipgloss.Color("#875f00"))
	for _, c := range seatColors {
		s.seat = append(s.seat, plain.Foreground(c).Bold(true))
	}
	for name, c := range namedColors {
		s.named[name] = plain.Foreground(c).Bold(true)
	}
	return s
}

// colour returns the style of a colour by name ("Red", "Orange"...), plain for an unknown name.
func (s styles) colour(name string) lipgloss.Style {
	if st, ok := s.named[name]; ok {
		return st
	}
	return lipgloss.NewStyle()
}

// seatStyle returns the style of seat i (any non-negative i).
func (s styles) seatStyle(i int) lipgloss.Style {
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
