package stonetowers

import (
	"strings"
	"testing"

	"github.com/arcade/arcade/rules"
)

// picture builds a state from an ASCII picture, one row per line from the top, squares separated
// by spaces: "." unowned, "r"/"b" a Red/Blue flag, "R1".."R3"/"B1".."B3" a castle. toMove is the
// seat to act; each player has turns turns in all, of which the mover has left turnsLeft. When
// settle is set the board is resolved first (as any reachable position is).
func picture(t testing.TB, pic string, toMove rules.Seat, turnsLeft int, settle bool) *State {
	t.Helper()
	var rows [][]string
	for _, line := range strings.Split(strings.TrimSpace(pic), "\n") {
		rows = append(rows, strings.Fields(line))
	}
	n := len(rows)
	s := &State{b: board{n: n}, turns: 25}
	for r, row := range rows {
		if len(row) != n {
			t.Fatalf("picture row %d has %d squares, want %d", r+1, len(row), n)
		}
		for c, w := range row {
			var x cell
			switch {
			case w == ".":
			case w == "r":
				x = flagOf(0)
			case w == "b":
				x = flagOf(1)
			case len(w) == 2 && (w[0] == 'R' || w[0] == 'B') && w[1] >= '1' && w[1] <= '3':
				p := 0
				if w[0] == 'B' {
					p = 1
				}
				x = castleOf(p, int(w[1]-'0'))
			default:
				t.Fatalf("picture: bad square %q", w)
			}
			s.b.c[r*n+c] = x
		}
	}
	if settle {
		s.b.resolve(nil)
	}
	// Red has played as many turns as Blue, or one more when Blue is to move.
	s.played = [2]int{s.turns - turnsLeft, s.turns - turnsLeft}
	if toMove == Blue {
		s.played[0]++
	}
	return s
}

// draw returns the board as a picture (see picture).
func draw(s *State) string {
	var sb strings.Builder
	n := s.b.n
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if c > 0 {
				sb.WriteByte(' ')
			}
			x := s.b.c[r*n+c]
			switch {
			case x == unowned:
				sb.WriteString(".")
			case x.level() == 0:
				sb.WriteString([]string{"r", "b"}[x.owner()])
			default:
				sb.WriteString([]string{"R", "B"}[x.owner()])
				sb.WriteByte(byte('0' + x.level()))
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// mustPlay plays move for the seat to move and fails the test on an error.
func mustPlay(t testing.TB, s *State, move string) *State {
	t.Helper()
	e, err := s.Apply(s.Next(), move)
	if err != nil {
		t.Fatalf("%s: %v\n%s", move, err, draw(s))
	}
	return e.(*State)
}
