package stonetowers

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arcade/arcade/rules"
)

// junk returns a random string that is probably not a legal move.
func junk(rng *rand.Rand, n int) string {
	switch rng.IntN(5) {
	case 0:
		b := make([]byte, rng.IntN(8))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return string(b)
	case 1:
		return string(rune('a'+rng.IntN(26))) + string(rune('0'+rng.IntN(10))) + string(rune('0'+rng.IntN(3)))
	case 2:
		return []string{"b ", "f ", "build ", "fortify ", "", "x "}[rng.IntN(6)] +
			Square{Col: rng.IntN(n + 2), Row: rng.IntN(n + 2)}.String()
	case 3:
		return []string{"pass", "p", "PASS", "b", "f", "", "  ", "b e5 e6"}[rng.IntN(8)]
	}
	return Square{Col: rng.IntN(n), Row: rng.IntN(n)}.String()
}

// spell returns m in a random one of its accepted spellings, given the state it is played in.
func spell(rng *rand.Rand, s *State, m Move) string {
	if m.Action == Pass {
		return []string{"pass", "PASS", " p "}[rng.IntN(3)]
	}
	sq := m.Square.String()
	forms := []string{m.String(), strings.ToUpper(m.String()), m.String()[:1] + sq,
		map[Action]string{Build: "build ", Fortify: "Fortify "}[m.Action] + sq}
	if auto, err := s.Resolve(s.Next(), Move{Auto, m.Square}); err == nil && auto == m {
		forms = append(forms, sq, strings.ToUpper(sq))
	}
	return forms[rng.IntN(len(forms))]
}

// TestRandomPlayouts plays many seeded games of random legal moves, throwing junk at the engine on
// the way, and checks the engine's invariants at every step.
func TestRandomPlayouts(t *testing.T) {
	games := 120
	if testing.Short() {
		games = 20
	}
	for g := range games {
		rng := rand.New(rand.NewPCG(uint64(g), 99))
		size := MinSize + g%(MaxSize-MinSize+1)
		turns := MinTurns + rng.IntN(11)
		if g%10 == 0 {
			turns = MaxTurns // long games reach full boards and fights
		}
		s, err := NewState(size, turns)
		if err != nil {
			t.Fatal(err)
		}
		actions := 0
		for !s.Over() {
			seat := s.Next()
			legal := s.Legal(seat)
			if len(legal) == 0 || s.Legal(1-seat) != nil {
				t.Fatalf("game %d: Legal(%d) = %v, Legal(%d) = %v", g, seat, legal, 1-seat, s.Legal(1-seat))
			}
			// The board is settled between actions.
			if settled := s.b; settled.resolve(nil) != 0 {
				t.Fatalf("game %d: unsettled board\n%s", g, draw(s))
			}
			before := draw(s)
			// Junk is refused without a change, or is a legal move.
			for range 3 {
				text := junk(rng, size)
				e, err := s.Apply(seat, text)
				if err == nil {
					m, _ := s.Resolve(seat, mustParse(t, text))
					if !slices.Contains(legal, m.String()) || e.(*State).Last().Notation != m.String() {
						t.Fatalf("game %d: %q accepted as %v, not in Legal %v", g, text, m, legal)
					}
				} else if e != rules.Engine(s) || draw(s) != before {
					t.Fatalf("game %d: refused %q changed the state", g, text)
				}
			}
			if _, err := s.Apply(1-seat, legal[0]); !errors.Is(err, rules.ErrNotYourTurn) {
				t.Fatalf("game %d: the other seat played: %v", g, err)
			}
			// Play a random legal move in a random spelling.
			m := s.LegalMoves(seat)[rng.IntN(len(legal))]
			text := spell(rng, s, m)
			e, err := s.Apply(seat, text)
			if err != nil {
				t.Fatalf("game %d: legal move %q (%v) refused: %v\n%s", g, text, m, err, before)
			}
			ns := e.(*State)
			actions++
			if draw(s) != before {
				t.Fatalf("game %d: Apply changed its receiver", g)
			}
			if l := ns.Last(); l == nil || l.Notation != m.String() || l.Seat != seat || l.Move != m {
				t.Fatalf("game %d: %q recorded as %+v, want %v", g, text, l, m)
			}
			// The bots' local resolution agrees with the engine's.
			var p ply
			if m.Action == Pass {
				p = mkPly(Pass, 0)
			} else {
				p = mkPly(m.Action, s.index(m.Square))
			}
			if b := s.b.play(int(seat), p); b != ns.b {
				t.Fatalf("game %d: settle and resolve disagree after %v\nbefore\n%safter\n%s", g, m, before, draw(ns))
			}
			checkChanges(t, s, ns)
			s = ns
		}
		if actions != 2*turns || s.TurnsLeft(Red) != 0 || s.TurnsLeft(Blue) != 0 {
			t.Fatalf("game %d: ended after %d actions, want %d", g, actions, 2*turns)
		}
		o := s.Outcome()
		v := s.Snapshot()
		var owned [2]int
		for _, row := range v.Grid {
			for _, sq := range row {
				if sq.Owner != Nobody {
					owned[sq.Owner]++
				}
			}
		}
		if !o.Over || !slices.Equal(o.Scores, owned[:]) || v.Scores != owned || !v.Over || v.ToMove != Nobody ||
			!slices.Equal(o.Ranks, rules.RankByScore(owned[:])) {
			t.Fatalf("game %d: outcome %+v, view scores %v, owned %v", g, o, v.Scores, owned)
		}
	}
}

