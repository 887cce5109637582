package main

import (
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"

	"github.com/creack/pty"
	"github.com/hinshun/vt10x"
)

// sshOptions are the options of every OpenSSH client of the tests: no configuration, no known
// hosts, no agent, only the key given.
func sshOptions(addr net.Addr, keyFile string) []string {
	return []string{"-F", "none", "-p", strconv.Itoa(addr.(*net.TCPAddr).Port),
		"-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes",
		"-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none", "-i", keyFile}
}

// sshClient returns the path of OpenSSH's client, skipping the test when it is not installed.
func sshClient(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("ssh")
	if err != nil {
		t.Skip("OpenSSH client not installed")
	}
	return path
}

// connectOpenSSH runs OpenSSH's own client as user with the private key in keyFile, on an 80 x 24
// PTY of its own (ssh -tt), running command ("" for the lobby); what the server sends is read into
// a terminal emulator, as connect's players are.
func connectOpenSSH(t *testing.T, addr net.Addr, user, keyFile, command string) *player {
	t.Helper()
	args := append(sshOptions(addr, keyFile), "-tt", "-o", "LogLevel=ERROR", user+"@127.0.0.1")
	if command != "" {
		args = append(args, command)
	}
	cmd := exec.Command(sshClient(t), args...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Fatalf("%s: ssh: %v", user, err)
	}
	p := &player{t: t, name: user, stdin: tty, vt: vt10x.New(vt10x.WithSize(80, 24)), done: make(chan struct{})}
	var once sync.Once
	p.stop = func() {
		once.Do(func() {
			_ = cmd.Process.Kill()
			_ = tty.Close()
			_ = cmd.Wait()
		})
	}
	go p.read(tty)
	t.Cleanup(p.close)
	return p
}

// runOpenSSH runs a plain command with OpenSSH's client as user with the key in keyFile, and
// returns its output, its errors (what ssh itself says, a banner included) and its exit status.
func runOpenSSH(t *testing.T, addr net.Addr, user, keyFile, command string) (stdout, stderr string, status int) {
	t.Helper()
	args := append(sshOptions(addr, keyFile), user+"@127.0.0.1", command)
	cmd := exec.Command(sshClient(t), args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		status = exit.ExitCode()
	case err != nil:
		t.Fatalf("ssh %s: %v", command, err)
	}
	return out.String(), errOut.String(), status
}
