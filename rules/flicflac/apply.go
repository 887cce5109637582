package flicflac

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"github.com/arcade/arcade/rules"
)

// Errors a refused move wraps (besides rules.ErrNotYourTurn, ErrGameOver, ErrBadNotation); the
// refusal's text says why in full, without theirs.
var (
	// ErrMoved: the piece has moved this turn (take it back to move it again).
	ErrMoved = errors.New("that piece has moved this turn")
	// ErrNotCaptor: in a captors' turn only the captors move.
	ErrNotCaptor = errors.New("only captors move in a captors' turn")
	// ErrUnreachable: the piece cannot get to that hex.
	ErrUnreachable = errors.New("that hex is out of the piece's reach")
	// ErrNoTakeBack: the piece has not moved this turn, or its start hex is taken.
	ErrNoTakeBack = errors.New("that piece cannot be taken back")
)

// refusal is a refused move: its text for the player, and the kind of refusal it wraps.
type refusal struct {
	kind error
	text string
}

func (r *refusal) Error() string { return r.text }
func (r *refusal) Unwrap() error { return r.kind }

// refuse returns a refusal of kind with the formatted text.
func refuse(kind error, format string, args ...any) error {
	return &refusal{kind: kind, text: fmt.Sprintf(format, args...)}
}

// Reach returns the hexes piece p may move to now, in hex order: from home, the free hexes of
// its entry edge; from the board, every free neighbour and every hex at the end of a path of 2
// or 3 steps through free coloured hexes. It is empty when p may not move now (not the mover's,
// moved already, not a captor in a captors' turn, or the match is over).
func (s *State) Reach(p PieceID) []Hex {
	if s.over || p.Seat != s.turn || p.Colour < 0 || p.Colour >= Colours || !s.mayMove(p.id()) {
		return nil
	}
	var out []Hex
	s.eachReach(p.id(), func(h Hex) { out = append(out, h) })
	return out
}

// mayMove reports whether the mover's piece id may move now (not whether it has somewhere to go).
func (s *State) mayMove(id int) bool {
	if s.pieces[id].moved {
		return false
	}
	return !s.captorsTurn || s.may&(1<<id) != 0
}

// eachReach calls f for each hex piece id can reach, in hex order, ignoring whose turn it is.
func (s *State) eachReach(id int, f func(Hex)) {
	var buf [MaxHexes]Hex
	for _, h := range s.reachInto(id, buf[:0]) {
		f(h)
	}
}

// reachInto appends to buf the hexes piece id can reach, in hex order, ignoring whose turn it
// is, and returns it.
func (s *State) reachInto(id int, buf []Hex) []Hex {
	p := &s.pieces[id]
	if p.hex == NoHex {
		for _, h := range s.geo.Entry(s.shape[id/Colours], Colour(id%Colours)) {
			if s.occ[h] == 0 {
				buf = append(buf, h)
			}
		}
		return buf
	}
	// depth[h] is the fewest steps to h through free coloured hexes (0: not reached); a free
	// black neighbour is reached but leads nowhere.
	var depth [MaxHexes]int8
	var queue [MaxHexes]Hex
	start := len(buf)
	head, tail := 0, 0
	for _, nb := range s.geo.nbr[p.hex] {
		if nb == NoHex || s.occ[nb] != 0 {
			continue
		}
		buf = append(buf, nb)
		depth[nb] = 1
		if s.colours[nb] != Black {
			queue[tail] = nb
			tail++
		}
	}
	for head < tail {
		h := queue[head]
		head++
		if depth[h] >= 3 {
			continue
		}
		for _, nb := range s.geo.nbr[h] {
			if nb == NoHex || nb == p.hex || s.occ[nb] != 0 || s.colours[nb] == Black || depth[nb] != 0 {
				continue
			}
			depth[nb] = depth[h] + 1
			buf = append(buf, nb)
			queue[tail] = nb
			tail++
		}
	}
	sortHexes(buf[start:])
	return buf
}

// sortHexes sorts a short list of hexes (insertion sort: no allocation, lists are short).
func sortHexes(hs []Hex) {
	for i := 1; i < len(hs); i++ {
		for j := i; j > 0 && hs[j] < hs[j-1]; j-- {
			hs[j], hs[j-1] = hs[j-1], hs[j]
		}
	}
}

// canReach reports whether piece id can reach hex to.
func (s *State) canReach(id int, to Hex) bool {
	ok := false
	s.eachReach(id, func(h Hex) { ok = ok || h == to })
	return ok
}

// LegalMoves returns the legal moves of seat: "end" first (what a room plays for a bot that
// fails), then each movable piece to each hex it reaches (piece by piece in wheel order), then
// each take-back. Empty when seat may not act.
func (s *State) LegalMoves(seat rules.Seat) []Move {
	if s.over || seat != s.turn {
		return nil
	}
	ms := []Move{{Kind: End}}
	for c := Blue; c < Black; c++ {
		id := int(seat)*Colours + int(c)
		if !s.mayMove(id) {
			continue
		}
		s.eachReach(id, func(h Hex) { ms = append(ms, Move{Kind: Place, Colour: c, To: s.geo.Name(h)}) })
	}
	for c := Blue; c < Black; c++ {
		if s.canTakeBack(int(seat)*Colours+int(c)) == nil {
			ms = append(ms, Move{Kind: TakeBack, Colour: c})
		}
	}
	return ms
}

// Legal returns the legal moves of seat in canonical notation.
func (s *State) Legal(seat rules.Seat) []string { return rules.Notations(s.LegalMoves(seat)) }

