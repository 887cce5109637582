package discon

import (
	"context"
	"math/rand/v2"

	"github.com/arcade/arcade/rules"
)

// EasyBot plays a careless but lively game: one time in two it jumps onto a disc or stack with
// its tower when it can (any of them, at random, whatever it is worth), else it makes any move
// that keeps its tower; it leaves a tower behind only when nothing else is legal.
type EasyBot struct{}

// Move returns EasyBot's move for seat.
func (EasyBot) Move(_ context.Context, state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	s, ok := state.(*State)
	if !ok {
		return fallback(state, seat, rng)
	}
	ms := s.LegalMoves(seat)
	if len(ms) == 0 {
		return ""
	}
	onto, keep := s.splitMoves(ms)
	keep = append(keep, onto...)
	switch {
	case len(onto) > 0 && rng.IntN(2) == 0:
		return onto[rng.IntN(len(onto))].String()
	case len(keep) > 0:
		return keep[rng.IntN(len(keep))].String()
	}
	return ms[rng.IntN(len(ms))].String()
}

// splitMoves parts ms into the moves that land onto a disc (onto) and the others that keep
// every tower (keep); the moves that leave a tower behind are in neither.
func (s *State) splitMoves(ms []Move) (onto, keep []Move) {
	for _, m := range ms {
		switch {
		case m.Leave:
		case s.floor[m.To] != "":
			onto = append(onto, m)
		default:
			keep = append(keep, m)
		}
	}
	return onto, keep
}

// GreedyBot plays the move that raises the worth of its towers the most right now (one ply).
// Among equals it keeps its tower rather than leave it behind, then prefers the move whose piece
// lands a jump away from the best gain for its next move, then chooses at random. A tower's worth
// is its score, except in Elementary, where it grows with the tower's height (see State.worth):
// there the score, 0 until a tower is tall enough, would make every move look the same, and a
// bot that chose among them at random would walk away from its own towers.
type GreedyBot struct{}

// greedyKey orders GreedyBot's moves: the gain, then a tower kept, then the next jump's gain.
type greedyKey struct{ gain, keep, next int }

func (a greedyKey) above(b greedyKey) bool {
	if a.gain != b.gain {
		return a.gain > b.gain
	}
	if a.keep != b.keep {
		return a.keep > b.keep
	}
	return a.next > b.next
}

// Move returns the legal move of seat with the best immediate gain (see GreedyBot).
func (GreedyBot) Move(_ context.Context, state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	s, ok := state.(*State)
	if !ok {
		return fallback(state, seat, rng)
	}
	if s.over || seat != s.turn {
		return ""
	}
	var best Move
	var bestKey greedyKey
	n := 0
	s.eachLegal(seat, func(m Move) bool {
		k := greedyKey{gain: s.gain(seat, m.Piece-1, m.To, m.Leave), keep: 1}
		if m.Leave {
			k.keep = 0
		}
		k.next = s.nextGain(s.towerAfter(seat, m), m.To)
		switch {
		case n == 0 || k.above(bestKey):
			best, bestKey, n = m, k, 1
		case k == bestKey:
			n++
			if rng.IntN(n) == 0 {
				best = m
			}
		}
		return true
	})
	if n == 0 {
		return ""
	}
	return best.String()
}

// towerAfter returns the tower seat's piece carries after move m.
func (s *State) towerAfter(seat rules.Seat, m Move) string {
	if m.Leave {
		return s.floor[m.To]
	}
	return s.pieces[seat][m.Piece-1].tower + s.floor[m.To]
}

// nextGain returns the best gain in worth of a piece carrying tower t on square at from one
// jump onto a disc or stack, limits respected (home zones and other pieces' moves ignored).
func (s *State) nextGain(t string, at Square) int {
	base, g := s.worth(t), 0
	for _, q := range knightJumps[at] {
		if s.count[q] > 0 || s.floor[q] == "" || s.fits(t, s.floor[q]) != fOK {
			continue
		}
		g = max(g, s.worth(t+s.floor[q])-base)
	}
	return g
}

// gain returns how much the worth of seat's towers (State.worth) changes when its piece idx
// jumps to q.
func (s *State) gain(seat rules.Seat, idx int, q Square, leave bool) int {
	t := s.pieces[seat][idx].tower
	add := s.floor[q]
	nt := t + add
	if leave {
		nt = add
	}
	return s.worth(nt) - s.worth(t)
}

// fallback plays a random legal move of an engine that is not a DISCON State.
func fallback(state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	ms := state.Legal(seat)
	if len(ms) == 0 {
		return ""
	}
	return ms[rng.IntN(len(ms))]
}
