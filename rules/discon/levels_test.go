package discon

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/arcade/arcade/rules"
)

// TestGreedyKeepsTower: in Elementary, where a tower scores nothing until it is tall enough,
// GreedyBot still grows its tower (it jumps with it onto a disc) and never leaves it behind:
// with every random source, from a position where any other move gains no score either.
func TestGreedyKeepsTower(t *testing.T) {
	s := bare(t, Elementary, 2)
	s.put(0, 1, "e5", "VPBIVP").lay("g6", "B").lay("c4", "I")
	for seed := range uint64(50) {
		mv := GreedyBot{}.Move(context.Background(), s, 0, rand.New(rand.NewPCG(seed, 1)))
		m, err := ParseMove(mv)
		if err != nil {
			t.Fatalf("seed %d: %q: %v", seed, mv, err)
		}
		if m.Piece != 1 || m.Leave || (m.To != sq("g6") && m.To != sq("c4")) {
			t.Fatalf("seed %d: greedy played %q, want piece 1 with its tower onto g6 or c4", seed, mv)
		}
	}
	// With no disc in reach, it moves its tower rather than leave it.
	s = bare(t, Elementary, 2)
	s.put(0, 1, "e5", "VPBIVP")
	for seed := range uint64(50) {
		mv := GreedyBot{}.Move(context.Background(), s, 0, rand.New(rand.NewPCG(seed, 1)))
		if m, err := ParseMove(mv); err != nil || m.Leave {
			t.Fatalf("seed %d: greedy played %q (%v), want a move that keeps its towers", seed, mv, err)
		}
	}
}

// jumper plays as the newcomer of issue 34 did: it jumps onto a disc when one is in reach (any
// of them, at random), keeping its tower, else makes any move that keeps its tower; no lookahead.
type jumper struct{}

func (jumper) Move(_ context.Context, state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	s := state.(*State)
	onto, keep := s.splitMoves(s.LegalMoves(seat))
	switch {
	case len(onto) > 0:
		return onto[rng.IntN(len(onto))].String()
	case len(keep) > 0:
		return keep[rng.IntN(len(keep))].String()
	}
	return s.LegalMoves(seat)[0].String()
}

// duel plays games Elementary games of a against b, a in seat i mod 2 of game i, and returns
// a's wins and losses and the goal's towers each owned in all.
func duel(t *testing.T, a, b rules.Bot, games int) (won, lost, aTowers, bTowers int) {
	t.Helper()
	for i := range games {
		s, err := NewState(Elementary, 2, uint64(100+i))
		if err != nil {
			t.Fatal(err)
		}
		me := rules.Seat(i % 2)
		bots := []rules.Bot{a, b}
		if me == 1 {
			bots[0], bots[1] = b, a
		}
		rng := rand.New(rand.NewPCG(uint64(i), 3))
		for moves := 0; !s.over; moves++ {
			if moves > 5000 {
				t.Fatalf("game %d: no end", i)
			}
			e, err := s.Apply(s.turn, bots[s.turn].Move(context.Background(), s, s.turn, rng))
			if err != nil {
				t.Fatalf("game %d: %v", i, err)
			}
			s = e.(*State)
		}
		sc := s.Scores()
		aTowers, bTowers = aTowers+sc[me], bTowers+sc[1-me]
		switch {
		case sc[me] > sc[1-me]:
			won++
		case sc[me] < sc[1-me]:
			lost++
		}
	}
	return won, lost, aTowers, bTowers
}

// TestGreedyBeatsJumperElementary: the match of issue 34, greedy against a player who jumps onto
// discs without lookahead, in Elementary (before its fix greedy lost 0 to 4 towers): greedy,
// seats alternating, loses no game and wins at least half of them. And that player, a newcomer
// moving sensibly, loses no game to the easy bot and wins most.
func TestGreedyBeatsJumperElementary(t *testing.T) {
	const games = 10
	won, lost, g, j := duel(t, GreedyBot{}, jumper{}, games)
	t.Logf("greedy against the jumper: %d won, %d lost; towers %d to %d", won, lost, g, j)
	if lost > 0 || won < games/2 {
		t.Errorf("greedy against the jumper: %d won, %d lost of %d; towers %d to %d", won, lost, games, g, j)
	}
	won, lost, j, e := duel(t, jumper{}, EasyBot{}, games)
	t.Logf("the jumper against easy: %d won, %d lost; towers %d to %d", won, lost, j, e)
	if lost > 0 || won < games*7/10 {
		t.Errorf("the jumper against easy: %d won, %d lost of %d; towers %d to %d", won, lost, games, j, e)
	}
}

// TestEasyPlays: EasyBot moves its towers on, never leaving one behind while another move is
// legal, and jumps onto a disc with it in some of its moves (it used to play any legal move, so
// half its moves left a tower behind).
func TestEasyPlays(t *testing.T) {
	s := bare(t, Premium, 2)
	s.put(0, 1, "e5", "VV").lay("g6", "V").lay("c4", "B")
	onto := 0
	for seed := range uint64(40) {
		mv := EasyBot{}.Move(context.Background(), s, 0, rand.New(rand.NewPCG(seed, 1)))
		m, err := ParseMove(mv)
		if err != nil || m.Leave {
			t.Fatalf("seed %d: easy played %q (%v), want a move that keeps its tower", seed, mv, err)
		}
		if m.Piece == 1 && (m.To == sq("g6") || m.To == sq("c4")) {
			onto++
		}
	}
	if onto < 10 || onto == 40 {
		t.Errorf("easy jumped onto a disc in %d of 40 moves, want some but not all", onto)
	}
}
