package main

import (
	"context"
	"math/rand/v2"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon"
)

// lhexTurn plays turn (from 0) of ann's Lhex-i'-con match against the easy bot, as
// TestLhexiconAgainstABotThroughSSH does: ann types the play greedy chooses in the test's copy of
// the match, the copy takes the bot's reply, and the screen shows both scores. It returns the
// copy after the reply and the screen.
func lhexTurn(t *testing.T, ann *player, state rules.Engine, seed uint64, turn int) (rules.Engine, string) {
	t.Helper()
	ply := turn * 2
	move := lhexicon.Greedy{}.Move(context.Background(), state, 0, rand.New(rand.NewPCG(1, uint64(ply))))
	next, err := state.Apply(0, move)
	if err != nil {
		t.Fatalf("turn %d: the test's engine refuses %q: %v", turn, move, err)
	}
	ann.send(":")
	ann.waitFor("move:")
	ann.send(move + "\r")
	reply := lhexicon.Easy{}.Move(context.Background(), next, 1, rand.New(rand.NewPCG(seed, uint64(ply+1)<<8|1)))
	if state, err = next.Apply(1, reply); err != nil {
		t.Fatalf("turn %d: the bot's reply %q: %v", turn, reply, err)
	}
	scores := state.Outcome().Scores
	mine := regexp.MustCompile(`Player 1 ann \(you\)\s+` + strconv.Itoa(scores[0]) + `\b`)
	theirs := regexp.MustCompile(`Player 2 \w+ \(easy bot\)\s+` + strconv.Itoa(scores[1]) + `\b`)
	until := time.Now().Add(deadline)
	screen := ann.waitFor("Your turn", "(easy bot)")
	for ; !mine.MatchString(screen) || !theirs.MatchString(screen); screen = ann.screen() {
		if time.Now().After(until) {
			t.Fatalf("turn %d: the scores %v are not on the screen:\n%s", turn, scores, screen)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return state, screen
}

// TestLhexiconKillRestartResume: a Lhex-i'-con match against a bot is killed with SIGKILL after
// two turns each and started again on the same folder: the board, the player's rack and both
// scores are as they were, it is her turn, and the match goes on from there.
func TestLhexiconKillRestartResume(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin, data := binary(t), t.TempDir()
	flags := []string{"--bot-delay", "0s", "--conn-rate", "1000", "--conn-burst", "1000", "--load-test-seeds"}
	server, addr, logs := startLogged(t, bin, data, flags...)
	if addr == nil {
		t.Fatalf("the server did not start:\n%s", logs)
	}
	key := newKey(t)
	ann := connect(t, addr, "ann", key, "new lhexicon bots=1 bot=easy")
	code := roomCode(t, ann.waitFor("Lhex-i'-con", "Your turn"))
	state := lhexState(t, code, 2)
	seed := rules.DerivedSeed(code, 1)
	var screen string
	for turn := range 2 {
		state, screen = lhexTurn(t, ann, state, seed, turn)
	}
	before := matchScreen(screen)
	if err := server.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = server.Wait()
	if _, addr, logs = startLogged(t, bin, data, flags...); addr == nil {
		t.Fatalf("the server did not start again:\n%s", logs)
	}

	ann = connect(t, addr, "ann", key, "join "+code)
	screen = ann.waitFor("you: ann (Player 1)", "the server restarted", "Your turn")
	if after := matchScreen(screen); after != before {
		t.Errorf("the match after the restart differs.\nbefore:\n%s\nafter:\n%s", before, after)
	}
	lhexTurn(t, ann, state, seed, 2)
	ann.send("R")
	ann.waitFor("Resign?")
	ann.send("\r")
	ann.waitFor("GAME OVER", "ann resigned")
}
