package main

import (
	"syscall"
	"testing"
)

// TestClusterRoomNobodyTakesOver: alice opens a Stone Towers room on node 1 and bob joins it from
// node 3. Node 2 is frozen (SIGSTOP) and node 1 killed: node 3 alone is no quorum of JetStream's,
// so no node can take the room over. Bob's session says the room is moving and waits for it;
// alice's join through node 3 says that it waits for the room to come back, and then that the
// room is moving; bob's wait ends in the lobby, saying the room did not come back.
func TestClusterRoomNobodyTakesOver(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	c := startCluster(t, 3)
	c.dumpLogs(t)
	aliceKey, bobKey := newKey(t), newKey(t)
	alice := connect(t, c.addr(0), "alice", aliceKey, "new stonetowers size=8 turns=10")
	code := roomCode(t, alice.waitFor("Waiting for players"))
	bob := rejoin(t, c.addr(2), "bob", bobKey, "join "+code, "you: bob (Blue)")
	alice.waitFor("playing", "you: alice (Red)")

	frozen := c.nodes[1].cmd.Process
	if err := frozen.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = frozen.Signal(syscall.SIGCONT) }) // before the cluster's own cleanup
	c.kill(t, 0)
	alice.close()
	bob.waitFor("Room "+code+" is moving to another server…", "you: bob (Blue)")

	alice = connect(t, c.addr(2), "alice", aliceKey, "join "+code)
	alice.waitFor("waiting for room " + code + " to come back")
	alice.waitFor("Could not enter the room: room " + code + " is moving to another server")

	bob.waitFor("Room " + code + " did not come back: no server has taken it over yet.")
}
