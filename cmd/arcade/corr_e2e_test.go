package main

import (
	"fmt"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The end-to-end story of correspondence play (issue 35), over OpenSSH's own client (openssh_test.go):
// ssh -tt on a PTY of its own for the interactive sessions, plain ssh for the commands with their
// exit status.

// rawSince returns what the server sent p from byte from on, and the length so far.
func (p *player) rawSince(from int) (string, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return string(p.raw[min(from, len(p.raw)):]), len(p.raw)
}

// typeMove types a move at the room's prompt (:) and waits until p's screen shows after.
func (p *player) typeMove(move string, after ...string) {
	p.t.Helper()
	p.send(":")
	p.waitFor("move:")
	p.send(move + "\r")
	p.waitFor(after...)
}

// resigns has ada resign on her turn, and waits until both screens show the end.
func resigns(ada, bob *player) {
	ada.t.Helper()
	ada.waitFor("Your turn")
	ada.send("R")
	ada.waitFor("Resign?")
	ada.send("\r")
	for _, p := range []*player{ada, bob} {
		p.waitFor("GAME OVER", "ada resigned")
	}
}

var challengeSent = regexp.MustCompile(`Challenge ([2-9a-z]{5}) sent to bob`)

// TestCorrespondenceThroughOpenSSH: ada challenges bob, who has never been in a room, to a
// Coloretta match of 3 days a move; bob's inbox exits 0 and shows it; bob accepts it and moves;
// ada, in the lobby, gets the bell and a desktop notification (OSC 9 and OSC 777) in her
// terminal's bytes; the server is killed with SIGKILL and started again; both move again, ada
// through next; ada resigns, and the match is rated.
func TestCorrespondenceThroughOpenSSH(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	sshClient(t)
	bin, data := binary(t), t.TempDir()
	server, addr := startBinary(t, bin, data)
	dir := t.TempDir()
	adaKey, bobKey := writePrivateKey(t, dir, "ada", newKey(t)), writePrivateKey(t, dir, "bob", newKey(t))
	for _, u := range []struct{ name, key string }{{"ada", adaKey}, {"bob", bobKey}} {
		if out, _, st := runOpenSSH(t, addr, u.name, u.key, "whoami"); st != 0 || !strings.Contains(out, "name: "+u.name) {
			t.Fatalf("%s whoami: %d %q", u.name, st, out)
		}
	}
	if out, _, st := runOpenSSH(t, addr, "bob", bobKey, "inbox"); st != 1 || !strings.Contains(out, "Nothing waits") {
		t.Errorf("bob's empty inbox: status %d, %q", st, out)
	}
	out, errOut, st := runOpenSSH(t, addr, "ada", adaKey, "challenge bob coloretta clock=3d rounds=1")
	m := challengeSent.FindStringSubmatch(out)
	if st != 0 || m == nil {
		t.Fatalf("ada's challenge: status %d, %q %q", st, out, errOut)
	}
	id := m[1]
	if _, errOut, st := runOpenSSH(t, addr, "ada", adaKey, "challenge ada coloretta"); st != 1 || !strings.Contains(errOut, "yourself") {
		t.Errorf("ada challenges ada: %d %q", st, errOut)
	}
	out, _, st = runOpenSSH(t, addr, "bob", bobKey, "inbox")
	if st != 0 || !strings.Contains(out, "Challenges to you") || !strings.Contains(out, id) ||
		!strings.Contains(out, "ada") || !strings.Contains(out, "Coloretta, clock=3d") {
		t.Fatalf("bob's inbox: status %d:\n%s", st, out)
	}

	ada := connectOpenSSH(t, addr, "ada", adaKey, "")
	ada.waitFor("Welcome")
	_, from := ada.rawSince(0)
	bob := connectOpenSSH(t, addr, "bob", bobKey, "accept "+id)
	screen := bob.waitFor("Coloretta", "you: bob", "Your turn")
	code := roomCode(t, screen)
	bob.typeMove("d", "bob drew")
	bob.typeMove("p1", "Waiting for ada")
	ada.waitFor("bob moved in Coloretta " + code + ": your move")
	raw, _ := ada.rawSince(from)
	if !strings.Contains(raw, "\x1b]9;arcade: bob moved in Coloretta "+code+": your move") ||
		!strings.Contains(raw, "\x1b]777;notify;arcade;bob moved in Coloretta "+code) {
		t.Errorf("ada's terminal got no desktop notification: %q", raw)
	}
	if bells := strings.Count(oscs.ReplaceAllString(raw, ""), "\a"); bells == 0 {
		t.Errorf("ada's terminal's bell did not ring: %q", raw)
	}
	if !strings.Contains(raw, "\x1b]2;your move · Coloretta · "+code+"\a") {
		t.Errorf("ada's window title: %q", raw)
	}
	if out, _, st := runOpenSSH(t, addr, "ada", adaKey, "inbox"); st != 0 || !strings.Contains(out, "Coloretta "+code+" · vs bob · your turn ") {
		t.Errorf("ada's inbox: %d\n%s", st, out)
	}

	if err := server.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = server.Wait()
	ada.close()
	bob.close()
	_, addr = startBinary(t, bin, data)
	ada = connectOpenSSH(t, addr, "ada", adaKey, "next")
	ada.waitFor("Coloretta", "you: ada", "Your turn")
	ada.typeMove("d", "ada drew")
	ada.typeMove("p2", "Waiting for bob")
	bob = connectOpenSSH(t, addr, "bob", bobKey, "join "+code)
	bob.waitFor("you: bob", "Your turn")
	bob.typeMove("d", "bob drew")
	bob.typeMove("p2", "Waiting for ada")
	resigns(ada, bob)
	board, _, _ := runOpenSSH(t, addr, "ada", adaKey, "leaderboard coloretta")
	if !regexp.MustCompile(`1\s+bob\s`).MatchString(board) || !regexp.MustCompile(`2\s+ada\s`).MatchString(board) {
		t.Errorf("the match is not rated:\n%s", board)
	}
	if out, _, st := runOpenSSH(t, addr, "bob", bobKey, "inbox"); st != 1 {
		t.Errorf("bob's inbox after the match: %d\n%s", st, out)
	}
}

// TestCorrespondenceAcrossNodes: the same story on a cluster of three nodes, ada on node 1 and bob
// on node 2: ada's challenge reaches bob's inbox on node 2 (through the stream); bob accepts it
// there and moves; ada, in the lobby on node 1, gets the bell and the desktop notification
// (through NATS); node 2 is killed with SIGKILL and started again on its data folder; both move
// again, ada through next on node 1, bob on node 2; ada resigns, and the match is rated alike on
// every node.
func TestCorrespondenceAcrossNodes(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	sshClient(t)
	c := startCluster(t, 3)
	c.dumpLogs(t)
	dir := t.TempDir()
	adaKey, bobKey := writePrivateKey(t, dir, "ada", newKey(t)), writePrivateKey(t, dir, "bob", newKey(t))
	if _, _, st := runOpenSSH(t, c.addr(0), "ada", adaKey, "whoami"); st != 0 {
		t.Fatalf("ada's whoami: %d", st)
	}
	if _, _, st := runOpenSSH(t, c.addr(1), "bob", bobKey, "whoami"); st != 0 {
		t.Fatalf("bob's whoami: %d", st)
	}
	var out string
	eventually(t, func() string { // bob's name reaches node 1's replica
		var errOut string
		var st int
		if out, errOut, st = runOpenSSH(t, c.addr(0), "ada", adaKey, "challenge bob coloretta clock=3d rounds=1"); st != 0 {
			return "ada's challenge: " + errOut
		}
		return ""
	})
	m := challengeSent.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("ada's challenge: %q", out)
	}
	id := m[1]
	sent := time.Now()
	eventually(t, func() string {
		if out, _, st := runOpenSSH(t, c.addr(1), "bob", bobKey, "inbox"); st != 0 || !strings.Contains(out, id) {
			return "bob's inbox on node 2 lacks the challenge: " + out
		}
		return ""
	})
	t.Logf("the challenge made on node 1 was in bob's inbox on node 2 %v later", time.Since(sent).Round(10*time.Millisecond))

	ada := connectOpenSSH(t, c.addr(0), "ada", adaKey, "")
	ada.waitFor("Welcome")
	_, from := ada.rawSince(0)
	bob := connectOpenSSH(t, c.addr(1), "bob", bobKey, "accept "+id)
	code := roomCode(t, bob.waitFor("Coloretta", "you: bob", "Your turn"))
	bob.typeMove("d", "bob drew")
	bob.typeMove("p1", "Waiting for ada")
	ada.waitFor("bob moved in Coloretta " + code + ": your move")
	raw, _ := ada.rawSince(from)
	if !strings.Contains(raw, "\x1b]9;arcade: bob moved in Coloretta "+code+": your move") ||
		strings.Count(oscs.ReplaceAllString(raw, ""), "\a") == 0 {
		t.Errorf("ada's terminal on node 1 got no bell or notification: %q", raw)
	}

	c.kill(t, 1)
	bob.close()
	c.restart(t, 1)
	ada.close()
	ada = connectOpenSSH(t, c.addr(0), "ada", adaKey, "next")
	ada.waitForWithin(2*deadline, "Coloretta", "you: ada", "Your turn")
	ada.typeMove("d", "ada drew")
	ada.typeMove("p2", "Waiting for bob")
	bob = connectOpenSSH(t, c.addr(1), "bob", bobKey, "join "+code)
	bob.waitForWithin(2*deadline, "you: bob", "Your turn")
	bob.typeMove("d", "bob drew")
	bob.typeMove("p2", "Waiting for ada")
	resigns(ada, bob)
	board := c.sameCorrLeaderboards(t, adaKey)
	if !regexp.MustCompile(`1\s+bob\s`).MatchString(board) || !regexp.MustCompile(`2\s+ada\s`).MatchString(board) {
		t.Errorf("the match is not rated:\n%s", board)
	}
}

// sameCorrLeaderboards waits until every node's Coloretta leaderboard is the same, and returns it.
func (c *testCluster) sameCorrLeaderboards(t *testing.T, keyFile string) string {
	t.Helper()
	var board string
	eventually(t, func() string {
		var boards []string
		for i := range c.nodes {
			b, _, _ := runOpenSSH(t, c.addr(i), "ada", keyFile, "leaderboard coloretta")
			boards = append(boards, b)
		}
		board = boards[0]
		for i, b := range boards {
			if b != board || !strings.Contains(b, "bob") {
				return fmt.Sprintf("node %d's leaderboard:\n%s\nnode 1's:\n%s", i+1, b, board)
			}
		}
		return ""
	})
	return board
}
