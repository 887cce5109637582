// Package webdraw is what the games' web boards share: the Board type the catalogue (package
// games) names for each game, and a small writer of the SVG they draw. A web board draws a room
// or a replay position for the web companion (package web) as HTML, from the snapshot a
// spectator gets: the View in it is the engine's View(rules.Spectator), so nothing a seat keeps
// to itself (a rack, a hand) is there to draw.
//
// Every text a board writes goes through the writer's escaping (SVG.Text, Esc): the HTML a board
// returns is put in the page as it is. Colours are CSS classes of the web's style sheet: seat
// colours "s0" to "s4" (the room's Red, Blue, Green, Yellow, Magenta), and "c-NAME" for a
// game's named colours (c-red, c-ivory, ...), each drawn with a letter or a label beside it, as
// on the terminal, so that no meaning rests on colour alone.
package webdraw

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/arcade/arcade/rooms"
)

// Board draws the board of a room or of a replay position as HTML (usually one <svg> and a few
// lines of text) from a spectator's snapshot. It is called on many goroutines at once: it keeps
// no state. A snapshot without a view of the board's game (Waiting) draws nothing.
type Board func(snap *rooms.Snapshot) template.HTML

// Esc escapes s for HTML text or a quoted attribute.
func Esc(s string) string { return template.HTMLEscapeString(s) }

// SVG writes one <svg> element. Create it with NewSVG; HTML closes and returns it.
type SVG struct{ b strings.Builder }

// NewSVG starts an SVG of w x h user units, scaled to the width of its container, labelled
// label for screen readers (role img, with a <title>).
func NewSVG(w, h float64, label string) *SVG {
	s := &SVG{}
	fmt.Fprintf(&s.b, `<svg class="board" viewBox="0 0 %g %g" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg"><title>%s</title>`,
		w, h, Esc(label), Esc(label))
	return s
}

// Rect draws a rectangle of class class.
func (s *SVG) Rect(x, y, w, h float64, class string) {
	fmt.Fprintf(&s.b, `<rect x="%g" y="%g" width="%g" height="%g" class="%s"/>`, x, y, w, h, Esc(class))
}

// Circle draws a circle of class class.
func (s *SVG) Circle(cx, cy, r float64, class string) {
	fmt.Fprintf(&s.b, `<circle cx="%g" cy="%g" r="%g" class="%s"/>`, cx, cy, r, Esc(class))
}

// Polygon draws a closed polygon through the points (x0, y0, x1, y1, ...) of class class.
func (s *SVG) Polygon(class string, xy ...float64) {
	s.b.WriteString(`<polygon points="`)
	for i := 0; i+1 < len(xy); i += 2 {
		if i > 0 {
			s.b.WriteByte(' ')
		}
		fmt.Fprintf(&s.b, "%.1f,%.1f", xy[i], xy[i+1])
	}
	fmt.Fprintf(&s.b, `" class="%s"/>`, Esc(class))
}

// Text writes text centred on (x, y) in class class.
func (s *SVG) Text(x, y float64, class, text string) {
	fmt.Fprintf(&s.b, `<text x="%g" y="%g" class="%s">%s</text>`, x, y, Esc(class), Esc(text))
}

// Group opens a group of class class whose <title> (a tooltip, read by screen readers) is
// title; EndGroup closes it.
func (s *SVG) Group(class, title string) {
	fmt.Fprintf(&s.b, `<g class="%s"><title>%s</title>`, Esc(class), Esc(title))
}

// EndGroup closes the group Group opened.
func (s *SVG) EndGroup() { s.b.WriteString(`</g>`) }

// HTML closes the SVG and returns it, followed by the lines of text given (each escaped, in a
// paragraph of class "board-note").
func (s *SVG) HTML(notes ...string) template.HTML {
	s.b.WriteString(`</svg>`)
	for _, n := range notes {
		if n != "" {
			fmt.Fprintf(&s.b, `<p class="board-note">%s</p>`, Esc(n))
		}
	}
	return template.HTML(s.b.String())
}

// SeatClass is the CSS class of a seat's colour: "s0" for the first seat.
func SeatClass(seat int) string { return fmt.Sprintf("s%d", seat) }

// ColourClass is the CSS class of a named colour: "c-orange" for "Orange".
func ColourClass(name string) string { return "c-" + strings.ToLower(name) }
