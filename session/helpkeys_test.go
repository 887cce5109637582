package session

import (
	"strings"
	"testing"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/flicflac"
	"github.com/arcade/arcade/rules/lhexicon"
)

// helpOf is the help line of a room screen: its last line, plain.
func helpOf(t *testing.T, out string) string {
	t.Helper()
	lines := strings.Split(plain(out), "\n")
	return lines[len(lines)-1]
}

// checkHelp fails unless line says each of want and none of not, and is not cut.
func checkHelp(t *testing.T, line string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(line, w) {
			t.Errorf("the help line lacks %q: %q", w, line)
		}
	}
	for _, n := range not {
		if strings.Contains(line, n) {
			t.Errorf("the help line says %q: %q", n, line)
		}
	}
	if strings.Contains(line, "…") {
		t.Errorf("the help line is cut: %q", line)
	}
}

// TestFlicflacHelpLine: on her turn the player reads what enter, backspace and e do; the other player,
// waiting, reads that the arrows move (the cursor, to look at the pieces).
func TestFlicflacHelpLine(t *testing.T) {
	snap, state := flicflacPlay(t, func(i int, s *flicflac.State) bool { return i >= 40 && s.Turn() == 0 && !s.CaptorsTurn() })
	checkHelp(t, helpOf(t, roomModel(t, snap).View().Content),
		[]string{"enter pick/move", "bksp undo", "e end turn", "esc leave"}, []string{"enter play"})
	snap.You, snap.View = 1, state.View(1)
	snap.Seats[0].Name, snap.Seats[1].Name = "bob", "ann"
	checkHelp(t, helpOf(t, roomModel(t, snap).View().Content),
		[]string{"arrows move", ": type move", "esc leave"}, []string{"enter", "e end turn"})
}

// TestLhexiconAnswerHelpLine: under check=challenge with three players, the third, not to play
// but to answer the first's word, reads c and a on the help line, not enter.
func TestLhexiconAnswerHelpLine(t *testing.T) {
	snap, state := lhexSnapshot(t, rules.Options{"check": "challenge"}, 3, 3, 0)
	e, err := state.Apply(0, lhexPlay(t, state).String())
	if err != nil {
		t.Fatal(err)
	}
	ns := e.(*lhexicon.State)
	snap.You, snap.View, snap.ToMove = 2, ns.View(2), ns.ToMove()
	checkHelp(t, helpOf(t, roomModel(t, snap).View().Content),
		[]string{"c challenge", "a accept", "esc leave"}, []string{"enter play", "x exchange"})
}

// TestResultBotName: a bot's name, brackets and all, is not put in brackets again on the result
// line; a person's is.
func TestResultBotName(t *testing.T) {
	for _, c := range []struct{ name, want, shown string }{
		{"ann", "Blue (ann) wins!", "Blue (ann) wins 71-69!"},
		{"Ada (greedy bot)", "Blue, Ada (greedy bot), wins!", "Blue, Ada (greedy bot),"}, // wrapped after
	} {
		if got := winnerName("Blue", c.name) + " wins!"; got != c.want {
			t.Errorf("winnerName(Blue, %q) wins: %q, want %q", c.name, got, c.want)
		}
		snap := playedSnapshot(t, -1)
		snap.Seats[1].Name = c.name
		out := plain(roomModel(t, snap).View().Content)
		if !strings.Contains(out, c.shown) || strings.Contains(out, "))") {
			t.Errorf("with %q the end screen lacks %q:\n%s", c.name, c.shown, out)
		}
	}
}

// TestFlicflacSpectatorLooks: a spectator of Flic Flac is told the arrows, and gets the line under
// the board that tells the hex under the cursor.
func TestFlicflacSpectatorLooks(t *testing.T) {
	snap, state := flicflacPlay(t, func(i int, s *flicflac.State) bool { return i >= 40 && s.Turn() == 0 && !s.CaptorsTurn() })
	snap.You, snap.View = rules.Spectator, state.View(rules.Spectator)
	out := roomModel(t, snap).View().Content
	checkSize(t, out, 80, 24)
	checkHelp(t, helpOf(t, out), []string{"arrows move", "esc leave"}, []string{"enter", ": type move"})
	if !strings.Contains(plain(out), " hex") {
		t.Errorf("the spectator's screen does not tell the hex under the cursor:\n%s", plain(out))
	}
	if m := pressKeys(roomModel(t, snap), "l", "l"); !strings.Contains(plain(m.View().Content), "h10 ") {
		t.Errorf("two steps right from h8 do not tell h10:\n%s", plain(m.View().Content))
	}
}

// TestWaitingForABot: the line that waits for a bot puts the seat's tag inside the bot's own
// brackets, "Bo (greedy bot, Blue)", not in brackets of its own after them.
func TestWaitingForABot(t *testing.T) {
	if got := nameWithTag("Bo (greedy bot)", "Blue"); got != "Bo (greedy bot, Blue)" {
		t.Errorf("nameWithTag of a bot: %q", got)
	}
	if got := nameWithTag("bob", "Blue"); got != "bob (Blue)" {
		t.Errorf("nameWithTag of a person: %q", got)
	}
	snap := withBots(playedSnapshot(t, 14))
	snap.ToMove = []rules.Seat{1}
	out := words(plain(roomModel(t, snap).View().Content))
	if !strings.Contains(out, "Waiting for") || !strings.Contains(out, "Bo (greedy bot, Blue).") || strings.Contains(out, "bot) (") {
		t.Errorf("the wait for a bot reads:\n%s", out)
	}
}
