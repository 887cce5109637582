package stonetowersview

import (
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/session/draw"
	"github.com/arcade/arcade/web/webdraw"
)

// WebBoard draws the board for the web (webdraw.Board): each square's owner (a flag: the
// owner's tint and letter; a castle: a tower with its level), the squares the last action
// changed outlined, and the turns left.
func WebBoard(snap *rooms.Snapshot) template.HTML {
	v, ok := draw.ViewOf[stonetowers.View](snap)
	if !ok || v.Size == 0 {
		return ""
	}
	const cell, margin = 30.0, 22.0
	side := margin + cell*float64(v.Size)
	changed := map[stonetowers.Square]bool{}
	for _, c := range v.Changes {
		changed[c.Square] = true
	}
	s := webdraw.NewSVG(side+4, side+4, fmt.Sprintf("Stone Towers board, %d by %d", v.Size, v.Size))
	for i := range v.Size {
		s.Text(margin+cell*float64(i)+cell/2, 15, "coord", string(rune('a'+i)))
		s.Text(10, margin+cell*float64(i)+cell/2+4, "coord", strconv.Itoa(i+1))
	}
	for r, row := range v.Grid {
		for c, sq := range row {
			x, y := margin+cell*float64(c), margin+cell*float64(r)
			name := stonetowers.Square{Col: c, Row: r}.String()
			class, what := "sq", "unowned"
			if sq.Owner != stonetowers.Nobody {
				class += " flag " + webdraw.SeatClass(int(sq.Owner))
				what = stonetowers.SeatName(sq.Owner) + " flag"
			}
			if sq.IsCastle() {
				what = fmt.Sprintf("%s castle level %d", stonetowers.SeatName(sq.Owner), sq.Level)
			}
			if changed[stonetowers.Square{Col: c, Row: r}] {
				class += " changed"
				what += ", changed by the last action"
			}
			s.Group("square", name+": "+what)
			s.Rect(x, y, cell, cell, class)
			switch {
			case sq.IsCastle():
				s.Rect(x+5, y+5, cell-10, cell-10, "piece "+webdraw.SeatClass(int(sq.Owner)))
				s.Text(x+cell/2, y+cell/2+5, "piece-label", seatLetter(sq.Owner)+strconv.Itoa(sq.Level))
			case sq.Owner != stonetowers.Nobody:
				s.Text(x+cell/2, y+cell/2+4, "flag-label", lower(seatLetter(sq.Owner)))
			}
			s.EndGroup()
		}
	}
	note := fmt.Sprintf("Turns left: Red %d · Blue %d. Squares: Red %d · Blue %d.", v.TurnsLeft[0], v.TurnsLeft[1], v.Scores[0], v.Scores[1])
	last := ""
	if v.LastMove != nil {
		last = fmt.Sprintf("Last: %s %s", stonetowers.SeatName(v.LastMove.Seat), v.LastMove.Notation)
		if n := len(v.Changes) - 1; n > 0 {
			last += fmt.Sprintf(", %d squares changed", n)
		}
	}
	return s.HTML(note, last)
}

// seatLetter is R or B.
func seatLetter(seat rules.Seat) string { return stonetowers.SeatName(seat)[:1] }

// lower is a seat's letter in lower case, as flags are written on the terminal's board.
func lower(s string) string { return strings.ToLower(s) }
