// Package client is the load tool's SSH client: a connection with a PTY of 80 x 24 whose output
// feeds a screen.Screen (and, with --validate, a full emulator to compare it with), and waits
// for texts on that screen answered at the moment the bytes that complete them arrive.
package client

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/hinshun/vt10x"
	"golang.org/x/crypto/ssh"

	"github.com/arcade/arcade/tools/arcade-load/internal/screen"
)

// Screen size of every client: the arcade's least.
const Cols, Rows = 80, 24

// ErrClosed is returned by waits on a client whose connection has ended.
var ErrClosed = errors.New("connection closed")

// Client is one SSH connection with a PTY whose output feeds a screen. Waits are answered by the
// goroutine that reads the output, at the moment the bytes that complete the wait arrive.
type Client struct {
	Name  string   // the name the server shows: loadN, ~loadN for a guest
	Key   int      // the client's number: its SSH user name and, unless a guest, its key
	Guest bool     // connected without a key: the server calls it ~name, and cannot seat it again
	tcp   net.Conn // the connection under conn: closing it drops the client without a word
	conn  *ssh.Client
	sess  *ssh.Session
	stdin io.Writer

	mu       sync.Mutex
	scr      *screen.Screen
	vt       *vtFeeder // only with --validate
	waiter   *Waiter
	closed   bool
	mismatch string        // first difference between scr and vt, with --validate
	resume   chan struct{} // while not nil, the client does not read its output (pause)

	// Bytes received, split by what the client was doing: moving (its own keys echoed and its
	// move drawn) or waiting (the opponent's move drawn).
	role  atomic.Int32
	bytes [2]atomic.Uint64
	done  chan struct{} // closed when the output ends
}

// Roles of a client, for counting bytes.
const (
	RoleWaiting int32 = iota
	RoleMoving
)

// Waiter waits for the screen to show text, or for a predicate to hold.
type Waiter struct {
	target []rune
	pred   func(*screen.Screen) bool
	fresh  bool // only output that arrives after arming counts
	at     time.Time
	ch     chan struct{}
}

// KeyFor returns the deterministic key of client i: the same name gets the same key in every run,
// so a server that keeps its data binds each name once.
func KeyFor(i int) ssh.Signer {
	seed := sha256.Sum256(fmt.Appendf(nil, "arcade-load %d", i))
	s, err := ssh.NewSignerFromKey(ed25519.NewKeyFromSeed(seed[:]))
	if err != nil {
		panic(err)
	}
	return s
}

// DialOpts are how clients connect.
type DialOpts struct {
	Addr     string
	Guest    bool
	Validate bool
	Timeout  time.Duration
}

// Dial connects client i and starts command ("" for the lobby) on a PTY.
func Dial(ctx context.Context, o DialOpts, i int, command string) (*Client, error) {
	name, tcp, conn, err := Connect(ctx, o, i)
	if err != nil {
		return nil, err
	}
	c := &Client{Name: name, Key: i, Guest: o.Guest, tcp: tcp, conn: conn, scr: screen.New(Cols, Rows), done: make(chan struct{})}
	if o.Guest {
		c.Name = "~" + name // as the server shows a guest
	}
	if o.Validate {
		c.vt = newVTFeeder(Cols, Rows)
	}
	if err := c.start(command); err != nil {
		conn.Close()
		return nil, err
	}
	return c, nil
}

// Connect opens an SSH connection as client i: user loadI, with key i or as a guest. It returns
// the user name, the TCP connection and the SSH client on it.
func Connect(ctx context.Context, o DialOpts, i int) (string, net.Conn, *ssh.Client, error) {
	name := fmt.Sprintf("load%d", i)
	auth := []ssh.AuthMethod{ssh.PublicKeys(KeyFor(i))}
	if o.Guest {
		auth = []ssh.AuthMethod{ssh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
			return nil, nil
		})}
	}
	d := net.Dialer{Timeout: o.Timeout}
	tcp, err := d.DialContext(ctx, "tcp", o.Addr)
	if err != nil {
		return "", nil, nil, fmt.Errorf("dial: %w", err)
	}
	_ = tcp.SetDeadline(time.Now().Add(o.Timeout))
	cc, chans, reqs, err := ssh.NewClientConn(tcp, o.Addr, &ssh.ClientConfig{
		User: name, Auth: auth, HostKeyCallback: ssh.InsecureIgnoreHostKey(), Timeout: o.Timeout,
	})
	if err != nil {
		tcp.Close()
		return "", nil, nil, fmt.Errorf("handshake: %w", err)
	}
	_ = tcp.SetDeadline(time.Time{})
	return name, tcp, ssh.NewClient(cc, chans, reqs), nil
}

