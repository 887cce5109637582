package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// TestRoomShareThroughSSH: one key cannot take every room. With --max-waiting-rooms 2 its third
// waiting room is refused on its screen with the limit's name while its two rooms are occupied;
// another key still opens one; once the key leaves one of its rooms, that empty room makes way
// for its next; and guests, one identity a session, share their address's.
func TestRoomShareThroughSSH(t *testing.T) {
	t.Parallel()
	addr := startServerWith(t, "--max-waiting-rooms", "2")
	key := newKey(t)
	first := connect(t, addr, "alice", key, "new stonetowers")
	first.waitFor("Waiting for players")
	second := connect(t, addr, "alice", key, "new stonetowers")
	second.waitFor("Waiting for players")
	third := connect(t, addr, "alice", key, "new stonetowers")
	third.waitFor("already have 2 rooms waiting", "--max-waiting-rooms")
	connect(t, addr, "bob", newKey(t), "new stonetowers").waitFor("Waiting for players")

	first.close() // its room is empty now: it expires to make way
	connect(t, addr, "alice", key, "new stonetowers").waitFor("Waiting for players")

	// Guests have no key: theirs count against their address, all guests of it together.
	connect(t, addr, "gus", nil, "new stonetowers").waitFor("Waiting for players")
	connect(t, addr, "gil", nil, "new stonetowers").waitFor("Waiting for players")
	connect(t, addr, "guy", nil, "new stonetowers").waitFor("guests of your address already have 2 rooms")
}

// TestSessionShareThroughSSH: one key cannot take every session place. With
// --max-sessions-per-key 2 a key's third session is refused with one line naming the limit and
// exit status 1, and the refusal is counted in the metrics; another key, and the key once a
// session has ended, get in.
func TestSessionShareThroughSSH(t *testing.T) {
	t.Parallel()
	_, addr, logs := startLogged(t, binary(t), t.TempDir(), "--max-sessions-per-key", "2", "--metrics", "127.0.0.1:0",
		"--conn-rate", "1000", "--conn-burst", "1000")
	if addr == nil {
		t.Fatalf("the server did not start:\n%s", logs)
	}
	key := newKey(t)
	first := connect(t, addr, "alice", key, "")
	first.waitFor("Welcome")
	connect(t, addr, "alice", key, "").waitFor("Welcome")
	_, stderr, err := runPlainAs(t, addr, "alice", key, "whoami")
	var exit *ssh.ExitError
	if !errors.As(err, &exit) || exit.ExitStatus() != 1 ||
		stderr != "arcade: this key already has 2 sessions open (limit --max-sessions-per-key); close one first.\n" {
		t.Fatalf("a third session of one key: %v, stderr %q", err, stderr)
	}
	if _, _, err := runPlainAs(t, addr, "bob", newKey(t), "whoami"); err != nil {
		t.Fatalf("another key: %v", err)
	}
	m := metricsOn.FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("the server did not say where its metrics are:\n%s", logs)
	}
	resp, err := http.Get(m[1])
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || !regexp.MustCompile(`(?m)^arcade_refusals_total\{limit="sessions_per_key"\} 1$`).Match(body) {
		t.Errorf("metrics (%v) do not count the refusal:\n%s", err, body)
	}
	first.close()
	deadlineAt := time.Now().Add(deadline)
	for {
		_, stderr, err := runPlainAs(t, addr, "alice", key, "whoami")
		if err == nil {
			break
		}
		if time.Now().After(deadlineAt) {
			t.Fatalf("after a session ended, the key is still refused: %v, %q", err, stderr)
		}
	}
}

// TestSessionShareOfAddressThroughSSH: guests, who have no key, are counted by their address:
// with --max-sessions-per-addr 2 a third guest session from one address is refused with the
// limit's name.
func TestSessionShareOfAddressThroughSSH(t *testing.T) {
	t.Parallel()
	addr := startServerWith(t, "--max-sessions-per-addr", "2")
	connect(t, addr, "ann", nil, "").waitFor("Welcome")
	connect(t, addr, "ben", nil, "").waitFor("Welcome")
	connect(t, addr, "cid", nil, "").waitFor("your address already has 2 sessions open", "--max-sessions-per-addr")
}

// stallFrom is stall from the local address ip: a source of its own (all of 127/8 is loopback).
func stallFrom(t *testing.T, addr net.Addr, ip string, n int) {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: deadline}
	for i := range n {
		c, err := d.Dial("tcp", addr.String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		_ = c.SetReadDeadline(time.Now().Add(deadline))
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil || !strings.HasPrefix(line, "SSH-2.0-") {
			t.Fatalf("stalled connection %d from %s: read %q, %v; want the server's version string", i, ip, line, err)
		}
	}
}

// TestStartupShareThroughSSH: silent connections from a few addresses, each up to its own cap,
// cannot fill the global startup cap: its last quarter is kept for addresses with none starting,
// and a real SSH client from another address still gets in.
func TestStartupShareThroughSSH(t *testing.T) {
	t.Parallel()
	addr := startServerWith(t, "--max-startups", "8", "--max-startups-per-addr", "3")
	stallFrom(t, addr, "127.0.0.2", 3)
	stallFrom(t, addr, "127.0.0.3", 3) // 6 of 8: only addresses with none starting get more
	stallFrom(t, addr, "127.0.0.4", 1)
	c, err := (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.4")}}).Dial("tcp", addr.String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(deadline))
	if line, _ := bufio.NewReader(c).ReadString('\n'); !strings.Contains(line, "too many connections are connecting") {
		t.Fatalf("a second silent connection from a flooding address past the kept places: read %q, want refused", line)
	}
	conn, err := dialGuest(addr) // from 127.0.0.1, which has none starting
	if err != nil {
		t.Fatalf("an SSH client from an address with none starting: %v", err)
	}
	conn.Close()
}

// TestMetricsOffLoopbackRefused: the server refuses to start with --metrics off loopback, saying
// why and what to do, unless --metrics-public says so.
func TestMetricsOffLoopbackRefused(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary(t), "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--metrics", "0.0.0.0:0")
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil || exitCode(err) != 2 && exitCode(err) != 1 || !strings.Contains(string(out), "--metrics-public") {
		t.Fatalf("--metrics 0.0.0.0:0: %v, said %q; want a refusal naming --metrics-public", err, out)
	}
	_, addr, logs := startLogged(t, binary(t), t.TempDir(), "--metrics", "0.0.0.0:0", "--metrics-public")
	if addr == nil {
		t.Fatalf("--metrics 0.0.0.0:0 --metrics-public did not start:\n%s", logs)
	}
}
