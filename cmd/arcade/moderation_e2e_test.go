package main

import (
	"bytes"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// site is where a step of the story of keys and moderation happens: the SSH address of a server,
// and its data folder (its admin socket). One server is one site; two nodes of a cluster, two.
type site struct {
	addr net.Addr
	data string
}

// actor is a player of the story: a name and an SSH key, in a file for OpenSSH.
type actor struct {
	name string
	key  ssh.Signer
	file string
}

// newActor makes a key for name, written in the file dir/file for OpenSSH.
func newActor(t *testing.T, dir, name, file string) actor {
	t.Helper()
	k := newKey(t)
	return actor{name: name, key: k, file: writePrivateKey(t, dir, file, k)}
}

// fp is the actor's key's fingerprint.
func (a actor) fp() string { return ssh.FingerprintSHA256(a.key.PublicKey()) }

// plain runs a plain command as the actor at s with OpenSSH, failing the test unless it exits 0.
func (a actor) plain(t *testing.T, s site, command string) string {
	t.Helper()
	out, errOut, status := runOpenSSH(t, s.addr, a.name, a.file, command)
	if status != 0 {
		t.Fatalf("%s: ssh %s: exit %d\n%s%s", a.name, command, status, out, errOut)
	}
	return out
}

// admin runs `arcade admin args...` against the server of s, failing the test unless it exits 0.
func admin(t *testing.T, s site, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if status := runAdmin(append([]string{"--data", s.data}, args...), noEnv, &out, &errOut); status != 0 {
		t.Fatalf("arcade admin %q: exit %d: %s", args, status, errOut.String())
	}
	return out.String()
}

var (
	linkCodePattern = regexp.MustCompile(`Your code: ([A-Z0-9-]{14})`)
	matchIDPattern  = regexp.MustCompile(`match ([2-9a-z]{11})`)
)

// openRoom has red create a Stone Towers room at rs and blue join it from bs, both over
// OpenSSH's client, and returns their screens once the match has begun.
func openRoom(t *testing.T, red actor, rs site, blue actor, bs site) (r, b *player, code string) {
	t.Helper()
	r = connectOpenSSH(t, rs.addr, red.name, red.file, "new stonetowers") // the standard game: rated
	code = roomCode(t, r.waitFor("Waiting for players"))
	b = connectOpenSSH(t, bs.addr, blue.name, blue.file, "join "+code)
	b.waitFor("playing", "you: "+blue.name+" (Blue)")
	r.waitFor("playing", "you: "+red.name+" (Red)")
	return r, b, code
}

// playToResign plays two moves of each side in the room of r (Red) and b (Blue), then the loser
// (r or b) resigns: a rated match. It returns the match's ID, as the end screen shows it.
func playToResign(t *testing.T, r, b, loser *player) string {
	t.Helper()
	for i, mv := range []string{"b c3", "b f6", "b c6", "b f3"} {
		p := []*player{r, b}[i%2]
		p.send(":")
		p.waitFor("move:")
		p.send(mv + "\r")
		want := map[int]string{0: "R 24 · B 25", 1: "R 24 · B 24", 2: "R 23 · B 24", 3: "R 23 · B 23"}[i]
		r.waitFor("Turns left: " + want)
		b.waitFor("Turns left: " + want)
	}
	loser.send("R")
	loser.waitFor("Resign?")
	loser.send("\r")
	screen := r.waitFor("GAME OVER", "Rated match.")
	b.waitFor("GAME OVER", "Rated match.")
	m := matchIDPattern.FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no match ID on the end screen:\n%s", screen)
	}
	return m[1]
}

// leaderboardAt returns the Stone Towers leaderboard of s, as `leaderboard stonetowers` prints it.
func leaderboardAt(t *testing.T, s site, by actor) string {
	t.Helper()
	return by.plain(t, s, "leaderboard stonetowers")
}

