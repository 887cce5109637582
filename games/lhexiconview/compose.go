package lhexiconview

import (
	"fmt"
	"strings"

	"github.com/arcade/arcade/rules/lhexicon"
)

// mode is what the keys compose: a play, or one of the other moves awaiting enter.
type mode uint8

const (
	modeNone     mode = iota // nothing composed: letters are commands
	modeWord                 // letters place tiles along the word's path
	modeExchange             // letters pick the rack tiles to give back
	modeSwap                 // enter swaps the blanks picked with s
)

// step is one hex of the word being composed, in reading order: a new tile from the rack (slot is
// its place on the rack) or a tile already on the board.
type step struct {
	hex   lhexicon.Hex
	tile  lhexicon.Tile // for a new tile as it is played: a letter, or Blank plus the letter named
	isNew bool
	slot  int
}

// composer is what a player has composed on their turn and not yet sent: the word's steps, the
// tiles picked for an exchange, the blanks picked for a swap. It is checked against each new view
// (valid) and dropped when the view no longer allows it.
type composer struct {
	mode  mode
	steps []step
	give  []int          // rack slots picked for an exchange
	swaps []lhexicon.Hex // board blanks picked for a swap
	blank bool           // '*' was typed: the next letter is played with the blank
	note  string         // what the last key could not do, or what it did, until the next key
}

// busy reports whether anything is composed (esc then clears it rather than leaving the room).
func (c *composer) busy() bool {
	return len(c.steps) > 0 || c.mode != modeNone || c.blank
}

// reset drops everything composed.
func (c *composer) reset() {
	c.mode, c.steps, c.give, c.swaps, c.blank = modeNone, c.steps[:0], c.give[:0], c.swaps[:0], false
}

// used reports which rack slots the composition takes.
func (c *composer) used(n int) []bool {
	u := make([]bool, n)
	for _, s := range c.steps {
		if s.isNew && s.slot < n {
			u[s.slot] = true
		}
	}
	for _, i := range c.give {
		if i < n {
			u[i] = true
		}
	}
	return u
}

// valid reports whether the composition still stands on v: every new tile's hex empty and its
// rack slot holding it, every old tile where it was.
func (c *composer) valid(v *lhexicon.View) bool {
	for _, s := range c.steps {
		on := v.Board[s.hex]
		switch {
		case !s.isNew && on.Letter() != s.tile.Letter():
			return false
		case s.isNew && (on != lhexicon.NoTile || s.slot >= len(v.Rack) || v.Rack[s.slot] != rackTile(s.tile)):
			return false
		}
	}
	for _, i := range c.give {
		if i >= len(v.Rack) {
			return false
		}
	}
	for _, h := range c.swaps {
		if !v.Board[h].IsBlank() {
			return false
		}
	}
	return true
}

// rackTile is the rack tile a new tile comes from: Blank for a blank.
func rackTile(t lhexicon.Tile) lhexicon.Tile {
	if t.IsBlank() {
		return lhexicon.Blank
	}
	return t
}

// in reports whether h is one of the word's hexes.
func (c *composer) in(h lhexicon.Hex) bool {
	for _, s := range c.steps {
		if s.hex == h {
			return true
		}
	}
	return false
}

// move returns the play composed so far (nil steps give a zero Move).
func (c *composer) move() lhexicon.Move {
	m := lhexicon.Move{Kind: lhexicon.Play, Start: lhexicon.NoHex}
	for i, s := range c.steps {
		if i == 0 {
			m.Start = s.hex
		} else {
			d, _ := c.steps[i-1].hex.DirTo(s.hex)
			m.Path = append(m.Path, d)
		}
		m.Tiles = append(m.Tiles, s.tile)
	}
	return m
}

// canStep says why h cannot be the word's next hex, or "".
func (c *composer) canStep(h lhexicon.Hex) string {
	if c.in(h) {
		return fmt.Sprintf("%s is in the word already (backspace undoes).", h)
	}
	if n := len(c.steps); n > 0 {
		last := c.steps[n-1].hex
		if _, ok := last.DirTo(h); !ok {
			return fmt.Sprintf("%s does not touch %s, the word's last hex: a word goes hex to hex.", h, last)
		}
	}
	return ""
}

