package lhexicon

import "strings"

// Tile is a letter tile or a blank. Letters are 1 (a) to 26 (z) and QU (the Qu tile, which spells
// "qu"). A blank on the rack is Blank; a blank on the board is Blank plus the letter it was named
// as, which it keeps for the rest of the game. The zero Tile is an empty hex.
type Tile uint8

const (
	// NoTile is an empty hex or no tile.
	NoTile Tile = 0
	// QU is the Qu tile.
	QU Tile = 27
	// Blank marks a blank: alone on a rack, with the letter it stands for on the board.
	Blank Tile = 0x80
)

// RackSize is the number of tiles a player holds while the bank lasts.
const RackSize = 7

// TotalTiles is the number of tiles of the game: 98 letters and 2 blanks.
const TotalTiles = 100

// distribution is the number of tiles of each letter (index 1 a to 26 z, 27 Qu) and of blanks
// (index 0).
var distribution = [28]int{2, 9, 2, 2, 4, 12, 2, 3, 2, 9, 1, 1, 4, 2, 6, 8, 2, 0, 6, 4, 6, 4, 2, 2, 1, 2, 1, 1}

// values is the value of each letter (index 1 a to 26 z, 27 Qu); a blank is worth 0.
var values = [28]int{0, 1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 5, 1, 3, 1, 1, 3, 0, 1, 1, 1, 1, 4, 4, 8, 4, 10, 10}

// Letter returns the letter of t without the blank mark: 1 to 27, or 0 for an unnamed blank.
func (t Tile) Letter() Tile { return t &^ Blank }

// IsBlank reports whether t is a blank (named or not).
func (t Tile) IsBlank() bool { return t&Blank != 0 }

// Value returns the tile's points: 0 for a blank.
func (t Tile) Value() int {
	if t.IsBlank() || t > QU {
		return 0
	}
	return values[t]
}

// Spell returns the letters the tile spells in a word: "a" to "z", "qu"; "" for an unnamed blank.
func (t Tile) Spell() string {
	switch l := t.Letter(); {
	case l == QU:
		return "qu"
	case l >= 1 && l <= 26:
		return string(rune('a' - 1 + l))
	}
	return ""
}

// String returns the tile as notation writes it: a letter tile in lower case ("e", "qu"), a blank
// named as a letter in upper case ("E", "QU"), an unnamed blank "?".
func (t Tile) String() string {
	if t == Blank {
		return "?"
	}
	if t.IsBlank() {
		return strings.ToUpper(t.Spell())
	}
	return t.Spell()
}

// LetterTile returns the tile of letter c ('a' to 'z'), or NoTile.
func LetterTile(c byte) Tile {
	c = lower(c)
	if c < 'a' || c > 'z' {
		return NoTile
	}
	return Tile(c - 'a' + 1)
}

// Distribution returns how many tiles of t the game has: for a letter or QU, its letter tiles;
// for Blank, the blanks.
func Distribution(t Tile) int {
	if t == Blank {
		return distribution[0]
	}
	if t < 1 || t > QU {
		return 0
	}
	return distribution[t]
}

// LetterValue returns the value of a letter tile (1 to 26 or QU); 0 for anything else.
func LetterValue(t Tile) int {
	if t < 1 || t > QU {
		return 0
	}
	return values[t]
}

// fullBag returns the game's 100 tiles in a fixed order.
func fullBag() []Tile {
	bag := make([]Tile, 0, TotalTiles)
	for i, n := range distribution {
		t := Tile(i)
		if i == 0 {
			t = Blank
		}
		for range n {
			bag = append(bag, t)
		}
	}
	return bag
}
