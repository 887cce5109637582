package discon

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arcade/arcade/rules"
)

// MoveKind says what a Move does.
type MoveKind uint8

const (
	// Jump moves a piece a knight's jump; the only kind of move the engine accepts.
	Jump MoveKind = iota
	// Pass ("pass") asks to give up the turn. The engine never accepts it: a player with no legal
	// move is passed over automatically. It decodes so that Apply can say why.
	Pass
	// End ("end") asks to end the turn after one move. The engine never accepts it: a turn is two
	// moves, and it ends by itself when no legal second move exists. It decodes so that Apply can
	// say why.
	End
)

// Move is one move: piece Piece (1 to 6) of the player to move jumps From -> To, taking its tower
// along, or with Leave, leaving its tower behind on From as an ownerless stack.
//
// From may be NoSquare: the engine knows where the piece stands (the short form "3 d6").
type Move struct {
	Kind  MoveKind
	Piece int    // 1 to 6, a piece of the player to move
	From  Square // where it stands, or NoSquare
	To    Square // where it lands
	Leave bool   // leave the tower behind on From
}

// String returns the move's canonical notation: "3 c4-d6", "3 c4-d6*" when the tower is left
// behind, "3 d6" or "3 d6*" when From is not given, and "pass" or "end".
func (m Move) String() string {
	switch m.Kind {
	case Pass:
		return "pass"
	case End:
		return "end"
	}
	var b strings.Builder
	b.WriteString(strconv.Itoa(m.Piece))
	b.WriteByte(' ')
	if m.From != NoSquare {
		b.WriteString(m.From.String())
		b.WriteByte('-')
	}
	b.WriteString(m.To.String())
	if m.Leave {
		b.WriteByte('*')
	}
	return b.String()
}

// Shown returns the move as the screens show it, with the letter of seat, its player, before the
// piece: "R3 c4-d6", "R3 c4-d6*". ParseMove reads it back (and Apply checks the letter).
func (m Move) Shown(seat rules.Seat) string {
	if m.Kind != Jump {
		return m.String()
	}
	return string(SeatLetter(seat)) + m.String()
}

// MoveSeat returns the seat whose letter starts text, as in the shown form "R3 c4-d6", or -1 when
// text names no seat.
func MoveSeat(text string) rules.Seat {
	s := strings.TrimSpace(text)
	if len(s) < 2 || s[1] < '1' || s[1] > '9' {
		return -1
	}
	switch lower(s[0]) {
	case 'r':
		return 0
	case 'g':
		return 1
	case 'y':
		return 2
	case 'o':
		return 3
	}
	return -1
}

// ParseMove decodes a move. It accepts the canonical form ("3 c4-d6", "3 c4-d6*"), the shown form
// with the seat's letter before the piece ("R3 c4-d6", see Shown; the letter is not checked here)
// and looser ones: any case, spaces or not ("3c4d6", "3 c4 d6"), the origin left out ("3d6",
// "3 d6"), "x" for "-", and " leave" (or " l") for "*" ("3 d6 leave"). "pass" and "end" decode
// too. The error wraps rules.ErrBadNotation.
func ParseMove(text string) (Move, error) {
	s := strings.ToLower(strings.TrimSpace(text))
	if MoveSeat(s) >= 0 {
		s = s[1:]
	}
	switch s {
	case "pass":
		return Move{Kind: Pass, From: NoSquare, To: NoSquare}, nil
	case "end":
		return Move{Kind: End, From: NoSquare, To: NoSquare}, nil
	}
	bad := func() (Move, error) {
		return Move{}, fmt.Errorf("%w: %q; write a piece and a square, e.g. \"3 d6\" or \"R3 c4-d6\", "+
			"with \"*\" to leave the tower behind", rules.ErrBadNotation, text)
	}
	if len(s) == 0 || s[0] < '1' || s[0] > '9' {
		return bad()
	}
	m := Move{Kind: Jump, Piece: int(s[0] - '0'), From: NoSquare, To: NoSquare}
	s = strings.TrimLeft(s[1:], " ")
	q, n := scanSquare(s)
	if n == 0 {
		return bad()
	}
	s = s[n:]
	rest := strings.TrimLeft(s, " ")
	if len(rest) > 0 && (rest[0] == '-' || rest[0] == 'x') {
		rest = strings.TrimLeft(rest[1:], " ")
		q2, n2 := scanSquare(rest)
		if n2 == 0 {
			return bad()
		}
		m.From, q, rest = q, q2, rest[n2:]
	} else if q2, n2 := scanSquare(rest); n2 > 0 {
		m.From, q, rest = q, q2, rest[n2:]
	}
	m.To = q
	rest = strings.TrimSpace(rest)
	switch rest {
	case "":
	case "*", "leave", "l":
		m.Leave = true
	default:
		return bad()
	}
	return m, nil
}
