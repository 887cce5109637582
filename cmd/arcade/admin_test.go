package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// adminRun runs `arcade admin` in the test's process against data, and returns its output, its
// errors and its status.
func adminRun(data string, args ...string) (string, string, int) {
	var out, errOut bytes.Buffer
	status := runAdmin(append([]string{"--data", data}, args...), noEnv, &out, &errOut)
	return out.String(), errOut.String(), status
}

// TestAdminRefusals: commands not understood (status 2), and commands on what is not there, or
// beyond a limit (status 1), each say why in one line and change nothing: the moderation log
// stays empty. Without a running server, admin says so.
func TestAdminRefusals(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	if _, errOut, status := adminRun(data, "list", "bans"); status != 1 || !strings.Contains(errOut, "no arcade server answers") {
		t.Errorf("with no server: %d %q", status, errOut)
	}
	startServerWith(t, "--data", data)
	for _, c := range []struct {
		args   []string
		status int
		says   string
	}{
		{[]string{"frob"}, 2, "usage: no command \"frob\""},
		{[]string{"ban"}, 2, "usage: ban takes a target"},
		{[]string{"ban", "nobody"}, 1, "no player has that name: nobody"},
		{[]string{"ban", "SHA256:" + strings.Repeat("a", 43)}, 1, "no player has used the key"},
		{[]string{"ban", "not a name"}, 1, "is neither a name, a key's fingerprint nor an address"},
		{[]string{"ban", "192.0.2.0/33"}, 1, "not an address prefix"},
		{[]string{"ban", "192.0.2.1", "soon"}, 2, "is not a duration"},
		{[]string{"mute", "nobody", "1h"}, 1, "no player has that name"},
		{[]string{"unban", "192.0.2.1"}, 1, "that is not banned"},
		{[]string{"kick", "nobody", "--reason"}, 2, "--reason takes a text"},
		{[]string{"announce"}, 2, "announce takes a text"},
		{[]string{"announce", strings.Repeat("x", 201)}, 1, "an announcement is one line of at most 200 characters"},
		{[]string{"void", "2k9xq4m7a8b"}, 1, "no match with that ID"},
		{[]string{"rename", "nobody", "somebody"}, 1, "no player has that name"},
		{[]string{"announce", "hello", "--reason", "x"}, 2, "announce takes no --reason"},
		{[]string{"reports", "zero"}, 2, "reports takes a number"},
	} {
		out, errOut, status := adminRun(data, c.args...)
		if status != c.status || !strings.Contains(errOut, c.says) || out != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("admin %q: %d %q %q; want %d and %q", c.args, status, out, errOut, c.status, c.says)
		}
	}
	for cmd, want := range map[string]string{"log": "No actions yet.", "reports": "No reports.", "bans": "No bans."} {
		if out, errOut, status := adminRun(data, cmd); status != 0 || !strings.Contains(out, want) {
			t.Errorf("admin %s: %d %q %q", cmd, status, out, errOut)
		}
	}
	if out, _, status := adminRun(data, "ban", "192.0.2.0/24", "12h", "--reason", "a flood"); status != 0 || !strings.Contains(out, "banned addr 192.0.2.0/24 until ") {
		t.Errorf("a ban of a prefix: %d %q", status, out)
	}
	if out, _, _ := adminRun(data, "log"); !strings.Contains(out, "ban") || !strings.Contains(out, "a flood") || strings.Count(out, "\n") != 2 {
		t.Errorf("the log after one ban:\n%s", out)
	}
}

// TestParseDuration: a ban's or mute's duration, Go's or in days and weeks, positive, at most ten
// years.
func TestParseDuration(t *testing.T) {
	for s, want := range map[string]time.Duration{"30m": 30 * time.Minute, "12h": 12 * time.Hour, "7d": 7 * 24 * time.Hour,
		"4w": 28 * 24 * time.Hour, "1h30m": 90 * time.Minute} {
		if got, err := parseDuration(s); err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", s, got, err, want)
		}
	}
	for _, bad := range []string{"", "0", "-1h", "soon", "3650000d", "1.5d", "d"} {
		if _, err := parseDuration(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestAdminSocketRefusesOtherUsers: another user of the machine gets nothing from the admin
// socket: the socket (0600, in a folder of mode 0700) refuses them, and, the modes opened up, the
// server asks the kernel who they are and refuses them (run as root only: it runs the client as
// nobody).
func TestAdminSocketRefusesOtherUsers(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("needs root, to run the client as another user")
	}
	bin := filepath.Join(t.TempDir(), "arcade")
	raw, err := os.ReadFile(binary(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, raw, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Dir(bin), filepath.Dir(filepath.Dir(bin))} { // the test's folders
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	data := t.TempDir()
	startServerWith(t, "--data", data)
	asNobody := func() (string, int) {
		cmd := exec.Command(bin, "admin", "--data", data, "announce", "hello from nobody")
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := cmd.CombinedOutput()
		if err != nil && cmd.ProcessState == nil {
			t.Fatal(err)
		}
		return string(out), cmd.ProcessState.ExitCode()
	}
	if out, status := asNobody(); status != 1 || !strings.Contains(out, "permission denied") {
		t.Errorf("nobody, through the socket's mode: %d %q", status, out)
	}
	if err := os.Chmod(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(data, adminSocket), 0o666); err != nil {
		t.Fatal(err)
	}
	if out, status := asNobody(); status != 1 || !strings.Contains(out, "the admin socket answers the arcade's own user and root only") {
		t.Errorf("nobody, the modes opened: %d %q", status, out)
	}
	if out, _, _ := adminRun(data, "log"); !strings.Contains(out, "No actions yet.") {
		t.Errorf("the log after nobody's tries:\n%s", out)
	}
}
