package main

import (
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
)

var listening = regexp.MustCompile(`listening on (\S+)`)

// startBinary runs the built server on the data folder and returns its address.
func startBinary(t *testing.T, bin, data string) (*exec.Cmd, net.Addr) {
	t.Helper()
	cmd, addr, logs := startLogged(t, bin, data, "--bot-delay", "0s", "--conn-rate", "1000", "--conn-burst", "1000")
	if addr == nil {
		t.Fatalf("the server did not start:\n%s", logs)
	}
	return cmd, addr
}

// plainCommand runs a command without a PTY and returns its output; it must succeed.
func plainCommand(t *testing.T, addr net.Addr, key ssh.Signer, cmd string) string {
	t.Helper()
	out, errOut, err := runPlain(t, addr, key, cmd)
	if err != nil {
		t.Fatalf("%s: %v\n%s%s", cmd, err, out, errOut)
	}
	return out
}

// runPlain runs a command without a PTY as "reader" and returns its stdout, its stderr and how it
// ended.
func runPlain(t *testing.T, addr net.Addr, key ssh.Signer, cmd string) (string, string, error) {
	t.Helper()
	return runPlainAs(t, addr, "reader", key, cmd)
}

// playMoves plays n moves (all when n < 0) of the test's own copy of the game through the players'
// : prompts, and waits until every screen shows the turns left after each.
func playMoves(t *testing.T, state rules.Engine, n int, players []*player, watchers ...*player) rules.Engine {
	t.Helper()
	for i := 0; (n < 0 || i < n) && !state.Outcome().Over; i++ {
		seat, move := greedyMove(t, state)
		var err error
		if state, err = state.Apply(seat, move); err != nil {
			t.Fatalf("engine refused %q: %v", move, err)
		}
		p := players[seat]
		p.send(":")
		p.waitFor("move:")
		p.send(move + "\r")
		v := state.View(rules.Spectator).(stonetowers.View)
		want := "Turns left: R " + strconv.Itoa(v.TurnsLeft[0]) + " · B " + strconv.Itoa(v.TurnsLeft[1])
		for _, q := range append(players, watchers...) {
			q.waitFor(want)
		}
	}
	return state
}

// greedyMove returns the seat to move in a Stone Towers state and the move playMoves plays there.
func greedyMove(t *testing.T, state rules.Engine) (rules.Seat, string) {
	t.Helper()
	seat := state.ToMove()[0]
	before := state.View(rules.Spectator).(stonetowers.View)
	ply := 2*before.Turns - before.TurnsLeft[0] - before.TurnsLeft[1]
	return seat, stonetowers.Greedy{}.Move(context.Background(), state, seat, rand.New(rand.NewPCG(3, uint64(ply))))
}

var matchID = regexp.MustCompile(`\b([2-9a-z]{11})\b`)

// duel is a Stone Towers room of alice (Red) and bob (Blue) on the real binary, with their keys.
type duel struct {
	alice, bob       *player
	aliceKey, bobKey ssh.Signer
	code             string
}

// startDuel has alice open a Stone Towers room with opts and bob join it, and waits for the match.
func startDuel(t *testing.T, addr net.Addr, opts string) *duel {
	t.Helper()
	d := &duel{aliceKey: newKey(t), bobKey: newKey(t)}
	d.alice = connect(t, addr, "alice", d.aliceKey, "new stonetowers "+opts)
	d.code = roomCode(t, d.alice.waitFor("Waiting for players"))
	d.bob = connect(t, addr, "bob", d.bobKey, "join "+d.code)
	d.bob.waitFor("playing")
	return d
}

