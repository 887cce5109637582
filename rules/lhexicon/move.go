package lhexicon

import (
	"fmt"
	"strings"

	"github.com/arcade/arcade/rules"
)

// Kind says what a Move does.
type Kind uint8

// The kinds of move.
const (
	Play      Kind = iota // place tiles and name one word along a path
	Exchange              // exchange tiles with the bank
	Swap                  // take blanks off the board, putting the letters they stand for there
	Pass                  // do nothing
	Challenge             // challenge the word just played (check=challenge)
	Accept                // let the word just played stand (check=challenge)
	End                   // end a solo game
)

// Move is one move. A Play names the word hex by hex: Start, then Path[i] is the direction from
// the i-th hex to the next, so a word of n hexes has n-1 directions; Tiles[i] is the tile the word
// has on its i-th hex, as written (a letter, QU, with Blank for a blank: an upper-case letter).
// Tiles on hexes already occupied must match the board; the others come from the rack. An Exchange
// lists the rack tiles to give back (Blank for a blank); a Swap lists the hexes whose blanks the
// player takes.
type Move struct {
	Kind  Kind
	Start Hex
	Path  []Dir
	Tiles []Tile
	Give  []Tile
	Hexes []Hex
}

// Word returns the letters the play spells, e.g. "cruel" ("qu" for a Qu tile).
func (m Move) Word() string {
	var b strings.Builder
	for _, t := range m.Tiles {
		b.WriteString(t.Spell())
	}
	return b.String()
}

// Cells returns the hexes of a play's path in order, or false when the path leaves the board
// (the hexes up to there are returned).
func (m Move) Cells() ([]Hex, bool) {
	if !m.Start.Valid() {
		return nil, false
	}
	hs := make([]Hex, 1, len(m.Path)+1)
	hs[0] = m.Start
	h := m.Start
	for _, d := range m.Path {
		if d > NE {
			return hs, false
		}
		if h = h.Step(d); h == NoHex {
			return hs, false
		}
		hs = append(hs, h)
	}
	return hs, true
}

// String returns the move's canonical notation: "h8 cruel e,se,e,ne" (a play: start hex, the
// word, the directions from hex to hex), "x ab?" (exchange a, b and a blank), "s h8 c3" (swap the
// blanks on h8 and c3), "pass", "challenge", "accept", "end".
func (m Move) String() string {
	switch m.Kind {
	case Exchange:
		var b strings.Builder
		b.WriteString("x ")
		for _, t := range m.Give {
			b.WriteString(t.String())
		}
		return b.String()
	case Swap:
		parts := []string{"s"}
		for _, h := range m.Hexes {
			parts = append(parts, h.String())
		}
		return strings.Join(parts, " ")
	case Pass:
		return "pass"
	case Challenge:
		return "challenge"
	case Accept:
		return "accept"
	case End:
		return "end"
	}
	var b strings.Builder
	b.WriteString(m.Start.String())
	b.WriteByte(' ')
	for _, t := range m.Tiles {
		b.WriteString(t.String())
	}
	for i, d := range m.Path {
		if i == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteByte(',')
		}
		b.WriteString(d.String())
	}
	return b.String()
}

const notationHelp = `write a play as a start hex, the word and the directions from hex to hex, ` +
	`e.g. "h8 cruel e,se,e,ne" (upper case for a blank, qu for the Qu tile); ` +
	`or "x abc" to exchange, "s h8" to swap a blank, "pass"`

