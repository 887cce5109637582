package sshd

import (
	"errors"
	"fmt"
	"io"
	"net"
	"testing"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// sessionLoopServer serves charm.land/ssh sessions on 127.0.0.1 with handler; a PTY request
// for TERM "panic" panics in the PTY callback, on the goroutine that serves the session's
// requests.
func sessionLoopServer(t *testing.T, handler ssh.Handler) *gossh.Client {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &ssh.Server{
		Handler: handler,
		PtyCallback: func(_ ssh.Context, pty ssh.Pty) bool {
			if pty.Term == "panic" {
				panic("pty callback")
			}
			return true
		},
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	client, err := gossh.Dial("tcp", ln.Addr().String(), &gossh.ClientConfig{
		User: "t", HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Close() })
	return client
}

// waitRequestLoops waits until want goroutines of the process run charm.land/ssh's request loop
// of a session (the sessions of earlier tests may take a moment to end), for 10 s at most.
func waitRequestLoops(t *testing.T, want int) {
	t.Helper()
	waitGoroutines(t, fmt.Sprintf("not %d goroutines in a session's request loop", want), func(stacks []string) bool {
		return count(stacks, "charm.land/ssh.(*session).handleRequests(") == want
	})
}

// TestSessionRequestsOnTheConnectionsLoop (third_party/ssh, PATCH.md): the connection's loop
// serves the requests of one session itself, so a connection's first session has no request
// goroutine of its own, and a second session at the same time has one; the first session's
// window changes, its end and its exit status work as before.
func TestSessionRequestsOnTheConnectionsLoop(t *testing.T) {
	windows := make(chan ssh.Window, 4)
	release := make(chan struct{})
	client := sessionLoopServer(t, func(s ssh.Session) {
		if _, ok := ssh.OnWindowChange(s, func(w ssh.Window) { windows <- w }); !ok {
			t.Error("OnWindowChange: not followed")
		}
		_, _ = io.WriteString(s, "ready\n")
		<-release
		_ = s.Exit(3)
	})
	first, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out, _ := first.StdoutPipe()
	if err := first.RequestPty("xterm", 24, 80, nil); err != nil {
		t.Fatal(err)
	}
	if err := first.Shell(); err != nil {
		t.Fatal(err)
	}
	line := make([]byte, 6)
	if _, err := io.ReadFull(out, line); err != nil {
		t.Fatal(err)
	}
	waitRequestLoops(t, 0) // the connection's loop serves the first session
	second, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := second.RequestPty("xterm", 24, 80, nil); err != nil {
		t.Fatal(err)
	}
	waitRequestLoops(t, 1) // and a goroutine of its own the second
	if err := first.WindowChange(30, 100); err != nil {
		t.Fatal(err)
	}
	select {
	case w := <-windows:
		if w.Width != 100 || w.Height != 30 {
			t.Errorf("window %dx%d; want 100x30", w.Width, w.Height)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("window change never reached the session")
	}
	close(release)
	var exit *gossh.ExitError
	if err := first.Wait(); !errors.As(err, &exit) || exit.ExitStatus() != 3 {
		t.Errorf("first session ended with %v; want exit status 3", err)
	}
	_ = second.Close()
}

// TestSessionRequestPanic: a panic while the connection's loop serves a session's request
// fails the request and ends that session; the connection goes on, and its next session works.
func TestSessionRequestPanic(t *testing.T) {
	client := sessionLoopServer(t, func(s ssh.Session) {
		_, _ = io.WriteString(s, "hello\n")
	})
	bad, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		if err := bad.RequestPty("panic", 24, 80, nil); err == nil {
			t.Error("a PTY request that panicked succeeded")
		}
		done <- bad.Wait()
	}()
	select {
	case <-done: // refused, and the session's channel was closed
	case <-time.After(10 * time.Second):
		t.Fatal("the session whose request panicked was left open, or its request unanswered")
	}
	good, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out, err := good.Output("")
	if err != nil || string(out) != "hello\n" {
		t.Fatalf("next session: %q, %v", out, err)
	}
}
