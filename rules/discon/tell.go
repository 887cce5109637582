package discon

import (
	"fmt"
	"strings"

	"github.com/arcade/arcade/rules"
)

var _ rules.Teller = (*State)(nil)

// Canonical returns move, with its origin filled in, in canonical notation ("3 c4-d6", "3 c4-d6*");
// false when it is not legal for seat now.
func (s *State) Canonical(seat rules.Seat, move string) (string, bool) {
	m, ok := s.legalMove(seat, move)
	if !ok {
		return "", false
	}
	return m.String(), true
}

// Tell says what move does, in the shown form and words: "R3 c4-d6 collects a violet disc",
// "R3 c4-d6* leaves its tower of 4 behind, takes a stack of 2".
func (s *State) Tell(seat rules.Seat, move string) string {
	m, ok := s.legalMove(seat, move)
	if !ok {
		return move
	}
	var b strings.Builder
	b.WriteString(m.Shown(seat))
	tower := len(s.pieces[seat][m.Piece-1].tower)
	if m.Leave {
		fmt.Fprintf(&b, " leaves its tower of %d behind, takes", tower)
	} else {
		b.WriteString(" collects")
	}
	switch f := s.floor[m.To]; {
	case f == "" && m.Leave:
		return fmt.Sprintf("%s leaves its tower of %d behind on %s", m.Shown(seat), tower, m.From)
	case f == "":
		return m.Shown(seat) + " lands on an empty square"
	case len(f) == 1:
		article := " a "
		if Colour(f[0]) == Ivory {
			article = " an "
		}
		b.WriteString(article + Colour(f[0]).String() + " disc")
	default:
		fmt.Fprintf(&b, " a stack of %d", len(f))
	}
	return b.String()
}

// legalMove decodes move and checks it for seat as Apply does, without making the next state,
// and fills in its origin.
func (s *State) legalMove(seat rules.Seat, move string) (Move, bool) {
	if s.canAct(seat) != nil {
		return Move{}, false
	}
	m, err := ParseMove(move)
	if err != nil || m.Kind != Jump || m.Piece < 1 || m.Piece > Pieces || !m.To.Valid() {
		return Move{}, false
	}
	if who := MoveSeat(move); who >= 0 && who != seat {
		return Move{}, false
	}
	from := s.pieces[seat][m.Piece-1].sq
	if m.From != NoSquare && m.From != from || s.check(seat, m.Piece-1, m.To, m.Leave).f != fOK {
		return Move{}, false
	}
	m.From = from
	return m, true
}
