package draw

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Styles are the looks of the screens. Colour always comes with a letter or symbol, so a screen
// without colour (NO_COLOR, or a monochrome terminal) says the same. Get them from NewStyles; a
// board reads them and never changes them. The seats' styles are SeatStyle's and Colour's.
type Styles struct {
	Title, Dim, Bold, Err, OK, Key, Sel, Cursor, Changed, Acted Paint
	seat                                                        []Paint
	named                                                       map[string]Paint
	ASCII                                                       bool
	NoColor                                                     bool // no colour at all (NO_COLOR)
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

// The styles of the four combinations of noColor and ascii, made once: NewStyles hands out
// pointers to these, which nobody changes. A session holds a pointer, not a copy: every copy would
// be some 500 bytes more for every collection to scan, per session.
var builtStyles = [2][2]Styles{
	{buildStyles(false, false), buildStyles(false, true)},
	{buildStyles(true, false), buildStyles(true, true)},
}

// NewStyles returns the styles with or without colour, with or without non-ASCII glyphs. They are
// shared: the caller must not change them.
func NewStyles(noColor, ascii bool) *Styles {
	return &builtStyles[b2i(noColor)][b2i(ascii)]
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// buildStyles makes the styles NewStyles returns.
func buildStyles(noColor, ascii bool) Styles {
	s := Styles{ASCII: ascii, NoColor: noColor, named: map[string]Paint{}}
	plain := lipgloss.NewStyle()
	s.Bold = NewPaint(plain.Bold(true))
	s.Cursor = NewPaint(plain.Reverse(true))
	s.Sel = NewPaint(plain.Reverse(true))
	if noColor {
		s.Title, s.Dim, s.Err, s.OK, s.Key = s.Bold, PlainPaint, s.Bold, PlainPaint, s.Bold
		s.Changed, s.Acted = NewPaint(plain.Underline(true)), NewPaint(plain.Underline(true).Bold(true))
		for range seatColors {
			s.seat = append(s.seat, PlainPaint)
		}
		for name := range namedColors {
			s.named[name] = PlainPaint
		}
		return s
	}
	s.Title = NewPaint(plain.Bold(true).Foreground(lipgloss.Color("#ffaf00")))
	s.Dim = NewPaint(plain.Foreground(lipgloss.Color("#8a8a8a")))
	s.Err = NewPaint(plain.Foreground(lipgloss.Color("#ff5f5f")).Bold(true))
	s.OK = NewPaint(plain.Foreground(lipgloss.Color("#87d787")))
	s.Key = NewPaint(plain.Foreground(lipgloss.Color("#ffaf00")))
	s.Changed = NewPaint(plain.Background(lipgloss.Color("#5f5f00")))
	s.Acted = NewPaint(plain.Background(lipgloss.Color("#875f00")))
	for _, c := range seatColors {
		s.seat = append(s.seat, NewPaint(plain.Foreground(c).Bold(true)))
	}
	for name, c := range namedColors {
		s.named[name] = NewPaint(plain.Foreground(c).Bold(true))
	}
	return s
}

// Colour returns the style of a colour by name ("Red", "Orange"...), plain for an unknown name.
func (s Styles) Colour(name string) Paint {
	if st, ok := s.named[name]; ok {
		return st
	}
	return PlainPaint
}

// SeatStyle returns the style of seat i (any non-negative i).
func (s Styles) SeatStyle(i int) Paint {
	if i < 0 {
		return s.Dim
	}
	return s.seat[i%len(s.seat)]
}

// TurnMark is the marker of the seat whose turn it is.
func (s Styles) TurnMark() string {
	if s.ASCII {
		return ">"
	}
	return "▶"
}

// seatNames and seatLetters name the seats by colour, in seat order.
var (
	seatNames   = []string{"Red", "Blue", "Green", "Yellow", "Magenta"}
	seatLetters = []string{"R", "B", "G", "Y", "M"}
)

// SeatName is the name of seat i (any non-negative i) by its colour: "Red", "Blue"...
func SeatName(i int) string { return seatNames[i%len(seatNames)] }

// SeatLetter is the letter of seat i (any non-negative i) by its colour: "R", "B"...
func SeatLetter(i int) string { return seatLetters[i%len(seatLetters)] }
