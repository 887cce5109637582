package main

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
)

// startServer runs the real server (as main runs it) on 127.0.0.1:0 with its data in a temporary
// folder, and stops it when the test ends.
func startServer(t *testing.T) net.Addr {
	t.Helper()
	return startServerWith(t)
}

// startServerWith is startServer with more flags.
func startServerWith(t *testing.T, flags ...string) net.Addr {
	t.Helper()
	args := append([]string{"--addr", "127.0.0.1:0", "--data", t.TempDir(), "--bot-delay", "0s",
		"--conn-rate", "1000", "--conn-burst", "1000", "--log-level", "error"}, flags...)
	cfg, err := parseConfig(args, func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- run(ctx, cfg, io.Discard, ready) }()
	var addr net.Addr
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("server did not start: %v", err)
	case <-time.After(deadline):
		t.Fatal("server did not start")
	}
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("server: %v", err)
			}
		case <-time.After(deadline):
			t.Errorf("server did not stop within %v", deadline)
		}
	})
	return addr
}

var codePattern = regexp.MustCompile(`room ([A-Z2-9]{5})`)

// roomCode reads the room code from a room screen.
func roomCode(t *testing.T, screen string) string {
	t.Helper()
	m := codePattern.FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no room code on the screen:\n%s", screen)
	}
	return m[1]
}

// seatScores reads the score beside each seat in the side panel.
func seatScores(screen string) (red, blue int, ok bool) {
	red, blue = -1, -1
	for _, line := range strings.Split(screen, "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		n, err := strconv.Atoi(fields[len(fields)-1])
		if err != nil {
			continue
		}
		switch {
		case strings.Contains(line, "R Red "):
			red = n
		case strings.Contains(line, "B Blue "):
			blue = n
		}
	}
	return red, blue, red >= 0 && blue >= 0
}

