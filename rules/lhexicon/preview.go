package lhexicon

// Preview is what a play would do, worked out from a View before it is sent: the board's live
// preview while a player composes a word.
type Preview struct {
	// Word is the word the play spells, in lower case ("qu" for a Qu tile).
	Word string
	// Hexes are the word's hexes in order; New marks those the play fills.
	Hexes []Hex
	New   []bool
	// Letters is the value of the word's tiles (blanks 0), Bonus the trap bonus, Score the two
	// together: what the play would score.
	Letters, Bonus, Score int
	// Valid reports whether the word is in the dictionary. Under check=challenge a word that is
	// not may still be played (Preview returns no error then): it may be challenged.
	Valid bool
}

// Preview checks m, a Play, as the viewer's play against the view's board and the viewer's rack,
// and returns what it would spell and score, or the error ApplyMove would return for it (wrapping
// ErrNotWord, ErrNotPath, ErrContact, ErrCentre, ErrNotInRack, ErrMismatch, ErrNoBoardTile or
// ErrNoNewTile), with the same words. It does not check whose turn it is. A spectator's view has
// no rack: every new tile is then not in the rack.
func (v *View) Preview(m Move) (Preview, error) {
	first := true
	for _, t := range v.Board {
		if t != NoTile {
			first = false
			break
		}
	}
	p, err := checkPlacement(&v.Board, v.Rack, first, m)
	if err != nil {
		return Preview{}, err
	}
	if !p.valid && (v.Check != ByChallenge || v.Seats < 2) {
		return Preview{}, notWord(p.word)
	}
	return Preview{Word: p.word, Hexes: p.hexes, New: p.isNew, Letters: p.score - p.bonus, Bonus: p.bonus,
		Score: p.score, Valid: p.valid}, nil
}