func (c *Client) start(command string) error {
	sess, err := c.conn.NewSession()
	if err != nil {
		return fmt.Errorf("session: %w", err)
	}
	c.sess = sess
	if err := sess.RequestPty("xterm-256color", Rows, Cols, ssh.TerminalModes{}); err != nil {
		return fmt.Errorf("pty: %w", err)
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		return err
	}
	if c.stdin, err = sess.StdinPipe(); err != nil {
		return err
	}
	go c.read(out)
	if command == "" {
		err = sess.Shell()
	} else {
		err = sess.Start(command)
	}
	if err != nil {
		return fmt.Errorf("start: %w", err)
	}
	return nil
}

// read feeds the screen until the session ends, answering waits as their text arrives.
func (c *Client) read(out io.Reader) {
	defer close(c.done)
	buf := make([]byte, 16*1024)
	for {
		c.mu.Lock()
		resume := c.resume
		c.mu.Unlock()
		if resume != nil {
			<-resume
		}
		n, err := out.Read(buf)
		if n > 0 {
			now := time.Now()
			c.bytes[c.role.Load()].Add(uint64(n))
			c.mu.Lock()
			_, _ = c.scr.Write(buf[:n])
			if c.vt != nil {
				_, _ = c.vt.Write(buf[:n])
				if c.mismatch == "" {
					if a, b := c.scr.String(), c.vt.String(); a != b {
						c.mismatch = fmt.Sprintf("after %q:\n-- screen --\n%s-- vt10x --\n%s", buf[:n], a, b)
					}
				}
			}
			if w := c.waiter; w != nil && w.met(c.scr, true) {
				w.at = now
				close(w.ch)
				c.waiter = nil
			}
			c.scr.ClearDirty()
			c.mu.Unlock()
		}
		if err != nil {
			c.mu.Lock()
			c.closed = true
			if w := c.waiter; w != nil {
				close(w.ch)
				c.waiter = nil
			}
			c.mu.Unlock()
			return
		}
	}
}

func (w *Waiter) met(s *screen.Screen, onlyDirty bool) bool {
	if w.pred != nil {
		return w.pred(s)
	}
	if onlyDirty {
		return s.DirtyContains(w.target)
	}
	return s.Contains(w.target)
}

// vtFeeder feeds a vt10x emulator whole runes only: it decodes each write on its own, so a rune
// split across two reads would come out wrong.
type vtFeeder struct {
	vt    vt10x.Terminal
	carry []byte
}

func newVTFeeder(w, h int) *vtFeeder {
	return &vtFeeder{vt: vt10x.New(vt10x.WithSize(w, h))}
}

func (f *vtFeeder) Write(p []byte) (int, error) {
	b := append(f.carry, p...)
	// Keep back an incomplete rune at the end.
	cut := len(b)
	for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
		if b[i]&0xC0 != 0x80 { // the start of the last rune
			if b[i] >= 0x80 && !utf8.FullRune(b[i:]) {
				cut = i
			}
			break
		}
	}
	f.carry = append(f.carry[:0:0], b[cut:]...)
	_, _ = f.vt.Write(b[:cut])
	return len(p), nil
}

// String is the emulator's screen in the form screen.String gives.
func (f *vtFeeder) String() string { return vtString(f.vt) }