// TestPlayAWholeGame: one player creates a room, a second joins by its code, a third watches; they
// play a whole Stone Towers game by typing moves, and the final scores agree on all three screens
// and with the engine.
func TestPlayAWholeGame(t *testing.T) {
	t.Parallel()
	addr := startServer(t)
	alice := connect(t, addr, "alice", newKey(t), "new stonetowers size=8 turns=10")
	code := roomCode(t, alice.waitFor("waiting", "Waiting for players"))

	bob := connect(t, addr, "bob", newKey(t), "join "+code)
	bob.waitFor("playing", "you: bob (Blue)")
	alice.waitFor("playing", "you: alice (Red)")
	carol := connect(t, addr, "carol", nil, "watch "+strings.ToLower(code))
	carol.waitFor("watching", "alice", "bob")

	// The same game, played by the test's own engine, chooses the moves and predicts the result.
	var state rules.Engine
	state, err := stonetowers.Game.New(rules.Options{"size": "8", "turns": "10"}, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	bot := stonetowers.Greedy{}
	players := []*player{alice, bob}
	for ply := 0; !state.Outcome().Over; ply++ {
		seat := state.ToMove()[0]
		move := bot.Move(context.Background(), state, seat, rand.New(rand.NewPCG(1, uint64(ply))))
		if state, err = state.Apply(seat, move); err != nil {
			t.Fatalf("ply %d: engine refused %q: %v", ply, move, err)
		}
		p := players[seat]
		p.send(":")
		p.waitFor("move:")
		p.send(move + "\r")
		v := state.View(rules.Spectator).(stonetowers.View)
		want := "Turns left: R " + strconv.Itoa(v.TurnsLeft[0]) + " · B " + strconv.Itoa(v.TurnsLeft[1])
		for _, q := range []*player{alice, bob, carol} {
			q.waitFor(want)
		}
	}
	out := state.Outcome()
	for _, q := range []*player{alice, bob, carol} {
		screen := q.waitFor("GAME OVER")
		red, blue, ok := seatScores(screen)
		if !ok || red != out.Scores[0] || blue != out.Scores[1] {
			t.Errorf("%s sees scores %d-%d, engine says %v:\n%s", q.name, red, blue, out.Scores, screen)
		}
	}
	// A rematch: both ask; the seats swap colours and a new match starts.
	alice.send("r")
	bob.send("r")
	alice.waitFor("playing", "you: alice (Blue)")
}

// TestPlainCommands: help and rooms answer without a PTY and exit 0; a bad command line gets one
// line on stderr and a non-zero exit status.
func TestPlainCommands(t *testing.T) {
	t.Parallel()
	addr := startServer(t)
	key := newKey(t)
	run := func(cmd string) (string, string, error) { return runPlain(t, addr, key, cmd) }
	out, _, err := run("help")
	if err != nil || !strings.Contains(out, "join CODE") || !strings.Contains(out, "Stone Towers") {
		t.Errorf("help: err=%v out=%q", err, out)
	}
	out, _, err = run("rooms")
	if err != nil || !strings.Contains(out, "No open rooms") {
		t.Errorf("rooms: err=%v out=%q", err, out)
	}
	for _, bad := range []string{"dance", "new chess", "new stonetowers size=99", "new stonetowers colour=red", "join", "join K7QXM"} {
		_, errOut, err := run(bad)
		var exit *ssh.ExitError
		if !errors.As(err, &exit) || exit.ExitStatus() == 0 {
			t.Errorf("%q: err=%v, want a non-zero exit", bad, err)
		}
		if lines := strings.Count(strings.TrimSpace(errOut), "\n"); !strings.HasPrefix(errOut, "arcade: ") || lines > 0 {
			t.Errorf("%q: stderr %q, want one line starting arcade:", bad, errOut)
		}
	}
}

// TestOfferedKeyIsNotIdentity: Mallory has Alice's public key but not her private key. OpenSSH,
// given the public key alone, offers it (the server's key callback sees it and accepts the offer),
// cannot sign with it, and goes on to authenticate with Mallory's own key. The session must be
// Mallory's: the identity is read from the connection, never from what the callback last saw.
func TestOfferedKeyIsNotIdentity(t *testing.T) {
	t.Parallel()
	sshPath, err := exec.LookPath("ssh")
	if err != nil {
		t.Skip("OpenSSH client not installed")
	}
	addr := startServer(t).(*net.TCPAddr)
	dir := t.TempDir()
	alice, mallory := newKey(t), newKey(t)
	alicePub := filepath.Join(dir, "alice.pub")
	if err := os.WriteFile(alicePub, ssh.MarshalAuthorizedKey(alice.PublicKey()), 0o600); err != nil {
		t.Fatal(err)
	}
	malloryKey := writePrivateKey(t, dir, "mallory", mallory)
	cmd := exec.Command(sshPath, "-F", "none", "-p", strconv.Itoa(addr.Port),
		"-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes",
		"-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none", "-o", "LogLevel=ERROR",
		"-i", alicePub, "-i", malloryKey, "alice@127.0.0.1", "whoami")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ssh: %v\n%s", err, out)
	}
	if want := ssh.FingerprintSHA256(mallory.PublicKey()); !strings.Contains(string(out), want) {
		t.Errorf("whoami says %q; want Mallory's key %s", out, want)
	}
	if strings.Contains(string(out), ssh.FingerprintSHA256(alice.PublicKey())) {
		t.Errorf("Mallory was taken for Alice: %q", out)
	}
}

// TestChatRejoinAndReplace: chat reaches the other screen cleaned of escape sequences; a player
// who drops sees their seat wait, and joining again with the same key takes it back; a newer
// connection of the same player replaces the older one.
func TestChatRejoinAndReplace(t *testing.T) {
	t.Parallel()
	addr := startServer(t)
	aliceKey, bobKey := newKey(t), newKey(t)
	alice := connect(t, addr, "alice", aliceKey, "new stonetowers")
	code := roomCode(t, alice.waitFor("Waiting for players"))
	bob := connect(t, addr, "bob", bobKey, "join "+code)
	bob.waitFor("you: bob (Blue)", "playing")

	alice.send("t")
	alice.waitFor("chat:")
	alice.send("hello \x1b[31mbob\x1b]0;pwned\x07!\r")
	bob.waitFor("alice: hello bob!")

	bob.close()
	alice.waitFor("away")
	bob2 := connect(t, addr, "bob", bobKey, "join "+code)
	bob2.waitFor("you: bob (Blue)", "playing")

	bob3 := connect(t, addr, "bob", bobKey, "join "+code)
	bob3.waitFor("you: bob (Blue)")
	bob2.waitFor("another terminal")
}

// TestSessionCap: beyond --max-sessions a client is refused with a polite line.
func TestSessionCap(t *testing.T) {
	t.Parallel()
	addr := startServerWith(t, "--max-sessions", "1")
	first := connect(t, addr, "ann", newKey(t), "")
	first.waitFor("Welcome")
	second := connect(t, addr, "ben", newKey(t), "")
	second.waitFor("places are taken")
}

