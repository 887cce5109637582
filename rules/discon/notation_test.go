package discon

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arcade/arcade/rules"
)

// TestShownMovesParse: every legal move of real positions, in the form the screens show it
// ("R1 a1-c2", with "*" when the tower is left behind) and in canonical notation, parses back to
// the same move, and Apply takes the shown form as it takes the canonical one.
func TestShownMovesParse(t *testing.T) {
	for seats := 2; seats <= 4; seats++ {
		rng := rand.New(rand.NewPCG(uint64(seats), 7))
		s, err := NewState(Premium, seats, uint64(seats))
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; !s.over && step < 400; step++ {
			seat := s.turn
			moves := s.LegalMoves(seat)
			for _, m := range moves {
				for _, text := range []string{m.Shown(seat), m.String(), strings.ToLower(m.Shown(seat))} {
					got, err := ParseMove(text)
					if err != nil || got != m {
						t.Fatalf("ParseMove(%q) = %v, %v; want %v", text, got, err, m)
					}
				}
			}
			m := moves[rng.IntN(len(moves))]
			a, err := s.Apply(seat, m.Shown(seat))
			if err != nil {
				t.Fatalf("Apply(%q): %v", m.Shown(seat), err)
			}
			b, err := s.Apply(seat, m.String())
			if err != nil {
				t.Fatalf("Apply(%q): %v", m.String(), err)
			}
			if *a.(*State) != *b.(*State) {
				t.Fatalf("%q and %q give different positions", m.Shown(seat), m.String())
			}
			s = a.(*State)
		}
	}
}

// TestOtherSeatsLetterRefused: "G1 ..." names Green's piece; Red may not play it as its own.
func TestOtherSeatsLetterRefused(t *testing.T) {
	s, err := NewState(Premium, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	refuse(t, s, 0, "G1 a1-c2", "G1 is Green's piece", nil)
	play(t, s, "R1 a1-c2", "r1 c2-e3")
	if got := MoveSeat("pass"); got != -1 {
		t.Errorf("MoveSeat(pass) = %d", got)
	}
}

// TestLastTurn: the view holds both moves of the latest turn, the one in progress or the one
// before.
func TestLastTurn(t *testing.T) {
	s, err := NewState(Premium, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	s = play(t, s, "1 a1-c2", "1 c2-e3")
	v := s.ViewOf(rules.Spectator)
	if len(v.LastTurn) != 2 || v.LastTurn[0].String() != "1 a1-c2" || v.LastTurn[1].String() != "1 c2-e3" ||
		v.LastSeat != 0 {
		t.Fatalf("last turn %v by %d", v.LastTurn, v.LastSeat)
	}
	s = play(t, s, "1 j10-h9")
	v = s.ViewOf(rules.Spectator)
	if len(v.LastTurn) != 1 || v.LastTurn[0].String() != "1 j10-h9" || v.LastSeat != 1 {
		t.Fatalf("last turn %v by %d", v.LastTurn, v.LastSeat)
	}
}

// TestCanonicalAndTell: what a player types is recorded in canonical form, origin filled in, and
// told in words.
func TestCanonicalAndTell(t *testing.T) {
	s := bare(t, Premium, 2).put(0, 1, "d4", "VV").lay("b3", "P").lay("f5", "VPV").lay("f3", "I")
	for in, want := range map[string]string{"1 b3": "1 d4-b3", "R1 d4-b3*": "1 d4-b3*", "1F5": "1 d4-f5"} {
		if c, ok := s.Canonical(0, in); !ok || c != want {
			t.Errorf("Canonical(%q) = %q, %v; want %q", in, c, ok, want)
		}
	}
	for in, want := range map[string]string{
		"1 b3":  "R1 d4-b3 collects a pink disc",
		"1 b3*": "R1 d4-b3* leaves its tower of 2 behind, takes a pink disc",
		"1 f5":  "R1 d4-f5 collects a stack of 3",
		"1 b5":  "R1 d4-b5 lands on an empty square",
		"1 b5*": "R1 d4-b5* leaves its tower of 2 behind on d4",
		"9 zz":  "9 zz",
		"G1 b3": "G1 b3",
	} {
		if got := s.Tell(0, in); got != want {
			t.Errorf("Tell(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCanonicalAgreesWithApply: Canonical takes a move exactly when Apply does, junk and the
// other seats' moves included.
func TestCanonicalAgreesWithApply(t *testing.T) {
	s, err := NewState(Premium, 3, 4)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(4, 4))
	for step := 0; !s.over && step < 60; step++ {
		for seat := range rules.Seat(3) {
			for _, text := range append(junk(s, rng), s.Legal(s.turn)...) {
				_, err := s.Apply(seat, text)
				c, ok := s.Canonical(seat, text)
				if ok != (err == nil) {
					t.Fatalf("%s %q: Canonical %q %v, Apply %v", SeatName(seat), text, c, ok, err)
				}
			}
		}
		legal := s.Legal(s.turn)
		s = play(t, s, legal[rng.IntN(len(legal))])
	}
}