// vtString is the emulator's screen in the form screen.String gives.
func vtString(vt vt10x.Terminal) string {
	lines := strings.Split(strings.TrimSuffix(vt.String(), "\n"), "\n")
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.TrimRight(l, " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// Expect arms a wait for the screen to show text; Wait collects it. Arming before the keys that
// cause the change are sent means the change cannot be missed.
func (c *Client) Expect(text string) *Waiter {
	return c.arm(&Waiter{target: []rune(text), ch: make(chan struct{})})
}

// ExpectNew arms a wait for output that arrives from now on to show text on a changed row.
func (c *Client) ExpectNew(text string) *Waiter {
	return c.arm(&Waiter{target: []rune(text), fresh: true, ch: make(chan struct{})})
}

// ExpectFunc arms a wait for pred to hold.
func (c *Client) ExpectFunc(pred func(*screen.Screen) bool) *Waiter {
	return c.arm(&Waiter{pred: pred, ch: make(chan struct{})})
}

func (c *Client) arm(w *Waiter) *Waiter {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.closed:
		close(w.ch)
	case !w.fresh && w.met(c.scr, false):
		w.at = time.Now()
		close(w.ch)
	default:
		c.waiter = w
	}
	return w
}

// Wait returns when w's text is on the screen: the time it arrived.
func (c *Client) Wait(ctx context.Context, w *Waiter, timeout time.Duration, what string) (time.Time, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-w.ch:
		if w.at.IsZero() {
			return time.Time{}, fmt.Errorf("%s: %w", what, ErrClosed)
		}
		return w.at, nil
	case <-t.C:
	case <-ctx.Done():
	}
	c.mu.Lock()
	if c.waiter == w {
		c.waiter = nil
	}
	shown := c.scr.String()
	c.mu.Unlock()
	if ctx.Err() != nil {
		return time.Time{}, ctx.Err()
	}
	return time.Time{}, fmt.Errorf("%s: not seen within %v; screen:\n%s", what, timeout, shown)
}

// WaitText waits up to timeout for the screen to show text.
func (c *Client) WaitText(ctx context.Context, text string, timeout time.Duration) error {
	_, err := c.Wait(ctx, c.Expect(text), timeout, fmt.Sprintf("%s waiting for %q", c.Name, text))
	return err
}

// Send types keys.
func (c *Client) Send(keys string) error {
	if _, err := io.WriteString(c.stdin, keys); err != nil {
		return fmt.Errorf("%s: send: %w", c.Name, err)
	}
	return nil
}

// Text returns the screen as text.
func (c *Client) Text() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.scr.String()
}

// FirstMismatch returns the first difference seen between the screen and the emulator.
func (c *Client) FirstMismatch() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.mismatch
}

// Alive reports whether the session is still open.
func (c *Client) Alive() bool {
	select {
	case <-c.done:
		return false
	default:
		return true
	}
}

// Close ends the session and the connection, as a client that quits does.
func (c *Client) Close() {
	if c.sess != nil {
		_ = c.sess.Close()
	}
	_ = c.conn.Close()
	c.Unpause()
}

// Drop closes the TCP connection under the SSH client: the server gets neither the session's
// Close nor the connection's, only the end of the stream.
func (c *Client) Drop() {
	_ = c.tcp.Close()
	c.Unpause()
}

// Pause stops reading the session's output until unpause: what the server sends waits in the
// SSH library's buffer, and once the channel's window is used up the server's writes wait.
func (c *Client) Pause() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.resume == nil {
		c.resume = make(chan struct{})
	}
}

// Unpause reads the output again.
func (c *Client) Unpause() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.resume != nil {
		close(c.resume)
		c.resume = nil
	}
}

// Resize reports a new window size (columns w, rows h) to the server. The client's own screen
// stays 80 x 24: after other sizes, resize to cols x rows before reading the screen again.
func (c *Client) Resize(w, h uint32) error {
	if err := c.sess.WindowChange(int(h), int(w)); err != nil {
		return fmt.Errorf("%s: window change: %w", c.Name, err)
	}
	return nil
}

// Row returns row y of the client's screen as text.
func (c *Client) Row(y int) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.scr.Row(y)
}

// Validating reports whether the client runs a full emulator beside its screen (--validate).
func (c *Client) Validating() bool { return c.vt != nil }

// Done is closed once the session's output has ended.
func (c *Client) Done() <-chan struct{} { return c.done }

// SetRole counts the bytes received from now on as role's (RoleWaiting or RoleMoving).
func (c *Client) SetRole(role int32) { c.role.Store(role) }

// Bytes returns the bytes received while the client had role.
func (c *Client) Bytes(role int32) uint64 { return c.bytes[role].Load() }

// Keepalive sends an SSH keep-alive request that wants a reply (keepalive@openssh.com, as
// OpenSSH's ServerAliveInterval does) and waits for the reply.
func (c *Client) Keepalive() error {
	_, _, err := c.conn.SendRequest("keepalive@openssh.com", true, nil)
	return err
}

// PlayerID is the ID the server gives the player of key i: its key's SHA256 fingerprint.
func PlayerID(i int) string { return ssh.FingerprintSHA256(KeyFor(i).PublicKey()) }
