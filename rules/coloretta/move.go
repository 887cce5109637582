package coloretta

import (
	"fmt"
	"strings"

	"github.com/arcade/arcade/rules"
)

// MaxStacks is the most game stacks a table can have (one per player, 5 players).
const MaxStacks = 5

// MoveKind says what a move does.
type MoveKind uint8

// The kinds of move.
const (
	// Draw turns up the top card of the deck; the same player then places it.
	Draw MoveKind = iota + 1
	// Place puts the drawn card on a stack.
	Place
	// Take picks a stack: its cards go into the player's hand.
	Take
)

// Move is one move. Notation: "d" draws, "p3" places the drawn card on stack 3, "t2" takes (picks)
// stack 2. Stacks are numbered 1 to 5 in notation and on screen.
type Move struct {
	// Kind says what the move does.
	Kind MoveKind
	// Stack is the 0-based index of the stack (as in View.Stacks) for Place and Take; 0 for Draw.
	Stack int
}

// String returns the move's canonical notation: "d", "p1".."p5" or "t1".."t5".
func (m Move) String() string {
	switch m.Kind {
	case Draw:
		return "d"
	case Place:
		return fmt.Sprintf("p%d", m.Stack+1)
	case Take:
		return fmt.Sprintf("t%d", m.Stack+1)
	}
	return "?"
}

// ParseMove decodes a move in notation. Case and surrounding spaces are ignored. A move that cannot
// be decoded is an error wrapping rules.ErrBadNotation; whether the move is legal is Apply's
// business.
func ParseMove(s string) (Move, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "d" {
		return Move{Kind: Draw}, nil
	}
	if len(t) == 2 && t[1] >= '1' && t[1] <= '0'+MaxStacks {
		n := int(t[1] - '1')
		switch t[0] {
		case 'p':
			return Move{Kind: Place, Stack: n}, nil
		case 't':
			return Move{Kind: Take, Stack: n}, nil
		}
	}
	return Move{}, fmt.Errorf("%w: %q (d draws, p1 to p%d place, t1 to t%d take a stack)",
		rules.ErrBadNotation, sanitizeShort(s), MaxStacks, MaxStacks)
}

// sanitizeShort keeps an echoed bad move printable and short.
func sanitizeShort(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= 16 {
			b.WriteString("...")
			break
		}
		if r >= ' ' && r < 0x7f {
			b.WriteRune(r)
		}
	}
	return b.String()
}
