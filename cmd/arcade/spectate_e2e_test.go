package main

import (
	"strings"
	"testing"
)

// TestSpectatorChatThroughSSH: over real SSH sessions, a spectator's line during a match goes to
// the spectators' chat: the spectator reads it among the players' lines, marked, and the player
// does not, until tab shows it (the rule counts it); the players' lines reach the spectator. At
// the end of the match everyone reads both. A room of standard settings says rated in its
// header; one whose settings are not standard says casual there, while it waits, in `rooms`, and
// at the end, which changes no rating.
func TestSpectatorChatThroughSSH(t *testing.T) {
	t.Parallel()
	addr := startServer(t)
	alice := connect(t, addr, "alice", newKey(t), "new stonetowers")
	code := roomCode(t, alice.waitFor("Waiting for players", "· waiting · rated"))
	bob := connect(t, addr, "bob", newKey(t), "join "+code)
	bob.waitFor("you: bob (Blue)", "· playing · rated")
	carol := connect(t, addr, "carol", newKey(t), "watch "+code)
	carol.waitFor("watching", "alice", "bob")

	carol.send("t")
	carol.waitFor("chat to spectators:")
	carol.send("Red should build on e5\r")
	carol.waitFor("carol (watching): Red should")
	screen := alice.waitFor("tab: spectators (1)")
	if strings.Contains(screen, "build on e5") {
		t.Errorf("a player reads the spectators' chat before asking:\n%s", screen)
	}
	alice.send("\t")
	alice.waitFor("spectators · tab: moves", "carol: Red should build on")
	alice.send("\t")
	alice.waitFor("moves · tab: chat")
	alice.send("\t")
	alice.waitFor("tab: spectators (1)")

	bob.send("t")
	bob.waitFor("chat:")
	bob.send("good luck\r")
	carol.waitFor("bob: good luck")
	alice.waitFor("bob: good luck")

	// A move each, then bob resigns: the match ends, rated, and its chat is everyone's.
	alice.send(":")
	alice.waitFor("move:")
	alice.send("b e5\r")
	bob.waitFor("Your turn")
	bob.send(":")
	bob.waitFor("move:")
	bob.send("b a1\r")
	alice.waitFor("Your turn")
	bob.send("R")
	bob.waitFor("Resign?")
	bob.send("\r")
	for _, p := range []*player{alice, bob} {
		p.waitFor("GAME OVER", "carol (watching): Red should", "· finished · rated")
	}

	dave := connect(t, addr, "dave", newKey(t), "new flicflac target=2")
	casual := roomCode(t, dave.waitFor("· waiting · casual", "target=2 is not standard"))
	out, _, err := runPlain(t, addr, newKey(t), "rooms")
	if err != nil {
		t.Fatal(err)
	}
	if line := lineWith(out, casual); !strings.Contains(line, "casual") {
		t.Errorf("rooms does not say %s is casual:\n%s", casual, out)
	}
	erin := connect(t, addr, "erin", newKey(t), "join "+casual)
	erin.waitFor("· playing · casual")
	erin.send("R")
	erin.waitFor("Abort the match?")
	erin.send("\r")
	dave.waitFor("GAME OVER", "· finished · casual")
}

// lineWith returns the first line of text that holds s, or "".
func lineWith(text, s string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}
