package main

import (
	"strings"
	"testing"

	"github.com/arcade/arcade/rules/stonetowers"
)

// TestClusterQuickMatch: alice types `play stonetowers` on node 1 and bob on node 2; the
// cluster's one quick-match pool pairs them, both are seated in the same room, and their first
// moves reach both screens, whichever node hosts the room.
func TestClusterQuickMatch(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	c := startCluster(t, 2)
	c.dumpLogs(t)
	alice := connect(t, c.addr(0), "alice", newKey(t), "play stonetowers")
	alice.waitFor("Looking for an opponent")
	bob := connect(t, c.addr(1), "bob", newKey(t), "play stonetowers")
	a := alice.waitFor("playing", "alice (", "bob")
	b := bob.waitFor("playing", "alice", "bob (")
	if ca, cb := roomCode(t, a), roomCode(t, b); ca != cb {
		t.Fatalf("alice is in room %s, bob in %s", ca, cb)
	}

	opts, err := stonetowers.Game.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	state, err := stonetowers.Game.New(opts, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	players := []*player{alice, bob}
	if !strings.Contains(a, "you: alice (Red)") {
		players = []*player{bob, alice}
	}
	playMoves(t, state, 4, players)
}
