package lhexiconview

import (
	"fmt"
	"html/template"
	"math"
	"strings"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon"
	"github.com/arcade/arcade/session/draw"
	"github.com/arcade/arcade/web/webdraw"
)

// WebBoard draws the board for the web (webdraw.Board): the hexagon of hexes with their tiles
// (in the tiles' notation), the
// centre, the traps' hexes, and the last word's path outlined; then the tiles each seat holds
// (how many: a spectator's view has no rack) and the bank.
func WebBoard(snap *rooms.Snapshot) template.HTML {
	v, ok := draw.ViewRef[lhexicon.View](snap)
	if !ok {
		return ""
	}
	const r = 15.0 // a hex's radius
	w, h := math.Sqrt(3)*r, 1.5*r
	trap := map[lhexicon.Hex]bool{}
	for _, t := range v.Traps {
		for _, x := range t {
			trap[x] = true
		}
	}
	path := map[lhexicon.Hex]bool{}
	if v.Last.Seat >= 0 {
		for _, x := range v.Last.Path {
			path[x] = true
		}
	}
	rows := 2*lhexicon.Side - 1
	width, height := w*float64(rows)+w, h*float64(rows-1)+2*r+4
	s := webdraw.NewSVG(width, height, "Lhex-i'-con board")
	for hx := range lhexicon.Hex(lhexicon.NumHexes) {
		row := hx.Row()
		// Rows are centred: a row of n hexes starts (rows - n) half hexes in.
		cx := w/2 + w*float64(rows-lhexicon.RowLen(row))/2 + w*float64(hx.Col()) + w/2
		cy := r + 2 + h*float64(row)
		t := v.Board[hx]
		class, what := "hex", "empty"
		switch {
		case t != lhexicon.NoTile:
			class += " tile"
			what = "tile " + t.String()
		case trap[hx]:
			class += " trap"
			what = "empty, in a trap"
		}
		if hx == v.Centre {
			class += " centre"
			what += ", the centre"
		}
		if path[hx] {
			class += " changed"
			what += ", in the last word"
		}
		s.Group("hexcell", hx.String()+": "+what)
		pts := make([]float64, 0, 12)
		for k := range 6 {
			a := math.Pi/180*(60*float64(k)) - math.Pi/2
			pts = append(pts, cx+r*math.Cos(a), cy+r*math.Sin(a))
		}
		s.Polygon(class, pts...)
		if t != lhexicon.NoTile {
			s.Text(cx, cy+4, "tile-label", t.String())
		}
		s.EndGroup()
	}
	var held []string
	for seat, n := range v.RackSizes {
		held = append(held, fmt.Sprintf("%s %d", lhexicon.SeatName(rules.Seat(seat)), n))
	}
	notes := []string{fmt.Sprintf("Tiles held: %s · in the bank: %d.", strings.Join(held, " · "), v.Bank)}
	if v.Last.Seat >= 0 && v.Last.Note != "" {
		notes = append(notes, v.Last.Note)
	}
	if v.Pending != "" {
		notes = append(notes, fmt.Sprintf("%s may be challenged.", strings.ToUpper(v.Pending)))
	}
	return s.HTML(notes...)
}
