package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// hugeWindowClient opens a guest session with a PTY of width x height (which may be anything a
// uint32 holds), runs the lobby, waits for its first bytes and reads (and drops) everything else
// it is sent until the session closes, which read then tells.
func hugeWindowClient(t *testing.T, addr string, width, height uint32) (sess *ssh.Session, in io.WriteCloser, read <-chan struct{}) {
	t.Helper()
	conn, err := ssh.Dial("tcp", addr, &ssh.ClientConfig{
		User: "huge", HostKeyCallback: ssh.InsecureIgnoreHostKey(), Timeout: deadline,
		Auth: []ssh.AuthMethod{ssh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
			return nil, nil
		})},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	sess, err = conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", int(height), int(width), ssh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	in, err = sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	first, done := make(chan error, 1), make(chan struct{})
	go func() {
		defer close(done)
		_, err := out.Read(make([]byte, 1))
		first <- err
		_, _ = io.Copy(io.Discard, out)
	}()
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	// The session has started (charm.land/ssh's session reads its PTY's window unguarded while a
	// window change writes it: a change before the program is built is a data race there).
	select {
	case err := <-first:
		if err != nil {
			t.Fatalf("no output: %v", err)
		}
	case <-time.After(deadline):
		t.Fatal("no output")
	}
	return sess, in, done
}

// hugeWindowLimit is the most the heap may grow by for a session of a huge window: teaframe
// holds the lines it draws only, and every size is bounded before anything is sized from it.
const hugeWindowLimit = 4 << 20

// hugeWindowStorm opens a guest session asking for a terminal of 2^31 x 2^31 and sends it a storm
// of huge window changes and size reports typed into its input; the window-change requests are
// all handled when it returns (the last one waits for its answer). It returns the session and
// read, closed when the session has closed.
func hugeWindowStorm(t *testing.T, addr string) (*ssh.Session, <-chan struct{}) {
	t.Helper()
	sess, in, read := hugeWindowClient(t, addr, 1<<31, 1<<31)
	huge := []struct{ w, h uint32 }{{1 << 31, 1 << 31}, {1<<32 - 1, 1<<32 - 1}, {10_000_000, 24},
		{80, 10_000_000}, {1<<31 - 1, 1}, {4096, 256}, {1 << 31, 1<<31 - 1}}
	for i := range 300 {
		w := huge[i%len(huge)]
		payload := ssh.Marshal(struct{ Cols, Rows, WidthPx, HeightPx uint32 }{w.w, w.h, 0, 0})
		if _, err := sess.SendRequest("window-change", i == 299, payload); err != nil {
			t.Fatal(err)
		}
		if i%50 == 0 {
			// A size report as a terminal answers a query (in-band resize): the largest
			// Bubble Tea takes from the input.
			if _, err := in.Write([]byte("\x1b[48;256;4096;0;0t\x1b[8;1000;1000t")); err != nil {
				t.Fatal(err)
			}
		}
	}
	return sess, read
}

// TestHugeWindowsAreBounded: a guest asking for a terminal of 2^31 x 2^31, then sending a storm
// of huge window changes and size reports typed into its input, is served as any other (every
// size a client reports is bounded before anything is sized from it: the server would not
// survive the allocations otherwise), and the server goes on serving others.
// (TestHugeWindowsHeap, with the tag measure, weighs the heap such a session holds.)
func TestHugeWindowsAreBounded(t *testing.T) {
	t.Parallel()
	addr := startServer(t)
	sess, read := hugeWindowStorm(t, addr.String())
	connect(t, addr, "next", newKey(t), "").waitFor("Welcome")
	_ = sess.Close()
	<-read
}

// TestLongCommandIsRefused: a command line of 250 KB gets one line saying it is too long and exit
// status 2, from the real server (the parts that split it into words are tested in package sshd).
func TestLongCommandIsRefused(t *testing.T) {
	t.Parallel()
	addr := startServer(t)
	cmd := "new stonetowers " + strings.Repeat("x ", 125_000)
	_, errOut, err := runPlain(t, addr, newKey(t), cmd)
	var exit *ssh.ExitError
	if !errors.As(err, &exit) || exit.ExitStatus() != 2 {
		t.Errorf("err=%v, want exit status 2", err)
	}
	if !strings.HasPrefix(errOut, "arcade: the command is too long") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("stderr %q, want one line saying the command is too long", errOut)
	}
}

// environmentFlood opens a session and sends it environment variables without end before it
// starts (60 MB of them), then checks that the last one, past the bounds, was refused, and that
// the session then starts as any other.
func environmentFlood(t *testing.T, addr net.Addr) {
	t.Helper()
	conn, err := ssh.Dial("tcp", addr.String(), &ssh.ClientConfig{User: "env", Timeout: deadline,
		Auth: []ssh.AuthMethod{ssh.PublicKeys(newKey(t))}, HostKeyCallback: ssh.InsecureIgnoreHostKey()})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	sess, err := conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2100 {
		value := strings.Repeat("v", 30_000)
		if i >= 2000 {
			value = "small"
		}
		payload := ssh.Marshal(struct{ Key, Value string }{fmt.Sprintf("V%d", i), value})
		if _, err := sess.SendRequest("env", false, payload); err != nil {
			t.Fatal(err)
		}
	}
	if err := sess.Setenv("NO_COLOR", "1"); err == nil {
		t.Error("a variable past the bounds was accepted")
	}
	out, err := sess.Output("whoami")
	if err != nil || !strings.Contains(string(out), "env") {
		t.Errorf("whoami after the flood: %q, %v", out, err)
	}
}

// TestEnvironmentFloodIsBounded: a client sending environment variables without end before its
// session starts has the ones past the bounds refused, and its session then starts as any other.
// (TestEnvironmentFloodHeap, with the tag measure, weighs the heap the flood leaves.)
func TestEnvironmentFloodIsBounded(t *testing.T) {
	t.Parallel()
	environmentFlood(t, startServer(t))
}
