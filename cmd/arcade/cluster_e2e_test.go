package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/crypto/ssh"

	"github.com/arcade/arcade/cluster/clustertest"
	"github.com/arcade/arcade/cluster/natsd"
	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
)

// clusterProc is one node of a test cluster: a process of the built binary, with NATS embedded
// or not.
type clusterProc struct {
	name string
	nats string // the embedded NATS server's client URL; "" for a node without one
	data string
	cmd  *exec.Cmd
	addr net.Addr
	web  string // the web companion's base URL, when the node serves one (--http)
	logs *syncBuffer
	dead bool
}

// testCluster is a cluster of real arcade processes on loopback.
type testCluster struct {
	bin    string
	nodes  []*clusterProc
	secret []byte   // the cluster's secret, copied into every node's data folder before it starts
	extra  []string // flags every node is started with besides the common ones
}

// startCluster starts n arcade processes, each with an embedded NATS server (routes to the
// others), its own data folder and node name nK, and waits until every one accepts SSH. Then it
// starts one node more for each of others, without a NATS server of its own: others[j] returns
// that node's NATS flags (--nats URL and the like), given the cluster of the nodes started so far,
// and it is started once they accept SSH, as a node joining a running cluster is.
func startCluster(t *testing.T, n int, others ...func(*testCluster) []string) *testCluster {
	t.Helper()
	return startClusterWith(t, nil, n, others...)
}

// startClusterWith is startCluster with flags for every node besides the common ones.
func startClusterWith(t *testing.T, flags []string, n int, others ...func(*testCluster) []string) *testCluster {
	t.Helper()
	c := &testCluster{bin: binary(t), extra: flags}
	c.makeSecret(t)
	ports := clustertest.FreePorts(t, 2*n)
	route := func(i int) string { return "127.0.0.1:" + strconv.Itoa(ports[n+i]) }
	ready := make(chan startedNode, n)
	for i := range n {
		var routes []string
		for j := range n {
			if j != i {
				routes = append(routes, route(j))
			}
		}
		c.launch(t, "nats://127.0.0.1:"+strconv.Itoa(ports[i]), ready,
			"--nats-embed", "--nats-listen", "127.0.0.1:"+strconv.Itoa(ports[i]),
			"--nats-cluster", route(i), "--nats-routes", strings.Join(routes, ","))
	}
	c.awaitSSH(t, ready, n)
	for _, flags := range others {
		c.launch(t, "", ready, flags(c)...)
		c.awaitSSH(t, ready, 1)
	}
	return c
}

// makeSecret makes the cluster's secret as an operator does, with `arcade cluster-secret`, for
// launch to copy into each node's data folder.
func (c *testCluster) makeSecret(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command(c.bin, "cluster-secret", "--data", dir).CombinedOutput(); err != nil {
		t.Fatalf("arcade cluster-secret: %v\n%s", err, out)
	}
	var err error
	if c.secret, err = os.ReadFile(filepath.Join(dir, natsd.SecretFile)); err != nil {
		t.Fatal(err)
	}
}

// startedNode is a node that accepts SSH at addr.
type startedNode struct {
	i    int
	addr net.Addr
}

