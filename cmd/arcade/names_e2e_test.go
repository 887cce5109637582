package main

import (
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

// TestRefusedNameNoticeOnEveryPath: a key asking for a name another key holds is told so, whole,
// on every path that makes a player: the lobby, new, join and watch (in front of the room, until
// a key is pressed), and whoami (one message, not also "no key was used").
func TestRefusedNameNoticeOnEveryPath(t *testing.T) {
	t.Parallel()
	addr := startServer(t)
	connect(t, addr, "zoe", newKey(t), "").waitFor("Welcome", "zoe")
	const line1 = "The name zoe belongs to another key, so you play as guest ~zoe (unranked)."
	const line2 = "Pick another name: ssh NAME@host."

	lobby := connect(t, addr, "zoe", newKey(t), "")
	lobby.waitFor("~zoe (guest)", line1, line2)

	host := connect(t, addr, "zoe", newKey(t), "new discon seats=2 variant=basic")
	host.waitFor(line1, line2, "Press any key")
	host.send("x")
	code := roomCode(t, host.waitFor("DISCON · room", "you: ~zoe"))

	for _, cmd := range []string{"join " + code, "watch " + code} {
		p := connect(t, addr, "zoe", newKey(t), cmd)
		p.waitFor(line1, line2, "Press any key")
		p.send(" ")
		p.waitFor("room " + code)
	}

	out, _, err := runPlainAs(t, addr, "zoe", newKey(t), "whoami")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "name: ~zoe (guest)\n"+line1) || strings.Contains(out, "No key was used") ||
		strings.Count(out, "belongs to another key") != 1 {
		t.Errorf("whoami says %q; want one message that the name is another key's", out)
	}
}

// TestLookalikeNamesPlayAsGuests: lookalikes of a name (full width, a Cyrillic letter) bind
// nothing: the session plays as a guest of the server's naming and is told why, in the lobby and
// in whoami through OpenSSH; the real name stays free for its owner.
func TestLookalikeNamesPlayAsGuests(t *testing.T) {
	t.Parallel()
	addr := startServer(t)
	full := connect(t, addr, "ａｌｉｃｅ", newKey(t), "")
	full.waitFor("is not allowed: it holds U+FF41", "You play as guest ~guest-", "(guest)")

	sshPath, err := exec.LookPath("ssh")
	if err != nil {
		t.Skip("OpenSSH client not installed")
	}
	dir := t.TempDir()
	keyFile := writePrivateKey(t, dir, "mallory", newKey(t))
	cmd := exec.Command(sshPath, "-F", "none", "-p", strconv.Itoa(addr.(*net.TCPAddr).Port),
		"-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes",
		"-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none", "-o", "LogLevel=ERROR",
		"-i", keyFile, "аlice@127.0.0.1", "whoami") // a Cyrillic а
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ssh: %v\n%s", err, out)
	}
	if s := string(out); !strings.Contains(s, "name: ~guest-") || !strings.Contains(s, "U+0430") ||
		strings.Contains(s, "key: ") {
		t.Errorf("whoami as аlice says %q; want a guest told the name holds U+0430", s)
	}

	owner := connect(t, addr, "alice", newKey(t), "")
	owner.waitFor("Welcome", "alice")
	if s := owner.screen(); strings.Contains(s, "guest") {
		t.Errorf("alice, the name the lookalikes imitate, is not hers:\n%s", s)
	}
}

// runPlainAs runs a plain command as user with key and returns its stdout and stderr.
func runPlainAs(t *testing.T, addr net.Addr, user string, key ssh.Signer, cmd string) (string, string, error) {
	t.Helper()
	conn, err := ssh.Dial("tcp", addr.String(), &ssh.ClientConfig{User: user,
		Auth: []ssh.AuthMethod{ssh.PublicKeys(key)}, HostKeyCallback: ssh.InsecureIgnoreHostKey()})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	sess, err := conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut strings.Builder
	sess.Stdout, sess.Stderr = &out, &errOut
	err = sess.Run(cmd)
	return out.String(), errOut.String(), err
}
