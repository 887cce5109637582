package lhexiconview

import (
	"strings"
	"testing"

	"github.com/arcade/arcade/rooms"
)

// TestHintOnlyCasual: h on the viewer's turn with nothing composed suggests, in a match that
// counts for nothing (a casual room, a bot's seat), a legal play of the viewer's rack, puts the
// cursor on its first hex and sends nothing; in a rated match, and in a solo game that goes on
// the solo table, it says hints are for casual rooms. While a word is composed h is a letter.
func TestHintOnlyCasual(t *testing.T) {
	base, state := lhexSnapshot(t, nil, 2, 10)
	if state.Turn() != 0 {
		t.Fatalf("the test position is seat %d's turn", state.Turn())
	}
	v := state.ViewOf(0)
	casual := base
	casual.Casual = true
	bot := base
	bot.Seats = append([]rooms.SeatInfo(nil), base.Seats...)
	bot.Seats[1].Bot = "easy"
	for name, snap := range map[string]rooms.Snapshot{"casual room": casual, "a bot's seat": bot} {
		b := newLhexBoard()
		if got := press(b, &snap, "h"); got != "" {
			t.Fatalf("%s: h sent %q", name, got)
		}
		if !strings.HasPrefix(b.hint, "Hint: ") {
			t.Fatalf("%s: h said %q", name, b.hint)
		}
		// The board's own search (a second one may stop elsewhere: it is cut short by time too).
		c, ok := b.hintFound, b.hintOK
		if !ok || any(b.hinted) != snap.View || b.cur != c.Move.Start {
			t.Fatalf("%s: the cursor is on %s; the hint %v starts on %s", name, b.cur, c.Move, c.Move.Start)
		}
		if _, err := v.Preview(c.Move); err != nil {
			t.Fatalf("%s: the hint %v is not a play: %v", name, c.Move, err)
		}
		if word := strings.ToUpper(c.Move.Word()); !strings.Contains(strings.ToUpper(b.hint), word) {
			t.Errorf("%s: the hint %q does not say %s", name, b.hint, word)
		}
		press(b, &snap, "left")
		if b.hint != "" {
			t.Errorf("%s: the hint stayed after the next key", name)
		}
		// h again on the same position says what the search found, without another search.
		b.hintOK = false
		press(b, &snap, "h")
		if !strings.HasPrefix(b.hint, "Hint: no word found") {
			t.Errorf("%s: h again on the same position searched again: %q", name, b.hint)
		}
	}

	rated := base
	b := newLhexBoard()
	press(b, &rated, "h")
	if b.hint != "Hints are for casual rooms: this match is rated." {
		t.Errorf("h in a rated room said %q", b.hint)
	}

	solo, _ := lhexSnapshot(t, nil, 1, 2)
	b = newLhexBoard()
	press(b, &solo, "h")
	if !strings.Contains(b.hint, "solo table") {
		t.Errorf("h in a solo game for the table said %q", b.hint)
	}

	// Composing a word, h is a tile (when the rack holds one), not a hint.
	b = newLhexBoard()
	press(b, &casual, "enter", "h")
	if b.hint != "" || b.c.mode != modeWord {
		t.Errorf("h while composing: hint %q, mode %v", b.hint, b.c.mode)
	}
}
