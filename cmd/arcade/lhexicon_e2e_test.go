package main

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon"
)

// lhexState is the test's own copy of the Lhex-i'-con match of room code (the server runs with
// --load-test-seeds, so the bank follows from the code).
func lhexState(t *testing.T, code string, seats int) rules.Engine {
	t.Helper()
	opts, err := lhexicon.Game.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := lhexicon.Game.New(opts, seats, rules.DerivedSeed(code, 1))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestLhexiconAgainstABotThroughSSH: a player plays Lhex-i'-con against the easy bot over SSH,
// typing the moves its own copy of the match chooses; both sides' scores agree with that copy
// turn after turn, and the player resigns.
func TestLhexiconAgainstABotThroughSSH(t *testing.T) {
	t.Parallel()
	addr := startServerWith(t, "--load-test-seeds")
	ann := connect(t, addr, "ann", newKey(t), "new lhexicon bots=1 bot=easy")
	screen := ann.waitFor("Lhex-i'-con", "Your turn")
	code := roomCode(t, screen)
	state := lhexState(t, code, 2)
	seed := rules.DerivedSeed(code, 1)
	for turn := range 3 {
		state, _ = lhexTurn(t, ann, state, seed, turn)
	}
	ann.send("R")
	ann.waitFor("Resign?")
	ann.send("\r")
	ann.waitFor("GAME OVER", "ann resigned")
}

// TestLhexiconSoloThroughSSH: a solo game: the player makes the best first play, ends the game,
// reads the score at the end, and finds it on the solo table of the leaderboard.
func TestLhexiconSoloThroughSSH(t *testing.T) {
	t.Parallel()
	addr := startServerWith(t, "--load-test-seeds")
	key := newKey(t)
	ann := connect(t, addr, "ann", key, "new lhexicon seats=1")
	code := roomCode(t, ann.waitFor("Lhex-i'-con", "Your turn"))
	state := lhexState(t, code, 1)
	move := lhexicon.Greedy{}.Move(context.Background(), state, 0, rand.New(rand.NewPCG(1, 1)))
	state, err := state.Apply(0, move)
	if err != nil {
		t.Fatal(err)
	}
	points := strconv.Itoa(state.Outcome().Scores[0])
	ann.send(":")
	ann.waitFor("move:")
	ann.send(move + "\r")
	// The score beside the name, not just the number anywhere (a row's label holds 10 to 15):
	// "end" must not go out before the play has been taken, as the two travel apart.
	scored := regexp.MustCompile(`Player 1 ann \(you\)\s+` + points + `\b`)
	until := time.Now().Add(deadline)
	for screen := ann.waitFor("Your turn"); !scored.MatchString(screen); screen = ann.screen() {
		if time.Now().After(until) {
			t.Fatalf("the play's %s points are not beside ann's name:\n%s", points, screen)
		}
		time.Sleep(20 * time.Millisecond)
	}
	ann.send(":")
	ann.waitFor("move:")
	ann.send("end\r")
	ann.waitFor("GAME OVER", "ann scored "+points)
	// The end is on disk just after the players see it: the table is read until it shows.
	solo := regexp.MustCompile(`best solo scores[\s\S]*1\s+ann\s+` + points + `\s`)
	until = time.Now().Add(deadline)
	board := plainCommand(t, addr, key, "leaderboard lhexicon")
	for !solo.MatchString(board) && time.Now().Before(until) {
		time.Sleep(100 * time.Millisecond)
		board = plainCommand(t, addr, key, "leaderboard lhexicon")
	}
	if !solo.MatchString(board) {
		t.Errorf("the solo table does not show ann's %s:\n%s", points, board)
	}
	// The same in JSON: the game's ratings (none: a solo game is not rated) and its solo table.
	var doc struct {
		Lhexicon []record.Standing             `json:"lhexicon"`
		Solo     map[string][]record.SoloScore `json:"solo"`
	}
	out := plainCommand(t, addr, key, "leaderboard lhexicon --json")
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("leaderboard lhexicon --json: %v\n%s", err, out)
	}
	best := doc.Solo["lhexicon"]
	if len(best) != 1 || best[0].Name != "ann" || strconv.Itoa(best[0].Score) != points || best[0].Rank != 1 ||
		best[0].Match == "" || best[0].Games != 1 || len(doc.Lhexicon) != 0 {
		t.Errorf("leaderboard lhexicon --json: %+v\n%s", doc, out)
	}
}
