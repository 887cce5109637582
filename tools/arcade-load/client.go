package main

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
)

// Screen size of every client: the arcade's least.
const cols, rows = 80, 24

// errClosed is returned by waits on a client whose connection has ended.
var errClosed = errors.New("connection closed")

// client is one SSH connection with a PTY whose output feeds a screen. Waits are answered by the
// goroutine that reads the output, at the moment the bytes that complete the wait arrive.
type client struct {
	name  string
	key   int      // the client's number: its SSH user name and, unless a guest, its key
	guest bool     // connected without a key: the server calls it ~name, and cannot seat it again
	tcp   net.Conn // the connection under conn: closing it drops the client without a word
	conn  *ssh.Client
	sess  *ssh.Session
	stdin io.Writer

	mu       sync.Mutex
	scr      *screen
	vt       *vtFeeder // only with --validate
	waiter   *waiter
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
	roleWaiting = iota
	roleMoving
)

// waiter waits for the screen to show text, or for a predicate to hold.
type waiter struct {
	target []rune
	pred   func(*screen) bool
	fresh  bool // only output that arrives after arming counts
	at     time.Time
	ch     chan struct{}
}

// keyFor returns the deterministic key of client i: the same name gets the same key in every run,
// so a server that keeps its data binds each name once.
func keyFor(i int) ssh.Signer {
	seed := sha256.Sum256(fmt.Appendf(nil, "arcade-load %d", i))
	s, err := ssh.NewSignerFromKey(ed25519.NewKeyFromSeed(seed[:]))
	if err != nil {
		panic(err)
	}
	return s
}

// dialOpts are how clients connect.
type dialOpts struct {
	addr     string
	guest    bool
	validate bool
	timeout  time.Duration
}

// dial connects client i and starts command ("" for the lobby) on a PTY.
func dial(ctx context.Context, o dialOpts, i int, command string) (*client, error) {
	name, tcp, conn, err := connect(ctx, o, i)
	if err != nil {
		return nil, err
	}
	c := &client{name: name, key: i, guest: o.guest, tcp: tcp, conn: conn, scr: newScreen(cols, rows), done: make(chan struct{})}
	if o.guest {
		c.name = "~" + name // as the server shows a guest
	}
	if o.validate {
		c.vt = newVTFeeder(cols, rows)
	}
	if err := c.start(command); err != nil {
		conn.Close()
		return nil, err
	}
	return c, nil
}

// connect opens an SSH connection as client i: user loadI, with key i or as a guest. It returns
// the user name, the TCP connection and the SSH client on it.
func connect(ctx context.Context, o dialOpts, i int) (string, net.Conn, *ssh.Client, error) {
	name := fmt.Sprintf("load%d", i)
	auth := []ssh.AuthMethod{ssh.PublicKeys(keyFor(i))}
	if o.guest {
		auth = []ssh.AuthMethod{ssh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
			return nil, nil
		})}
	}
	d := net.Dialer{Timeout: o.timeout}
	tcp, err := d.DialContext(ctx, "tcp", o.addr)
	if err != nil {
		return "", nil, nil, fmt.Errorf("dial: %w", err)
	}
	_ = tcp.SetDeadline(time.Now().Add(o.timeout))
	cc, chans, reqs, err := ssh.NewClientConn(tcp, o.addr, &ssh.ClientConfig{
		User: name, Auth: auth, HostKeyCallback: ssh.InsecureIgnoreHostKey(), Timeout: o.timeout,
	})
	if err != nil {
		tcp.Close()
		return "", nil, nil, fmt.Errorf("handshake: %w", err)
	}
	_ = tcp.SetDeadline(time.Time{})
	return name, tcp, ssh.NewClient(cc, chans, reqs), nil
}

