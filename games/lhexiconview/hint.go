package lhexiconview

import (
	"context"
	"fmt"
	"strings"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules/lhexicon"
)

// suggest answers h: in a match that counts for nothing (a casual room, a bot's or a guest's
// seat), one play the engine finds for the viewer's rack on the board (lhexicon.View.Hint, a
// short search of what the viewer sees), with the cursor put on its first hex (where enter starts
// it); in a match that
// counts (rooms.Snapshot.Counts), that hints are for casual rooms.
func (b *lhexBoard) suggest(v *lhexicon.View, snap *rooms.Snapshot) {
	switch {
	case snap.Counts() && len(snap.Seats) == 1:
		b.hint = "Hints are for casual rooms: this game goes on the solo table."
		return
	case snap.Counts():
		b.hint = "Hints are for casual rooms: this match is rated."
		return
	}
	if v != b.hinted {
		b.hintFound, b.hintOK = v.Hint(context.Background())
		b.hinted = v
	}
	c, ok := b.hintFound, b.hintOK
	if !ok {
		b.hint = "Hint: no word found for your rack; x exchanges tiles, p passes."
		return
	}
	b.hint = hintText(c)
	b.cur, b.goal = c.Move.Start, screenX(c.Move.Start)
}

// hintText says a suggested play the way a player makes it, with its score: "Hint: CRUEL 9 from
// h5 e,se,e,ne" (its first hex, then the way from hex to hex). The word is written as the board shows it: a blank in lower
// case.
func hintText(c lhexicon.Candidate) string {
	var w strings.Builder
	for _, t := range c.Move.Tiles {
		if t.IsBlank() {
			w.WriteString(t.Spell())
		} else {
			w.WriteString(strings.ToUpper(t.Spell()))
		}
	}
	dirs := make([]string, len(c.Move.Path))
	for i, d := range c.Move.Path {
		dirs[i] = d.String()
	}
	going := ""
	if len(dirs) > 0 {
		going = " " + strings.Join(dirs, ",")
	}
	return fmt.Sprintf("Hint: %s %d from %s%s", w.String(), c.Score, c.Move.Start, going)
}
