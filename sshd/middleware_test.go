package sshd

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/log/v2"
	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
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

// keyedSession is a fakeSession of a key.
type keyedSession struct {
	*fakeSession
	key ssh.PublicKey
}

func (k keyedSession) PublicKey() ssh.PublicKey { return k.key }

// TestSessionShares: a key's sessions stop at MaxSessionsPerKey and an address's at
// MaxSessionsPerAddr, each refusal one line naming its limit; another key, or a session ended,
// makes room again.
func TestSessionShares(t *testing.T) {
	var refused []string
	s := &Server{log: log.New(&bytes.Buffer{}), byKey: map[string]int{}, byAddr: map[netip.Prefix]int{},
		cfg: Config{MaxSessionsPerKey: 2, MaxSessionsPerAddr: 3, Refused: func(l string) { refused = append(refused, l) }}}
	s.cfg.defaults()
	newKey := func() ssh.PublicKey {
		pub, _, err := ed25519.GenerateKey(nil)
		if err != nil {
			t.Fatal(err)
		}
		k, err := gossh.NewPublicKey(pub)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	alice, bob := newKey(), newKey()
	hold := make(chan struct{})
	held := make(chan struct{})
	h := s.capacity(func(ssh.Session) { held <- struct{}{}; <-hold })
	open := func(key ssh.PublicKey) *fakeSession {
		f := &fakeSession{}
		var sess ssh.Session = f
		if key != nil {
			sess = keyedSession{f, key}
		}
		done := make(chan struct{})
		go func() { h(sess); close(done) }()
		select {
		case <-held:
		case <-done:
		}
		return f
	}
	open(alice)
	open(alice)
	third := open(alice)
	if msg := third.stderr.String(); !third.exited || third.code != 1 ||
		msg != "arcade: this key already has 2 sessions open (limit --max-sessions-per-key); close one first.\n" {
		t.Fatalf("a third session of one key: exited %v (%d), %q", third.exited, third.code, msg)
	}
	open(bob) // another key from the same address: the address's third
	guest := open(nil)
	if msg := guest.stderr.String(); !guest.exited || !strings.Contains(msg, "your address already has 3 sessions open (limit --max-sessions-per-addr)") {
		t.Fatalf("a fourth session of one address: exited %v, %q", guest.exited, msg)
	}
	if want := []string{"sessions_per_key", "sessions_per_addr"}; !slices.Equal(refused, want) {
		t.Errorf("refusals counted %v, want %v", refused, want)
	}
	close(hold) // every held session ends
	for s.Sessions() != 0 {
		runtime.Gosched()
	}
	if len(s.byKey) != 0 || len(s.byAddr) != 0 {
		t.Errorf("after every session ended: %v by key, %v by address; want none", s.byKey, s.byAddr)
	}
	again := open(alice)
	if again.exited {
		t.Errorf("a session after the others ended was refused: %q", again.stderr.String())
	}
}
