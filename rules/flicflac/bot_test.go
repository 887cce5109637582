package flicflac

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/arcade/arcade/rules"
)

// TestBotsLegalAndRepeatable: in positions of random play, every level answers a legal move,
// the same again for the same state and random source, and a legal one when its context is
// already done; a bot asked out of turn answers what Legal allows (nothing).
func TestBotsLegalAndRepeatable(t *testing.T) {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	for seed := range uint64(12) {
		s := randomPosition(t, seed, int(seed)*7)
		if s.over {
			continue
		}
		for _, lv := range Game.Bots {
			a := lv.Bot.Move(context.Background(), s, s.turn, rand.New(rand.NewPCG(seed, 1)))
			b := lv.Bot.Move(context.Background(), s, s.turn, rand.New(rand.NewPCG(seed, 1)))
			if a != b {
				t.Errorf("seed %d %s: %q then %q", seed, lv.Name, a, b)
			}
			if _, err := s.Apply(s.turn, a); err != nil {
				t.Errorf("seed %d %s: %q: %v", seed, lv.Name, a, err)
			}
			late := lv.Bot.Move(done, s, s.turn, rand.New(rand.NewPCG(seed, 1)))
			if _, err := s.Apply(s.turn, late); err != nil {
				t.Errorf("seed %d %s, late: %q: %v", seed, lv.Name, late, err)
			}
			if m := lv.Bot.Move(context.Background(), s, 1-s.turn, rand.New(rand.NewPCG(seed, 1))); m != "" {
				t.Errorf("seed %d %s out of turn: %q", seed, lv.Name, m)
			}
		}
	}
}

// captureOffered is the position of TestGreedyCaptures: a red block, upright (purple, blue),
// stands alone; the yellow cylinder (orange, red) is one step away from a hex beside it. It
// returns the state and the seats of the cylinders and the blocks.
func captureOffered(t *testing.T) (s *State, cyl, blk rules.Seat) {
	t.Helper()
	s = testState(t)
	cyl, blk = s.SeatOf(Cylinder), s.SeatOf(Block)
	rb := cluster(t, s, []spec{{Block, Red, false, false}}, nil)[0]
	var by Hex = NoHex
	for _, nb := range s.geo.nbr[s.pieces[rb].hex] {
		if nb == NoHex || s.occ[nb] != 0 {
			continue
		}
		for _, nb2 := range s.geo.nbr[nb] {
			if nb2 != NoHex && s.occ[nb2] == 0 && s.geo.Distance(nb2, s.pieces[rb].hex) == 2 && by == NoHex {
				by = nb2
			}
		}
	}
	put(s, cyl, Yellow, by, false)
	return s, cyl, blk
}

// TestGreedyCaptures: Greedy makes the capture a move offers, and Hard too, and both end the
// turn once nothing improves.
func TestGreedyCaptures(t *testing.T) {
	s, cyl, blk := captureOffered(t)
	for _, bot := range []rules.Bot{Greedy{}, Hard{}} {
		n := s
		for range 8 {
			mv := bot.Move(context.Background(), n, cyl, rand.New(rand.NewPCG(1, 1)))
			n = mustPlay(t, n, cyl, mv)
			if mv == "end" {
				break
			}
		}
		if n.captures[cyl] != 1 || n.pieces[int(blk)*Colours+int(Red)].hex != NoHex {
			t.Errorf("%T did not capture the red block: captures %v", bot, n.captures)
		}
	}
}
