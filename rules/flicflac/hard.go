package flicflac

import (
	"context"
	"math/rand/v2"
	"slices"

	"github.com/arcade/arcade/rules"
)

// Hard searches turns: it tries ending the turn now and its best first moves (by Greedy's
// score), each continued greedily to a whole turn; for each it plays out the end of the turn,
// its own captors' turns, and the opponent's reply with its captors' turns (both played as
// Greedy would), and keeps the turn whose outcome is best: captures made less captures lost,
// then pieces left due to be captured, then position. Each time it is asked it searches again
// from the state given and returns the first move of the best turn, or "end".
type Hard struct{}

// HardFirstMoves is how many first moves Hard continues into whole turns.
const HardFirstMoves = 12

// Move returns Hard's next move for seat: a piece move, or "end".
func (Hard) Move(ctx context.Context, state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	s, ok := botState(state, seat)
	if !ok {
		return fallback(state, seat)
	}
	if plan := s.hardPlan(ctx, seat); len(plan) > 0 {
		return plan[0].move(s.geo)
	}
	return "end"
}

// scored is a first move with Greedy's score after it.
type scored struct {
	st    step
	score int
}

// hardPlan returns the piece moves of the best turn found for seat, the mover; empty to end now.
func (s *State) hardPlan(ctx context.Context, seat rules.Seat) []step {
	var firsts []scored
	s.steps(func(st step) {
		n := *s
		n.place(st.id, st.to)
		firsts = append(firsts, scored{st, greedyScore(&n, seat)})
	})
	slices.SortStableFunc(firsts, func(a, b scored) int { return b.score - a.score })
	firsts = firsts[:min(len(firsts), HardFirstMoves)]

	var best []step
	bestVal := s.outlook(seat)
	for _, f := range firsts {
		if ctx.Err() != nil {
			break
		}
		n := *s
		n.place(f.st.id, f.st.to)
		plan := []step{f.st}
		for {
			st, ok := n.greedyStep(ctx, seat, nil)
			if !ok {
				break
			}
			n.place(st.id, st.to)
			plan = append(plan, st)
		}
		if v := n.outlook(seat); v > bestVal {
			best, bestVal = plan, v
		}
	}
	return best
}

// Weights of Hard's outlook.
const (
	hardWin       = 1_000_000 // the match won (lost: minus)
	hardCapture   = 1000      // a capture made (lost: minus)
	hardThreat    = 400       // an enemy piece due to be captured when the turn comes back
	hardDanger    = 250       // an own piece due to be captured then (it may still be saved)
	hardMaxChains = 8         // captors' turns played out in a row at most
)

// outlook values s, seat about to end its turn, for seat: it ends the turn, plays seat's
// captors' turns and the opponent's reply greedily (without random events), and weighs the
// captures made and lost, the match's end, the pieces due to be captured and the position.
func (s *State) outlook(seat rules.Seat) int {
	x := *s
	x.cfg.EventPercent = 0
	before := x.captures
	x.end()
	x.playOut(seat)
	if !x.over {
		x.greedyTurn()
		x.end()
		x.playOut(1 - seat)
	}
	if x.over {
		switch x.winner {
		case seat:
			return hardWin
		case 1 - seat:
			return -hardWin
		}
	}
	v := hardCapture * ((x.captures[seat] - before[seat]) - (x.captures[1-seat] - before[1-seat]))
	d := x.doomed()
	mine := uint16(0x3f) << (Colours * int(seat))
	v += hardThreat*countBits(d&^mine) - hardDanger*countBits(d&mine)
	return v + x.presence(seat) - x.presence(1-seat)
}

// playOut plays seat's captors' turns, greedily, while they follow.
func (s *State) playOut(seat rules.Seat) {
	for i := 0; i < hardMaxChains && !s.over && s.turn == seat && s.captorsTurn; i++ {
		s.greedyTurn()
		s.end()
	}
}

// greedyTurn plays the mover's moves as Greedy would, without ending the turn.
func (s *State) greedyTurn() {
	for {
		st, ok := s.greedyStep(context.Background(), s.turn, nil)
		if !ok {
			return
		}
		s.place(st.id, st.to)
	}
}
