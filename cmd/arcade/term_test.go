package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"io"
	"net"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hinshun/vt10x"
	"golang.org/x/crypto/ssh"
)

// player is a real SSH client with a PTY whose output feeds a terminal emulator, so a test reads
// the screen as a person would see it.
type player struct {
	t     *testing.T
	name  string
	conn  *ssh.Client
	sess  *ssh.Session
	stdin io.WriteCloser
	vt    vt10x.Terminal
	raw   []byte // what the server sent, up to rawLimit bytes
	mu    sync.Mutex
	done  chan struct{}
	// stop ends a player of OpenSSH's client (connectOpenSSH), which has no conn nor sess.
	stop func()
}

// privateKeys remembers each test key's private half, for tests that write key files.
var (
	keysMu      sync.Mutex
	privateKeys = map[ssh.Signer]ed25519.PrivateKey{}
)

func newKey(t *testing.T) ssh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	keysMu.Lock()
	privateKeys[s] = priv
	keysMu.Unlock()
	return s
}

// connect opens an SSH session as user with key (nil: a guest) and runs command ("" for the
// lobby) on an 80 x 24 PTY.
func connect(t *testing.T, addr net.Addr, user string, key ssh.Signer, command string) *player {
	t.Helper()
	return connectSized(t, addr, user, key, command, 80, 24)
}

// connectSized is connect with a PTY of w x h.
func connectSized(t *testing.T, addr net.Addr, user string, key ssh.Signer, command string, w, h int) *player {
	t.Helper()
	auth := []ssh.AuthMethod{ssh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
		return nil, nil
	})}
	if key != nil {
		auth = []ssh.AuthMethod{ssh.PublicKeys(key)}
	}
	conn, err := ssh.Dial("tcp", addr.String(), &ssh.ClientConfig{
		User: user, Auth: auth, HostKeyCallback: ssh.InsecureIgnoreHostKey(), Timeout: deadline,
	})
	if err != nil {
		t.Fatalf("%s: dial: %v", user, err)
	}
	return attachSized(t, conn, user, command, w, h)
}

// attach opens a session with an 80 x 24 PTY on an established connection.
func attach(t *testing.T, conn *ssh.Client, user, command string) *player {
	t.Helper()
	return attachSized(t, conn, user, command, 80, 24)
}

// attachSized is attach with a PTY of w x h.
func attachSized(t *testing.T, conn *ssh.Client, user, command string, w, h int) *player {
	t.Helper()
	sess, err := conn.NewSession()
	if err != nil {
		t.Fatalf("%s: session: %v", user, err)
	}
	p := &player{t: t, name: user, conn: conn, sess: sess, vt: vt10x.New(vt10x.WithSize(w, h)), done: make(chan struct{})}
	if err := sess.RequestPty("xterm-256color", h, w, ssh.TerminalModes{}); err != nil {
		t.Fatalf("%s: pty: %v", user, err)
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.stdin, err = sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	go p.read(out)
	if command == "" {
		err = sess.Shell()
	} else {
		err = sess.Start(command)
	}
	if err != nil {
		t.Fatalf("%s: start: %v", user, err)
	}
	t.Cleanup(p.close)
	return p
}

// read feeds what the server sends, read from out, to the player's terminal until out ends, and
// then closes done.
func (p *player) read(out io.Reader) {
	defer close(p.done)
	buf := make([]byte, 32*1024)
	for {
		n, err := out.Read(buf)
		if n > 0 {
			p.mu.Lock()
			_, _ = p.vt.Write(buf[:n])
			if len(p.raw) < rawLimit {
				p.raw = append(p.raw, buf[:n]...)
			}
			p.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// rawLimit bounds the bytes a test player keeps of what the server sent.
const rawLimit = 4 << 20

// oscs matches the operating system commands (window titles) in a terminal's input.
var oscs = regexp.MustCompile("\x1b\\][^\x07\x1b]*(\x07|\x1b\\\\)")

// bells returns how many times the server rang the terminal's bell (BEL outside a window
// title's sequence, which may end with one), and the window titles it set, in order.
func (p *player) bells() (int, []string) {
	p.mu.Lock()
	raw := string(p.raw)
	p.mu.Unlock()
	var titles []string
	for _, m := range oscs.FindAllString(raw, -1) {
		if t, ok := strings.CutPrefix(m, "\x1b]2;"); ok {
			titles = append(titles, strings.TrimRight(t, "\x07\x1b\\"))
		}
	}
	return strings.Count(oscs.ReplaceAllString(raw, ""), "\a"), titles
}

// resize changes the PTY's size, as a terminal's window does, and the emulated screen's with it.
func (p *player) resize(w, h int) {
	p.t.Helper()
	p.mu.Lock()
	p.vt.Resize(w, h)
	p.mu.Unlock()
	if err := p.sess.WindowChange(h, w); err != nil {
		p.t.Fatalf("%s: window change: %v", p.name, err)
	}
}

func (p *player) close() {
	if p.stop != nil {
		p.stop()
		return
	}
	_ = p.sess.Close()
	_ = p.conn.Close()
}

// screen returns the emulated screen's text.
func (p *player) screen() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.vt.String()
}

// waitFor waits until the screen shows every one of want, and returns the screen; it fails the test
// when the screen has not shown them within the deadline.
func (p *player) waitFor(want ...string) string {
	p.t.Helper()
	return p.waitForWithin(deadline, want...)
}

// waitForWithin is waitFor with a deadline of its own.
func (p *player) waitForWithin(d time.Duration, want ...string) string {
	p.t.Helper()
	deadline := time.Now().Add(d)
	for {
		s := p.screen()
		ok := true
		for _, w := range want {
			if !strings.Contains(s, w) {
				ok = false
			}
		}
		if ok {
			return s
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: screen never showed %q; it shows:\n%s", p.name, want, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// send types keys.
func (p *player) send(keys string) {
	p.t.Helper()
	if _, err := p.stdin.Write([]byte(keys)); err != nil {
		p.t.Fatalf("%s: send: %v", p.name, err)
	}
}
