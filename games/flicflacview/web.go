package flicflacview

import (
	"fmt"
	"html/template"
	"math"
	"strings"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/flicflac"
	"github.com/arcade/arcade/session/draw"
	"github.com/arcade/arcade/web/webdraw"
)

// WebBoard draws the board for the web (webdraw.Board), pointy-topped as the terminal draws it
// (flicflac.Geometry.Layout): each hex in its colour with its name, each piece on it with its
// owner's shape (a circle for cylinders, a square for blocks), its colour's letter and its
// health; the pieces still at home, and the captures.
func WebBoard(snap *rooms.Snapshot) template.HTML {
	v, ok := draw.ViewOf[flicflac.View](snap)
	if !ok || v.Side == 0 {
		return ""
	}
	g := flicflac.GeometryOf(v.Side)
	const r = 20.0
	w := math.Sqrt(3) * r
	R := v.Side - 1
	width, height := w*float64(2*R+1)+4, 1.5*r*float64(2*R)+2*r+4
	s := webdraw.NewSVG(width, height, fmt.Sprintf("Flic Flac board, side %d", v.Side))
	for h, hv := range v.Hexes {
		row, x := g.Layout(flicflac.Hex(h))
		cx, cy := 2+w/2+w*float64(x)/2, 2+r+1.5*r*float64(row)
		what := hv.Colour.String() + " hex"
		var p flicflac.PieceView
		if hv.Piece >= 0 {
			p = v.Pieces[hv.Piece]
			what += ", " + describePiece(p)
		}
		s.Group("hexcell", hv.Name+": "+what)
		pts := make([]float64, 0, 12)
		for k := range 6 {
			a := math.Pi/180*(60*float64(k)) - math.Pi/2
			pts = append(pts, cx+r*math.Cos(a), cy+r*math.Sin(a))
		}
		s.Polygon("hex c-"+hv.Colour.String(), pts...)
		if hv.Piece < 0 {
			s.Text(cx, cy+4, "hex-name", hv.Name)
		} else {
			drawPiece(s, cx, cy, r*0.62, p)
		}
		s.EndGroup()
	}
	var home []string
	for seat := range 2 {
		var at []string
		for c := range flicflac.Colour(flicflac.Colours) {
			if p := v.Piece(rules.Seat(seat), c); p.Hex == flicflac.NoHex {
				at = append(at, string(c.Letter()))
			}
		}
		home = append(home, fmt.Sprintf("%s captured %d, at home: %s", shapes(v.Shapes[seat]), v.Captures[seat], orNone(at)))
	}
	turn := fmt.Sprintf("Turn %d of %d; %d captures win, with a lead of 2.", v.TurnNumber, v.Limit, v.Target)
	return s.HTML(append(home, turn)...)
}

// drawPiece draws piece p at (cx, cy): its shape in its colour, its letter and its health.
func drawPiece(s *webdraw.SVG, cx, cy, size float64, p flicflac.PieceView) {
	class := "piece c-" + p.ID.Colour.String() + " " + webdraw.SeatClass(int(p.ID.Seat))
	if p.Doomed {
		class += " doomed"
	}
	if p.Shape == flicflac.Block {
		s.Rect(cx-size, cy-size, 2*size, 2*size, class)
	} else {
		s.Circle(cx, cy, size, class)
	}
	s.Text(cx, cy+1, "piece-label", string(p.ID.Colour.Letter()))
	s.Text(cx, cy+size-2, "piece-sub", fmt.Sprint(p.Health))
}

// describePiece says what a piece is, for its hex's title.
func describePiece(p flicflac.PieceView) string {
	out := fmt.Sprintf("%s' %s %s, health %d", shapes(p.Shape), p.ID.Colour, p.Shape, p.Health)
	if p.Flipped {
		out += ", flipped"
	}
	if p.Doomed {
		out += ", captured if the turn ends now"
	}
	return out
}

// shapes names a seat by its shape, as the terminal's board does: "Cylinders", "Blocks".
func shapes(sh flicflac.Shape) string {
	name := sh.String()
	return strings.ToUpper(name[:1]) + name[1:] + "s"
}

func orNone(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, " ")
}
