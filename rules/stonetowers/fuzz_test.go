package stonetowers

import (
	"math/rand/v2"
	"testing"

	"github.com/arcade/arcade/rules/rulestest"
)

// FuzzNotation: in a position reached by random play on a board of fuzzed size, every legal
// move's notation parses back to the same move; arbitrary text either fails with ErrBadNotation
// or gives a move whose notation parses back to it.
func FuzzNotation(f *testing.F) {
	// The notation's worked examples (game.go), the long forms, and near misses.
	for _, s := range []string{"b e5", "f e5", "pass", "e5", "be5", "fe5", "build e5", "fortify e5", "p",
		"B E5", "  b   e5  ", "a1", "p16", "b p16", "b q1", "b e0", "b e17", "e05", "b e5 x", "x e5", ""} {
		f.Add(uint8(0), uint8(0), uint64(1), s)
		f.Add(uint8(4), uint8(30), uint64(2), s)
	}
	f.Fuzz(func(t *testing.T, size, plies uint8, seed uint64, text string) {
		s, err := NewState(MinSize+int(size)%(MaxSize-MinSize+1), MaxTurns)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 1))
		for range int(plies) {
			ms := s.LegalMoves(s.Next())
			if s.Over() || len(ms) == 0 {
				break
			}
			if s, err = s.Play(s.Next(), ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
		rulestest.Notation(t, ParseMove, append(s.LegalMoves(Red), s.LegalMoves(Blue)...), text)
	})
}
