package flicflac

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arcade/arcade/rules"
)

// Kind says what a Move does.
type Kind uint8

// The kinds of move.
const (
	Place    Kind = iota // move a piece of the mover's (from home or the board) to a hex
	TakeBack             // take a piece moved this turn back to where it stood
	End                  // end the turn
)

// Move is one move. A Place moves the mover's piece of colour Colour to the hex named To
// ("h8": column letter and number, lower case, as Geometry.Name writes it); a TakeBack takes
// the mover's piece of colour Colour back. The board checks that To exists: ParseMove takes any
// letter and number 1 to 99, so that a hex off the board is refused by name.
type Move struct {
	Kind   Kind
	Colour Colour
	To     string
}

// String returns the move's canonical notation: "B h8" (the blue piece to h8), "u B" (take the
// blue piece back), "end".
func (m Move) String() string {
	switch m.Kind {
	case TakeBack:
		return "u " + string(m.Colour.Letter())
	case End:
		return "end"
	}
	return string(m.Colour.Letter()) + " " + m.To
}

// ParseMove decodes a move. It takes the canonical forms ("B h8", "u B", "end") and looser ones:
// any case; the colour as a letter or a name ("blue h8"); no space, or ">", "-", ":" or "to"
// between piece and hex ("bh8", "b>h8", "blue to h8"); "undo", "back" or "take" for "u" ("ub",
// "undo blue"); "e", "done" or "pass" for "end". The error wraps rules.ErrBadNotation.
func ParseMove(text string) (Move, error) {
	s := strings.ToLower(strings.TrimSpace(text))
	bad := func() (Move, error) {
		return Move{}, fmt.Errorf("%w: %q; write a piece's colour and a hex (\"B h8\"), "+
			"\"u B\" to take the blue piece back, or \"end\"", rules.ErrBadNotation, text)
	}
	switch s {
	case "end", "e", "done", "pass", "end turn":
		return Move{Kind: End}, nil
	}
	for _, p := range []string{"take back", "takeback", "undo", "back", "take", "u"} {
		if rest, ok := strings.CutPrefix(s, p); ok {
			c, n := scanColour(strings.TrimLeft(rest, " >:"))
			if n > 0 && strings.TrimSpace(strings.TrimLeft(rest, " >:")[n:]) == "" {
				return Move{Kind: TakeBack, Colour: c}, nil
			}
		}
	}
	c, n := scanColour(s)
	if n == 0 {
		return bad()
	}
	rest := strings.TrimLeft(s[n:], " ")
	for _, sep := range []string{">", "-", ":", "to "} {
		if r, ok := strings.CutPrefix(rest, sep); ok {
			rest = strings.TrimLeft(r, " ")
			break
		}
	}
	to, ok := scanHex(rest)
	if !ok {
		return bad()
	}
	return Move{Kind: Place, Colour: c, To: to}, nil
}

// scanColour reads a colour's name or letter at the start of s (lower case) and returns it with
// the bytes read, 0 when there is none.
func scanColour(s string) (Colour, int) {
	for c := Blue; c < Black; c++ {
		if strings.HasPrefix(s, c.String()) {
			return c, len(c.String())
		}
	}
	if s != "" {
		if i := strings.IndexByte(strings.ToLower(colourLetters[:Colours]), s[0]); i >= 0 {
			return Colour(i), 1
		}
	}
	return 0, 0
}

// scanHex reads a whole hex name, a letter a to z and a number 1 to 99, and returns it as
// Geometry.Name writes it. It does not know the board: a name off it ("z9") is the board's to
// refuse, with a message that names the hex, as Stone Towers does.
func scanHex(s string) (string, bool) {
	if len(s) < 2 || s[0] < 'a' || s[0] > 'z' {
		return "", false
	}
	digits := s[1:]
	if len(digits) > 2 {
		return "", false
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 1 || digits[0] == '+' || digits[0] == '-' {
		return "", false
	}
	return s[:1] + strconv.Itoa(n), true
}
