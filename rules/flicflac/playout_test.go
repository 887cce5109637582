package flicflac

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/arcade/arcade/rules"
)

// checkInvariants fails the test when s breaks a rule that must always hold.
func checkInvariants(t testing.TB, s *State) {
	t.Helper()
	var occ [MaxHexes]int8
	for id, p := range s.pieces {
		if p.hex != NoHex {
			if occ[p.hex] != 0 {
				t.Fatalf("two pieces on %s", s.geo.Name(p.hex))
			}
			occ[p.hex] = int8(id + 1)
		}
		if p.moved && (s.over || rules.Seat(id/Colours) != s.turn) {
			t.Fatalf("%s is marked moved outside its turn", s.PieceName(pieceOf(id)))
		}
	}
	if occ != s.occ {
		t.Fatal("the board's occupancy disagrees with the pieces")
	}
	var count [Colours + 1]int
	for h := range s.geo.NumHexes() {
		count[s.colours[h]]++
		if (s.colours[h] == Black) != (s.geo.start[h] == Black) {
			t.Fatalf("%s changed between black and coloured", s.geo.Name(Hex(h)))
		}
	}
	if s.captorsTurn && s.may == 0 {
		t.Fatal("a captors' turn without captors")
	}
	if !s.over && s.turns >= s.cfg.Limit {
		t.Fatal("the match went past its turn limit")
	}
}

// playout plays a match between bots to the end, every state checked, and returns it with the
// moves played.
func playout(t testing.TB, cfg Config, bots [2]rules.Bot, seed uint64) (*State, []string) {
	t.Helper()
	s, err := NewState(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	var moves []string
	for ply := 0; !s.over; ply++ {
		if ply > 20*cfg.Limit+100 {
			t.Fatalf("seed %d: no end after %d moves", seed, ply)
		}
		seat := s.ToMove()[0]
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		mv := bots[seat].Move(ctx, s, seat, rng)
		cancel()
		e, err := s.Apply(seat, mv)
		if err != nil {
			t.Fatalf("seed %d ply %d: %s's move %q: %v", seed, ply, s.SeatName(seat), mv, err)
		}
		moves = append(moves, strconv.Itoa(int(seat))+" "+mv)
		s = e.(*State)
		checkInvariants(t, s)
	}
	return s, moves
}

// TestPlayouts plays seeded matches of every level to the end: easy ones on every side, and
// greedy and hard on small boards (all levels at full size with FLICFLAC_PLAYOUTS=n).
func TestPlayouts(t *testing.T) {
	n := envInt("FLICFLAC_PLAYOUTS")
	levels := []rules.Bot{Easy{}, Greedy{}, Hard{}}
	for seed := range uint64(max(n, 6)) {
		cfg := DefaultConfig
		cfg.Side = MinSide + int(seed)%4
		cfg.EventPercent = 20 // events happen
		cfg.Limit = 60
		bots := [2]rules.Bot{levels[seed%3], levels[(seed+1)%3]}
		if n == 0 && seed%3 != 0 {
			cfg.Side, cfg.Limit = 5, 30
		}
		s, moves := playout(t, cfg, bots, seed)
		t.Logf("seed %d side %d: captures %v after %d turns, %d moves (%s)", seed, cfg.Side, s.captures,
			s.turns, len(moves), s.reason)
	}
}

func envInt(k string) int {
	n, _ := strconv.Atoi(os.Getenv(k))
	return n
}
