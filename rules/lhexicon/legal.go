package lhexicon

import (
	"context"

	"github.com/arcade/arcade/rules"
)

// legalPlays bounds the plays Legal lists.
const legalPlays = 50

// Legal returns moves seat may make now, in canonical notation. Plays are far too many to list
// (a word may bend any way), so Legal lists at most 50 of them, the first the generator finds
// within its search budget, then every swap of one blank, an exchange of the whole rack (or as
// many tiles as the bank holds), "pass", "end" in a solo game, and "challenge" and "accept" while a word may be
// challenged. Every move listed is legal; an opponent who may only answer a word gets just
// "challenge" and "accept".
func (s *State) Legal(seat rules.Seat) []string {
	if s.over || !s.mayAct(seat) {
		return nil
	}
	var out []string
	if p := s.pending; p != nil && p.seat != seat && !p.accepted[seat] {
		out = append(out, "challenge", "accept")
	}
	if seat != s.Turn() {
		return out
	}
	s.generate(context.Background(), seat, SearchBudget, func(c Candidate) bool {
		out = append(out, c.Move.String())
		return len(out) < legalPlays
	})
	rack := s.Rack(seat)
	for h := range Hex(NumHexes) {
		if t := s.board[h]; t.IsBlank() && indexTile(rack, t.Letter()) >= 0 {
			out = append(out, Move{Kind: Swap, Hexes: []Hex{h}}.String())
		}
	}
	if n := min(len(rack), s.nbag); n > 0 {
		out = append(out, Move{Kind: Exchange, Give: rack[:n]}.String())
	}
	out = append(out, "pass")
	if s.seats == 1 {
		out = append(out, "end")
	}
	return out
}
