package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestPlayAt60x20ThroughSSH: on a phone's terminal, a 60 x 20 PTY, a player plays a whole Stone
// Towers match against a bot over the real SSH path: the board with the panel beside it, in 20
// whole lines; a move with the board's keys, the others typed; the window made smaller than the
// board needs in the middle of the match (the message says what it needs, the match goes on, and
// esc would still leave), then 60 x 20 again; and the end of the match.
func TestPlayAt60x20ThroughSSH(t *testing.T) {
	t.Parallel()
	addr := startServer(t)
	ann := connectSized(t, addr, "ann", newKey(t), "new stonetowers size=8 turns=10 bots=1", 60, 20)
	fits := func(screen string) {
		t.Helper()
		lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
		if len(lines) != 20 || !strings.HasPrefix(lines[0], "Stone Towers") || !strings.Contains(lines[19], "? rules") {
			t.Fatalf("the screen is not 20 whole lines, header first and help last:\n%s", screen)
		}
		if strings.Contains(screen, "…") {
			t.Errorf("a line is cut:\n%s", screen)
		}
	}
	screen := ann.waitFor("Your turn", "Turns left: R 10 · B 10", "esc leave")
	fits(screen)
	if !strings.Contains(screen, " 8  ·  ·  ·  ·  ·  ·  ·  ·") {
		t.Errorf("the board's last row is not on the screen:\n%s", screen)
	}
	// Enter builds on the cursor's square, the board's centre.
	ann.send("\r")
	fits(ann.waitFor("Your turn", "Turns left: R 9 · B 9"))

	// Too small for the board: the match goes on, and the screen says what it needs.
	ann.resize(40, 12)
	ann.waitFor("This board needs a window of at least", "It is your turn", "esc leaves the room")
	ann.send("\x1b") // esc asks, as ever; esc again stays
	ann.waitFor("Leave the room?")
	ann.send("\x1b")
	ann.waitFor("? rules") // the help line without the question
	ann.resize(60, 20)
	fits(ann.waitFor("Your turn", "Turns left: R 9 · B 9"))

	// The rest typed: a bare square builds there, or fortifies one's own castle there; a square
	// the bot took is refused, and the next is tried.
	squares := []string{"a1", "h8", "a8", "h1", "a1", "h8", "a8", "h1", "a1", "h8", "a8", "h1", "b2", "g7", "b7", "g2"}
	next := 0
	for turns := 9; turns > 0; turns-- {
		want := fmt.Sprintf("Turns left: R %d", turns-1)
		for played := false; !played; next++ {
			if next == len(squares) {
				t.Fatalf("no square left to play:\n%s", ann.screen())
			}
			ann.send(":")
			ann.waitFor("move:")
			ann.send(squares[next] + "\r")
			played = ann.waitForEither(want, "✗")
		}
		if turns > 1 {
			fits(ann.waitFor("Your turn", fmt.Sprintf("Turns left: R %d · B %d", turns-1, turns-1)))
		}
	}
	screen = ann.waitFor("GAME OVER")
	fits(screen)
	if !strings.Contains(screen, "r rematch") {
		t.Errorf("the end's keys are not on the help line:\n%s", screen)
	}
}

// waitForEither waits until the screen shows yes (true) or no (false).
func (p *player) waitForEither(yes, no string) bool {
	p.t.Helper()
	until := time.Now().Add(deadline)
	for time.Now().Before(until) {
		switch s := p.screen(); {
		case strings.Contains(s, yes):
			return true
		case strings.Contains(s, no):
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.t.Fatalf("%s: the screen never showed %q or %q:\n%s", p.name, yes, no, p.screen())
	return false
}
