package coloretta

import (
	"context"
	"math/rand/v2"

	"github.com/arcade/arcade/rules"
)

// hardBot is a flat Monte Carlo player over determinised deals: for each of deals guesses of the
// unseen cards' order (drawn from the unseen cards' counts, the Last Cycle card where everyone
// knows it lies), it plays every legal move and finishes the round with policy (greedy, now and
// then random) for all seats, scoring each move by its average lead over the best opponent at the end of the round
// (totals of earlier rounds included). Every move sees the same deals and the same random numbers.
type hardBot struct {
	deals int
}

func (b hardBot) Move(ctx context.Context, state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	v, ok := publicState(state, seat)
	if !ok {
		return ""
	}
	if len(v.Legal) == 1 {
		return v.Legal[0]
	}
	base := simState(v, nil)
	me := int(seat)
	moves := make([]Move, 0, len(v.Legal))
	for _, l := range v.Legal {
		if m, err := ParseMove(l); err == nil {
			moves = append(moves, m)
		}
	}
	cnt, total := unseen(v)
	sum := make([]int, len(moves))
	pool := make([]Card, 0, total)
	var pcg rand.PCG
	r := rand.New(&pcg)
	done := 0
	for d := 0; d < b.deals; d++ {
		if ctx.Err() != nil {
			break
		}
		deck := guessDeck(pool[:0], cnt, v.LastCycle, rng)
		s1, s2 := rng.Uint64(), rng.Uint64()
		for k, m := range moves {
			st := *base
			st.deck = deck
			st.play(me, m)
			pcg.Seed(s1, s2)
			st.rollout(r)
			sum[k] += st.lead(me)
		}
		done++
	}
	if done == 0 {
		return v.Legal[0]
	}
	best := 0
	for k := range moves {
		if sum[k] > sum[best] {
			best = k
		}
	}
	return moves[best].String()
}

// guessDeck returns a random order of the unseen cards (counted by kind in cnt), with the Last
// Cycle card 15 cards from the bottom unless it has come. It reuses buf.
func guessDeck(buf []Card, cnt [LastCycle]int, came bool, rng *rand.Rand) []Card {
	for c, n := range cnt {
		for range n {
			buf = append(buf, Card(c))
		}
	}
	rng.Shuffle(len(buf), func(i, j int) { buf[i], buf[j] = buf[j], buf[i] })
	if came {
		return buf
	}
	return insertLastCycle(buf)
}

// lead returns seat's total less the best total of the others.
func (s *State) lead(seat int) int {
	best := -1 << 30
	for p := range s.seats {
		if p != seat {
			best = max(best, s.totals[p])
		}
	}
	return s.totals[seat] - best
}

// rollout finishes a simulation with the quick policy for every seat.
func (s *State) rollout(r *rand.Rand) {
	for !s.over {
		s.play(s.turn, s.policy(r))
	}
}

// policy returns a legal move for the seat to move: the greedy move, now and then a random one.
func (s *State) policy(r *rand.Rand) Move {
	if r.IntN(16) == 0 {
		return s.randomMove(r)
	}
	return s.greedyMove(s.turn)
}

// randomMove returns a random legal move of the seat to move.
func (s *State) randomMove(r *rand.Rand) Move {
	var ms [MaxStacks + 1]Move
	n := 0
	if s.drawing {
		for i := range s.nstacks {
			if st := &s.stacks[i]; st.picker < 0 && st.n < st.cap {
				ms[n] = Move{Kind: Place, Stack: i}
				n++
			}
		}
		return ms[r.IntN(n)]
	}
	if s.next < len(s.deck) && !s.allOpen(true) {
		ms[n] = Move{Kind: Draw}
		n++
	}
	for i := range s.nstacks {
		if st := &s.stacks[i]; st.picker < 0 && st.n > 0 {
			ms[n] = Move{Kind: Take, Stack: i}
			n++
		}
	}
	return ms[r.IntN(n)]
}