// launch starts the next node, nK, with the cluster's common flags and natsFlags; natsURL is its
// embedded NATS server's client URL, if it has one. The node's address is sent on ready once it
// accepts SSH.
func (c *testCluster) launch(t *testing.T, natsURL string, ready chan<- startedNode, natsFlags ...string) {
	t.Helper()
	i := len(c.nodes)
	p := &clusterProc{name: "n" + strconv.Itoa(i+1), data: t.TempDir(), logs: &syncBuffer{}, nats: natsURL}
	if c.secret != nil {
		if err := os.WriteFile(filepath.Join(p.data, natsd.SecretFile), c.secret, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Every player of the tests comes from 127.0.0.1: the limits per source address are a whole
	// town's, not one player's (a nemesis run plays 16 games, 32 players and their rejoins).
	args := append([]string{"--addr", "127.0.0.1:0", "--data", p.data, "--log-level", "info",
		"--bot-delay", "0s", "--conn-rate", "1000", "--conn-burst", "1000", "--max-sessions-per-addr", "1000",
		"--max-startups-per-addr", "100", "--node", p.name}, append(slices.Clone(c.extra), natsFlags...)...)
	t.Cleanup(func() {
		if !p.dead {
			_ = p.cmd.Process.Signal(syscall.SIGKILL)
			_ = p.cmd.Wait()
		}
	})
	c.nodes = append(c.nodes, p)
	c.run(t, i, args, ready)
}

// run starts node i's process with args, and sends its address on ready once it accepts SSH.
func (c *testCluster) run(t *testing.T, i int, args []string, ready chan<- startedNode) {
	t.Helper()
	p := c.nodes[i]
	p.cmd = exec.Command(c.bin, args...)
	p.cmd.Stderr = p.logs
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p.dead = false
	go func() {
		lines := bufio.NewScanner(out)
		for lines.Scan() {
			if m := webListening.FindStringSubmatch(lines.Text()); m != nil {
				p.web = "http://" + m[1] // before the SSH server's line, which ready waits for
			}
			if m := listening.FindStringSubmatch(lines.Text()); m != nil {
				addr, err := net.ResolveTCPAddr("tcp", m[1])
				if err == nil {
					ready <- startedNode{i, addr}
				}
				for lines.Scan() {
				}
				return
			}
		}
	}()
}

// awaitSSH waits until k more of the nodes launched accept SSH.
func (c *testCluster) awaitSSH(t *testing.T, ready <-chan startedNode, k int) {
	t.Helper()
	until := time.After(deadline)
	for range k {
		select {
		case s := <-ready:
			c.nodes[s.i].addr = s.addr
		case <-until:
			for _, p := range c.nodes {
				if p.addr == nil {
					t.Logf("node %s did not start; its log:\n%s", p.name, p.logs)
				}
			}
			t.Fatalf("the cluster did not start within %v", deadline)
		}
	}
}

// restart starts node i again, killed before, with its flags and data folder, and waits until it
// accepts SSH.
func (c *testCluster) restart(t *testing.T, i int) {
	t.Helper()
	fmt.Fprintf(c.nodes[i].logs, "=== restarted\n")
	ready := make(chan startedNode, 1)
	c.run(t, i, c.nodes[i].cmd.Args[1:], ready)
	c.awaitSSH(t, ready, 1)
}

// addr returns node i's SSH address.
func (c *testCluster) addr(i int) net.Addr { return c.nodes[i].addr }

// kill kills node i with SIGKILL and waits for the process to end.
func (c *testCluster) kill(t *testing.T, i int) {
	t.Helper()
	p := c.nodes[i]
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = p.cmd.Wait()
	p.dead = true
}

// dumpLogs logs every node's log when the test failed.
func (c *testCluster) dumpLogs(t *testing.T) {
	t.Cleanup(func() {
		if t.Failed() {
			for _, p := range c.nodes {
				t.Logf("log of node %s:\n%s", p.name, p.logs)
			}
			for _, p := range c.nodes {
				if !p.dead && p.nats != "" {
					t.Logf("the room directory as node %s's NATS server has it:\n%s", p.name, directory(p.nats, filepath.Join(p.data, natsd.SecretFile)))
					break
				}
			}
		}
	})
}

// directory returns the entries of the room directory (arcade_rooms), read through the NATS
// server at url as the node user of the secret file.
func directory(url, secret string) string {
	creds, err := nats.NkeyOptionFromSeed(secret)
	if err != nil {
		return err.Error()
	}
	nc, err := nats.Connect(url, creds)
	if err != nil {
		return err.Error()
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err.Error()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	kv, err := js.KeyValue(ctx, "arcade_rooms")
	if err != nil {
		return err.Error()
	}
	keys, err := kv.Keys(ctx)
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	for _, k := range keys {
		e, err := kv.Get(ctx, k)
		if err != nil {
			fmt.Fprintf(&b, "%s: %v\n", k, err)
			continue
		}
		fmt.Fprintf(&b, "%s (revision %d): %s\n", k, e.Revision(), e.Value())
	}
	return b.String()
}

// eventually polls f every 100 ms until it returns "" or the deadline passes, and fails with f's
// last complaint then.
func eventually(t *testing.T, f func() string) {
	t.Helper()
	until := time.Now().Add(deadline)
	for {
		why := f()
		if why == "" {
			return
		}
		if time.Now().After(until) {
			t.Fatalf("after %v: %s", deadline, why)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// plainOn runs a plain command as user with key and returns its stdout; unlike runPlainAs it
// does not fail the test, so that it may run on any goroutine.
func plainOn(addr net.Addr, user string, key ssh.Signer, cmd string) (string, error) {
	conn, err := ssh.Dial("tcp", addr.String(), &ssh.ClientConfig{User: user,
		Auth: []ssh.AuthMethod{ssh.PublicKeys(key)}, HostKeyCallback: ssh.InsecureIgnoreHostKey(),
		Timeout: deadline})
	if err != nil {
		return "", err
	}
	defer conn.Close()
	sess, err := conn.NewSession()
	if err != nil {
		return "", err
	}
	var out, errOut strings.Builder
	sess.Stdout, sess.Stderr = &out, &errOut
	if err := sess.Run(cmd); err != nil {
		return out.String(), fmt.Errorf("%s: %w (stderr %q)", cmd, err, errOut.String())
	}
	return out.String(), nil
}

// waitListed waits until `rooms` on each of the nodes lists code with every one of want.
// It fails when a node has not listed it within the deadline.
func (c *testCluster) waitListed(t *testing.T, code string, nodes []int, want ...string) {
	t.Helper()
	key := newKey(t)
	for _, i := range nodes {
		eventually(t, func() string {
			out, err := plainOn(c.addr(i), "reader", key, "rooms")
			if err != nil {
				return err.Error()
			}
			for _, line := range strings.Split(out, "\n") {
				if !strings.HasPrefix(line, code+" ") {
					continue
				}
				ok := true
				for _, w := range want {
					ok = ok && strings.Contains(line, w)
				}
				if ok {
					return ""
				}
			}
			return fmt.Sprintf("rooms on node %s does not list %s with %q:\n%s", c.nodes[i].name, code, want, out)
		})
	}
}

// sameLeaderboards waits until `leaderboard stonetowers --json` is byte-identical on the nodes
// and ranks every one of names, and returns it.
func (c *testCluster) sameLeaderboards(t *testing.T, nodes []int, names ...string) string {
	t.Helper()
	key := newKey(t)
	var board string
	eventually(t, func() string {
		outs := map[string][]string{}
		for _, i := range nodes {
			out, err := plainOn(c.addr(i), "reader", key, "leaderboard stonetowers --json")
			if err != nil {
				return err.Error()
			}
			outs[out] = append(outs[out], c.nodes[i].name)
			board = out
		}
		if len(outs) != 1 {
			return fmt.Sprintf("the leaderboards differ: %q", outs)
		}
		var standings []record.Standing
		if err := json.Unmarshal([]byte(board), &standings); err != nil {
			return fmt.Sprintf("leaderboard --json: %v: %q", err, board)
		}
		for _, name := range names {
			found := false
			for _, s := range standings {
				found = found || s.Name == name && s.Games == 1
			}
			if !found {
				return fmt.Sprintf("%s has not one game on the leaderboard: %s", name, board)
			}
		}
		return ""
	})
	return board
}

// turnsLeft is what a Stone Towers screen shows of state's turns left.
func turnsLeft(state rules.Engine) string {
	v := state.View(rules.Spectator).(stonetowers.View)
	return "Turns left: R " + strconv.Itoa(v.TurnsLeft[0]) + " · B " + strconv.Itoa(v.TurnsLeft[1])
}

// checkScores checks that each player's end screen shows the engine's scores.
func checkScores(t *testing.T, state rules.Engine, ps ...*player) {
	t.Helper()
	out := state.Outcome()
	for _, q := range ps {
		screen := q.waitFor("GAME OVER")
		red, blue, ok := seatScores(screen)
		if !ok || red != out.Scores[0] || blue != out.Scores[1] {
			t.Errorf("%s sees scores %d-%d, engine says %v:\n%s", q.name, red, blue, out.Scores, screen)
		}
	}
}

// TestClusterOfThree: on one cluster of three nodes, the tests that kill or cut no node, side by
// side: a match played across the nodes, then the backup of the whole store; and a race for a
// name.
func TestClusterOfThree(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	c := startCluster(t, 3)
	c.dumpLogs(t)
	t.Run("PlayAcrossNodesThenBackup", func(t *testing.T) {
		t.Parallel()
		playAcrossNodesThenBackup(t, c)
	})
	t.Run("NameRace", func(t *testing.T) {
		t.Parallel()
		nameRace(t, c)
	})
}

// playAcrossNodesThenBackup: alice creates a Stone Towers room on node 1, bob joins it from node
// 2 and carol watches from node 3; every node lists the room while they play the whole match,
// moves go both ways, and carol's screen follows. The leaderboards of the three nodes are then the
// same, byte for byte, and rank both players. Then `arcade backup` against node 3's data folder
// writes a file that `arcade check` passes, and a single arcade started on that file as its
// arcade.db shows the cluster's leaderboard: the operator's way back to one node.
func playAcrossNodesThenBackup(t *testing.T, c *testCluster) {
	alice := connect(t, c.addr(0), "alice", newKey(t), "new stonetowers")
	code := roomCode(t, alice.waitFor("Waiting for players"))
	c.waitListed(t, code, []int{0, 1, 2}, "Stone Towers")

	bob := rejoin(t, c.addr(1), "bob", newKey(t), "join "+code, "you: bob (Blue)")
	alice.waitFor("playing", "you: alice (Red)")
	carol := rejoin(t, c.addr(2), "carol", nil, "watch "+strings.ToLower(code), "watching")
	carol.waitFor("alice", "bob")

	state, err := stonetowers.Game.New(nil, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	players := []*player{alice, bob}
	state = playMoves(t, state, 5, players, carol)
	c.waitListed(t, code, []int{0, 1, 2}, "alice", "bob")
	state = playMoves(t, state, -1, players, carol)
	checkScores(t, state, alice, bob, carol)

	board := c.sameLeaderboards(t, []int{0, 1, 2}, "alice", "bob")
	t.Logf("leaderboard on every node: %s", strings.TrimSpace(board))

	file := filepath.Join(t.TempDir(), "backup.db")
	var out, errOut bytes.Buffer
	if err := runBackup([]string{"--data", c.nodes[2].data, file}, noEnv, &out, &errOut); err != nil {
		t.Fatalf("backup: %v\n%s%s", err, out.String(), errOut.String())
	}
	out.Reset()
	if status, err := runCheck([]string{file}, noEnv, &out, io.Discard); err != nil || status != 0 {
		t.Fatalf("check of the backup: status %d, %v\n%s", status, err, out.String())
	}

	single := t.TempDir()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(single, dbFile), b, 0o600); err != nil {
		t.Fatal(err)
	}
	_, addr := startBinary(t, c.bin, single)
	if got := plainCommand(t, addr, newKey(t), "leaderboard stonetowers --json"); got != board {
		t.Errorf("the single node's leaderboard:\n%s\nthe cluster's:\n%s", got, board)
	}
}

// TestClusterTakeoverAfterKill: alice on node 1 and bob on node 2 play a few moves; node 1 is
// killed with SIGKILL. Bob's session says the room is moving to another server; alice, whose node
// is gone, joins again through node 3 at once (her join waits for the room while it moves:
// TestClusterRoomNobodyTakesOver sees the wait's screen). Another node takes the room over; bob's
// session follows it there by itself, on his seat, and alice's join enters it; the board has
// every move their screens acknowledged, and they finish the match; the leaderboards of nodes 2
// and 3 agree.
func TestClusterTakeoverAfterKill(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	c := startCluster(t, 3)
	c.dumpLogs(t)
	alice, bob, aliceKey, _, code, state := c.killableMatch(t)
	// Every move playMoves makes is acknowledged: both screens show it before the next.
	state = playMoves(t, state, 7, []*player{alice, bob})
	acked := turnsLeft(state)
	c.waitListed(t, code, []int{0, 1, 2}, "alice", "bob")

	killed := time.Now()
	c.kill(t, 0)
	alice.close()
	alice = rejoin(t, c.addr(2), "alice", aliceKey, "join "+code, "you: alice (Red)")
	bob.waitFor("you: bob (Blue)") // (the room's screen stays while it moves)

	// Another node takes the room over once node 1's beat has lapsed: the beat's TTL (5 s), a
	// beat, and the leader elections of the stream and the buckets that had their leader on the
	// killed server.
	var taker int
	eventually(t, func() string {
		for i := 1; i < 3; i++ {
			if strings.Contains(c.nodes[i].logs.String(), "took over room "+code) {
				taker = i
				return ""
			}
		}
		return "no node took room " + code + " over"
	})
	t.Logf("node %s took the room over %v after the kill", c.nodes[taker].name, time.Since(killed).Round(100*time.Millisecond))

	// Bob typed nothing: his session follows the room to whichever node hosts it now, where
	// alice's chat reaches him.
	alice.send("t")
	alice.waitFor("chat:")
	alice.send("back after the move\r")
	bob.waitFor("back after the move", "you: bob (Blue)")
	bob.send("t")
	bob.waitFor("chat:")
	bob.send("me too\r")
	bob.waitFor("bob: me too")
	alice.waitFor("bob: me too")
	t.Logf("both players back in the room %v after the kill", time.Since(killed).Round(100*time.Millisecond))
	alice.waitFor(acked)
	bob.waitFor(acked)
	state = playMoves(t, state, -1, []*player{alice, bob})
	checkScores(t, state, alice, bob)

	board := c.sameLeaderboards(t, []int{1, 2}, "alice", "bob")
	t.Logf("leaderboard on nodes 2 and 3: %s", strings.TrimSpace(board))
}

// rejoin runs command (join or watch a room) as user on addr, again while the node refuses it,
// until the room's screen shows want, and returns the player. A room may be moving to its new
// node (no room has the code there yet); and a node refuses ("is moving to another server") a
// room whose host it has not yet seen beat: within a beat (1 s) of the host's start, that is too.
func rejoin(t *testing.T, addr net.Addr, user string, key ssh.Signer, command, want string) *player {
	t.Helper()
	until := time.Now().Add(deadline)
	for {
		p := connect(t, addr, user, key, command)
		for {
			s := p.screen()
			if strings.Contains(s, want) {
				return p
			}
			if strings.Contains(s, "No room has that code") || strings.Contains(s, "Could not enter the room") {
				break
			}
			if time.Now().After(until) {
				t.Fatalf("%s: %q never showed %q; the screen shows:\n%s", user, command, want, s)
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Logf("%s: %q does not show %q yet:\n%s", user, command, want, p.screen())
		p.close()
		time.Sleep(100 * time.Millisecond) // the node's view of the room changes in its own time
	}
}

// nameRace: two keys claim the same new name at the same moment on two nodes; one of them has
// it, the other plays as a guest and is told why, and every node agrees afterwards.
func nameRace(t *testing.T, c *testCluster) {
	for round := range 5 {
		name := "racer" + strconv.Itoa(round)
		keys := []ssh.Signer{newKey(t), newKey(t)}
		outs, errs := make([]string, 2), make([]error, 2)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range 2 {
			wg.Go(func() {
				<-start
				outs[i], errs[i] = plainOn(c.addr(i), name, keys[i], "whoami")
			})
		}
		close(start)
		wg.Wait()
		owner := -1
		for i := range 2 {
			if errs[i] != nil {
				t.Fatalf("%s on node %s: %v", name, c.nodes[i].name, errs[i])
			}
			if strings.HasPrefix(outs[i], "name: "+name+"\n") {
				if owner >= 0 {
					t.Errorf("%s: both keys have the name:\n%s\n%s", name, outs[0], outs[1])
				}
				owner = i
			}
		}
		if owner < 0 {
			t.Fatalf("%s: neither key has the name:\n%s\n%s", name, outs[0], outs[1])
		}
		loser := 1 - owner
		refused := "name: ~" + name + " (guest)\nThe name " + name + " belongs to another key"
		if !strings.HasPrefix(outs[loser], refused) {
			t.Errorf("%s: the other key was told %q; want %q", name, outs[loser], refused)
		}
		// Every node, the third too, knows whose the name is.
		for i := range 3 {
			out, err := plainOn(c.addr(i), name, keys[owner], "whoami")
			if err != nil || !strings.HasPrefix(out, "name: "+name+"\n") {
				t.Errorf("%s: the owner on node %s: %v %q", name, c.nodes[i].name, err, out)
			}
			out, err = plainOn(c.addr(i), name, keys[loser], "whoami")
			if err != nil || !strings.HasPrefix(out, refused) {
				t.Errorf("%s: the other key on node %s: %v %q", name, c.nodes[i].name, err, out)
			}
		}
	}
}

// killableMatch opens a Stone Towers match of the standard game (rated) on node 1 (alice, Red) joined from node 2 (bob,
// Blue), the room whose host the takeover tests kill, and returns its players, their keys, its
// code and its engine at the start.
func (c *testCluster) killableMatch(t *testing.T) (alice, bob *player, aliceKey, bobKey ssh.Signer, code string, state rules.Engine) {
	t.Helper()
	aliceKey, bobKey = newKey(t), newKey(t)
	alice = connect(t, c.addr(0), "alice", aliceKey, "new stonetowers")
	code = roomCode(t, alice.waitFor("Waiting for players"))
	bob = rejoin(t, c.addr(1), "bob", bobKey, "join "+code, "you: bob (Blue)")
	alice.waitFor("playing", "you: alice (Red)")
	state, err := stonetowers.Game.New(nil, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	return alice, bob, aliceKey, bobKey, code, state
}
