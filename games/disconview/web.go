package disconview

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/discon"
	"github.com/arcade/arcade/session/draw"
	"github.com/arcade/arcade/web/webdraw"
)

// WebBoard draws the board for the web (webdraw.Board): the discs and ownerless stacks on the
// squares, the home zones tinted by their seat, each piece with its number and its tower (height
// and value), the last move's squares outlined.
func WebBoard(snap *rooms.Snapshot) template.HTML {
	v, ok := draw.ViewRef[discon.View](snap)
	if !ok {
		return ""
	}
	const cell, margin = 34.0, 22.0
	side := margin + cell*discon.Size
	last := map[discon.Square]bool{}
	for _, mv := range v.LastTurn {
		last[mv.From], last[mv.To] = true, true
	}
	s := webdraw.NewSVG(side+4, side+4, "DISCON board, 10 by 10")
	for i := range discon.Size {
		s.Text(margin+cell*float64(i)+cell/2, 15, "coord", string(rune('a'+i)))
		s.Text(10, margin+cell*float64(i)+cell/2+4, "coord", fmt.Sprint(i+1))
	}
	for r := range discon.Size {
		for c := range discon.Size {
			q := discon.At(r, c)
			sq := &v.Squares[q]
			x, y := margin+cell*float64(c), margin+cell*float64(r)
			class := "sq"
			if sq.Zone >= 0 {
				class += " zone " + webdraw.ColourClass(discon.SeatName(sq.Zone))
			}
			if last[q] {
				class += " changed"
			}
			what := describeStack(sq.Stack)
			for _, id := range sq.Pieces {
				p := v.Piece(id.Seat, id.Num)
				what = fmt.Sprintf("%s piece %d, tower of %d (%s), worth %d", discon.SeatName(id.Seat), id.Num, len(p.Tower), describeColours(p.Tower), p.Value)
			}
			s.Group("square", q.String()+": "+what)
			s.Rect(x, y, cell, cell, class)
			switch {
			case len(sq.Pieces) > 0:
				id := sq.Pieces[0]
				p := v.Piece(id.Seat, id.Num)
				s.Circle(x+cell/2, y+cell/2, cell/2-4, "piece "+webdraw.ColourClass(discon.SeatName(id.Seat)))
				label := id.String()
				if len(sq.Pieces) > 1 {
					label = fmt.Sprintf("%c×%d", discon.SeatLetter(id.Seat), len(sq.Pieces))
				}
				s.Text(x+cell/2, y+cell/2+1, "piece-label", label)
				if len(p.Tower) > 0 && len(sq.Pieces) == 1 {
					s.Text(x+cell/2, y+cell/2+12, "piece-sub", fmt.Sprintf("%d·%d", len(p.Tower), p.Value))
				}
			case len(sq.Stack) == 1:
				col := sq.Stack[0].String()
				s.Circle(x+cell/2, y+cell/2, cell/2-8, "disc c-"+col)
				s.Text(x+cell/2, y+cell/2+4, "disc-label", strings.ToUpper(col[:1]))
			case len(sq.Stack) > 1:
				s.Rect(x+6, y+6, cell-12, cell-12, "stack")
				s.Text(x+cell/2, y+cell/2+4, "disc-label", fmt.Sprint(len(sq.Stack)))
			}
			s.EndGroup()
		}
	}
	var scores []string
	for seat, sc := range v.Scores {
		scores = append(scores, fmt.Sprintf("%s %d", discon.SeatName(rules.Seat(seat)), sc))
	}
	note := "Scores: " + strings.Join(scores, " · ") + fmt.Sprintf(". Towers up to %d storeys.", v.HeightLimit)
	return s.HTML(note, v.Note)
}

// describeStack says what lies on a square: "empty", "a blue disc", "an ownerless stack of 3".
func describeStack(st []discon.Colour) string {
	switch len(st) {
	case 0:
		return "empty"
	case 1:
		return "a " + st[0].String() + " disc"
	}
	return fmt.Sprintf("an ownerless stack of %d (%s)", len(st), describeColours(st))
}

// describeColours lists a tower's colours, bottom first.
func describeColours(st []discon.Colour) string {
	names := make([]string, len(st))
	for i, c := range st {
		names[i] = c.String()
	}
	return strings.Join(names, ", ")
}