// TestBotsPlayDisconThroughSSH: a player creates a DISCON room for three bots and watches the
// whole game to its end; the variant is a room option.
func TestBotsPlayDisconThroughSSH(t *testing.T) {
	t.Parallel()
	addr := startServer(t)
	viewer := connect(t, addr, "vera", newKey(t), "new discon seats=3 bots=3 bot=easy variant=basic")
	viewer.waitFor("DISCON", "watching", "Variant basic")
	screen := viewer.waitFor("GAME OVER")
	for _, want := range []string{"R Red", "G Green", "Y Yellow", "easy bot"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the end screen lacks %q:\n%s", want, screen)
		}
	}
}

// TestBotsPlayColorettaThroughSSH: four bots play a one-round Coloretta game to its end while
// its creator watches; the end screen shows every hand's scoring.
func TestBotsPlayColorettaThroughSSH(t *testing.T) {
	t.Parallel()
	addr := startServer(t)
	viewer := connect(t, addr, "vera", newKey(t), "new coloretta seats=4 bots=4 bot=easy rounds=1")
	viewer.waitFor("Coloretta", "watching")
	screen := viewer.waitFor("GAME OVER")
	for _, want := range []string{"Seat 1", "Seat 4", "total", "round"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the end screen lacks %q:\n%s", want, screen)
		}
	}
}

// TestIdleTimeout: a connection that sends and receives nothing for --idle-timeout is closed.
func TestIdleTimeout(t *testing.T) {
	t.Parallel()
	addr := startServerWith(t, "--idle-timeout", "3s")
	p := connect(t, addr, "ida", newKey(t), "")
	p.waitFor("Welcome")
	select {
	case <-p.done:
	case <-time.After(deadline):
		t.Fatal("an idle connection was not closed")
	}
}

// TestGlobalRequests: a connection's global requests (keep-alives, port forwarding, anything) are
// answered, refused, while its session goes on, and a second session opens on the same
// connection.
func TestGlobalRequests(t *testing.T) {
	t.Parallel()
	addr := startServerWith(t)
	p := connect(t, addr, "gil", newKey(t), "")
	p.waitFor("Welcome")
	for _, req := range []string{"keepalive@openssh.com", "tcpip-forward", "no-such-request@example.com"} {
		done := make(chan error, 1)
		go func() {
			ok, _, err := p.conn.SendRequest(req, true, nil)
			if err == nil && ok {
				err = errors.New("accepted")
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("global request %s: %v; want it refused", req, err)
			}
		case <-time.After(deadline):
			t.Fatalf("global request %s: no answer", req)
		}
	}
	p.send("jj\r") // the session still runs: the menu's "Join a room by code" opens
	p.waitFor("Room code:")
	q := attach(t, p.conn, "gil", "")
	q.waitFor("Welcome")
}

// TestWindowChanges: the client's window changes reach the program: smaller than 60 x 20 gets the
// message, and back to 80 x 24 the lobby again, the last of a quick burst of changes winning.
func TestWindowChanges(t *testing.T) {
	t.Parallel()
	addr := startServerWith(t)
	p := connect(t, addr, "win", newKey(t), "")
	p.waitFor("Welcome")
	if err := p.sess.WindowChange(16, 50); err != nil {
		t.Fatal(err)
	}
	p.waitFor("arcade needs at least")
	for _, w := range []int{70, 90, 75, 100, 80} {
		if err := p.sess.WindowChange(24, w); err != nil {
			t.Fatal(err)
		}
	}
	p.waitFor("Welcome", "New room")
}

// TestSessionsShareAConnection: two sessions on one connection (as OpenSSH's ControlMaster makes)
// each have their own program. The first one quitting ends only itself, with its exit status;
// the second goes on drawing and playing. (The connection's context is shared by its sessions:
// nothing of a session may be kept there.)
func TestSessionsShareAConnection(t *testing.T) {
	t.Parallel()
	addr := startServerWith(t)
	p := connect(t, addr, "mux", newKey(t), "")
	p.waitFor("Welcome")
	q := attach(t, p.conn, "mux", "")
	q.waitFor("Welcome")
	p.send("q")
	if err := p.sess.Wait(); err != nil {
		t.Fatalf("first session: %v; want exit status 0", err)
	}
	q.send("jj\r") // the menu's "Join a room by code" opens
	q.waitFor("Room code:")
}

