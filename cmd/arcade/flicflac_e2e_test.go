package main

import (
	"strings"
	"testing"
	"time"
)

// TestFlicFlacTimerRunsOut: a player opens a timed Flic Flac room against a bot and lets her turn's
// timer run out, twice: the room ends each turn for her (the move list says "Cylinders end"), the bot plays
// its turns, and the match goes on to her third turn.
func TestFlicFlacTimerRunsOut(t *testing.T) {
	addr := startServer(t)
	ann := connect(t, addr, "ann", newKey(t), "new flicflac timer=1 captors=1 events=0 shape=cylinders bots=1 bot=easy")
	ann.waitFor("Flic Flac", "you: ann (Cylinders)", "Turn 1 of 200")
	// No key pressed: the timer ends turn 1, the bot plays turn 2, the timer ends turn 3.
	screen := ann.waitForWithin(60*time.Second, "Turn 4 of 200")
	if !strings.Contains(screen, "Last: ") {
		t.Errorf("the panel does not say what the last turn did:\n%s", screen)
	}
	ann.send("\t") // the move list: the room's ends of ann's turns
	screen = ann.waitFor("Cylinders end")
	if strings.Contains(screen, "GAME OVER") {
		t.Errorf("the match ended:\n%s", screen)
	}
}
