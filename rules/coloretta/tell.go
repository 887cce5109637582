package coloretta

import (
	"strconv"
	"strings"

	"github.com/arcade/arcade/rules"
)

var _ rules.Teller = (*State)(nil)

// Canonical returns move in canonical notation ("d", "p3", "t2"); false when it is not legal now.
func (s *State) Canonical(seat rules.Seat, move string) (string, bool) {
	m, err := ParseMove(move)
	if err != nil || s.check(int(seat), m) != nil {
		return "", false
	}
	return m.String(), true
}

// Tell says what move does, cards named: "draws red", "puts red on stack 2", "takes stack 3:
// red, +2". It reads the deck, so it tells what only the mover is about to show everybody.
func (s *State) Tell(seat rules.Seat, move string) string {
	m, err := ParseMove(move)
	if err != nil || s.check(int(seat), m) != nil {
		return move
	}
	switch m.Kind {
	case Draw:
		c := s.deck[s.next]
		if c == LastCycle {
			return "draws the Last Cycle card, then " + s.deck[s.next+1].String()
		}
		return "draws " + c.String()
	case Place:
		return "puts " + s.drawn.String() + " on stack " + strconv.Itoa(m.Stack+1)
	}
	st := &s.stacks[m.Stack]
	names := make([]string, st.n)
	for i, c := range st.cards[:st.n] {
		names[i] = c.String()
	}
	return "takes stack " + strconv.Itoa(m.Stack+1) + ": " + strings.Join(names, ", ")
}
