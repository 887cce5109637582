package stonetowers

import (
	"fmt"

	"github.com/arcade/arcade/rules"
)

var _ rules.Teller = (*State)(nil)

// Canonical returns move as seat would play it now in canonical notation: a bare square becomes
// "b e5" or "f e5". False when the move is not legal.
func (s *State) Canonical(seat rules.Seat, move string) (string, bool) {
	m, err := ParseMove(move)
	if err != nil {
		return "", false
	}
	if m, err = s.Resolve(seat, m); err != nil {
		return "", false
	}
	return m.String(), true
}

// Tell says what move does: "builds a castle on e5", "fortifies e5 to level 3", "passes".
func (s *State) Tell(seat rules.Seat, move string) string {
	m, err := ParseMove(move)
	if err == nil {
		m, err = s.Resolve(seat, m)
	}
	if err != nil {
		return move
	}
	switch m.Action {
	case Build:
		return "builds a castle on " + m.Square.String()
	case Fortify:
		return fmt.Sprintf("fortifies %s to level %d", m.Square, s.At(m.Square).Level+1)
	}
	return "passes"
}
