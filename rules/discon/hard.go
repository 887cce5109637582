package discon

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/arcade/arcade/rules"
)

// HardBot plans whole turns: it tries every pair of moves (first and second move of the turn) and
// scores the position after them by the score difference, its own prospects for the next turn and
// what the next opponent could gain in its turn. It stops at ctx's deadline with the best turn
// found so far.
type HardBot struct{}

// Move returns the first move of the best turn found (the second when one move is left).
func (HardBot) Move(ctx context.Context, state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	s, ok := state.(*State)
	if !ok {
		return fallback(state, seat, rng)
	}
	ms := s.LegalMoves(seat)
	if len(ms) == 0 {
		return ""
	}
	if len(ms) == 1 {
		return ms[0].String()
	}
	best, bestVal := ms[0], math.Inf(-1)
	for _, m := range ms {
		if ctx.Err() != nil && !math.IsInf(bestVal, -1) {
			break
		}
		idx := m.Piece - 1
		s1 := s.jumped(seat, idx, m.To, m.Leave)
		val := math.Inf(-1)
		if s.movesLeft == 2 {
			s1.movesLeft, s1.first = 1, int8(idx)
			s1.eachLegal(seat, func(m2 Move) bool {
				s2 := s1.jumped(seat, m2.Piece-1, m2.To, m2.Leave)
				val = max(val, evaluate(s2, seat))
				return true
			})
		}
		if math.IsInf(val, -1) {
			val = evaluate(s1, seat)
		}
		val += rng.Float64() * 1e-3
		if val > bestVal {
			best, bestVal = m, val
		}
	}
	return best.String()
}

// Weights of the hard bot's evaluation.
const (
	wOwnNext  = 0.5 // own best gains next turn (the opponent may spoil them)
	wOppNext  = 1.0 // the next opponent's best gains in its coming turn
	wOtherOpp = 0.5 // the other opponents' best gains (3 or 4 players)
)

// evaluate scores s, where seat has just finished its turn, from seat's point of view.
func evaluate(s *State, seat rules.Seat) float64 {
	mine := float64(s.worthOf(seat)) + wOwnNext*float64(s.prospect(seat))
	next := (seat + 1) % rules.Seat(s.seats)
	opp := math.Inf(-1)
	for o := range rules.Seat(s.seats) {
		if o == seat {
			continue
		}
		w := wOtherOpp
		if o == next {
			w = wOppNext
		}
		opp = max(opp, float64(s.worthOf(o))+w*float64(s.prospect(o)))
	}
	return mine - opp
}

// worth is the bots' value of a tower (GreedyBot's and HardBot's): its score, except in Elementary, where the score (0 or 1)
// says too little and height counts on the way to the goal.
func (s *State) worth(t string) int {
	if s.variant != Elementary {
		return scoreStack(s.variant, s.seats, t)
	}
	_, need := ElementaryGoal(s.seats)
	h := min(len(t), need)
	w := h * h
	if len(t) >= need {
		w += 100
	}
	return w
}

func (s *State) worthOf(seat rules.Seat) int {
	n := 0
	for i := range Pieces {
		n += s.worth(s.pieces[seat][i].tower)
	}
	return n
}

// prospect estimates what seat could gain in its next turn: the two best single jumps of two
// different pieces (limits respected, home zones ignored).
func (s *State) prospect(seat rules.Seat) int {
	b1, b2 := 0, 0
	for i := range Pieces {
		p := &s.pieces[seat][i]
		base := s.worth(p.tower)
		g := 0
		for _, q := range knightJumps[p.sq] {
			if s.count[q] > 0 || s.floor[q] == "" || s.fits(p.tower, s.floor[q]) != fOK {
				continue
			}
			g = max(g, s.worth(p.tower+s.floor[q])-base)
		}
		if g > b1 {
			b1, b2 = g, b1
		} else if g > b2 {
			b2 = g
		}
	}
	return b1 + b2
}
