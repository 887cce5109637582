package stonetowers

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"

	"github.com/arcade/arcade/rules"
)

// Hard is the strongest bot. It searches three plies (its move, the opponent's reply, its next
// move) with alpha-beta pruning, over the 24 most promising moves at the root and 40 replies, and
// scores positions by territory plus the squares the side to move could take with one action minus
// those the opponent could (tied influence next to where a player can act; a castle counts more, as
// its fall spreads). Children are ordered by that score, the last ply by territory, so cut-offs
// come early. It uses rng only to break ties, so it is reproducible, and it returns the best move
// found so far as soon as ctx is done. A move takes a few tens of milliseconds on a 12 x 12 board.
type Hard struct{}

// Move returns the move the search finds best.
func (Hard) Move(ctx context.Context, state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	s, mv, ok := botState(state, seat, rng)
	if !ok {
		return mv
	}
	left := 2*s.turns - s.played[0] - s.played[1]
	se := &searcher{ctx: ctx, w: defaultWeights}
	return se.root(&s.b, int(seat), left, rng).notation(s.b.n)
}

// weights tune the search and the evaluation.
type weights struct {
	depth      int // plies searched
	rootWidth  int // candidates searched at the root
	replyWidth int // candidates searched at the plies between the root and the last
	territory  int // per square of margin
	capture    int // per point of the most the side to move could take with one action
	threat     int // per point of the most the opponent could take with one action
}

var defaultWeights = weights{
	depth: 3, rootWidth: 24, replyWidth: 40,
	territory: 100, capture: 80, threat: 60,
}

// searcher is one search. It is used by one goroutine.
type searcher struct {
	ctx     context.Context
	w       weights
	nodes   int
	stopped bool
	buf     [8][]child
	mv      [8][]ply
}

type child struct {
	m   ply
	key int
	b   board
}

const inf32 = 1 << 30

// expand fills the children of b for player p at depth d (of the buffers), each keyed by its
// static value for p (see eval) with left-1 actions remaining after it, ordered best first, and
// returns at most width of them (all when width is 0).
func (se *searcher) expand(b *board, p, d, width, left int) []child {
	se.mv[d] = b.plies(p, se.mv[d])
	return se.expandMoves(b, p, d, width, left)
}

// expandMoves is expand on the moves already in se.mv[d].
func (se *searcher) expandMoves(b *board, p, d, width, left int) []child {
	cs := se.buf[d][:0]
	for _, m := range se.mv[d] {
		cs = append(cs, child{m: m})
		c := &cs[len(cs)-1]
		c.b = b.play(p, m)
		c.key = -se.eval(&c.b, 1-p, left-1)
	}
	se.buf[d] = cs
	slices.SortStableFunc(cs, func(x, y child) int { return cmp.Compare(y.key, x.key) })
	if width > 0 && len(cs) > width {
		cs = cs[:width]
	}
	return cs
}

// root returns the best move for p on b with left actions remaining in the game.
func (se *searcher) root(b *board, p, left int, rng *rand.Rand) ply {
	depth := min(se.w.depth, left)
	se.mv[0] = b.plies(p, se.mv[0])
	// Shuffle the moves so that ties are broken at random; expand's sort is stable.
	rng.Shuffle(len(se.mv[0]), func(i, j int) { se.mv[0][i], se.mv[0][j] = se.mv[0][j], se.mv[0][i] })
	cs := se.expandMoves(b, p, 0, se.w.rootWidth, left)
	best := cs[0].m
	if depth <= 1 {
		return best
	}
	alpha := -inf32
	for k := range cs {
		c := &cs[k]
		v := -se.negamax(&c.b, 1-p, depth-1, left-1, -inf32, -alpha, 1)
		if se.stopped {
			break
		}
		if v > alpha {
			alpha, best = v, c.m
		}
	}
	return best
}

