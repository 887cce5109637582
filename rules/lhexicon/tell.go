package lhexicon

import (
	"fmt"
	"strings"

	"github.com/arcade/arcade/rules"
)

var _ rules.Teller = (*State)(nil)

// Canonical returns move as Move.String writes it, with the tiles a play names on occupied hexes
// written as the board has them (a blank in upper case, whatever case was typed); false when seat
// may not play it now.
func (s *State) Canonical(seat rules.Seat, move string) (string, bool) {
	m, _, ok := s.decide(seat, move)
	if !ok {
		return "", false
	}
	return m.String(), true
}

// Tell says what move does, in words that name no player: "plays CRUEL for 14 (6 for a trap)",
// "exchanges 3 tiles", "swaps the blank on h8 for its letter", "passes", "challenges CRUEL: not
// a word, withdrawn", "accepts CRUEL", "ends the game". It names no tile of a rack.
func (s *State) Tell(seat rules.Seat, move string) string {
	m, ns, ok := s.decide(seat, move)
	if !ok {
		return move
	}
	switch m.Kind {
	case Exchange:
		return fmt.Sprintf("exchanges %d %s", len(m.Give), plural(len(m.Give), "tile"))
	case Swap:
		hexes := make([]string, len(m.Hexes))
		for i, h := range m.Hexes {
			hexes[i] = h.String()
		}
		if len(hexes) == 1 {
			return "swaps the blank on " + hexes[0] + " for its letter"
		}
		return "swaps the blanks on " + strings.Join(hexes, " and ") + " for their letters"
	case Pass:
		return "passes"
	case End:
		return "ends the game"
	case Accept:
		return "accepts " + strings.ToUpper(s.pending.word)
	case Challenge:
		word := strings.ToUpper(s.pending.word)
		if !s.pending.valid {
			return "challenges " + word + ": not a word, withdrawn"
		}
		return "challenges " + word + ": a word; the challenger loses a turn"
	}
	told := fmt.Sprintf("plays %s from %s for %d", strings.ToUpper(ns.last.Word), m.Start, ns.last.Score)
	if ns.last.Bonus > 0 {
		told += fmt.Sprintf(" (%d for a trap)", ns.last.Bonus)
	}
	return told
}

// decide decodes move and plays it for seat: the move in canonical form (a play's tiles on
// occupied hexes as the board has them) and the state after it; false when it is refused.
func (s *State) decide(seat rules.Seat, move string) (Move, *State, bool) {
	m, err := ParseMove(move)
	if err != nil {
		return Move{}, nil, false
	}
	ns, err := s.ApplyMove(seat, m)
	if err != nil {
		return Move{}, nil, false
	}
	if m.Kind == Play {
		hexes, _ := m.Cells()
		tiles := append([]Tile(nil), m.Tiles...)
		for i, h := range hexes {
			if t := s.board[h]; t != NoTile {
				tiles[i] = t
			}
		}
		m.Tiles = tiles
	}
	return m, ns, true
}

// plural returns noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

var _ rules.Concealer = (*State)(nil)

// Conceal hides the tiles of an exchange, which only their player may know: "x 3 tiles". Other
// moves are public.
func (s *State) Conceal(move string) string {
	m, err := ParseMove(move)
	if err != nil || m.Kind != Exchange {
		return move
	}
	return fmt.Sprintf("x %d %s", len(m.Give), plural(len(m.Give), "tile"))
}
