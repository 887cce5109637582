package stonetowers

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arcade/arcade/rules"
)

// Square is a square of the board, 0-based: Col 0 is the leftmost column (letter a) and Row 0 the
// top row as drawn (number 1).
type Square struct {
	Col, Row int
}

// String returns the square in notation: column letter and row number, "e5".
func (s Square) String() string {
	if s.Col < 0 || s.Col >= 26 || s.Row < 0 {
		return "?"
	}
	return string(rune('a'+s.Col)) + strconv.Itoa(s.Row+1)
}

// ParseSquare reads a square such as "e5" or "E5": a column letter a to z and a row number 1 to 99.
// It does not know the board's size; the engine rejects squares off the board.
func ParseSquare(text string) (Square, error) {
	if sq, ok := parseSquare(strings.ToLower(strings.TrimSpace(text))); ok {
		return sq, nil
	}
	return Square{}, fmt.Errorf("%w: %q is not a square like e5", rules.ErrBadNotation, clip(text))
}

func parseSquare(t string) (Square, bool) {
	if len(t) < 2 || len(t) > 3 || t[0] < 'a' || t[0] > 'z' {
		return Square{}, false
	}
	row := 0
	for _, d := range []byte(t[1:]) {
		if d < '0' || d > '9' {
			return Square{}, false
		}
		row = row*10 + int(d-'0')
	}
	if row < 1 {
		return Square{}, false
	}
	return Square{Col: int(t[0] - 'a'), Row: row - 1}, true
}

// Action is what a move does.
type Action uint8

// The actions. The zero Action is not a move.
const (
	// Build puts a level-1 castle on an unowned square or on the mover's own flag.
	Build Action = iota + 1
	// Fortify raises one of the mover's castles by one level.
	Fortify
	// Pass does nothing; it is legal only when the mover can neither build nor fortify.
	Pass
	// Auto is a bare square ("e5"): the one action possible there, build on unowned land or on the
	// mover's own flag, fortify on the mover's own castle. State.Resolve turns it into Build or
	// Fortify; Legal never lists it.
	Auto
)

// String returns the action's name.
func (a Action) String() string {
	switch a {
	case Build:
		return "build"
	case Fortify:
		return "fortify"
	case Pass:
		return "pass"
	case Auto:
		return "auto"
	}
	return "no action"
}

// Move is one turn's action. Square is unused for Pass.
type Move struct {
	Action Action
	Square Square
}

// String returns the move in canonical notation: "b e5", "f e5", "pass", or "e5" for Auto.
func (m Move) String() string {
	switch m.Action {
	case Build:
		return "b " + m.Square.String()
	case Fortify:
		return "f " + m.Square.String()
	case Pass:
		return "pass"
	case Auto:
		return m.Square.String()
	}
	return "?"
}

// ParseMove reads a move. It is lenient: case and extra spaces do not matter, and it accepts
// "b e5", "build e5", "be5", "f e5", "fortify e5", "fe5", "pass" (or "p"), and a bare "e5", which
// gives an Auto move. Text that is none of these is an error wrapping rules.ErrBadNotation.
// ParseMove(m.String()) gives back m for every move it returns.
func ParseMove(text string) (Move, error) {
	f := strings.Fields(strings.ToLower(text))
	switch len(f) {
	case 1:
		w := f[0]
		if w == "pass" || w == "p" {
			return Move{Action: Pass}, nil
		}
		if sq, ok := parseSquare(w); ok {
			return Move{Action: Auto, Square: sq}, nil
		}
		if a := verb(w[:1]); a != 0 {
			if sq, ok := parseSquare(w[1:]); ok {
				return Move{Action: a, Square: sq}, nil
			}
		}
	case 2:
		if a := verb(f[0]); a != 0 {
			if sq, ok := parseSquare(f[1]); ok {
				return Move{Action: a, Square: sq}, nil
			}
		}
	}
	return Move{}, fmt.Errorf(`%w: %q (type "b e5" to build on e5, "f e5" to fortify it, or "pass")`,
		rules.ErrBadNotation, clip(text))
}

func verb(w string) Action {
	switch w {
	case "b", "build":
		return Build
	case "f", "fortify":
		return Fortify
	}
	return 0
}

// clip shortens text quoted back to a player.
func clip(text string) string {
	if r := []rune(text); len(r) > 24 {
		return string(r[:24]) + "..."
	}
	return text
}