// negamax returns the value of b for p to move, searching depth plies: at depth 1 the best static
// value of the children.
func (se *searcher) negamax(b *board, p, depth, left, alpha, beta, d int) int {
	if left == 0 || depth == 0 {
		return se.eval(b, p, left)
	}
	se.nodes++
	if se.nodes&7 == 0 && se.ctx.Err() != nil {
		se.stopped = true
	}
	if se.stopped {
		return 0
	}
	if depth == 1 {
		return se.frontier(b, p, d, left, beta)
	}
	cs := se.expand(b, p, d, se.w.replyWidth, left)
	best := -inf32
	for k := range cs {
		v := -se.negamax(&cs[k].b, 1-p, depth-1, left-1, -beta, -alpha, d+1)
		if v > best {
			best = v
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			break
		}
	}
	return best
}

// frontier returns the best static value for p of b's children, or a value of at least beta as soon
// as one reaches beta. Children are tried in the order of their territory, which is most of their
// value, so the cut-off comes early.
func (se *searcher) frontier(b *board, p, d, left, beta int) int {
	se.mv[d] = b.plies(p, se.mv[d])
	cs := se.buf[d][:0]
	for _, m := range se.mv[d] {
		cs = append(cs, child{m: m})
		c := &cs[len(cs)-1]
		c.b = b.play(p, m)
		c.key = c.b.margin(p)
	}
	se.buf[d] = cs
	slices.SortFunc(cs, func(x, y child) int { return cmp.Compare(y.key, x.key) })
	best := -inf32
	for k := range cs {
		if v := -se.eval(&cs[k].b, 1-p, left-1); v > best {
			best = v
			if best >= beta {
				break
			}
		}
	}
	return best
}

// eval scores b for p, the player to move, with left actions remaining: territory, plus the most
// the mover could take with one action, minus the most the opponent could (see threats). With no
// action left it is the exact final margin.
func (se *searcher) eval(b *board, p, left int) int {
	w := &se.w
	v := w.territory * b.margin(p)
	if left <= 0 || (w.capture == 0 && w.threat == 0) {
		return v
	}
	best := b.threats()
	return v + w.capture*best[p] - w.threat*best[1-p]
}

// threats estimates, for each player x, the most x could take with one action. An action raises
// x's influence by one on a square and its neighbours, so it takes every square there that x does
// not own and where x's influence is at least the other's.
// A square taken counts 1 when unowned, 2 when the other's flag and 2 + level for the other's castle
// (whose fall weakens its neighbours). Cascades are not followed.
func (b *board) threats() (best [2]int) {
	var inf influenceMap
	b.influence(&inf)
	n := b.n
	// weak[x][k] is what x gains on square k if its influence there rises by one.
	var weak [2][maxCells]int8
	some := [2]bool{}
	for k := 0; k < n*n; k++ {
		c := b.c[k]
		for x := 0; x < 2; x++ {
			if (c != unowned && c.owner() == x) || inf[x][k] < inf[1-x][k] {
				continue
			}
			switch {
			case c == unowned:
				weak[x][k] = 1
			default:
				weak[x][k] = int8(2 + c.level())
			}
			some[x] = true
		}
	}
	for x := 0; x < 2; x++ {
		if !some[x] {
			continue
		}
		wx := &weak[x]
		for j := 0; j < n*n; j++ {
			c := b.c[j]
			var g int8
			switch {
			case c == unowned:
				// Building makes j x's castle even where x only draws level, but a castle
				// built where the other player is two ahead falls at once.
				if inf[x][j]+1 < inf[1-x][j] {
					continue
				}
				g = 1
			case c.owner() == x && c.level() < 3:
				g = wx[j]
			default:
				continue
			}
			row, col := j/n, j%n
			if col > 0 {
				g += wx[j-1]
			}
			if col < n-1 {
				g += wx[j+1]
			}
			if row > 0 {
				g += wx[j-n]
			}
			if row < n-1 {
				g += wx[j+n]
			}
			if int(g) > best[x] {
				best[x] = int(g)
			}
		}
	}
	return best
}
