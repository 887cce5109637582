package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// turnPattern reads Flic Flac's turn number from its side panel.
var turnPattern = regexp.MustCompile(`Turn (\d+) of 200`)

// TestFlicFlacTimerRunsOut: a player opens a timed Flic Flac room against a bot and lets her turn's
// timer run out, again and again: the room ends each of her turns (the move list says "Cylinders
// end"), the bot plays its turns, and the match goes on past her third turn.
func TestFlicFlacTimerRunsOut(t *testing.T) {
	t.Parallel()
	addr := startServer(t)
	ann := connect(t, addr, "ann", newKey(t), "new flicflac timer=2s captors=1s events=0% shape=cylinders bots=1 bot=easy")
	ann.waitFor("Flic Flac", "you: ann (Cylinders)", "Turn 1 of 200")
	// No key pressed: the timer ends turns 1, 3, 5 while the bot plays 2 and 4. (The bot's turns
	// pass too quickly to be seen: the test waits for any turn past the fifth.)
	var screen string
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		screen = ann.screen()
		if m := turnPattern.FindStringSubmatch(screen); m != nil {
			if n, _ := strconv.Atoi(m[1]); n >= 5 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the match did not reach turn 5:\n%s", screen)
		}
	}
	if strings.Contains(screen, "GAME OVER") || !strings.Contains(screen, "Last: ") {
		t.Errorf("the match did not go on, or the panel does not say what the last turn did:\n%s", screen)
	}
	ann.send("\t") // the move list: the room's ends of ann's turns
	ann.waitFor("Cylinders end")
}