// moderationStory is the story of issue 36, told over OpenSSH's client at the sites a and b (the
// same server, or two nodes of a cluster), with fresh, a server of its own, for the leaderboard
// without the voided match:
//
//   - ada's first key makes a link code at a; her second claims it at b; playing with it at b
//     against bob at a, ada wins a rated match, which counts for ada;
//   - from her second key, at a, ada removes the first, which then plays as a guest at b;
//   - bob ignores carol at a; in a room of b, carol's chat reaches ada, not bob (on a);
//   - an operator bans carol's key on a's admin socket: her session at b ends, saying why, and
//     her next connection, at either, is refused with the reason;
//   - bob wins a second match, ada a third; an operator voids the second at a: the leaderboard, at
//     a and at b, is byte for byte that of fresh, where only the first and the third were played.
func moderationStory(t *testing.T, a, b, fresh site) {
	dir := t.TempDir()
	ada1, ada2 := newActor(t, dir, "ada", "ada1"), newActor(t, dir, "ada", "ada2")
	bob, carol := newActor(t, dir, "bob", "bob"), newActor(t, dir, "carol", "carol")

	// One player, two keys.
	ada1.plain(t, a, "whoami")
	out := ada1.plain(t, a, "keys link")
	m := linkCodePattern.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("keys link printed no code:\n%s", out)
	}
	if out := ada2.plain(t, b, "keys claim "+m[1]+" work laptop"); !strings.Contains(out, "This key is ada's now") {
		t.Fatalf("keys claim: %q", out)
	}
	if _, errOut, status := runOpenSSH(t, b.addr, "ada", ada2.file, "keys claim "+m[1]); status != 1 || !strings.Contains(errOut, "used already") {
		t.Errorf("the code claimed again: exit %d, %q", status, errOut)
	}
	keys := ada2.plain(t, a, "keys")
	for _, want := range []string{ada1.fp(), "* " + ada2.fp(), "work laptop"} {
		if !strings.Contains(keys, want) {
			t.Errorf("keys lacks %q:\n%s", want, keys)
		}
	}
	bob.plain(t, a, "whoami")
	r, bl, _ := openRoom(t, ada2, b, bob, a)
	first := playToResign(t, r, bl, bl)
	r.close()
	bl.close()
	if board := leaderboardAt(t, a, bob); !regexp.MustCompile(`1\s+ada\s+\S+\s+\d+\s+1\s+1\s+0\s+0`).MatchString(board) {
		t.Errorf("the match with ada's second key does not count for ada:\n%s", board)
	}

	// The first key removed plays as a guest.
	ada2.plain(t, a, "keys revoke "+strings.TrimPrefix(ada1.fp(), "SHA256:")[:8])
	g := connectOpenSSH(t, b.addr, "ada", ada1.file, "new stonetowers bots=1")
	g.waitFor("This key was removed from ada")
	g.send(" ")
	g.waitFor("you: ~ada")
	g.close()
	if out := ada1.plain(t, a, "whoami"); !strings.Contains(out, "~ada (guest)") {
		t.Errorf("whoami of the removed key: %q", out)
	}

	// bob ignores carol.
	carol.plain(t, b, "whoami")
	if out := bob.plain(t, a, "ignore carol"); !strings.Contains(out, "You no longer see the chat of carol") {
		t.Errorf("ignore: %q", out)
	}
	r, bl, code := openRoom(t, ada2, b, bob, a)
	c := connectOpenSSH(t, b.addr, "carol", carol.file, "watch "+code)
	c.waitFor("watching")
	c.send("t")
	c.waitFor("chat to spectators:") // a spectator's line during a match: the spectators' chat
	c.send("hello bob, it is carol\r")
	c.waitFor("carol (watching): hello bob")
	r.waitFor("tab: spectators (1)")
	r.send("\t")
	r.waitFor("carol: hello bob")
	r.send("\t\t") // the moves, then the chat again
	r.waitFor("tab: spectators (1)")
	bl.send("\t")
	bl.waitFor("spectators · tab: moves")
	if s := bl.screen(); strings.Contains(s, "hello bob") {
		t.Errorf("bob ignores carol and sees her line in the spectators' chat:\n%s", s)
	}
	bl.send("\t\t")
	r.send("t")
	r.waitFor("chat:")
	r.send("ada was here\r")
	bl.waitFor("ada: ada was here")
	if s := bl.screen(); strings.Contains(s, "hello bob") {
		t.Errorf("bob ignores carol and sees her chat:\n%s", s)
	}

	// An operator bans carol's key (at a: her session is at b).
	admin(t, a, "ban", carol.fp(), "--reason", "harassing bob")
	c.waitFor("You are banned from this arcade for good: harassing bob.")
	for _, s := range []site{b, a} {
		_, errOut, status := runOpenSSH(t, s.addr, "carol", carol.file, "whoami")
		if status != 255 || !strings.Contains(errOut, "You are banned from this arcade for good: harassing bob.") {
			t.Errorf("carol's next connection: exit %d, %q", status, errOut)
		}
	}
	if bans := admin(t, b, "list", "bans"); !strings.Contains(bans, carol.fp()) || !strings.Contains(bans, "harassing bob") {
		t.Errorf("list bans:\n%s", bans)
	}

	// A void, against a leaderboard without the match.
	second := playToResign(t, r, bl, r)
	r.close()
	bl.close()
	r, bl, _ = openRoom(t, ada2, a, bob, b)
	playToResign(t, r, bl, bl)
	r.close()
	bl.close()
	before := leaderboardAt(t, a, bob)
	admin(t, a, "void", second, "--reason", "thrown")
	fa, fb := newActor(t, dir, "ada", "ada-fresh"), newActor(t, dir, "bob", "bob-fresh")
	fa.plain(t, fresh, "whoami")
	fb.plain(t, fresh, "whoami")
	for range 2 {
		r, bl, _ := openRoom(t, fa, fresh, fb, fresh)
		playToResign(t, r, bl, bl)
		r.close()
		bl.close()
	}
	want := leaderboardAt(t, fresh, fb)
	for _, s := range []site{a, b} {
		got := ""
		for end := time.Now().Add(deadline); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
			if got = leaderboardAt(t, s, bob); got == want {
				break
			}
		}
		if got != want {
			t.Errorf("the leaderboard after the void of %s (the first was %s):\n%s\nwithout it:\n%s\nbefore the void:\n%s", second, first, got, want, before)
		}
	}
	if got := admin(t, b, "log"); !strings.Contains(got, "void") || !strings.Contains(got, second) || !strings.Contains(got, "ban") {
		t.Errorf("the moderation log:\n%s", got)
	}
}

