package lhexicon

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/arcade/arcade/rules"
)

// accountFor checks that the 100 tiles are all somewhere: on the board, in a rack or in the bank.
func accountFor(t *testing.T, s *State) {
	t.Helper()
	var count [28]int
	add := func(tl Tile) {
		if tl.IsBlank() {
			count[0]++
		} else {
			count[tl]++
		}
	}
	for _, tl := range s.board {
		if tl != NoTile {
			add(tl)
		}
	}
	for seat := range s.seats {
		for _, tl := range s.racks[seat][:s.nrack[seat]] {
			add(tl)
		}
	}
	for _, tl := range s.bag[:s.nbag] {
		add(tl)
	}
	for i, n := range distribution {
		if count[i] != n {
			t.Fatalf("tile %d: %d accounted for, the game has %d (ply %d)", i, count[i], n, s.plies)
		}
	}
}

// playout plays a match between bots to the end and returns it.
func playout(t *testing.T, bots []rules.Bot, c Check, seed uint64) *State {
	t.Helper()
	s, err := NewState(len(bots), c, TimerOff, seed)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	for ply := 0; !s.over; ply++ {
		if ply > 2000 {
			t.Fatalf("seed %d: no end after %d moves", seed, ply)
		}
		seat := s.ToMove()[0]
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		mv := bots[seat].Move(ctx, s, seat, rng)
		cancel()
		e, err := s.Apply(seat, mv)
		if err != nil {
			t.Fatalf("seed %d ply %d: %s's move %q: %v", seed, ply, SeatName(seat), mv, err)
		}
		s = e.(*State)
		accountFor(t, s)
	}
	return s
}

func TestPlayouts(t *testing.T) {
	// Easy bots in the default run (they are quick); every level with LHEXICON_PLAYOUTS=n.
	seeds, all := 4, envInt("LHEXICON_PLAYOUTS")
	if all > 0 {
		seeds = all
	}
	for seed := range uint64(seeds) {
		bots := [][]rules.Bot{{Easy{}, Easy{}}, {Easy{}, Easy{}, Easy{}}, {Easy{}}, {Easy{}, Easy{}, Easy{}, Easy{}}}[seed%4]
		if all > 0 {
			bots = [][]rules.Bot{{Greedy{}, Easy{}}, {Hard{}, Greedy{}, Easy{}}, {Greedy{}}, {Easy{}, Easy{}, Hard{}, Greedy{}}}[seed%4]
		}
		s := playout(t, bots, Check(seed%2), seed)
		t.Logf("seed %d, %d seats: %v after %d moves (%s), %d tiles on the board", seed, len(bots),
			s.Scores(), s.plies, s.reason, s.placed)
	}
}

func envInt(k string) int {
	n, _ := strconv.Atoi(os.Getenv(k))
	return n
}
