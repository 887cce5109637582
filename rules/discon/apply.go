package discon

import (
	"errors"
	"fmt"
	"slices"

	"github.com/arcade/arcade/rules"
)

// knightJumps[q] lists the squares a knight's jump away from q.
var knightJumps [Size * Size][]Square

func init() {
	d := [8][2]int{{-2, -1}, {-2, 1}, {-1, 2}, {1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}}
	for q := range Square(Size * Size) {
		for _, v := range d {
			r, c := q.Row()+v[0], q.Col()+v[1]
			if r >= 0 && r < Size && c >= 0 && c < Size {
				knightJumps[q] = append(knightJumps[q], At(r, c))
			}
		}
	}
}

func isKnight(from, to Square) bool {
	dr, dc := abs(from.Row()-to.Row()), abs(from.Col()-to.Col())
	return dr == 1 && dc == 2 || dr == 2 && dc == 1
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// fault is why a jump is illegal.
type fault uint8

const (
	fOK        fault = iota
	fNotKnight       // the destination is not a knight's jump away
	fOccupied        // a piece stands on the destination
	fNoTower         // leave behind without a tower
	fColour          // too many colours
	fHeight          // too many storeys
	fEndInZone       // the turn would end with a piece in an opponent's zone
)

// verdict is the result of checking a jump: the fault, and for the zone faults the piece (index)
// and the seat whose zone it is.
type verdict struct {
	f     fault
	piece int
	zone  rules.Seat
}

// fits reports whether the stack add may be put on tower t within the variant's limits.
func (s *State) fits(t, add string) fault {
	if add == "" {
		return fOK
	}
	if s.colours < 4 && popcount(colourSet(t)|colourSet(add)) > s.colours {
		return fColour
	}
	if s.variant != Penalty && len(t)+len(add) > s.limit {
		return fHeight
	}
	return fOK
}

// basic checks a jump of seat's piece idx to q, leaving its tower behind or not, without the
// home-zone rule.
func (s *State) basic(seat rules.Seat, idx int, to Square, leave bool) fault {
	p := &s.pieces[seat][idx]
	if !isKnight(p.sq, to) {
		return fNotKnight
	}
	if s.count[to] > 0 {
		return fOccupied
	}
	t := p.tower
	if leave {
		if t == "" {
			return fNoTower
		}
		t = ""
	}
	return s.fits(t, s.floor[to])
}

// check checks a jump of the seat to move, home-zone rule included.
func (s *State) check(seat rules.Seat, idx int, to Square, leave bool) verdict {
	if f := s.basic(seat, idx, to, leave); f != fOK {
		return verdict{f: f}
	}
	if s.movesLeft == 2 {
		// A first move into an opponent's zone is always fine: the piece can jump back with the
		// second move, since its origin is then free (only a home corner holds several pieces, and
		// no opponent's zone is a jump away from one) and a tower fits where it stood before, or
		// if it left one behind there, the piece can pick that one up leaving the new one.
		return verdict{}
	}
	if z := s.opponentZone(seat, to); z >= 0 {
		return verdict{f: fEndInZone, piece: idx, zone: z}
	}
	for i := range Pieces {
		if i == idx {
			continue
		}
		if z := s.opponentZone(seat, s.pieces[seat][i].sq); z >= 0 {
			return verdict{f: fEndInZone, piece: i, zone: z}
		}
	}
	return verdict{}
}

// jumped returns a copy of s with seat's piece idx moved to q, without any check and without
// advancing the turn.
func (s *State) jumped(seat rules.Seat, idx int, to Square, leave bool) *State {
	ns := *s
	p := &ns.pieces[seat][idx]
	from := p.sq
	add := ns.floor[to]
	ns.floor[to] = ""
	ns.loose -= len(add)
	if bit := uint64(1) << (to % 64); ns.fresh[to/64]&bit != 0 {
		ns.fresh[to/64] &^= bit
		ns.freshLeft--
	}
	if leave {
		ns.floor[from] = p.tower
		ns.loose += len(p.tower)
		p.tower = add
	} else if add != "" {
		p.tower += add
	}
	ns.count[from]--
	ns.count[to]++
	p.sq = to
	return &ns
}

// LegalMoves returns the legal moves of seat, piece by piece, in canonical form (From filled in).
func (s *State) LegalMoves(seat rules.Seat) []Move {
	if s.over || seat != s.turn {
		return nil
	}
	// Gathered on the stack, then copied out once (a View makes a list at every move).
	var buf [maxLegal]Move
	n := 0
	s.eachLegal(seat, func(m Move) bool {
		buf[n] = m
		n++
		return true
	})
	if n == 0 {
		return nil
	}
	return slices.Clone(buf[:n])
}

// maxLegal bounds the legal moves of a position: each piece has at most 8 knight's jumps, each
// with its tower carried on or left behind.
const maxLegal = Pieces * 8 * 2

// eachLegal calls f with every legal move of seat, the seat to move, until f returns false.
func (s *State) eachLegal(seat rules.Seat, f func(Move) bool) {
	for idx := range Pieces {
		from := s.pieces[seat][idx].sq
		for _, q := range knightJumps[from] {
			for _, leave := range [2]bool{false, true} {
				if s.check(seat, idx, q, leave).f == fOK {
					if !f(Move{Kind: Jump, Piece: idx + 1, From: from, To: q, Leave: leave}) {
						return
					}
				}
			}
		}
	}
}

// hasLegal reports whether seat has a legal move, taking it as the seat to move in the current
// phase of the turn (movesLeft and first).
func (s *State) hasLegal(seat rules.Seat) bool {
	found := false
	s.eachLegal(seat, func(Move) bool {
		found = true
		return false
	})
	return found
}

// ApplyMove plays m for seat and returns the new state, or an error in plain words.
func (s *State) ApplyMove(seat rules.Seat, m Move) (*State, error) {
	if err := s.canAct(seat); err != nil {
		return nil, err
	}
	if m.Kind != Jump {
		return nil, s.whyNoStop(seat)
	}
	if m.Piece < 1 || m.Piece > Pieces {
		return nil, fmt.Errorf("there is no piece %d: your pieces are numbered 1 to %d", m.Piece, Pieces)
	}
	if !m.To.Valid() {
		return nil, errors.New("that square is not on the board")
	}
	idx := m.Piece - 1
	from := s.pieces[seat][idx].sq
	if m.From != NoSquare && m.From != from {
		return nil, fmt.Errorf("piece %d stands on %s, not on %s", m.Piece, from, m.From)
	}
	if v := s.check(seat, idx, m.To, m.Leave); v.f != fOK {
		return nil, s.explain(seat, idx, m.To, v)
	}
	ns := s.jumped(seat, idx, m.To, m.Leave)
	ns.moves++
	ns.last = Move{Kind: Jump, Piece: m.Piece, From: from, To: m.To, Leave: m.Leave}
	ns.lastSeat = seat
	if s.movesLeft == 2 {
		ns.turnLen = 0
	}
	ns.turnMoves[ns.turnLen] = ns.last
	ns.turnLen++
	ns.note = ""
	ns.afterMove(seat, idx)
	return ns, nil
}

// afterMove advances the turn after seat moved piece idx: it ends the match when every disc is
// carried or (Elementary) seat reached the goal, ends the turn after the second move or when no
// legal second move exists, and passes over seats that cannot move.
func (s *State) afterMove(seat rules.Seat, idx int) {
	if s.movesLeft == 2 {
		s.movesLeft, s.first = 1, int8(idx)
	} else {
		s.movesLeft = 0
	}
	if !s.inOpponentZone(seat) {
		if s.loose == 0 {
			s.finish("every disc is in a tower")
			return
		}
		if s.variant == Elementary {
			towers, storeys := ElementaryGoal(s.seats)
			if s.goalTowers(seat) >= towers {
				s.finish(fmt.Sprintf("%s has %d towers of %d storeys", SeatName(seat), towers, storeys))
				return
			}
		}
	}
	if s.movesLeft == 1 {
		if s.hasLegal(seat) {
			return
		}
		s.note = SeatName(seat) + " had no legal second move."
	}
	s.endTurn()
}

// goalTowers counts seat's towers tall enough for the Elementary goal.
func (s *State) goalTowers(seat rules.Seat) int {
	_, storeys := ElementaryGoal(s.seats)
	n := 0
	for i := range Pieces {
		if len(s.pieces[seat][i].tower) >= storeys {
			n++
		}
	}
	return n
}

// inOpponentZone reports whether a piece of seat stands in an opponent's home zone.
func (s *State) inOpponentZone(seat rules.Seat) bool {
	for i := range Pieces {
		if s.opponentZone(seat, s.pieces[seat][i].sq) >= 0 {
			return true
		}
	}
	return false
}

// quietLimit is the number of turns in a row without a fresh disc collected (one that had never
// been in a tower) that ends the match: 3 full rounds.
func (s *State) quietLimit() int { return 3 * s.seats }

// endTurn ends the current turn: it counts the anti-stall turns, then hands the turn to the next
// seat that can move (seats without a legal move are passed over, and their turns count too).
func (s *State) endTurn() {
	for {
		if s.freshLeft < s.freshTurn {
			s.freshTurn, s.quiet = s.freshLeft, 0
		} else {
			s.quiet++
		}
		if s.quiet >= s.quietLimit() {
			s.finish(StallReason)
			return
		}
		s.movesLeft, s.first = 2, -1
		s.turn = (s.turn + 1) % rules.Seat(s.seats)
		if s.hasLegal(s.turn) {
			return
		}
		if s.note != "" {
			s.note += " "
		}
		s.note += SeatName(s.turn) + " had no legal move and passed."
	}
}

// StallReason is the Outcome's reason when the anti-stall rule ends a match.
const StallReason = "3 rounds without a new disc"

func (s *State) finish(reason string) {
	s.over, s.reason, s.movesLeft, s.first = true, reason, 0, -1
}

// whyNoStop explains why "pass" or "end" is refused.
func (s *State) whyNoStop(seat rules.Seat) error {
	if s.movesLeft == 1 {
		for i := range Pieces {
			if z := s.opponentZone(seat, s.pieces[seat][i].sq); z >= 0 {
				return fmt.Errorf("piece %d may not end the turn in %s's home zone", i+1, SeatName(z))
			}
		}
		return errors.New("a turn is two moves: make your second move " +
			"(the turn ends by itself when none is legal)")
	}
	return errors.New("you have a legal move, so you may not pass " +
		"(a player without one is passed over automatically)")
}

// explain turns a failed check into an error a player understands.
func (s *State) explain(seat rules.Seat, idx int, to Square, v verdict) error {
	p := s.pieces[seat][idx]
	switch v.f {
	case fNotKnight:
		return fmt.Errorf("that is not a knight's move: piece %d stands on %s", idx+1, p.sq)
	case fOccupied:
		id, _ := s.pieceAt(to)
		if id.Seat == seat {
			return fmt.Errorf("%s is occupied by your piece %d", to, id.Num)
		}
		return fmt.Errorf("%s is occupied by piece %d of %s", to, id.Num, SeatName(id.Seat))
	case fNoTower:
		return fmt.Errorf("piece %d carries no tower to leave behind", idx+1)
	case fColour:
		return fmt.Errorf("the tower would hold a %s colour", ordinal(s.colours+1))
	case fHeight:
		return fmt.Errorf("the tower would be %d storeys high: the limit is %d",
			len(p.tower)+len(s.floor[to]), s.limit)
	case fEndInZone:
		return fmt.Errorf("piece %d may not end the turn in %s's home zone", v.piece+1, SeatName(v.zone))
	}
	return errors.New("that move is not allowed")
}

func ordinal(n int) string {
	switch n {
	case 2:
		return "second"
	case 3:
		return "third"
	case 4:
		return "fourth"
	}
	return "fifth"
}
