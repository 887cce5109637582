package lhexicon

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arcade/arcade/rules"
)

// previewAgrees checks that the viewer's View.Preview of m says what ApplyMove does with it: the
// same error, or the same word, hexes and score.
func previewAgrees(t *testing.T, s *State, m Move) (applied bool) {
	t.Helper()
	seat := s.Turn()
	v := s.ViewOf(seat)
	p, perr := v.Preview(m)
	ns, aerr := s.ApplyMove(seat, m)
	switch {
	case aerr != nil && perr == nil:
		t.Fatalf("%s: Apply refuses (%v), Preview scores %d", m, aerr, p.Score)
	case aerr == nil && perr != nil:
		t.Fatalf("%s: Apply plays it, Preview refuses (%v)", m, perr)
	case aerr != nil:
		if perr.Error() != aerr.Error() {
			t.Fatalf("%s: Preview says %q, Apply %q", m, perr, aerr)
		}
		return false
	}
	l := ns.LastMove()
	if p.Word != l.Word || p.Score != l.Score || p.Bonus != l.Bonus || !slices.Equal(p.Hexes, l.Path) ||
		p.Letters+p.Bonus != p.Score {
		t.Fatalf("%s: Preview %s %d (bonus %d) on %v, Apply %s %d (bonus %d) on %v", m, p.Word, p.Score, p.Bonus,
			p.Hexes, l.Word, l.Score, l.Bonus, l.Path)
	}
	return true
}

// TestPreviewAgreesWithApply: on many seeded positions, the plays the generator finds and the
// same plays bent, shifted and cut, Preview scores what ApplyMove scores (trap bonuses among
// them) and refuses what it refuses, in the same words.
func TestPreviewAgreesWithApply(t *testing.T) {
	played, refused, bonuses := 0, 0, 0
	for seed := range uint64(30) {
		s := position(t, seed, int(seed%12))
		if s.over {
			continue
		}
		seat := s.Turn()
		var plays []Move
		s.Generate(context.Background(), seat, func(c Candidate) bool {
			plays = append(plays, c.Clone().Move)
			return len(plays) < 40
		})
		rng := rand.New(rand.NewPCG(seed, 9))
		for _, m := range plays {
			if previewAgrees(t, s, m) {
				played++
				ns, _ := s.ApplyMove(seat, m)
				if ns.LastMove().Bonus > 0 {
					bonuses++
				}
			}
			for range 4 {
				bent := m
				bent.Path = slices.Clone(m.Path)
				bent.Tiles = slices.Clone(m.Tiles)
				switch rng.IntN(4) {
				case 0:
					if len(bent.Path) > 0 {
						bent.Path[rng.IntN(len(bent.Path))] = Dir(rng.IntN(6))
					}
				case 1:
					bent.Start = Hex(rng.IntN(NumHexes))
				case 2:
					bent.Tiles[rng.IntN(len(bent.Tiles))] = Tile(1 + rng.IntN(26))
				case 3:
					if len(bent.Path) > 0 {
						bent.Path, bent.Tiles = bent.Path[:len(bent.Path)-1], bent.Tiles[:len(bent.Tiles)-1]
					}
				}
				if !previewAgrees(t, s, bent) {
					refused++
				}
			}
		}
	}
	if played < 200 || refused < 200 || bonuses == 0 {
		t.Fatalf("only %d plays and %d refusals compared", played, refused)
	}
	t.Logf("%d plays (%d with a trap bonus) and %d refusals compared", played, bonuses, refused)
}

// TestPreviewChallengeAndSpectator: under check=challenge a word not in the dictionary previews
// without error (it may be challenged) and says so; a spectator has no rack.
func TestPreviewChallengeAndSpectator(t *testing.T) {
	s := emptyGame(t, 2, ByChallenge, "zxvjkea")
	m, err := ParseMove("h8 zxv e,e")
	if err != nil {
		t.Fatal(err)
	}
	v := s.ViewOf(0)
	p, err := v.Preview(m)
	if err != nil || p.Valid || p.Score != 10+8+4 {
		t.Fatalf("challenge mode: %+v, %v; want ZXV scoring 22, not valid", p, err)
	}
	if _, err := s.ApplyMove(0, m); err != nil {
		t.Fatalf("Apply refuses what Preview allows: %v", err)
	}
	auto := emptyGame(t, 2, Auto, "zxvjkea")
	va := auto.ViewOf(0)
	if _, err := va.Preview(m); !errors.Is(err, ErrNotWord) {
		t.Errorf("check=auto previews ZXV with %v, want not a word", err)
	}
	vs := s.ViewOf(rules.Spectator)
	if _, err := vs.Preview(m); !errors.Is(err, ErrNotInRack) {
		t.Errorf("a spectator's preview: %v, want letter not in rack", err)
	}
}