func (c *client) start(command string) error {
	sess, err := c.conn.NewSession()
	if err != nil {
		return fmt.Errorf("session: %w", err)
	}
	c.sess = sess
	if err := sess.RequestPty("xterm-256color", rows, cols, ssh.TerminalModes{}); err != nil {
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
func (c *client) read(out io.Reader) {
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
			c.scr.clearDirty()
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

func (w *waiter) met(s *screen, onlyDirty bool) bool {
	if w.pred != nil {
		return w.pred(s)
	}
	if onlyDirty {
		return s.dirtyContains(w.target)
	}
	return s.contains(w.target)
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

// expect arms a wait for the screen to show text; wait collects it. Arming before the keys that
// cause the change are sent means the change cannot be missed.
func (c *client) expect(text string) *waiter {
	return c.arm(&waiter{target: []rune(text), ch: make(chan struct{})})
}

// expectNew arms a wait for output that arrives from now on to show text on a changed row.
func (c *client) expectNew(text string) *waiter {
	return c.arm(&waiter{target: []rune(text), fresh: true, ch: make(chan struct{})})
}

// expectFunc arms a wait for pred to hold.
func (c *client) expectFunc(pred func(*screen) bool) *waiter {
	return c.arm(&waiter{pred: pred, ch: make(chan struct{})})
}

func (c *client) arm(w *waiter) *waiter {
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

// wait returns when w's text is on the screen: the time it arrived.
func (c *client) wait(ctx context.Context, w *waiter, timeout time.Duration, what string) (time.Time, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-w.ch:
		if w.at.IsZero() {
			return time.Time{}, fmt.Errorf("%s: %w", what, errClosed)
		}
		return w.at, nil
	case <-t.C:
	case <-ctx.Done():
	}
	c.mu.Lock()
	if c.waiter == w {
		c.waiter = nil
	}
	screen := c.scr.String()
	c.mu.Unlock()
	if ctx.Err() != nil {
		return time.Time{}, ctx.Err()
	}
	return time.Time{}, fmt.Errorf("%s: not seen within %v; screen:\n%s", what, timeout, screen)
}

// waitText waits up to timeout for the screen to show text.
func (c *client) waitText(ctx context.Context, text string, timeout time.Duration) error {
	_, err := c.wait(ctx, c.expect(text), timeout, fmt.Sprintf("%s waiting for %q", c.name, text))
	return err
}

// send types keys.
func (c *client) send(keys string) error {
	if _, err := io.WriteString(c.stdin, keys); err != nil {
		return fmt.Errorf("%s: send: %w", c.name, err)
	}
	return nil
}

// text returns the screen as text.
func (c *client) text() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.scr.String()
}

// firstMismatch returns the first difference seen between the screen and the emulator.
func (c *client) firstMismatch() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.mismatch
}

// alive reports whether the session is still open.
func (c *client) alive() bool {
	select {
	case <-c.done:
		return false
	default:
		return true
	}
}

// close ends the session and the connection, as a client that quits does.
func (c *client) close() {
	if c.sess != nil {
		_ = c.sess.Close()
	}
	_ = c.conn.Close()
	c.unpause()
}

// drop closes the TCP connection under the SSH client: the server gets neither the session's
// close nor the connection's, only the end of the stream.
func (c *client) drop() {
	_ = c.tcp.Close()
	c.unpause()
}

// pause stops reading the session's output until unpause: what the server sends waits in the
// SSH library's buffer, and once the channel's window is used up the server's writes wait.
func (c *client) pause() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.resume == nil {
		c.resume = make(chan struct{})
	}
}

// unpause reads the output again.
func (c *client) unpause() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.resume != nil {
		close(c.resume)
		c.resume = nil
	}
}

// resize reports a new window size (columns w, rows h) to the server. The client's own screen
// stays 80 x 24: after other sizes, resize to cols x rows before reading the screen again.
func (c *client) resize(w, h uint32) error {
	if err := c.sess.WindowChange(int(h), int(w)); err != nil {
		return fmt.Errorf("%s: window change: %w", c.name, err)
	}
	return nil
}