func mustParse(t *testing.T, text string) Move {
	t.Helper()
	m, err := ParseMove(text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// checkChanges checks that ns.Changes describes the step from s to ns.
func checkChanges(t *testing.T, s, ns *State) {
	t.Helper()
	cur := s.Snapshot()
	wave := 0
	for _, c := range ns.Changes() {
		if c.Wave < wave || (c.Wave == 0) != (c.Kind == CastleBuilt || c.Kind == CastleFortified) {
			t.Fatalf("change %+v out of order", c)
		}
		wave = c.Wave
		if got := cur.Grid[c.Square.Row][c.Square.Col].Cell; got != c.Before || c.Before == c.After {
			t.Fatalf("change %+v: square was %+v", c, got)
		}
		cur.Grid[c.Square.Row][c.Square.Col].Cell = c.After
	}
	want := ns.Snapshot()
	for r := range want.Grid {
		for c := range want.Grid[r] {
			if cur.Grid[r][c].Cell != want.Grid[r][c].Cell {
				t.Fatalf("changes do not account for %v", Square{c, r})
			}
		}
	}
}

// FuzzApply checks that no text makes the engine panic, that an accepted move is legal, and that a
// move that decodes re-encodes to an equal move.
func FuzzApply(f *testing.F) {
	for _, s := range []string{"b e5", "f e5", "pass", "e5", "be5", "build a1", "fortify l12", "p", "",
		"b e17", "z99", "\x00", "b  e5", "e05", "pass pass", "f"} {
		f.Add(s)
	}
	start, _ := NewState(12, 25)
	mid := start
	rng := rand.New(rand.NewPCG(5, 5))
	for range 30 {
		ms := mid.LegalMoves(mid.Next())
		mid, _ = mid.Play(mid.Next(), ms[rng.IntN(len(ms))])
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseMove(text)
		if err == nil {
			again, err := ParseMove(m.String())
			if err != nil || again != m {
				t.Fatalf("%q decodes to %+v, which re-encodes to %q, which decodes to %+v, %v", text, m, m.String(), again, err)
			}
		} else if !errors.Is(err, rules.ErrBadNotation) {
			t.Fatalf("%q: %v does not wrap ErrBadNotation", text, err)
		}
		for _, s := range []*State{start, mid} {
			before := draw(s)
			for _, seat := range []rules.Seat{Red, Blue, rules.Spectator, 7} {
				e, err := s.Apply(seat, text)
				if draw(s) != before {
					t.Fatalf("%q changed the state", text)
				}
				if err != nil {
					continue
				}
				l := e.(*State).Last()
				if l.Seat != seat || !slices.Contains(s.Legal(seat), l.Notation) {
					t.Fatalf("%q accepted for seat %d as %+v, not a legal move", text, seat, l)
				}
			}
		}
	})
}