// Apply decodes move and plays it for seat (see ApplyMove).
func (s *State) Apply(seat rules.Seat, move string) (rules.Engine, error) {
	if err := s.canAct(seat); err != nil {
		return nil, err
	}
	m, err := ParseMove(move)
	if err != nil {
		return nil, err
	}
	n, err := s.ApplyMove(seat, m)
	if err != nil {
		return nil, err
	}
	return n, nil
}

// canAct checks that the match goes on and that it is seat's turn.
func (s *State) canAct(seat rules.Seat) error {
	if s.over {
		return fmt.Errorf("%w", rules.ErrGameOver)
	}
	if seat != s.turn {
		return fmt.Errorf("%w: the %s are to move", rules.ErrNotYourTurn, strings.ToLower(s.SeatName(s.turn)))
	}
	return nil
}

// ApplyMove plays m for seat and returns the new state; s is unchanged. A refused move says why.
func (s *State) ApplyMove(seat rules.Seat, m Move) (*State, error) {
	if err := s.canAct(seat); err != nil {
		return nil, err
	}
	if m.Colour < 0 || m.Colour >= Colours {
		return nil, fmt.Errorf("%w: no piece of colour %d", rules.ErrBadNotation, m.Colour)
	}
	id := int(seat)*Colours + int(m.Colour)
	n := *s
	switch m.Kind {
	case End:
		n.end()
	case TakeBack:
		if err := s.canTakeBack(id); err != nil {
			return nil, err
		}
		n.takeBack(id)
	case Place:
		to, err := s.checkPlace(id, m.To)
		if err != nil {
			return nil, err
		}
		n.place(id, to)
	default:
		return nil, fmt.Errorf("%w: unknown kind of move %d", rules.ErrBadNotation, m.Kind)
	}
	n.plies++
	return &n, nil
}

// checkPlace checks the move of piece id to the hex named name and returns the hex.
func (s *State) checkPlace(id int, name string) (Hex, error) {
	p := pieceOf(id)
	to, ok := s.geo.Find(name)
	if !ok {
		return NoHex, refuse(ErrUnreachable, "there is no hex %s on this board (side %d)", name, s.cfg.Side)
	}
	pc := &s.pieces[id]
	switch {
	case pc.moved:
		return NoHex, refuse(ErrMoved, "%s has moved this turn; take it back first (\"u %c\") to move it again",
			s.PieceName(p), p.Colour.Letter())
	case s.captorsTurn && s.may&(1<<id) == 0:
		return NoHex, refuse(ErrNotCaptor, "only captors move in a captors' turn: %s", s.captorList())
	case s.occ[to] != 0:
		return NoHex, refuse(ErrUnreachable, "%s stands on %s", s.PieceName(pieceOf(int(s.occ[to])-1)), name)
	case pc.hex == NoHex && !s.canReach(id, to):
		return NoHex, refuse(ErrUnreachable, "from home %s enters on its edge, %s", s.PieceName(p), s.edgeNames(p))
	case !s.canReach(id, to):
		return NoHex, refuse(ErrUnreachable, "%s on %s cannot reach %s: a piece steps to a free neighbour, or "+
			"goes 2 or 3 steps through free coloured hexes", s.PieceName(p), s.geo.Name(pc.hex), name)
	}
	return to, nil
}

// edgeNames lists the hexes of p's entry edge, e.g. "a1 to h1".
func (s *State) edgeNames(p PieceID) string {
	e := s.geo.Entry(s.shape[p.Seat&1], p.Colour)
	return s.geo.Name(e[0]) + " to " + s.geo.Name(e[len(e)-1])
}

// captorList names the pieces that may move in a captors' turn.
func (s *State) captorList() string {
	var names []string
	for id := range Pieces {
		if s.may&(1<<id) != 0 && !s.pieces[id].moved {
			names = append(names, s.PieceName(pieceOf(id)))
		}
	}
	if len(names) == 0 {
		return "every captor has moved; \"end\" ends the captors' turn"
	}
	return strings.Join(names, ", ")
}

// canTakeBack says why piece id cannot be taken back now, or nil.
func (s *State) canTakeBack(id int) error {
	p := &s.pieces[id]
	switch {
	case !p.moved:
		return refuse(ErrNoTakeBack, "%s has not moved this turn", s.PieceName(pieceOf(id)))
	case p.from != NoHex && s.occ[p.from] != 0:
		return refuse(ErrNoTakeBack, "%s cannot go back to %s: %s stands there", s.PieceName(pieceOf(id)),
			s.geo.Name(p.from), s.PieceName(pieceOf(int(s.occ[p.from])-1)))
	}
	return nil
}

// place moves piece id to hex to (checked), flipping it when to is black.
func (s *State) place(id int, to Hex) {
	p := &s.pieces[id]
	p.moved, p.from, p.fromFlip = true, p.hex, p.flipped
	if p.hex != NoHex {
		s.occ[p.hex] = 0
	}
	p.hex = to
	s.occ[to] = int8(id + 1)
	if s.colours[to] == Black {
		p.flipped = !p.flipped
	}
}

// takeBack puts piece id (moved, its start free) back where it stood, as it was.
func (s *State) takeBack(id int) {
	p := &s.pieces[id]
	s.occ[p.hex] = 0
	p.hex, p.flipped, p.moved = p.from, p.fromFlip, false
	if p.hex != NoHex {
		s.occ[p.hex] = int8(id + 1)
	}
}

// sendHome puts piece id at home, upright.
func (s *State) sendHome(id int) {
	p := &s.pieces[id]
	if p.hex != NoHex {
		s.occ[p.hex] = 0
	}
	*p = piece{hex: NoHex, from: NoHex}
}

// countBits returns the number of pieces in a set.
func countBits(set uint16) int { return bits.OnesCount16(set) }
