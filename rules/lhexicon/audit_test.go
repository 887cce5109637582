package lhexicon

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arcade/arcade/rules"
)

// TestQuTile: the Qu tile spells "qu" where it lies, on the rack and on the board: QUAT is a
// word, QUAID (for QAID) is not; a lone q is no tile; a blank may stand for a lone Q.
func TestQuTile(t *testing.T) {
	s := mustPlay(t, emptyGame(t, 2, Auto, "quatzzz"), 0, "h8 quat e,e")
	if s.last.Word != "quat" || s.last.Score != 10+1+1 {
		t.Errorf("QUAT: %+v", s.last)
	}
	// QAID is a word, but the Qu tile spells QUAID, which is not.
	refuse(t, emptyGame(t, 2, Auto, "quaidzz"), 0, "h8 quaid e,e,e", ErrNotWord)
	refuse(t, emptyGame(t, 2, Auto, "quaidzz"), 0, "h8 qaid e,e,e", rules.ErrBadNotation)
	// Without a blank, no lone Q; with one, QAID is made (the blank scores 0).
	refuse(t, emptyGame(t, 2, Auto, "quaidzz"), 0, "h8 Qaid e,e,e", ErrNotInRack)
	q := mustPlay(t, emptyGame(t, 2, Auto, "?aidzzz"), 0, "h8 Qaid e,e,e")
	if q.last.Word != "qaid" || q.last.Score != 0+1+1+2 {
		t.Errorf("QAID with a blank Q: %+v", q.last)
	}
	// The Qu tile on the board spells "qu" in a later word too: QUIZ, then QUAT westwards
	// from its Qu (away from the I, so the rule of contact holds).
	s = mustPlay(t, emptyGame(t, 2, Auto, "quizzzz"), 0, "h8 quiz e,e")
	setRack(t, s, 1, "atzzzzz")
	s2 := mustPlay(t, s, 1, "h8 quat w,w")
	if s2.last.Word != "quat" || s2.last.Score != 10+1+1 {
		t.Errorf("QUAT through the board's Qu: %+v", s2.last)
	}
	setRack(t, s, 1, "aidzzzz")
	refuse(t, s, 1, "h8 quaid w,w,w", ErrNotWord)
}

// TestGreedyWithQu: with the Qu tile (or a blank) on the rack, the generator's plays are legal
// and Greedy's best equals the brute-force best, which spells the Qu tile "qu".
func TestGreedyWithQu(t *testing.T) {
	n := 6
	if testing.Short() {
		n = 3
	}
	letters := "aaeeiioouursstn"
	for i := range n {
		seed := uint64(700 + i)
		s := position(t, seed, 2*i)
		if s.over {
			continue
		}
		seat := s.Turn()
		rng := rand.New(rand.NewPCG(seed, 11))
		var rack strings.Builder
		rack.WriteString("qu")
		for range 2 {
			rack.WriteByte(letters[rng.IntN(len(letters))])
		}
		if i%3 == 2 {
			rack.WriteByte('?')
		}
		got, _ := greedyAgainstBruteForce(t, s, seat, seed, rack.String())
		t.Logf("seed %d rack %s: %v %d", seed, rack.String(), got.Move, got.Score)
		s.Generate(context.Background(), seat, func(c Candidate) bool {
			if p, err := s.checkPlay(seat, c.Move); err != nil || !p.valid || p.score != c.Score {
				t.Fatalf("seed %d: generated %v (score %d): %v", seed, c.Move, c.Score, err)
			}
			return true
		})
	}
}

// TestEdgeRegionIsNoTrapInPlay: a word that closes a ring round a hex on the board's edge earns
// no trap bonus; the same region is no trap afterwards.
func TestEdgeRegionIsNoTrapInPlay(t *testing.T) {
	// The top row's hex (3, -7) has four neighbours on the board: (2, -7), (2, -6), (3, -6)
	// and (4, -7). An E on the first; EAST placed round the rest of them.
	s := emptyGame(t, 2, Auto, "astzzzz")
	putAt(t, s, "e", ax(t, 2, -7))
	s = mustPlay(t, s, 0, ax(t, 2, -7).String()+" east se,e,ne")
	if s.last.Bonus != 0 || s.last.Score != 4 {
		t.Errorf("EAST round the edge hex: score %d, bonus %d; want 4 and 0", s.last.Score, s.last.Bonus)
	}
	for _, nb := range ax(t, 3, -7).Neighbours() {
		if nb != NoHex && s.board[nb] == NoTile {
			t.Fatalf("the edge hex's neighbour %s is empty", nb)
		}
	}
	if tr := s.Traps(); len(tr) != 0 {
		t.Errorf("traps %v", tr)
	}
}