// killAndRejoin kills server with SIGKILL, starts the binary again on data, and has both players
// join the room again (bob typing its code in lower case); it returns the new address.
func (d *duel) killAndRejoin(t *testing.T, server *exec.Cmd, bin, data string) net.Addr {
	t.Helper()
	if err := server.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = server.Wait()
	_, addr := startBinary(t, bin, data)
	d.alice = connect(t, addr, "alice", d.aliceKey, "join "+d.code)
	d.alice.waitFor("you: alice (Red)", "the server restarted")
	d.bob = connect(t, addr, "bob", d.bobKey, "join "+strings.ToLower(d.code))
	d.bob.waitFor("you: bob (Blue)")
	return addr
}

// TestKillRestartResume: two players play part of a game on the real binary; the process is
// killed with SIGKILL and started again on the same folder; both rejoin by the code and finish
// the game. The replay shows every move, and the plain-text leaderboard shows the result.
func TestKillRestartResume(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin, data := binary(t), t.TempDir()
	server, addr := startBinary(t, bin, data)
	d := startDuel(t, addr, "") // the standard game: a rated match
	alice, bob, aliceKey := d.alice, d.bob, d.aliceKey

	state, err := stonetowers.Game.New(nil, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	state = playMoves(t, state, 7, []*player{alice, bob})

	addr = d.killAndRejoin(t, server, bin, data)
	alice, bob = d.alice, d.bob
	v := state.View(rules.Spectator).(stonetowers.View)
	alice.waitFor("Turns left: R " + strconv.Itoa(v.TurnsLeft[0]) + " · B " + strconv.Itoa(v.TurnsLeft[1]))
	// The rated match's clock (2 minutes a move) runs again for the player to move.
	[]*player{alice, bob}[state.ToMove()[0]].waitFor("left for your turn")
	state = playMoves(t, state, -1, []*player{alice, bob})
	out := state.Outcome()
	alice.waitFor("GAME OVER")

	board := plainCommand(t, addr, aliceKey, "leaderboard stonetowers")
	winner, loser := "alice", "bob"
	if out.Ranks[1] == 1 {
		winner, loser = "bob", "alice"
	}
	if !regexp.MustCompile(`1\s+`+winner+`\s`).MatchString(board) || !regexp.MustCompile(`2\s+`+loser+`\s`).MatchString(board) {
		t.Errorf("leaderboard does not show %s over %s:\n%s", winner, loser, board)
	}

	var standings []record.Standing
	if err := json.Unmarshal([]byte(plainCommand(t, addr, aliceKey, "leaderboard stonetowers --json")), &standings); err != nil {
		t.Fatalf("leaderboard --json: %v", err)
	}
	if len(standings) != 2 || standings[0].Name != winner || standings[0].Games != 1 || standings[0].Wins != 1 {
		t.Errorf("leaderboard --json = %+v", standings)
	}

	// Alice finds the match among hers and replays it to the end.
	lobby := connect(t, addr, "alice", aliceKey, "")
	lobby.waitFor("Welcome")
	lobby.send("jjjjj\r") // down to "My matches and ratings"
	screen := lobby.waitFor("MATCH", "won")
	if out.Ranks[0] != 1 {
		screen = lobby.waitFor("lost")
	}
	id := matchID.FindStringSubmatch(screen[strings.Index(screen, "MATCH"):])
	if id == nil {
		t.Fatalf("no match ID on the screen:\n%s", screen)
	}
	plies := strconv.Itoa(2 * stonetowers.DefaultTurns)
	replay := connect(t, addr, "alice", aliceKey, "replay "+id[1])
	replay.waitFor("move 0 of "+plies, "· rated")
	replay.send("G")
	replay.waitFor("move "+plies+" of "+plies, "GAME OVER", "Rated match.")
	for range 2 * stonetowers.DefaultTurns {
		replay.send("h")
	}
	replay.waitFor("move 0 of " + plies)
}

// TestCancelledBeforeServing: a server told to stop before it has begun to accept connections
// stops all the same (the signal can come at any moment of the start).
func TestCancelledBeforeServing(t *testing.T) {
	t.Parallel()
	for range 20 {
		cfg, err := parseConfig([]string{"--addr", "127.0.0.1:0", "--data", t.TempDir(), "--log-level", "error"},
			func(string) string { return "" }, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		done := make(chan error, 1)
		go func() { done <- run(ctx, cfg, io.Discard, nil) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("run: %v", err)
			}
		case <-time.After(deadline):
			t.Fatal("a server cancelled before it served did not stop")
		}
	}
}

// gameClock reads a game clock's line of a Stone Towers room ("Red 0:58 · Blue 1:03"): each seat's
// time, the running one's as it shows now.
var gameClock = regexp.MustCompile(`Red (\d+):(\d\d) · Blue (\d+):(\d\d)`)

// waitForClock waits until p's screen shows the game clock's line and ok accepts its times, and
// returns them.
func (p *player) waitForClock(what string, ok func(times [2]time.Duration) bool) [2]time.Duration {
	p.t.Helper()
	until := time.Now().Add(deadline)
	for {
		s := p.screen()
		if m := gameClock.FindStringSubmatch(s); m != nil {
			var times [2]time.Duration
			for i := range times {
				min, _ := strconv.Atoi(m[1+2*i])
				sec, _ := strconv.Atoi(m[2+2*i])
				times[i] = time.Duration(min)*time.Minute + time.Duration(sec)*time.Second
			}
			if ok(times) {
				return times
			}
		}
		if time.Now().After(until) {
			p.t.Fatalf("%s: the clock never showed %s; the screen shows:\n%s", p.name, what, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestKillRestartResumesTheClock: a match with a game clock (1m+2s, so that the clock shows
// seconds) is killed with SIGKILL after a few moves and restored: each player's time is what it
// was when their turn last began plus the restore grace, the clock of the player to move runs
// on, and their move is accepted.
func TestKillRestartResumesTheClock(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin, data := binary(t), t.TempDir()
	server, addr := startBinary(t, bin, data)
	d := startDuel(t, addr, "size=8 turns=10 clock=1m+2s")
	alice, bob := d.alice, d.bob

	state, err := stonetowers.Game.New(rules.Options{"size": "8", "turns": "10"}, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	players := []*player{alice, bob}
	state = playMoves(t, state, 3, players)
	// The clock of the player not to move stands: its time is the one their next turn begins with.
	mover := 1 - state.ToMove()[0] // Red, alice, to move after the next move
	standing := players[mover].waitForClock("both times", func([2]time.Duration) bool { return true })
	state = playMoves(t, state, 1, players)
	if state.ToMove()[0] != mover {
		t.Fatalf("seat %d to move, want %d", state.ToMove()[0], mover)
	}
	waiting := 1 - mover // bob: his clock stands now; alice's runs
	before := players[mover].waitForClock("both times", func([2]time.Duration) bool { return true })

	d.killAndRejoin(t, server, bin, data)
	players = []*player{d.alice, d.bob}
	// The waiting player's time stood still: it comes back with the grace added (to within the
	// second the clock rounds to).
	after := players[mover].waitForClock("the grace", func(times [2]time.Duration) bool {
		d := times[waiting] - before[waiting]
		return d >= 4*time.Second && d <= 6*time.Second
	})
	t.Logf("times before the kill %v, after the restart %v", before, after)
	// The mover's time, counted from when their turn began, has the grace too, and no more (to
	// within the second the clock rounds to), however long the restart took; and it runs.
	if after[mover] > standing[mover]+6*time.Second {
		t.Errorf("the mover's time %v after the restart, %v when their turn began: more than the grace", after[mover], standing[mover])
	}
	players[mover].waitFor("left for your turn")
	players[mover].waitForClock("the mover's time running", func(times [2]time.Duration) bool {
		return times[mover] < after[mover] && times[waiting] == after[waiting]
	})
	// The mover's move is accepted, and the clock passes to the other player.
	state = playMoves(t, state, 1, players)
	players[waiting].waitFor("left for your turn")
}
