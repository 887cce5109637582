package main

import (
	"strings"
	"syscall"
	"testing"
	"time"
)

// matchScreen returns what a room's screen shows of the match (Flic Flac's, Lhex-i'-con's): the
// rows of the board under the title, with Lhex-i'-con's rack row, cut before the side panel, and
// the panel's first two rows (each side's captures or score, and whose turn it is); not the rest
// of the panel, whose clock and chat change.
func matchScreen(screen string) string {
	lines := strings.Split(screen, "\n")
	if len(lines) > 18 {
		lines = lines[1:18]
	}
	for i, l := range lines {
		r := []rune(l)
		if i >= 2 && len(r) > 51 {
			r = r[:51]
		}
		lines[i] = strings.TrimRight(string(r), " ")
	}
	return strings.Join(lines, "\n")
}

// TestFlicFlacKillRestartResume: a timed Flic Flac match against a bot, with random events
// often, is killed with SIGKILL in the player's third turn, after two timeouts of hers and two
// turns of the bot's. Started again on the same folder, the room replays its record: the
// board is the one she saw (pieces, faces and hex colours, events included) with the same
// captures, the turn is hers with its time running again, and when it runs out the match goes on.
func TestFlicFlacKillRestartResume(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin, data := binary(t), t.TempDir()
	server, addr := startBinary(t, bin, data)
	key := newKey(t)
	ann := connect(t, addr, "ann", key, "new flicflac timer=5s captors=3s events=50% shape=cylinders bots=1 bot=easy")
	code := roomCode(t, ann.waitFor("Flic Flac", "you: ann (Cylinders)", "Turn 1 of 200"))
	// Turns 1 and 3 are ann's: their time runs out. The bot plays turns 2 and 4.
	screen := ann.waitForWithin(90*time.Second, "Turn 5 of 200", "Your turn")
	before := matchScreen(screen)
	if err := server.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = server.Wait()
	_, addr = startBinary(t, bin, data)

	ann = connect(t, addr, "ann", key, "join "+code)
	screen = ann.waitFor("you: ann (Cylinders)", "the server restarted", "Turn 5 of 200", "Your turn")
	if after := matchScreen(screen); after != before {
		t.Errorf("the board after the restart differs.\nbefore:\n%s\nafter:\n%s", before, after)
	}
	// The turn's clock runs again: ann's turn 5 runs out, the bot plays turn 6.
	ann.waitForWithin(60*time.Second, "Turn 7 of 200")
	ann.send("\t") // the move list: the room's ends of ann's turns, before the restart and after
	ann.waitFor("Cylinders end")
}