// TestExchangeLimitedByTheBank: late in a seeded game, with fewer tiles in the bank than on the
// rack, an exchange of more tiles than the bank holds is refused (and changes nothing), one of
// as many is played, and every tile is accounted for.
func TestExchangeLimitedByTheBank(t *testing.T) {
	s, err := NewState(2, Auto, TimerOff, 21)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(21, 1))
	for ply := 0; s.Bank() >= RackSize || s.Bank() == 0 || len(s.Rack(s.Turn())) < s.Bank()+1; ply++ {
		if s.over || ply > 500 {
			t.Fatalf("no position with a few tiles in the bank (ply %d, bank %d)", ply, s.Bank())
		}
		seat := s.ToMove()[0]
		s = mustPlay(t, s, seat, Easy{}.Move(context.Background(), s, seat, rng))
	}
	seat, bank := s.Turn(), s.Bank()
	t.Logf("bank %d, rack %v", bank, s.Rack(seat))
	rack := s.Rack(seat)
	too := Move{Kind: Exchange, Give: rack[:bank+1]}.String()
	if err := refuse(t, s, seat, too, nil); !strings.Contains(err.Error(), "at most") {
		t.Errorf("%q with %d in the bank: %v", too, bank, err)
	}
	n := mustPlay(t, s, seat, Move{Kind: Exchange, Give: rack[:bank]}.String())
	if n.Bank() != bank || len(n.Rack(seat)) != len(rack) || n.Turn() == seat || n.last.Count != bank {
		t.Errorf("after exchanging %d: bank %d, rack %v, turn %d", bank, n.Bank(), n.Rack(seat), n.Turn())
	}
	accountFor(t, n)
}

// TestSwapBothBlanks: a player holding both letters takes both blanks in one turn; holding one
// of them, the swap of both is refused and nothing changes.
func TestSwapBothBlanks(t *testing.T) {
	s := mustPlay(t, emptyGame(t, 2, Auto, "?a?zzzz"), 0, "h8 CaT e,e")
	c, a, tt := Centre, Centre.Step(E), Centre.Step(E).Step(E)
	if !s.board[c].IsBlank() || s.board[a].IsBlank() || !s.board[tt].IsBlank() {
		t.Fatalf("CAT with blanks C and T: %v %v %v", s.board[c], s.board[a], s.board[tt])
	}
	setRack(t, s, 1, "czzzzzz")
	refuse(t, s, 1, "s "+c.String()+" "+tt.String(), ErrNotInRack)
	setRack(t, s, 1, "tczzzzz")
	n := mustPlay(t, s, 1, "s "+tt.String()+" "+c.String())
	if n.board[c] != LetterTile('c') || n.board[tt] != LetterTile('t') {
		t.Errorf("after the swap: %v %v", n.board[c], n.board[tt])
	}
	if r := n.Rack(1); tilesString(r) != "??zzzzz" {
		t.Errorf("the rack after the swap: %s", tilesString(r))
	}
	if n.Turn() != 0 || n.Stall() != 0 {
		t.Errorf("turn %d, stall %d", n.Turn(), n.Stall())
	}
}

// TestChallengeTheLastPlay: in challenge mode, a play that uses the last tiles with the bank
// empty waits for the opponents: a good challenge withdraws it and the match goes on; a bad one,
// or an accept, lets it stand and ends the match.
func TestChallengeTheLastPlay(t *testing.T) {
	last := func(word string) *State {
		s, err := NewState(2, ByChallenge, TimerOff, 1)
		if err != nil {
			t.Fatal(err)
		}
		setRack(t, s, 0, word)
		setRack(t, s, 1, "zzzzzzz")
		s.nbag = 0
		s = mustPlay(t, s, 0, "h8 "+word+" e,e")
		if s.over || s.Turn() != -1 || len(s.ToMove()) != 1 || s.ToMove()[0] != 1 {
			t.Fatalf("%s: over %v, turn %d, to move %v", word, s.over, s.Turn(), s.ToMove())
		}
		refuse(t, s, 1, "pass", nil)
		return s
	}
	s := mustPlay(t, last("cta"), 1, "challenge")
	if s.over || s.board[Centre] != NoTile || len(s.Rack(0)) != 3 || s.scores[0] != 0 || s.Turn() != 1 {
		t.Errorf("a good challenge of the last play: over %v, rack %v, score %d, turn %d",
			s.over, s.Rack(0), s.scores[0], s.Turn())
	}
	for _, answer := range []string{"challenge", "accept"} {
		s = mustPlay(t, last("cat"), 1, answer)
		if !s.over || s.scores[0] != 5 || s.Outcome().Ranks[0] != 1 {
			t.Errorf("%s of the last play CAT: over %v, scores %v", answer, s.over, s.scores)
		}
	}
}
