package flicflac

import (
	"context"
	"math/rand/v2"
	"testing"
)

// TestCanWin: only in the last turn before the limit, played by the opponent, can a seat be
// certain not to win: when the opponent leads by 6, and 5 more for each of the seat's pieces on
// the board. Elsewhere CanWin is true; once over, it tells the winner.
func TestCanWin(t *testing.T) {
	s := testState(t)
	s.cfg.Limit, s.cfg.Target = 3, 99
	cyl, blk := s.SeatOf(Cylinder), s.SeatOf(Block)
	s.captures[cyl] = 20
	if !s.CanWin(blk) {
		t.Error("the first turn of three: the blocks cannot win")
	}
	last := mustPlay(t, mustPlay(t, s, cyl, "end"), blk, "end") // the cylinders' turn is the last
	for _, c := range []struct {
		cyl, blk int
		onBoard  []Colour // the blocks' pieces on the board
		want     bool
	}{
		{8, 2, nil, false}, {7, 2, nil, true}, {13, 2, []Colour{Red}, false}, {12, 2, []Colour{Red}, true},
		{8 + 10, 2, []Colour{Red, Blue}, false}, {17, 2, []Colour{Red, Blue}, true},
	} {
		n := *last
		n.captures[cyl], n.captures[blk] = c.cyl, c.blk
		for i, col := range c.onBoard {
			put(&n, blk, col, n.geo.Entry(Block, col)[i], false)
		}
		if got := n.CanWin(blk); got != c.want {
			t.Errorf("last turn, %d-%d, %d blocks on the board: CanWin %v, want %v", c.cyl, c.blk, len(c.onBoard), got, c.want)
		}
		if !n.CanWin(cyl) {
			t.Errorf("%d-%d: the cylinders, to move, cannot win", c.cyl, c.blk)
		}
	}
	// The blocks' own last turn: they may capture; unsure.
	n := *last
	n.turn, n.captures[cyl] = blk, 30
	if !n.CanWin(blk) {
		t.Error("the blocks' own last turn: they cannot win")
	}
	over := mustPlay(t, last, cyl, "end")
	if !over.over || !over.CanWin(cyl) || over.CanWin(blk) {
		t.Errorf("over (%v, %v): CanWin cylinders %v, blocks %v", over.over, over.captures, over.CanWin(cyl), over.CanWin(blk))
	}
}

// TestCanWinHolds: from last turns of random matches where the opponent of the mover cannot
// win by CanWin, with the lead no larger than that needs, random play of the mover's turn to
// the end never leaves the opponent ahead.
func TestCanWinHolds(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 5))
	ctx := context.Background()
	checked := 0
	for match := range 30 {
		s := testState(t)
		s.cfg.Limit, s.cfg.Target = 2+match%7, 99
		for s.turns < s.cfg.Limit-1 {
			s = mustPlay(t, s, s.turn, Easy{}.Move(ctx, s, s.turn, rng))
		}
		mover := s.turn
		other := 1 - mover
		onBoard := 0
		for c := range Colours {
			if s.pieces[int(other)*Colours+c].hex != NoHex {
				onBoard++
			}
		}
		s.captures[other], s.captures[mover] = 0, 6+5*onBoard
		if s.CanWin(other) {
			t.Fatalf("match %d: a lead of %d with %d on the board: the other can win", match, s.captures[mover], onBoard)
		}
		for range 20 {
			n := s
			for !n.over {
				if n.turn != mover {
					t.Fatalf("match %d: the limit's turn passed and play went on", match)
				}
				n = mustPlay(t, n, mover, Easy{}.Move(ctx, n, mover, rng))
			}
			if n.captures[other] > n.captures[mover] || n.winner == other {
				t.Fatalf("match %d: CanWin said no, and the other won %v", match, n.captures)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}
