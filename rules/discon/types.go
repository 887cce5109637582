package discon

import (
	"fmt"
	"strconv"

	"github.com/arcade/arcade/rules"
)

// Colour is the colour of a disc.
type Colour uint8

// The four disc colours, cheapest first.
const (
	Violet Colour = iota
	Pink
	Blue
	Ivory
)

// Colours lists the disc colours in order.
var Colours = [4]Colour{Violet, Pink, Blue, Ivory}

// discCount is how many discs of each colour the game has (96 in all).
var discCount = [4]int{Violet: 32, Pink: 24, Blue: 24, Ivory: 16}

// Letter returns the colour's one-letter mark: V, P, B or I.
func (c Colour) Letter() byte {
	if c > Ivory {
		return '?'
	}
	return "VPBI"[c]
}

// String returns the colour's name in lower case: violet, pink, blue or ivory.
func (c Colour) String() string {
	switch c {
	case Violet:
		return "violet"
	case Pink:
		return "pink"
	case Blue:
		return "blue"
	case Ivory:
		return "ivory"
	}
	return "colour(" + strconv.Itoa(int(c)) + ")"
}

// Size is the number of rows and of columns of the board.
const Size = 10

// Pieces is the number of pieces each player has, numbered 1 to Pieces.
const Pieces = 6

// Square is a square of the board: row*Size + column, both 0-based, row 0 at the top as drawn and
// column 0 at the left. Its notation is the column letter a..j followed by the row number 1..10, so
// a1 is the top-left corner and j10 the bottom-right one.
type Square int8

// NoSquare stands for "no square given".
const NoSquare Square = -1

// At returns the square in row r and column c (both 0-based).
func At(r, c int) Square { return Square(r*Size + c) }

// Row returns the square's 0-based row, counted from the top.
func (q Square) Row() int { return int(q) / Size }

// Col returns the square's 0-based column, counted from the left.
func (q Square) Col() int { return int(q) % Size }

// Valid reports whether q is a square of the board.
func (q Square) Valid() bool { return q >= 0 && q < Size*Size }

// String returns the square's notation, e.g. "c4"; "-" for NoSquare or another invalid square.
func (q Square) String() string {
	if !q.Valid() {
		return "-"
	}
	return string(rune('a'+q.Col())) + strconv.Itoa(q.Row()+1)
}

// ParseSquare decodes a square such as "c4" or "J10" (case does not matter).
func ParseSquare(s string) (Square, error) {
	q, n := scanSquare(s)
	if n == 0 || n != len(s) {
		return NoSquare, fmt.Errorf("%q is not a square: write a column a to j and a row 1 to 10, "+
			"e.g. c4", s)
	}
	return q, nil
}

// scanSquare reads a square at the start of s and returns it with the number of bytes used (0 when
// s does not start with a square).
func scanSquare(s string) (Square, int) {
	if len(s) < 2 {
		return NoSquare, 0
	}
	c := lower(s[0])
	if c < 'a' || c >= 'a'+Size {
		return NoSquare, 0
	}
	if s[1] < '1' || s[1] > '9' {
		return NoSquare, 0
	}
	row, n := int(s[1]-'0'), 2
	if row == 1 && len(s) > 2 && s[2] == '0' {
		row, n = 10, 3
	}
	return At(row-1, int(c-'a')), n
}

func lower(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// The corners of the board, clockwise from the top left as drawn.
var corners = [4]Square{At(0, 0), At(0, Size-1), At(Size-1, Size-1), At(Size-1, 0)}

// homeCorner returns the home corner of seat in a game of seats players: seats take the corners
// clockwise from the top left (a1, j1, j10, a10); with two players the second seat takes j10.
func homeCorner(seats int, seat rules.Seat) Square {
	if seats == 2 && seat == 1 {
		return corners[2]
	}
	return corners[seat]
}

// inZone reports whether q lies in the 3 x 3 home zone of corner c.
func inZone(c, q Square) bool {
	dr, dc := q.Row()-c.Row(), q.Col()-c.Col()
	return dr > -3 && dr < 3 && dc > -3 && dc < 3
}

var seatNames = [4]string{"Red", "Green", "Yellow", "Orange"}

// SeatName returns the name of a seat's colour as shown to players: Red, Green, Yellow, Orange.
// Seat colours are not disc colours.
func SeatName(seat rules.Seat) string {
	if seat < 0 || int(seat) >= len(seatNames) {
		return "Nobody"
	}
	return seatNames[seat]
}

// SeatLetter returns a seat's one-letter mark: R, G, Y or O.
func SeatLetter(seat rules.Seat) byte {
	if seat < 0 || int(seat) >= len(seatNames) {
		return '-'
	}
	return "RGYO"[seat]
}

// PieceID names a piece: its owner and its number 1 to 6. The zero value (Num 0) is no piece.
type PieceID struct {
	Seat rules.Seat // the owner
	Num  int        // 1 to 6
}

// String returns the piece's short mark, e.g. "R3" for Red's piece 3.
func (p PieceID) String() string {
	if p.Num == 0 {
		return "-"
	}
	return string(SeatLetter(p.Seat)) + strconv.Itoa(p.Num)
}

// Variant is one of the ways to play and score, the room option "variant".
type Variant int

// The variants. Premium is the default.
const (
	Premium    Variant = iota // the seed's table, at most two colours a tower
	Advanced                  // Premium, and strictly alternating two-colour towers score 3x
	Basic                     // any colours; 2 per violet, 4 per blue or pink, 8 per ivory
	Variation1                // Basic points, at most two colours a tower
	Variation2                // Basic points, one colour a tower
	Penalty                   // Premium, towers may exceed the limit and lose storeys for it
	Elementary                // any colours; first to build the required tall towers wins
)

var variantNames = []string{"premium", "advanced", "basic", "variation1", "variation2", "penalty",
	"elementary"}

// String returns the variant's option value, e.g. "premium".
func (v Variant) String() string {
	if v < 0 || int(v) >= len(variantNames) {
		return "variant(" + strconv.Itoa(int(v)) + ")"
	}
	return variantNames[v]
}

// ParseVariant decodes a variant option value such as "premium".
func ParseVariant(s string) (Variant, error) {
	for i, n := range variantNames {
		if n == s {
			return Variant(i), nil
		}
	}
	return 0, fmt.Errorf("there is no DISCON variant %q", s)
}

// ColourLimit returns the most colours a tower may hold in variant v (4 means no limit).
func ColourLimit(v Variant) int {
	switch v {
	case Basic, Elementary:
		return 4
	case Variation2:
		return 1
	}
	return 2
}

// HeightLimit returns the height limit of a tower with the given number of players: 12, 10 or 8
// storeys for 2, 3 or 4. In the Penalty variant towers may exceed it.
func HeightLimit(players int) int {
	switch players {
	case 3:
		return 10
	case 4:
		return 8
	}
	return 12
}

// ElementaryGoal returns how many towers of how many storeys a player must own to win the
// Elementary game: 4 of 12 with 2 players, 4 of 8 with 3, 3 of 8 with 4.
func ElementaryGoal(players int) (towers, storeys int) {
	switch players {
	case 3:
		return 4, 8
	case 4:
		return 3, 8
	}
	return 4, 12
}
