package lhexicon

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon/dict"
)

// The reasons a play is refused. Apply's error wraps one of them and says in words where.
var (
	// ErrNotWord: the word is not in the dictionary (check=auto), or is shorter than 2 letters.
	ErrNotWord = errors.New("not a word")
	// ErrNotPath: the hexes do not form a path on the board, or one is used twice.
	ErrNotPath = errors.New("not a path")
	// ErrContact: a new tile touches a tile on the board that the word does not use.
	ErrContact = errors.New("breaks the rule of contact")
	// ErrCentre: the first word does not cover the centre hex.
	ErrCentre = errors.New("misses the centre")
	// ErrNotInRack: the word needs a tile the player does not hold.
	ErrNotInRack = errors.New("letter not in rack")
	// ErrMismatch: the word names a letter other than the one on an occupied hex.
	ErrMismatch = errors.New("letter does not match the board")
	// ErrNoBoardTile: a word after the first uses no tile already on the board.
	ErrNoBoardTile = errors.New("uses no tile on the board")
	// ErrNoNewTile: the word places no tile.
	ErrNoNewTile = errors.New("places no tile")
)

// placement is a checked play: where its tiles go, what it spells and scores.
type placement struct {
	hexes []Hex
	tiles []Tile // the tile on each hex after the play
	isNew []bool
	rack  []Tile // the player's rack after the play, before drawing
	word  string
	valid bool // the word is in the dictionary
	score int  // letters plus bonus
	bonus int
}

// checkPlay checks m, a Play, for seat against the board and the rack (see checkPlacement).
func (s *State) checkPlay(seat rules.Seat, m Move) (*placement, error) {
	return checkPlacement(&s.board, s.Rack(seat), s.placed == 0, m)
}

// checkPlacement checks m, a Play, against board and the player's rack (which it does not
// change); first says that no tile has been placed yet. The dictionary is consulted (valid) but a
// word that is not in it is no error here: under check=challenge it may stand. Everything else
// is, with the reason wrapped. State.play and View.Preview both check plays with it.
func checkPlacement(board *[NumHexes]Tile, rack []Tile, first bool, m Move) (*placement, error) {
	if len(m.Tiles) != len(m.Path)+1 {
		return nil, fmt.Errorf("%w: a word of %d hexes needs %d directions", ErrNotPath, len(m.Tiles), len(m.Tiles)-1)
	}
	hexes, ok := m.Cells()
	if !ok {
		if !m.Start.Valid() {
			return nil, fmt.Errorf("%w: the start hex is not on the board", ErrNotPath)
		}
		return nil, fmt.Errorf("%w: the path leaves the board after %s", ErrNotPath, hexes[len(hexes)-1])
	}
	var seen [NumHexes]bool
	for _, h := range hexes {
		if seen[h] {
			return nil, fmt.Errorf("%w: the path goes through %s twice", ErrNotPath, h)
		}
		seen[h] = true
	}
	p := &placement{hexes: hexes, tiles: make([]Tile, len(hexes)), isNew: make([]bool, len(hexes))}
	rack = slices.Clone(rack)
	news := 0
	for i, h := range hexes {
		want := m.Tiles[i]
		if want.Letter() < 1 || want.Letter() > QU {
			return nil, fmt.Errorf("%w: %q is not a letter", ErrNotWord, want.String())
		}
		if on := board[h]; on != NoTile {
			if on.Letter() != want.Letter() {
				return nil, fmt.Errorf("%w: %s holds %s, not %s", ErrMismatch, h, upper(on), upper(want))
			}
			p.tiles[i] = on
			continue
		}
		need := want
		if want.IsBlank() {
			need = Blank
		}
		j := indexTile(rack, need)
		if j < 0 {
			if want.IsBlank() {
				return nil, fmt.Errorf("%w: you have no blank for the %s on %s", ErrNotInRack, upper(want), h)
			}
			return nil, fmt.Errorf("%w: you have no %s for %s", ErrNotInRack, upper(want), h)
		}
		rack = append(rack[:j], rack[j+1:]...)
		p.tiles[i], p.isNew[i] = want, true
		news++
	}
	p.rack = rack
	if news == 0 {
		return nil, fmt.Errorf("%w: every hex of the word is already occupied; place a tile", ErrNoNewTile)
	}
	if first {
		if !seen[Centre] {
			return nil, fmt.Errorf("%w: the first word must cover the centre hex %s", ErrCentre, Centre)
		}
	} else if news == len(hexes) {
		return nil, fmt.Errorf("%w: the word must use at least one tile already on the board", ErrNoBoardTile)
	}
	for i, h := range hexes {
		if !p.isNew[i] {
			continue
		}
		for _, nb := range neighbour[h] {
			if nb != NoHex && board[nb] != NoTile && !seen[nb] {
				return nil, fmt.Errorf("%w: the new %s on %s touches the %s on %s, which the word does not use",
					ErrContact, upper(p.tiles[i]), h, upper(board[nb]), nb)
			}
		}
	}
	var w strings.Builder
	for _, t := range p.tiles {
		w.WriteString(t.Spell())
		p.score += t.Value()
	}
	p.word = w.String()
	if len(p.word) < 2 {
		return nil, fmt.Errorf("%w: a word has at least 2 letters", ErrNotWord)
	}
	p.valid = dict.Words().Contains(p.word)
	after := *board
	for i, h := range hexes {
		after[h] = p.tiles[i]
	}
	var rb, ra regions
	rb.label(board)
	ra.label(&after)
	p.bonus = trapBonus(&rb, &ra)
	p.score += p.bonus
	return p, nil
}

// notWord is the error of a play whose word is not in the dictionary (check=auto).
func notWord(word string) error {
	return fmt.Errorf("%w: %s is not in the dictionary", ErrNotWord, strings.ToUpper(word))
}

// upper returns the letters a tile spells in upper case, as messages show words: "E", "QU".
func upper(t Tile) string { return strings.ToUpper(t.Spell()) }

func indexTile(ts []Tile, t Tile) int {
	for i, x := range ts {
		if x == t {
			return i
		}
	}
	return -1
}