// ParseMove decodes a move in notation (see Move.String). It ignores surrounding spaces and the
// case of keywords and hexes; in a word, case tells a blank (upper) from a tile (lower). Directions
// may be separated by commas, spaces, dots or dashes. Errors wrap rules.ErrBadNotation.
func ParseMove(text string) (Move, error) {
	s := strings.TrimSpace(text)
	fields := strings.Fields(s)
	bad := func(why string) (Move, error) {
		if why != "" {
			why += "; "
		}
		return Move{}, fmt.Errorf("%w: %q: %s%s", rules.ErrBadNotation, text, why, notationHelp)
	}
	if len(fields) == 0 {
		return bad("")
	}
	switch strings.ToLower(fields[0]) {
	case "pass", "p":
		if len(fields) == 1 {
			return Move{Kind: Pass}, nil
		}
	case "challenge":
		if len(fields) == 1 {
			return Move{Kind: Challenge}, nil
		}
	case "accept":
		if len(fields) == 1 {
			return Move{Kind: Accept}, nil
		}
	case "end":
		if len(fields) == 1 {
			return Move{Kind: End}, nil
		}
	case "x", "exchange":
		var give []Tile
		for _, f := range fields[1:] {
			ts, err := parseRackTiles(f)
			if err != nil {
				return bad(err.Error())
			}
			give = append(give, ts...)
		}
		if len(give) == 0 {
			return bad("name the tiles to exchange")
		}
		return Move{Kind: Exchange, Give: give}, nil
	case "s", "swap":
		var hs []Hex
		for _, f := range strings.FieldsFunc(strings.Join(fields[1:], " "), isSep) {
			h, err := ParseHex(f)
			if err != nil {
				return bad(err.Error())
			}
			hs = append(hs, h)
		}
		if len(hs) == 0 {
			return bad("name the hex of the blank to swap")
		}
		return Move{Kind: Swap, Hexes: hs}, nil
	}
	if len(fields) < 2 {
		return bad("")
	}
	start, err := ParseHex(fields[0])
	if err != nil {
		return bad(err.Error())
	}
	tiles, err := parseWord(fields[1])
	if err != nil {
		return bad(err.Error())
	}
	var path []Dir
	for _, f := range strings.FieldsFunc(strings.Join(fields[2:], " "), isSep) {
		d, ok := ParseDir(f)
		if !ok {
			return bad(fmt.Sprintf("%q is not a direction (e, se, sw, w, nw, ne)", f))
		}
		path = append(path, d)
	}
	if len(path) != len(tiles)-1 {
		return bad(fmt.Sprintf("a word of %d hexes needs %d direction(s), not %d", len(tiles),
			len(tiles)-1, len(path)))
	}
	return Move{Kind: Play, Start: start, Path: path, Tiles: tiles}, nil
}

func isSep(r rune) bool { return r == ',' || r == ' ' || r == '.' || r == '-' || r == '/' }

// parseWord splits a word as written into tiles, one per hex: "qu" is the Qu tile, "QU" a blank
// named Qu, "Q" alone a blank named Q; another lower-case letter is that tile, an upper-case one a
// blank named so. A lower-case q without u is an error: there is no Q tile.
func parseWord(w string) ([]Tile, error) {
	var ts []Tile
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c == 'q':
			if i+1 < len(w) && w[i+1] == 'u' {
				ts = append(ts, QU)
				i++
				continue
			}
			return nil, fmt.Errorf("there is no Q tile: the Qu tile is written qu, a blank as Q with Q")
		case c == 'Q':
			if i+1 < len(w) && w[i+1] == 'U' {
				ts = append(ts, QU|Blank)
				i++
				continue
			}
			ts = append(ts, LetterTile('q')|Blank)
		case c >= 'a' && c <= 'z':
			ts = append(ts, LetterTile(c))
		case c >= 'A' && c <= 'Z':
			ts = append(ts, LetterTile(c)|Blank)
		default:
			return nil, fmt.Errorf("%q is not a letter", c)
		}
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("no word")
	}
	return ts, nil
}

// parseRackTiles reads tiles as an exchange names them: letters (any case), "qu" for the Qu tile
// and "?" for a blank.
func parseRackTiles(s string) ([]Tile, error) {
	var ts []Tile
	s = strings.ToLower(s)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '?':
			ts = append(ts, Blank)
		case c == 'q':
			if i+1 < len(s) && s[i+1] == 'u' {
				ts = append(ts, QU)
				i++
				continue
			}
			return nil, fmt.Errorf("there is no Q tile: write qu for the Qu tile")
		case c >= 'a' && c <= 'z':
			ts = append(ts, LetterTile(c))
		case c == ',':
		default:
			return nil, fmt.Errorf("%q is not a tile (a letter, qu, or ? for a blank)", c)
		}
	}
	return ts, nil
}
