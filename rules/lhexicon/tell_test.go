package lhexicon

import (
	"math/rand/v2"
	"testing"

	"github.com/arcade/arcade/rules"
)

// TestCanonicalAndTell: a play is written with the tiles on occupied hexes as the board has them,
// whatever case was typed; every kind of move is told in words that name no player and no rack
// tile; a refused move has no canonical form and is told as written.
func TestCanonicalAndTell(t *testing.T) {
	s := emptyGame(t, 2, Auto, "cat?xxx")
	canon := func(s *State, seat rules.Seat, typed, want string) {
		t.Helper()
		if got, ok := s.Canonical(seat, typed); !ok || got != want {
			t.Errorf("Canonical(%q) = %q, %v; want %q", typed, got, ok, want)
		}
	}
	tell := func(s *State, seat rules.Seat, move, want string) {
		t.Helper()
		if got := s.Tell(seat, move); got != want {
			t.Errorf("Tell(%q) = %q, want %q", move, got, want)
		}
	}
	canon(s, 0, "H8 cAt E-E", "h8 cAt e,e")
	tell(s, 0, "h8 cAt e,e", "plays CAT from h8 for 4") // the blank scores nothing
	tell(s, 0, "x cx", "exchanges 2 tiles")
	tell(s, 0, "x c", "exchanges 1 tile")
	tell(s, 0, "pass", "passes")
	if _, ok := s.Canonical(0, "h8 cta e,e"); ok {
		t.Error("a word not in the dictionary has a canonical form")
	}
	tell(s, 0, "h8 cta e,e", "h8 cta e,e")
	s = mustPlay(t, s, 0, "h8 cAt e,e")

	// The next word goes through the blank, typed in lower case, and an upper-case C on the c.
	setRack(t, s, 1, "sxxxxxx")
	canon(s, 1, "h8 Cats e,e,e", "h8 cAts e,e,e")
	tell(s, 1, "h8 cats e,e,e", "plays CATS from h8 for 5")

	// Challenges, both ways, and an accept.
	s = emptyGame(t, 3, ByChallenge, "ctaxxxx")
	s = mustPlay(t, s, 0, "h8 cta e,e")
	tell(s, 1, "challenge", "challenges CTA: not a word, withdrawn")
	tell(s, 2, "accept", "accepts CTA")
	s = emptyGame(t, 2, ByChallenge, "catxxxx")
	s = mustPlay(t, s, 0, "h8 cat e,e")
	tell(s, 1, "challenge", "challenges CAT: a word; the challenger loses a turn")
	tell(emptyGame(t, 1, Auto, "catxxxx"), 0, "end", "ends the game")
}

// TestLegalIsCanonical: every move Legal lists, along a seeded game, is its own canonical form.
func TestLegalIsCanonical(t *testing.T) {
	st, err := NewState(2, Auto, TimerOff, 11)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(11, 1))
	for ply := 0; ply < 12 && !st.over; ply++ {
		seat := st.Turn()
		legal := st.Legal(seat)
		for _, m := range legal {
			if c, ok := st.Canonical(seat, m); !ok || c != m {
				t.Fatalf("ply %d: Canonical(%q) = %q, %v", ply, m, c, ok)
			}
		}
		st = mustPlay(t, st, seat, legal[rng.IntN(len(legal))])
	}
}

// TestConceal: an exchange's tiles are hidden from the others; every other move is public.
func TestConceal(t *testing.T) {
	s := emptyGame(t, 2, Auto, "cat?xxx")
	for move, want := range map[string]string{"x ab?": "x 3 tiles", "x c": "x 1 tile", "pass": "pass",
		"h8 cat e,e": "h8 cat e,e"} {
		if got := s.Conceal(move); got != want {
			t.Errorf("Conceal(%q) = %q, want %q", move, got, want)
		}
	}
	if got := rules.ConcealMove(s, "pass"); got != "" {
		t.Errorf("ConcealMove of a public move = %q, want \"\"", got)
	}
}
