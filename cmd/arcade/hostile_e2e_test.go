package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// heapAlloc returns the bytes of live heap after a full collection.
func heapAlloc() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// hugeWindowClient opens a guest session with a PTY of width x height (which may be anything a
// uint32 holds), runs the lobby, waits for its first bytes and reads (and drops) everything else
// it is sent until the session closes, which read then tells.
func hugeWindowClient(t *testing.T, addr string, width, height uint32) (sess *ssh.Session, in io.WriteCloser, read <-chan struct{}) {
	t.Helper()
	conn, err := ssh.Dial("tcp", addr, &ssh.ClientConfig{
		User: "huge", HostKeyCallback: ssh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second,
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
	case <-time.After(10 * time.Second):
		t.Fatal("no output within 10 s")
	}
	return sess, in, done
}

// TestHugeWindowsAreBounded: a guest asking for a terminal of 2^31 x 2^31, then sending a storm
// of huge window changes and size reports typed into its input, leaves the server's heap within a
// few MB of where it was: every size a client reports is bounded before anything is sized from it.
func TestHugeWindowsAreBounded(t *testing.T) {
	for _, c := range []struct {
		name  string
		flags []string
		limit uint64
	}{
		// teaframe holds the cells of the lines it draws only.
		{"teaframe", nil, 4 << 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			addr := startServerWith(t, c.flags...).String()
			// A session of ordinary size first, so that what every session needs (the lobby's
			// code paths, the catalogue's caches) is in the baseline.
			hugeWindowClient(t, addr, 80, 24)
			time.Sleep(300 * time.Millisecond)
			before := heapAlloc()

			sess, in, read := hugeWindowClient(t, addr, 1<<31, 1<<31)
			huge := []struct{ w, h uint32 }{{1 << 31, 1 << 31}, {1<<32 - 1, 1<<32 - 1}, {10_000_000, 24},
				{80, 10_000_000}, {1<<31 - 1, 1}, {4096, 256}, {1 << 31, 1<<31 - 1}}
			for i := range 300 {
				w := huge[i%len(huge)]
				payload := ssh.Marshal(struct{ Cols, Rows, WidthPx, HeightPx uint32 }{w.w, w.h, 0, 0})
				if _, err := sess.SendRequest("window-change", false, payload); err != nil {
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
			time.Sleep(time.Second) // the program handles the storm and draws
			during := heapAlloc()
			_ = sess.Close()
			<-read
			t.Logf("heap %d KB before, %d KB with the huge window", before>>10, during>>10)
			if during > before && during-before > c.limit {
				t.Errorf("heap grew by %d MB with a huge window (from %d MB), want under %d MB",
					(during-before)>>20, before>>20, c.limit>>20)
			}
		})
	}
}

// TestLongCommandIsRefused: a command line of 250 KB gets one line saying it is too long and exit
// status 2, from the real server (the parts that split it into words are tested in package sshd).
func TestLongCommandIsRefused(t *testing.T) {
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

// TestEnvironmentFloodIsBounded: a client sending environment variables without end before its
// session starts (60 MB of them here) leaves the server's heap within a few MB of where it was,
// and its session then starts as any other.
func TestEnvironmentFloodIsBounded(t *testing.T) {
	addr := startServer(t)
	hugeWindowClient(t, addr.String(), 80, 24) // what every session needs, in the baseline
	time.Sleep(300 * time.Millisecond)
	before := heapAlloc()
	conn, err := ssh.Dial("tcp", addr.String(), &ssh.ClientConfig{User: "env",
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
	after := heapAlloc()
	t.Logf("heap %d KB before, %d KB after the flood", before>>10, after>>10)
	if after > before && after-before > 4<<20 {
		t.Errorf("heap grew by %d MB with a flood of environment variables", (after-before)>>20)
	}
}