// TestModerationOverOpenSSH: the story of keys and moderation on one server.
func TestModerationOverOpenSSH(t *testing.T) {
	t.Parallel()
	sshClient(t)
	data := t.TempDir()
	s := site{addr: startServerWith(t, "--data", data, "--rated-newcomer-moves", "0"), data: data}
	freshData := t.TempDir()
	fresh := site{addr: startServerWith(t, "--data", freshData, "--rated-newcomer-moves", "0"), data: freshData}
	moderationStory(t, s, s, fresh)
}

// TestModerationAcrossNodes: the same story on two nodes of a cluster: a key linked on one node
// claims on the other; the rated match, the removal, the ignore, the ban (refused at the other
// node) and the void (recomputed by every node's replica) reach both.
func TestModerationAcrossNodes(t *testing.T) {
	t.Parallel()
	sshClient(t)
	c := startClusterWith(t, []string{"--rated-newcomer-moves", "0"}, 2)
	a := site{addr: c.nodes[0].addr, data: c.nodes[0].data}
	b := site{addr: c.nodes[1].addr, data: c.nodes[1].data}
	freshData := t.TempDir()
	fresh := site{addr: startServerWith(t, "--data", freshData, "--rated-newcomer-moves", "0"), data: freshData}
	moderationStory(t, a, b, fresh)
	if t.Failed() {
		for _, n := range c.nodes {
			t.Logf("%s log:\n%s", n.name, n.logs.String())
		}
	}
}
