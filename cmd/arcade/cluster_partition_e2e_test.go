package main

import (
	"strings"
	"testing"
	"time"

	"github.com/arcade/arcade/cluster/clustertest"
	"github.com/arcade/arcade/rules/stonetowers"
)

// TestClusterPartition: nodes 1 and 2 embed NATS; node 3 runs none and reaches node 1's through
// a proxy. Alice creates a Stone Towers room on node 3, bob joins it from node 1, and they play
// a few moves. The proxy is cut: alice's chat says node 3 lost touch with the arcade, her move is
// refused and never reaches bob. Node 1 or 2 takes the room over, and bob's session, typing
// nothing, follows it there and finds the acknowledged moves and alice to move. The proxy heals:
// node 3 closes its copy (the room moved to another server) and alice's session follows the room
// through node 3, now remote to the room's new host, and they finish the match; the three nodes'
// leaderboards are the same.
func TestClusterPartition(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	began := time.Now()
	var px *clustertest.Proxy
	c := startCluster(t, 2, func(c *testCluster) []string {
		px = clustertest.NewProxy(t, strings.TrimPrefix(c.nodes[0].nats, "nats://"))
		return []string{"--nats", "nats://" + px.Addr(), "--nats-replicas", "2"}
	})
	c.dumpLogs(t)
	t.Logf("the cluster started in %v", time.Since(began).Round(100*time.Millisecond))
	aliceKey, bobKey := newKey(t), newKey(t)
	alice := connect(t, c.addr(2), "alice", aliceKey, "new stonetowers")
	code := roomCode(t, alice.waitFor("Waiting for players"))
	bob := rejoin(t, c.addr(0), "bob", bobKey, "join "+code, "you: bob (Blue)")
	alice.waitFor("playing", "you: alice (Red)")

	state, err := stonetowers.Game.New(nil, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	players := []*player{alice, bob}
	state = playMoves(t, state, 4, players)
	for state.ToMove()[0] != 0 {
		state = playMoves(t, state, 1, players)
	}
	acked := turnsLeft(state)
	board := stoneBoard(bob.screen())
	seat, move := greedyMove(t, state)
	if seat != 0 {
		t.Fatalf("seat %d to move, want alice's", seat)
	}
	after, err := state.Apply(seat, move)
	if err != nil {
		t.Fatal(err)
	}
	refused := turnsLeft(after)
	neverShown := func(p *player) {
		t.Helper()
		if s := p.screen(); strings.Contains(s, refused) {
			t.Fatalf("%s's screen shows the refused move (%s):\n%s", p.name, refused, s)
		}
	}

	cut := time.Now()
	px.Cut()
	alice.send(":")
	alice.waitFor("move:")
	alice.send(move + "\r")
	s := alice.waitFor("could not be saved; try again: this server has lost")
	t.Logf("alice's move refused %v after the cut:\n%s", time.Since(cut).Round(100*time.Millisecond), s)
	// The chat panel wraps the notice: its start and a distinctive part of its end.
	alice.waitFor("This server has lost", "are not saved")
	t.Logf("the cut-off notice %v after the cut", time.Since(cut).Round(100*time.Millisecond))
	neverShown(alice)
	neverShown(bob)

	// Node 1 or 2 takes the room over once node 3's beat has lapsed (TTL 5 s).
	var taker int
	eventually(t, func() string {
		for i := range 2 {
			if strings.Contains(c.nodes[i].logs.String(), "took over room "+code) {
				taker = i
				return ""
			}
		}
		return "no node took room " + code + " over"
	})
	t.Logf("node %s took the room over %v after the cut", c.nodes[taker].name, time.Since(cut).Round(100*time.Millisecond))
	c.waitListed(t, code, []int{taker}, "Stone Towers")
	c.waitListed(t, code, []int{0}, "Stone Towers")

	// Bob types nothing: his node's pings of the host fail (or the taker answers that it knows no
	// such subscription), his screen says the room is moving, and his session enters the room
	// again where it was taken over, on his seat (the taker's notice that the match goes on).
	s = bob.waitFor("the server restarted")
	s = bob.waitFor(acked)
	neverShown(bob)
	if !strings.Contains(s, "you: bob (Blue)") {
		t.Errorf("bob followed the room but is not on his seat:\n%s", s)
	}
	if got := stoneBoard(s); got != board {
		t.Errorf("the board after the takeover:\n%s\nbefore the cut:\n%s", got, board)
	}
	t.Logf("bob followed the room %v after the cut:\n%s", time.Since(cut).Round(100*time.Millisecond), s)

	// Node 3 finds out that it lost the room when it next writes the room's directory entry, a
	// compare-and-set that the taker's entry refuses; it writes it only when the room's summary
	// changed. Its copy has dropped bob's remote seat by now (no ping for 10 s): it has.
	alice.waitFor(" away ")
	healed := time.Now()
	px.Heal()
	// Node 3 finds it lost the room and closes its copy; alice types nothing: her session follows
	// the room to its new host (its directory lookup, through node 3, now remote to the room),
	// on her seat, with the acknowledged moves.
	eventually(t, func() string {
		if !strings.Contains(c.nodes[2].logs.String(), "room "+code+" is kept by another node now") {
			return "node 3 did not log that it lost room " + code
		}
		return ""
	})
	t.Logf("node 3 closed its copy %v after the heal", time.Since(healed).Round(100*time.Millisecond))
	s = alice.waitFor("the server restarted") // the taker's notice: the room's screen from its new host
	s = alice.waitFor(acked)
	neverShown(alice)
	if !strings.Contains(s, "you: alice (Red)") {
		t.Errorf("alice followed the room but is not on her seat:\n%s", s)
	}
	if got := stoneBoard(s); got != board {
		t.Errorf("the board alice sees through node 3 after the heal:\n%s\nbefore the cut:\n%s", got, board)
	}
	t.Logf("alice followed the room through node 3 %v after the heal", time.Since(healed).Round(100*time.Millisecond))

	players = []*player{alice, bob}
	state = playMoves(t, state, -1, players)
	checkScores(t, state, alice, bob)
	lb := c.sameLeaderboards(t, []int{0, 1, 2}, "alice", "bob")
	t.Logf("leaderboard on every node: %s", strings.TrimSpace(lb))
	t.Logf("the whole test took %v", time.Since(began).Round(100*time.Millisecond))
}

// stoneBoard returns what an 80 x 24 Stone Towers screen shows of the board: the column letters
// and the rows, cut before the side panel (whose seats, clock and chat change).
func stoneBoard(screen string) string {
	lines := strings.Split(screen, "\n")
	if len(lines) > 10 {
		lines = lines[1:10]
	}
	for i, l := range lines {
		if r := []rune(l); len(r) > 50 {
			lines[i] = string(r[:50])
		}
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return strings.Join(lines, "\n")
}
