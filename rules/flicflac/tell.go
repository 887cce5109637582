package flicflac

import (
	"fmt"
	"strings"

	"github.com/arcade/arcade/rules"
)

var (
	_ rules.Teller    = (*State)(nil)
	_ rules.Annotator = (*State)(nil)
	_ rules.TurnTimer = (*State)(nil)
)

// Canonical returns move in canonical notation ("B h8", "u B", "end"); false when Apply would
// refuse it.
func (s *State) Canonical(seat rules.Seat, move string) (string, bool) {
	m, n, ok := s.try(seat, move)
	if !ok || n == nil {
		return "", false
	}
	return m.String(), true
}

// try decodes and plays move, returning the move and the new state; false when refused.
func (s *State) try(seat rules.Seat, move string) (Move, *State, bool) {
	m, err := ParseMove(move)
	if err != nil {
		return Move{}, nil, false
	}
	n, err := s.ApplyMove(seat, m)
	if err != nil {
		return Move{}, nil, false
	}
	return m, n, true
}

// Tell says what move does: "moves the blue cylinder from home to c3 (it flips)", "takes the
// blue cylinder back home", "ends the turn: captures the red block; cylinders 3, blocks 1".
func (s *State) Tell(seat rules.Seat, move string) string {
	m, n, ok := s.try(seat, move)
	if !ok {
		return move
	}
	p := PieceID{Seat: seat, Colour: m.Colour}
	pc := s.pieces[p.id()]
	switch m.Kind {
	case TakeBack:
		if pc.from == NoHex {
			return "takes " + s.PieceName(p) + " back home"
		}
		return "takes " + s.PieceName(p) + " back to " + s.geo.Name(pc.from)
	case Place:
		t := "moves " + s.PieceName(p) + " from " + s.where(pc.hex) + " to " + m.To
		if n.pieces[p.id()].flipped != pc.flipped {
			t += " (it flips)"
		}
		return t
	}
	what := "ends the turn"
	if s.captorsTurn {
		what = "ends the captors' turn"
	}
	if d := s.describeEnd(n); d != "" {
		what += ": " + d
	}
	return what
}

// Annotate returns, for "end", what the end did ("captures R; 3-1; wind"); "" for other moves.
func (s *State) Annotate(seat rules.Seat, move string) string {
	m, n, ok := s.try(seat, move)
	if !ok || m.Kind != End {
		return ""
	}
	var parts []string
	r := n.last
	if r.Captured != 0 {
		var cs []string
		for _, p := range PiecesIn(r.Captured) {
			cs = append(cs, s.shortName(p))
		}
		parts = append(parts, "captures "+strings.Join(cs, " "), fmt.Sprintf("%d-%d", n.captures[0], n.captures[1]))
	}
	if r.Event != NoEvent {
		parts = append(parts, r.Event.String())
	}
	return strings.Join(parts, "; ")
}

// shortName names a piece in two letters: colour and shape, "Rc" the red cylinder.
func (s *State) shortName(p PieceID) string {
	return string(p.Colour.Letter()) + s.shape[p.Seat&1].String()[:1]
}

// where names a hex, or "home".
func (s *State) where(h Hex) string {
	if h == NoHex {
		return "home"
	}
	return s.geo.Name(h)
}

// describeEnd tells what the end of the turn from s to n did: captures, the score, a captors'
// turn, an event, the end of the match.
func (s *State) describeEnd(n *State) string {
	r := n.last
	var parts []string
	if r.Captured != 0 {
		var cs []string
		for _, p := range PiecesIn(r.Captured) {
			cs = append(cs, s.PieceName(p))
		}
		parts = append(parts, fmt.Sprintf("captures %s; %s %d, %s %d", strings.Join(cs, ", "),
			strings.ToLower(s.SeatName(0)), n.captures[0], strings.ToLower(s.SeatName(1)), n.captures[1]))
	}
	if r.Captors != 0 {
		var cs []string
		for _, p := range PiecesIn(r.Captors) {
			cs = append(cs, s.PieceName(p))
		}
		parts = append(parts, "a captors' turn for "+strings.Join(cs, ", "))
	}
	switch r.Event {
	case TumblingWind:
		parts = append(parts, "Tumbling Wind flips every piece on the board")
	case Recall:
		parts = append(parts, fmt.Sprintf("Recall sends every %s and %s piece home", r.Pair, r.Pair.Opposite()))
	case SinkHoles:
		parts = append(parts, fmt.Sprintf("Sink Holes send home the pieces on %s and %s hexes", r.Pair, r.Pair.Opposite()))
	case HexSlide:
		parts = append(parts, "Hex Slide turns the board's colours a sixth of a turn clockwise")
	}
	if n.over {
		parts = append(parts, "the game is over: "+n.reason)
	}
	return strings.Join(parts, "; ")
}
