package coloretta

// Colour is the colour of a colour card. Every colour has a name and a distinct capital letter, so a
// board can be read without colour (NO_COLOR, ASCII mode):
//
//	R red, Y yellow, G green, B blue, P purple, C cyan, O orange
//
// A game uses the first colours of this list: 2 players the first 5 (red to purple), 3 players the
// first 6 (cyan too), 4 and 5 players all 7.
type Colour uint8

// The colours, in the order they come into play.
const (
	Red Colour = iota
	Yellow
	Green
	Blue
	Purple
	Cyan
	Orange
)

// NumColours is the number of colours a game can use.
const NumColours = 7

var colourNames = [NumColours]string{"red", "yellow", "green", "blue", "purple", "cyan", "orange"}

const colourLetters = "RYGBPCO"

// String returns the colour's name in lower case, e.g. "red".
func (c Colour) String() string {
	if int(c) < NumColours {
		return colourNames[c]
	}
	return "?"
}

// Letter returns the colour's one-letter symbol: R Y G B P C O.
func (c Colour) Letter() byte {
	if int(c) < NumColours {
		return colourLetters[c]
	}
	return '?'
}

// ColoursInPlay returns how many colours a game of seats players uses: 5 with 2 players, 6 with 3,
// 7 with 4 or 5.
func ColoursInPlay(seats int) int {
	switch {
	case seats <= 2:
		return 5
	case seats == 3:
		return 6
	default:
		return NumColours
	}
}

// Card is one card. Colour cards are ColourCard(c) (their values are 0 to 6, the colour's own
// value); the special cards are Wild, Plus2 and LastCycle.
type Card uint8

// The special cards.
const (
	// Wild joins whichever colour makes its hand score most.
	Wild Card = NumColours + iota
	// Plus2 adds 2 points to its hand.
	Plus2
	// LastCycle announces the last cycle of a round; it never reaches a stack or a hand.
	LastCycle
)

// Card counts of one round's deck.
const (
	CardsPerColour = 9  // cards of each colour in play
	Plus2Cards     = 10 // "+2" cards
	WildCards      = 3  // wild cards
)

// ColourCard returns the card of colour c.
func ColourCard(c Colour) Card { return Card(c) }

// Colour returns the card's colour and true for a colour card, or false for a special card.
func (c Card) Colour() (Colour, bool) {
	if c < NumColours {
		return Colour(c), true
	}
	return 0, false
}

// Letter returns a one-character symbol for the card: the colour's letter (R Y G B P C O), '*' for
// a wild, '+' for a "+2" and '!' for the Last Cycle card.
func (c Card) Letter() byte {
	switch {
	case c < NumColours:
		return colourLetters[c]
	case c == Wild:
		return '*'
	case c == Plus2:
		return '+'
	case c == LastCycle:
		return '!'
	}
	return '?'
}

// Label returns a short label of at most two characters: the colour's letter, "*" for a wild,
// "+2" or "LC".
func (c Card) Label() string {
	switch c {
	case Plus2:
		return "+2"
	case LastCycle:
		return "LC"
	}
	return string(c.Letter())
}

// String returns the card's name: the colour ("red"), "wild", "+2" or "Last Cycle".
func (c Card) String() string {
	switch {
	case c < NumColours:
		return colourNames[c]
	case c == Wild:
		return "wild"
	case c == Plus2:
		return "+2"
	case c == LastCycle:
		return "Last Cycle"
	}
	return "?"
}
