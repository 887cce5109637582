package coloretta

import (
	"strconv"
	"strings"

	"github.com/arcade/arcade/rules"
)

var (
	_ rules.Teller    = (*State)(nil)
	_ rules.Annotator = (*State)(nil)
)

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
	m, cards, ok := s.shows(seat, move)
	if !ok {
		return move
	}
	switch m.Kind {
	case Draw:
		if len(cards) == 2 {
			return "draws the Last Cycle card, then " + cards[1].String()
		}
		return "draws " + cards[0].String()
	case Place:
		return "puts " + cards[0].String() + " on stack " + strconv.Itoa(m.Stack+1)
	}
	return "takes stack " + strconv.Itoa(m.Stack+1) + ": " + cardNames(cards)
}

// Annotate names the cards a move shows, which its notation does not: the card drawn ("red"; "Last
// Cycle, blue" when the Last Cycle card comes first), the card placed, the cards taken.
func (s *State) Annotate(seat rules.Seat, move string) string {
	_, cards, ok := s.shows(seat, move)
	if !ok {
		return ""
	}
	return cardNames(cards)
}

// shows decodes move and returns the cards it shows everybody: the card drawn (the Last Cycle
// card and the next when the Last Cycle card comes first), the card placed, or the stack taken.
// ok is false when seat may not play move now.
func (s *State) shows(seat rules.Seat, move string) (m Move, cards []Card, ok bool) {
	m, err := ParseMove(move)
	if err != nil || s.check(int(seat), m) != nil {
		return m, nil, false
	}
	switch m.Kind {
	case Draw:
		if c := s.deck[s.next]; c == LastCycle {
			return m, []Card{c, s.deck[s.next+1]}, true
		}
		return m, []Card{s.deck[s.next]}, true
	case Place:
		return m, []Card{s.drawn}, true
	}
	st := &s.stacks[m.Stack]
	return m, st.cards[:st.n:st.n], true
}

// cardNames joins the cards' names: "red, +2".
func cardNames(cards []Card) string {
	names := make([]string, len(cards))
	for i, c := range cards {
		names[i] = c.String()
	}
	return strings.Join(names, ", ")
}
