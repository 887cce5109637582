package discon

import (
	"context"
	"math/rand/v2"

	"github.com/arcade/arcade/rules"
)

// EasyBot plays a random legal move.
type EasyBot struct{}

// Move returns a random legal move of seat.
func (EasyBot) Move(_ context.Context, state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	s, ok := state.(*State)
	if !ok {
		return fallback(state, seat, rng)
	}
	ms := s.LegalMoves(seat)
	if len(ms) == 0 {
		return ""
	}
	return ms[rng.IntN(len(ms))].String()
}

// GreedyBot plays the move that raises its own score the most right now (one ply), choosing at
// random among equals.
type GreedyBot struct{}

// Move returns the legal move of seat with the best immediate score gain.
func (GreedyBot) Move(_ context.Context, state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	s, ok := state.(*State)
	if !ok {
		return fallback(state, seat, rng)
	}
	if s.over || seat != s.turn {
		return ""
	}
	var best Move
	bestGain, n := 0, 0
	s.eachLegal(seat, func(m Move) bool {
		g := s.gain(seat, m.Piece-1, m.To, m.Leave)
		switch {
		case n == 0 || g > bestGain:
			best, bestGain, n = m, g, 1
		case g == bestGain:
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

// gain returns how much seat's score changes when its piece idx jumps to q.
func (s *State) gain(seat rules.Seat, idx int, q Square, leave bool) int {
	t := s.pieces[seat][idx].tower
	add := s.floor[q]
	nt := t + add
	if leave {
		nt = add
	}
	return scoreStack(s.variant, s.seats, nt) - scoreStack(s.variant, s.seats, t)
}

// fallback plays a random legal move of an engine that is not a DISCON State.
func fallback(state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	ms := state.Legal(seat)
	if len(ms) == 0 {
		return ""
	}
	return ms[rng.IntN(len(ms))]
}
