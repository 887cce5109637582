package coloretta

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arcade/arcade/rules"
)

// TestCanonicalAndTell: every legal move of real games is its own canonical form, parses back to
// itself, and is told in words that name the cards.
func TestCanonicalAndTell(t *testing.T) {
	for seats := 2; seats <= 5; seats++ {
		s := newState(t, seats)
		rng := rand.New(rand.NewPCG(uint64(seats), 3))
		for !s.over {
			seat := s.turn
			moves := s.LegalMoves(rules.Seat(seat))
			for _, m := range moves {
				got, err := ParseMove(m.String())
				if err != nil || got != m {
					t.Fatalf("ParseMove(%q) = %v, %v", m, got, err)
				}
				if c, ok := s.Canonical(rules.Seat(seat), strings.ToUpper(m.String())); !ok || c != m.String() {
					t.Fatalf("Canonical(%q) = %q, %v", m, c, ok)
				}
			}
			m := moves[rng.IntN(len(moves))]
			words := s.Tell(rules.Seat(seat), m.String())
			note := s.Annotate(rules.Seat(seat), m.String())
			ns, err := s.ApplyMove(rules.Seat(seat), m)
			if err != nil {
				t.Fatal(err)
			}
			if note == "" || !strings.Contains(words, strings.TrimPrefix(note, "Last Cycle, ")) {
				t.Fatalf("Annotate(%s) = %q, told %q", m, note, words)
			}
			switch m.Kind {
			case Draw:
				if want := "draws " + ns.drawn.String(); !strings.HasPrefix(words, "draws ") ||
					!strings.HasSuffix(words, ns.drawn.String()) {
					t.Fatalf("Tell(d) = %q, want %q", words, want)
				}
			case Place:
				if want := "puts " + s.drawn.String() + " on stack "; !strings.HasPrefix(words, want) {
					t.Fatalf("Tell(%s) = %q, want %q...", m, words, want)
				}
			case Take:
				if !strings.HasPrefix(words, "takes stack ") {
					t.Fatalf("Tell(%s) = %q", m, words)
				}
			}
			s = ns
		}
	}
}
