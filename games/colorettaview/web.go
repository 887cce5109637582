package colorettaview

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules/coloretta"
	"github.com/arcade/arcade/session/draw"
	"github.com/arcade/arcade/web/webdraw"
)

// WebBoard draws the table for the web (webdraw.Board), as HTML: the round and the deck, the
// card drawn, each stack's cards (or who picked it), and each seat's cards by colour with what
// they score now. Coloretta keeps nothing private: every card shown is on the table.
func WebBoard(snap *rooms.Snapshot) template.HTML {
	v, ok := draw.ViewOf[coloretta.View](snap)
	if !ok {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="cards-table"><p>Round %d of %d, cycle %d · %d cards in the deck`, v.Round, v.Rounds, v.Cycle, v.DeckSize)
	if v.LastCycle {
		b.WriteString(" · the last cycle")
	} else if v.UntilLastCycle > 0 {
		fmt.Fprintf(&b, " · the Last Cycle card in %d", v.UntilLastCycle)
	}
	b.WriteString("</p>")
	if v.HasDrawn {
		fmt.Fprintf(&b, `<p>Drawn: %s</p>`, card(v.Drawn))
	}
	b.WriteString(`<h3>Stacks</h3><ol class="stacks">`)
	for _, st := range v.Stacks {
		b.WriteString("<li>")
		switch {
		case !st.Open():
			fmt.Fprintf(&b, "picked by %s: ", webdraw.Esc(seatName(int(st.PickedBy))))
			for _, c := range st.Taken {
				b.WriteString(card(c))
			}
		case len(st.Cards) == 0:
			fmt.Fprintf(&b, "empty (holds %d)", st.Capacity)
		default:
			for _, c := range st.Cards {
				b.WriteString(card(c))
			}
			if st.Full() {
				b.WriteString(" full")
			}
		}
		b.WriteString("</li>")
	}
	b.WriteString(`</ol><h3>Cards collected</h3><table class="hands"><thead><tr><th scope="col">Seat</th><th scope="col">Cards</th><th scope="col">Scores now</th><th scope="col">Rounds</th></tr></thead><tbody>`)
	for _, p := range v.Players {
		fmt.Fprintf(&b, `<tr><th scope="row">%s</th><td>`, webdraw.Esc(seatName(int(p.Seat))))
		for _, g := range p.Groups {
			fmt.Fprintf(&b, `<span class="card c-%s">%c %d</span>`, g.Colour, g.Colour.Letter(), g.Count)
		}
		if p.Hand.Wilds > 0 {
			fmt.Fprintf(&b, `<span class="card wild">* %d</span>`, p.Hand.Wilds)
		}
		if p.Hand.Plus2 > 0 {
			fmt.Fprintf(&b, `<span class="card plus2">+2 × %d</span>`, p.Hand.Plus2)
		}
		if p.SitsOut() {
			b.WriteString(" (sits out this cycle)")
		}
		fmt.Fprintf(&b, "</td><td>%d</td><td>%d</td></tr>", p.Score.Total, p.Total)
	}
	b.WriteString("</tbody></table></div>")
	return template.HTML(b.String())
}

// card is one card as a labelled chip: "R red", "* wild", "+2".
func card(c coloretta.Card) string {
	if col, ok := c.Colour(); ok {
		return fmt.Sprintf(`<span class="card c-%s">%s</span>`, col, webdraw.Esc(c.Label()))
	}
	return fmt.Sprintf(`<span class="card special" title="%s">%s</span>`, webdraw.Esc(c.String()), webdraw.Esc(c.Label()))
}
