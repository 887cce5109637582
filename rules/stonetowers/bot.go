package stonetowers

import (
	"context"
	"math/rand/v2"

	"github.com/arcade/arcade/rules"
)

// ply is an encoded move inside the bots: square index << 2 | action (a pass is mkPly(Pass, 0)).
type ply int32

func mkPly(a Action, i int) ply { return ply(i<<2 | int(a)) }
func (p ply) action() Action    { return Action(p & 3) }
func (p ply) index() int        { return int(p >> 2) }

// plies appends the legal moves of player p on b to buf: builds and fortifies, or a single pass.
func (b *board) plies(p int, buf []ply) []ply {
	buf = buf[:0]
	for i := 0; i < b.n*b.n; i++ {
		if b.canBuild(p, i) {
			buf = append(buf, mkPly(Build, i))
		} else if b.canFortify(p, i) {
			buf = append(buf, mkPly(Fortify, i))
		}
	}
	if len(buf) == 0 {
		buf = append(buf, mkPly(Pass, 0))
	}
	return buf
}

// play plays move m of player p on a copy of b, which must be settled, and returns the copy,
// settled.
func (b *board) play(p int, m ply) board {
	nb := *b
	switch i := m.index(); m.action() {
	case Build:
		nb.c[i] = castleOf(p, 1)
		nb.settle(i)
	case Fortify:
		nb.c[i] += 1 << 2
		nb.settle(i)
	}
	return nb
}

// notation returns m in canonical notation on a board of size n.
func (m ply) notation(n int) string {
	if m.action() == Pass {
		return "pass"
	}
	return Move{Action: m.action(), Square: Square{Col: m.index() % n, Row: m.index() / n}}.String()
}

// botState returns the state a bot was handed and whether the bot can play for seat in it. When it
// cannot, fallback returns a move to give anyway.
func botState(state rules.Engine, seat rules.Seat, rng *rand.Rand) (*State, string, bool) {
	s, ok := state.(*State)
	if ok && !s.Over() && s.Next() == seat {
		return s, "", true
	}
	legal := state.Legal(seat)
	if len(legal) == 0 {
		return nil, "pass", false
	}
	return nil, legal[rng.IntN(len(legal))], false
}

// margin returns p's squares minus the other player's on b.
func (b *board) margin(p int) int {
	sc := b.scores()
	return sc[p] - sc[1-p]
}

// Easy is the weakest bot: it picks a move at random, weighted towards moves that gain squares, and
// avoids moves that lose squares when it has others.
type Easy struct{}

// Move returns a weighted random legal move.
func (Easy) Move(ctx context.Context, state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	s, mv, ok := botState(state, seat, rng)
	if !ok {
		return mv
	}
	p := int(seat)
	moves := s.b.plies(p, nil)
	base := s.b.margin(p)
	weights := make([]int, len(moves))
	total := 0
	for k, m := range moves {
		if k%16 == 0 && ctx.Err() != nil {
			break
		}
		nb := s.b.play(p, m)
		if g := nb.margin(p) - base; g >= 0 {
			weights[k] = (g + 1) * (g + 1)
			total += weights[k]
		}
	}
	if total == 0 {
		return moves[rng.IntN(len(moves))].notation(s.b.n)
	}
	r := rng.IntN(total)
	for k, w := range weights {
		if r < w {
			return moves[k].notation(s.b.n)
		}
		r -= w
	}
	return moves[0].notation(s.b.n)
}

// Greedy looks one move ahead: it plays the move that leaves it the most squares minus the
// opponent's, breaking ties at random.
type Greedy struct{}

// Move returns the best one-ply move.
func (Greedy) Move(ctx context.Context, state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	s, mv, ok := botState(state, seat, rng)
	if !ok {
		return mv
	}
	p := int(seat)
	moves := s.b.plies(p, nil)
	best, bestVal, ties := moves[0], -1<<30, 0
	for k, m := range moves {
		if k%16 == 0 && k > 0 && ctx.Err() != nil {
			break
		}
		nb := s.b.play(p, m)
		v := nb.margin(p)
		switch {
		case v > bestVal:
			best, bestVal, ties = m, v, 1
		case v == bestVal:
			ties++
			if rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best.notation(s.b.n)
}