// place puts the tile of letter l (1 to 26, or QU) from the rack on the empty hex h as the word's
// next hex: the letter's own tile, or the blank when '*' was typed or the rack has no such tile.
func (c *composer) place(v *lhexicon.View, h lhexicon.Hex, l lhexicon.Tile) {
	if why := c.canStep(h); why != "" {
		c.note = why
		return
	}
	used := c.used(len(v.Rack))
	free := func(t lhexicon.Tile) int {
		for i, r := range v.Rack {
			if r == t && !used[i] {
				return i
			}
		}
		return -1
	}
	name := strings.ToUpper(l.Spell())
	slot, tile := -1, l
	if !c.blank {
		slot = free(l)
	}
	if slot < 0 {
		slot, tile = free(lhexicon.Blank), l|lhexicon.Blank
		switch {
		case slot < 0 && c.blank:
			c.note = "You have no blank left."
		case slot < 0:
			c.note = fmt.Sprintf("You have no %s.", name)
		case !c.blank:
			c.note = fmt.Sprintf("No %s on your rack: the blank plays %s.", name, name)
		}
	}
	c.blank = false
	if slot < 0 {
		return
	}
	c.steps = append(c.steps, step{hex: h, tile: tile, isNew: true, slot: slot})
}

// mark makes the tile on h, already on the board, the word's next hex.
func (c *composer) mark(v *lhexicon.View, h lhexicon.Hex) {
	if v.Board[h] == lhexicon.NoTile {
		c.note = fmt.Sprintf("%s is empty: type a letter to place a tile there.", h)
		return
	}
	if why := c.canStep(h); why != "" {
		c.note = why
		return
	}
	c.steps = append(c.steps, step{hex: h, tile: v.Board[h].Letter()})
}

// pick adds the rack tile t (Blank for a blank) to the exchange.
func (c *composer) pick(v *lhexicon.View, t lhexicon.Tile) {
	if len(c.give) >= v.Bank {
		c.note = fmt.Sprintf("The bank holds %d tile%s: exchange at most %d.", v.Bank, plural(v.Bank), v.Bank)
		return
	}
	used := c.used(len(v.Rack))
	for i, r := range v.Rack {
		if r == t && !used[i] {
			c.give = append(c.give, i)
			return
		}
	}
	c.note = fmt.Sprintf("You have no %s to give back.", tileName(t))
}

// exchange returns the exchange composed.
func (c *composer) exchange(v *lhexicon.View) lhexicon.Move {
	m := lhexicon.Move{Kind: lhexicon.Exchange}
	for _, i := range c.give {
		m.Give = append(m.Give, v.Rack[i])
	}
	return m
}

// toggleSwap adds the blank on h to the swap, or takes it out.
func (c *composer) toggleSwap(v *lhexicon.View, h lhexicon.Hex) {
	on := v.Board[h]
	if !on.IsBlank() {
		c.note = "s swaps a blank on the board (a lower-case letter): put the cursor on one."
		return
	}
	for i, x := range c.swaps {
		if x == h {
			c.swaps = append(c.swaps[:i], c.swaps[i+1:]...)
			if len(c.swaps) == 0 {
				c.mode = modeNone
			}
			return
		}
	}
	need := 0
	for _, x := range append(c.swaps, h) {
		if v.Board[x].Letter() == on.Letter() {
			need++
		}
	}
	have := 0
	for _, r := range v.Rack {
		if r == on.Letter() {
			have++
		}
	}
	if have < need {
		c.note = fmt.Sprintf("You have no %s to put in place of the blank on %s.", tileName(on.Letter()), h)
		return
	}
	c.steps = c.steps[:0]
	c.mode = modeSwap
	c.swaps = append(c.swaps, h)
}

// tileName names a tile in messages: "E", "QU", "blank".
func tileName(t lhexicon.Tile) string {
	if t == lhexicon.Blank {
		return "blank"
	}
	return strings.ToUpper(t.Spell())
}

// plural is "s" for a count other than 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