// TestClosedSessionLeavesItsRoom: a client that closes a session's channel and keeps the
// connection (as a ControlMaster's client does when it ends) ends that session's program: its
// seat shows away to the opponent at once, and the place it held is free for the next session.
func TestClosedSessionLeavesItsRoom(t *testing.T) {
	t.Parallel()
	addr := startServerWith(t, "--max-sessions", "2")
	alice := connect(t, addr, "alice", newKey(t), "new stonetowers")
	code := roomCode(t, alice.waitFor("Waiting for players"))
	bob := connect(t, addr, "bob", newKey(t), "join "+code)
	bob.waitFor("you: bob (Blue)", "playing")
	if err := bob.sess.Close(); err != nil {
		t.Fatal(err)
	}
	alice.waitFor("away")
	again := attach(t, bob.conn, "bob", "join "+code) // on the connection bob kept
	again.waitFor("you: bob (Blue)", "playing")
}

// TestQuickMatchThroughSSH: two players type `play stonetowers`; the first waits, the second is
// paired with them, and both play in the same room.
func TestQuickMatchThroughSSH(t *testing.T) {
	t.Parallel()
	addr := startServer(t)
	alice := connect(t, addr, "alice", newKey(t), "play stonetowers")
	alice.waitFor("Looking for an opponent")
	bob := connect(t, addr, "bob", newKey(t), "play stonetowers")
	a := alice.waitFor("playing", "alice (", "bob")
	b := bob.waitFor("playing", "alice", "bob (")
	if ca, cb := roomCode(t, a), roomCode(t, b); ca != cb {
		t.Errorf("alice is in room %s, bob in %s", ca, cb)
	}
}

// TestTurnBellAndTitleThroughSSH: when it becomes a player's turn the terminal's bell rings and
// the window's title says "your move"; `set bell=off` keeps the bell quiet for the key from then
// on; a guest has no settings.
func TestTurnBellAndTitleThroughSSH(t *testing.T) {
	t.Parallel()
	addr := startServer(t)
	key := newKey(t)
	ann := connect(t, addr, "ann", key, "new stonetowers bots=1")
	ann.waitFor("Your turn")
	bells, titles := ann.bells()
	if bells == 0 || !slices.ContainsFunc(titles, func(s string) bool { return strings.HasPrefix(s, "your move · Stone Towers · ") }) {
		t.Errorf("on ann's turn: %d bells, titles %q", bells, titles)
	}
	ann.close()

	out, _, err := runPlainAs(t, addr, "ann", key, "set bell=off")
	if err != nil || !strings.Contains(out, "The bell is off") {
		t.Fatalf("set bell=off: %v %q", err, out)
	}
	again := connect(t, addr, "ann", key, "new stonetowers bots=1")
	again.waitFor("Your turn")
	if bells, titles := again.bells(); bells != 0 || len(titles) == 0 {
		t.Errorf("with the bell off: %d bells, titles %q", bells, titles)
	}
	guest := connect(t, addr, "gus", nil, "set bell=off")
	var exit *ssh.ExitError
	if err := guest.sess.Wait(); !errors.As(err, &exit) || exit.ExitStatus() != 1 {
		t.Errorf("a guest's set: %v, want exit status 1", err)
	}
}

// TestEndingEarlyThroughSSH: a draw offered (=) and accepted (=) ends the match drawn; in the
// rematch, R and enter before the first move abort it; against a bot, u takes back a move and
// the bot's reply.
func TestEndingEarlyThroughSSH(t *testing.T) {
	t.Parallel()
	addr := startServer(t)
	alice := connect(t, addr, "alice", newKey(t), "new stonetowers size=8 turns=10")
	code := roomCode(t, alice.waitFor("Waiting for players"))
	bob := connect(t, addr, "bob", newKey(t), "join "+code)
	bob.waitFor("playing")
	alice.waitFor("playing")
	alice.send("=")
	bob.waitFor("offers a draw")
	bob.send("=")
	for _, p := range []*player{alice, bob} {
		p.waitFor("GAME OVER", "A draw!", "drawn by agreement")
	}
	alice.send("r")
	bob.send("r")
	alice.waitFor("playing", "you: alice (Blue)")
	bob.send("R")
	bob.waitFor("Abort the match?")
	bob.send("\r")
	alice.waitFor("GAME OVER", "Match ended.", "bob aborted")

	carol := connect(t, addr, "carol", newKey(t), "new stonetowers size=8 turns=10 bots=1")
	carol.waitFor("Your turn")
	carol.send(":")
	carol.waitFor("move:")
	carol.send("b d4\r")
	carol.waitFor("Your turn", "Turns left: R 9 · B 9")
	carol.send("u")
	carol.waitFor("last move is taken", "back (2 moves)", "Turns left: R 10 · B 10")
}
