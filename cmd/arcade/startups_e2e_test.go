package main

import (
	"bufio"
	"io"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// dialGuest makes an SSH connection as a guest (keyboard-interactive, no questions): the whole
// handshake and authentication.
func dialGuest(addr net.Addr) (*ssh.Client, error) {
	return ssh.Dial("tcp", addr.String(), &ssh.ClientConfig{
		User: "guest", HostKeyCallback: ssh.InsecureIgnoreHostKey(), Timeout: deadline,
		Auth: []ssh.AuthMethod{ssh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
			return nil, nil
		})},
	})
}

// refused checks that an SSH handshake is refused with a reason that contains want.
func refused(t *testing.T, addr net.Addr, want string) {
	t.Helper()
	conn, err := dialGuest(addr)
	if err == nil {
		conn.Close()
		t.Fatal("an SSH handshake past the cap was admitted")
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("SSH handshake past the cap: %v, want refused with %q", err, want)
	}
}

// stall opens n raw TCP connections that never send a byte, and returns them once the server has
// sent each its version string: by then it counts each as starting.
func stall(t *testing.T, addr net.Addr, n int) []net.Conn {
	t.Helper()
	conns := make([]net.Conn, n)
	for i := range conns {
		c, err := net.Dial("tcp", addr.String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		_ = c.SetReadDeadline(time.Now().Add(deadline))
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil || !strings.HasPrefix(line, "SSH-2.0-") {
			t.Fatalf("stalled connection %d: read %q, %v; want the server's version string", i, line, err)
		}
		conns[i] = c
	}
	return conns
}

// TestStartupsCappedPerAddress: raw TCP connections that never finish their handshake fill the
// per-address cap; a real SSH handshake from the same address is then refused at once with the
// reason, and so is one more raw connection, which reads the reason and is closed; once the raw
// connections close, the SSH handshake succeeds again.
func TestStartupsCappedPerAddress(t *testing.T) {
	t.Parallel()
	addr := startServerWith(t, "--max-startups-per-addr", "3")
	raw := stall(t, addr, 3)

	refused(t, addr, "too many connections from your address")
	if sshPath, err := exec.LookPath("ssh"); err == nil {
		// OpenSSH's client shows the disconnect's reason without -v.
		cmd := exec.Command(sshPath, "-F", "none", "-p", strconv.Itoa(addr.(*net.TCPAddr).Port),
			"-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes",
			"guest@127.0.0.1", "whoami")
		out, _ := cmd.CombinedOutput()
		if !strings.Contains(string(out), "arcade: too many connections from your address are still connecting; try again in a minute.") {
			t.Errorf("OpenSSH's client past the cap printed %q, want the reason", out)
		}
	}
	extra, err := net.Dial("tcp", addr.String())
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	_ = extra.SetReadDeadline(time.Now().Add(deadline))
	told, err := io.ReadAll(extra) // the server closes it; a deadline error means it did not
	if err != nil {
		t.Fatalf("the refused connection was not closed: %v", err)
	}
	if !strings.HasPrefix(string(told), "arcade: too many connections from your address are still connecting") {
		t.Errorf("a raw client past the cap read %q, want the reason first", told)
	}

	for _, c := range raw {
		c.Close()
	}
	// The server sees the closes in its own time: try until the handshake is admitted.
	for until := time.Now().Add(deadline); ; time.Sleep(50 * time.Millisecond) {
		conn, err := dialGuest(addr)
		if err == nil {
			conn.Close()
			break
		}
		if time.Now().After(until) {
			t.Fatalf("the SSH handshake after the stalled connections closed: %v", err)
		}
	}
}

// TestStartupsCappedInAll: the total cap refuses a connection from an address under its own cap.
func TestStartupsCappedInAll(t *testing.T) {
	t.Parallel()
	addr := startServerWith(t, "--max-startups", "2", "--max-startups-per-addr", "100")
	stall(t, addr, 2)
	refused(t, addr, "too many connections are connecting to the arcade")
}

// TestStalledHandshakeIsClosed: connections that stall in their handshake are closed at the
// handshake deadline, and their places are free again: an SSH client refused while they held
// them connects and plays once they are gone.
func TestStalledHandshakeIsClosed(t *testing.T) {
	t.Parallel()
	// The deadline leaves the test time to find the places taken, however busy the machine.
	addr := startServerWith(t, "--max-startups-per-addr", "2", "--handshake-timeout", "10s")
	raw := stall(t, addr, 2)
	refused(t, addr, "too many connections from your address")
	for i, c := range raw {
		_ = c.SetReadDeadline(time.Now().Add(deadline))
		if _, err := io.Copy(io.Discard, c); err != nil {
			t.Fatalf("stalled connection %d was not closed by the server: %v", i, err)
		}
	}
	// The places are released before the server closes a connection.
	p := connect(t, addr, "late", newKey(t), "")
	p.waitFor("Welcome")
}
