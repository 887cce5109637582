package lhexicon

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon/dict"
)

// exhaustiveBest finds the best play of seat by brute force: every path from every hex, each
// empty hex taking each rack tile in turn (blanks as every letter), pruned only where the letters
// so far begin no word, each complete word checked and scored by the engine's own checkPlay.
func exhaustiveBest(s *State, seat rules.Seat) (best int, found bool) {
	d := dict.Words()
	rack := s.Rack(seat)
	used := make([]bool, len(rack))
	var path []Hex
	var tiles []Tile
	var onPath [NumHexes]bool
	var rec func(h Hex, spelled string)
	rec = func(h Hex, spelled string) {
		try := func(t Tile) {
			sp := spelled + t.Spell()
			if !d.HasPrefix(sp) {
				return
			}
			path = append(path, h)
			tiles = append(tiles, t)
			onPath[h] = true
			if d.Contains(sp) {
				var dirs []Dir
				for i := 1; i < len(path); i++ {
					dd, _ := path[i-1].DirTo(path[i])
					dirs = append(dirs, dd)
				}
				m := Move{Kind: Play, Start: path[0], Path: dirs, Tiles: append([]Tile(nil), tiles...)}
				if p, err := s.checkPlay(seat, m); err == nil && p.valid && (!found || p.score > best) {
					best, found = p.score, true
				}
			}
			for _, nb := range neighbour[h] {
				if nb != NoHex && !onPath[nb] {
					rec(nb, sp)
				}
			}
			onPath[h] = false
			path = path[:len(path)-1]
			tiles = tiles[:len(tiles)-1]
		}
		if t := s.board[h]; t != NoTile {
			try(t)
			return
		}
		for i, t := range rack {
			if used[i] {
				continue
			}
			used[i] = true
			if t == Blank {
				for l := Tile(1); l <= QU; l++ {
					try(l | Blank)
				}
			} else {
				try(t)
			}
			used[i] = false
		}
	}
	for h := range Hex(NumHexes) {
		rec(h, "")
	}
	return best, found
}

// greedyAgainstBruteForce gives seat the rack in s and checks that greedy's best play scores what
// an exhaustive search finds; it returns greedy's play.
func greedyAgainstBruteForce(t *testing.T, s *State, seat rules.Seat, seed uint64, rack string) (Candidate, bool) {
	t.Helper()
	setRack(t, s, seat, rack)
	want, ok := exhaustiveBest(s, seat)
	got, gotOK := s.BestPlay(context.Background(), seat, nil)
	if ok != gotOK || got.Score != want {
		t.Errorf("seed %d, rack %s: greedy found %v (%d), brute force %v (%d)", seed, rack, got.Move, got.Score, ok, want)
	}
	return got, gotOK
}

// Greedy finds the true best play: on small seeded positions (a few words on the board, a rack
// of 3 tiles), its score equals the brute-force best.
func TestGreedyIsBest(t *testing.T) {
	n := 12
	if testing.Short() {
		n = 4
	}
	letters := "aaabcdeeeefghiiijklmnoooprsstuuvwxyz"
	for i := range n {
		seed := uint64(300 + i)
		s := position(t, seed, 2+i%4)
		if s.over {
			continue
		}
		seat := s.Turn()
		rng := rand.New(rand.NewPCG(seed, 9))
		var rack strings.Builder
		for range 3 {
			rack.WriteByte(letters[rng.IntN(len(letters))])
		}
		if i%4 == 3 {
			rack.WriteByte('?')
		}
		got, gotOK := greedyAgainstBruteForce(t, s, seat, seed, rack.String())
		if gotOK {
			if _, err := s.ApplyMove(seat, got.Move); err != nil {
				t.Errorf("seed %d: greedy's play %v is refused: %v", seed, got.Move, err)
			}
		}
	}
}

// Every play the generator reports is legal and scores what it says.
func TestGeneratedPlaysAreLegal(t *testing.T) {
	for seed := range uint64(4) {
		s := position(t, 400+seed, int(seed)*2)
		seat := s.Turn()
		n := 0
		s.Generate(context.Background(), seat, func(c Candidate) bool {
			p, err := s.checkPlay(seat, c.Move)
			if err != nil || !p.valid || p.score != c.Score || p.bonus != c.Bonus {
				t.Fatalf("seed %d: %v (score %d bonus %d): %v %+v", seed, c.Move, c.Score, c.Bonus, err, p)
			}
			n++
			return n < 3000
		})
		if n == 0 {
			t.Errorf("seed %d: no play found", seed)
		}
	}
}

// Bots answer a word that may be challenged: greedy challenges a non-word and accepts a word.
func TestBotsChallenge(t *testing.T) {
	s := emptyGame(t, 3, ByChallenge, "ctaxxxx")
	s = mustPlay(t, s, 0, "h8 cta e,e")
	if mv := (Greedy{}).Move(t.Context(), s, 2, nil); mv != "challenge" {
		t.Errorf("greedy answered %q to CTA", mv)
	}
	if mv := (Easy{}).Move(t.Context(), s, 2, nil); mv != "accept" {
		t.Errorf("easy answered %q", mv)
	}
	s = emptyGame(t, 3, ByChallenge, "catxxxx")
	s = mustPlay(t, s, 0, "h8 cat e,e")
	if mv := (Hard{}).Move(t.Context(), s, 2, nil); mv != "accept" {
		t.Errorf("hard answered %q to CAT", mv)
	}
}
