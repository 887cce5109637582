package discon

import (
	"errors"
	"testing"

	"github.com/arcade/arcade/rules"
)

func TestSquares(t *testing.T) {
	for q := range Square(Size * Size) {
		got, err := ParseSquare(q.String())
		if err != nil || got != q {
			t.Errorf("%s: %v, %v", q, got, err)
		}
	}
	for name, want := range map[string]Square{"a1": 0, "j1": 9, "a10": 90, "j10": 99, "c4": At(3, 2),
		"D6": At(5, 3)} {
		if got, err := ParseSquare(name); err != nil || got != want {
			t.Errorf("ParseSquare(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	for _, bad := range []string{"", "a", "k1", "a0", "a11", "a1x", "1a", "a01"} {
		if _, err := ParseSquare(bad); err == nil {
			t.Errorf("ParseSquare(%q) accepted", bad)
		}
	}
	if NoSquare.String() != "-" {
		t.Errorf("NoSquare prints %q", NoSquare)
	}
}

func TestParseMove(t *testing.T) {
	for in, want := range map[string]string{
		"3 c4-d6":       "3 c4-d6",
		"3 c4-d6*":      "3 c4-d6*",
		"3c4d6":         "3 c4-d6",
		"3 C4 D6":       "3 c4-d6",
		"3 c4 - d6":     "3 c4-d6",
		"3 c4xd6":       "3 c4-d6",
		"3d6":           "3 d6",
		"3 d6":          "3 d6",
		"3 d6 leave":    "3 d6*",
		"3 d6*":         "3 d6*",
		"3d6 l":         "3 d6*",
		" 6 j10-h9 ":    "6 j10-h9",
		"1 a10-b8 *":    "1 a10-b8*",
		"2 h9-j10leave": "2 h9-j10*",
		"pass":          "pass",
		"END":           "end",
	} {
		m, err := ParseMove(in)
		if err != nil {
			t.Errorf("ParseMove(%q): %v", in, err)
			continue
		}
		if m.String() != want {
			t.Errorf("ParseMove(%q) = %s, want %s", in, m, want)
		}
		again, err := ParseMove(m.String())
		if err != nil || again != m {
			t.Errorf("round trip of %q: %+v, %v", in, again, err)
		}
	}
	for _, bad := range []string{"", "0 c4", "3", "3 k4", "3 c11", "3 c0", "3 c4-", "3 c4-d6 x",
		"x3 c4", "3 c4-d6**", "10 c4", "3 c4 d6 e7", "passs", "3 leave", "-1 c4"} {
		if m, err := ParseMove(bad); err == nil {
			t.Errorf("ParseMove(%q) = %v, want an error", bad, m)
		} else if !errors.Is(err, rules.ErrBadNotation) {
			t.Errorf("ParseMove(%q): %v does not wrap ErrBadNotation", bad, err)
		}
	}
	m, _ := ParseMove("3 d6")
	if m.From != NoSquare || m.To != At(5, 3) || m.Piece != 3 || m.Leave || m.Kind != Jump {
		t.Errorf("3 d6 = %+v", m)
	}
}
