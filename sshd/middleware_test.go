package sshd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/log/v2"
	"charm.land/ssh"
)

// fakeSession is an exec session without a PTY that records what the middleware did with it.
// Methods it does not define panic (the embedded interface is nil).
type fakeSession struct {
	ssh.Session
	raw    string
	parsed bool
	out    bytes.Buffer
	stderr bytes.Buffer
	code   int
	exited bool
}

type fakeContext struct{ ssh.Context }

func (fakeContext) Value(any) any { return nil }

func (f *fakeSession) RawCommand() string { return f.raw }
func (f *fakeSession) Command() []string {
	f.parsed = true
	return strings.Fields(f.raw)
}
func (f *fakeSession) Pty() (ssh.Pty, <-chan ssh.Window, bool) { return ssh.Pty{}, nil, false }
func (f *fakeSession) Stderr() io.ReadWriter                   { return &f.stderr }
func (f *fakeSession) Write(p []byte) (int, error)             { return f.out.Write(p) }
func (f *fakeSession) Exit(code int) error                     { f.code, f.exited = code, true; return nil }
func (f *fakeSession) User() string                            { return "guest" }
func (f *fakeSession) PublicKey() ssh.PublicKey                { return nil }
func (f *fakeSession) Context() ssh.Context                    { return fakeContext{} }
func (f *fakeSession) RemoteAddr() net.Addr {
	return &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 4242}
}

// TestLongCommandRefusedUnparsed: a 250 KB command line is logged cut short and refused with one
// line and exit status 2, and nothing splits it into words on the way; a command of ordinary
// length goes on.
func TestLongCommandRefusedUnparsed(t *testing.T) {
	var logged bytes.Buffer
	s := &Server{log: log.New(&logged)}
	reached := false
	h := s.logging(commandLength(func(ssh.Session) { reached = true }))

	long := &fakeSession{raw: "new " + strings.Repeat("x ", 125_000)}
	h(long)
	if reached {
		t.Error("a 250 KB command reached the handler")
	}
	if long.parsed {
		t.Error("a 250 KB command was split into words")
	}
	if !long.exited || long.code != 2 {
		t.Errorf("exit status %d (exited %v), want 2", long.code, long.exited)
	}
	if msg := long.stderr.String(); !strings.HasPrefix(msg, "arcade: the command is too long") || strings.Count(msg, "\n") != 1 {
		t.Errorf("stderr %q, want one line saying the command is too long", msg)
	}
	if n := logged.Len(); n > 1000 {
		t.Errorf("the log holds %d bytes for one refused session, want the command cut short", n)
	}

	reached = false
	short := &fakeSession{raw: "new towers size=9"}
	h(short)
	if !reached || short.exited {
		t.Errorf("a short command: reached %v, exited %v; want it handled", reached, short.exited)
	}
	if short.parsed {
		t.Error("the middleware split a command into words: only route may")
	}
}

// TestClientGone: a program ended because its client has gone is not logged as an error; any
// other cause is.
func TestClientGone(t *testing.T) {
	write := &net.OpError{Op: "write", Net: "tcp", Err: os.NewSyscallError("write", syscall.EPIPE)}
	for _, c := range []struct {
		err  error
		gone bool
	}{
		{tea.ErrProgramKilled, true},
		{fmt.Errorf("%w: %w", tea.ErrProgramKilled, write), true},
		{fmt.Errorf("%w: %w", tea.ErrProgramKilled, io.EOF), true},
		{fmt.Errorf("%w: %w", tea.ErrProgramKilled, tea.ErrProgramPanic), false},
		{errors.New("something else"), false},
	} {
		if got := clientGone(c.err); got != c.gone {
			t.Errorf("clientGone(%v) = %v, want %v", c.err, got, c.gone)
		}
	}
}
