package main

import (
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// pausableConn is a client's TCP connection whose reading can be stopped, as a frozen link or a
// client that no longer reads its socket. It counts the bytes it has read.
type pausableConn struct {
	net.Conn
	read   atomic.Int64
	mu     sync.Mutex
	paused bool
	resume *sync.Cond
}

func (c *pausableConn) Read(b []byte) (int, error) {
	c.mu.Lock()
	for c.paused {
		c.resume.Wait()
	}
	c.mu.Unlock()
	n, err := c.Conn.Read(b)
	c.read.Add(int64(n))
	return n, err
}

// waitFull waits until the server has stopped sending: the connection has carried more than the
// client's SSH window for the session (2 MiB, never enlarged as the client reads nothing) and
// nothing more for a second.
func (c *pausableConn) waitFull(t *testing.T) {
	t.Helper()
	until := time.Now().Add(90 * time.Second) // redraws are slow on a busy machine
	last, since := c.read.Load(), time.Now()
	for {
		time.Sleep(100 * time.Millisecond)
		switch n := c.read.Load(); {
		case n != last:
			last, since = n, time.Now()
		case n > 2<<20 && time.Since(since) > time.Second:
			return
		case time.Now().After(until):
			t.Fatalf("the server sent %d KB and went on, want it to stop at the client's window", n>>10)
		}
	}
}

// pause stops the client reading its socket; Close ends the pause (and the connection).
func (c *pausableConn) pause() {
	c.mu.Lock()
	c.paused = true
	c.mu.Unlock()
}

func (c *pausableConn) Close() error {
	c.mu.Lock()
	c.paused = false
	c.resume.Broadcast()
	c.mu.Unlock()
	return c.Conn.Close()
}

// stalledPlayer joins room code as bob with key over a connection the test controls, on a PTY
// whose output it never reads: the client's SSH window for the session fills and the server's
// writes to it block (SSH flow control), as with a terminal that stopped reading.
func stalledPlayer(t *testing.T, addr net.Addr, key ssh.Signer, code string) (*ssh.Session, *pausableConn) {
	t.Helper()
	raw, err := net.DialTimeout("tcp", addr.String(), deadline)
	if err != nil {
		t.Fatal(err)
	}
	pc := &pausableConn{Conn: raw}
	pc.resume = sync.NewCond(&pc.mu)
	t.Cleanup(func() { _ = pc.Close() })
	c, chans, reqs, err := ssh.NewClientConn(pc, addr.String(), &ssh.ClientConfig{
		User: "bob", Auth: []ssh.AuthMethod{ssh.PublicKeys(key)},
		HostKeyCallback: ssh.InsecureIgnoreHostKey(), Timeout: deadline,
	})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := ssh.NewClient(c, chans, reqs).NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", 24, 80, ssh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.StdoutPipe(); err != nil { // never read
		t.Fatal(err)
	}
	if err := sess.Start("join " + code); err != nil {
		t.Fatal(err)
	}
	return sess, pc
}

// resizeStorm sends window changes between two widths (each a full redraw) until stop closes or
// the connection fails; the sends block once the server stops reading the connection. The size
// is the one that makes the most output a second (larger windows take longer to draw).
func resizeStorm(sess *ssh.Session, stop <-chan struct{}) {
	const stormW, stormH = 160, 50
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		default:
		}
		w := stormW - uint32(i%2)
		payload := ssh.Marshal(struct{ Cols, Rows, WidthPx, HeightPx uint32 }{w, stormH, 0, 0})
		if _, err := sess.SendRequest("window-change", false, payload); err != nil {
			return
		}
	}
}

// stalled is a room of a server of two places: alice, and bob seated from a client that does not
// read his session's output. The server is a process of its own, whose goroutines its metrics
// count.
type stalled struct {
	addr       net.Addr
	goroutines func() int // the server's, now
	code       string
	alice      *player
	bobKey     ssh.Signer
	bob        *ssh.Session
	bobConn    *pausableConn
	baseline   int // the server's goroutines before bob came
}

var (
	metricsOn      = regexp.MustCompile(`metrics on (http://\S+)`)
	goroutineGauge = regexp.MustCompile(`(?m)^go_goroutines (\d+)$`)
)

func stallRoom(t *testing.T, flags ...string) stalled {
	t.Helper()
	_, addr, logs := startLogged(t, binary(t), t.TempDir(), append([]string{"--max-sessions", "2", "--metrics", "127.0.0.1:0",
		"--bot-delay", "0s", "--conn-rate", "1000", "--conn-burst", "1000"}, flags...)...)
	if addr == nil {
		t.Fatalf("the server did not start:\n%s", logs)
	}
	m := metricsOn.FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("the server did not say where its metrics are:\n%s", logs)
	}
	r := stalled{addr: addr, bobKey: newKey(t), goroutines: func() int {
		t.Helper()
		resp, err := http.Get(m[1])
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		g := goroutineGauge.FindSubmatch(b)
		if err != nil || g == nil {
			t.Fatalf("the server's metrics: %v\n%s", err, b)
		}
		n, _ := strconv.Atoi(string(g[1]))
		return n
	}}
	r.alice = connect(t, r.addr, "alice", newKey(t), "new stonetowers")
	r.code = roomCode(t, r.alice.waitFor("Waiting for players"))
	r.baseline = r.goroutines()
	r.bob, r.bobConn = stalledPlayer(t, r.addr, r.bobKey, r.code)
	r.alice.waitFor("bob", "playing")
	return r
}

// noGhost checks that bob's session has ended everywhere: his seat shows away to alice (its
// countdown started), the server's goroutines of his session and connection are gone, and the
// place he held takes the next session, carol's.
func (r stalled) noGhost(t *testing.T, carol bool) {
	t.Helper()
	// Filling a client's SSH window (2 MiB) with redraws takes a few seconds, and up to a minute
	// on a busy machine.
	r.alice.waitForWithin(90*time.Second, "away")
	_ = r.bobConn.Close()
	until := time.Now().Add(deadline)
	n := r.goroutines()
	for ; n > r.baseline+2; n = r.goroutines() {
		if time.Now().After(until) {
			t.Fatalf("the server has %d goroutines, %d before bob came", n, r.baseline)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("the server has %d goroutines, %d before bob came", n, r.baseline)
	if carol {
		connect(t, r.addr, "carol", newKey(t), "").waitFor("Welcome")
	}
}

// TestStalledClientThatDrops: a player whose terminal stops reading, who sends window changes and
// then drops the connection without closing anything, leaves no ghost: his seat shows away (its
// countdown started) and his place is free for the next session, within seconds.
// Bob then comes back, in the place he held, and takes his seat again.
func TestStalledClientThatDrops(t *testing.T) {
	t.Parallel()
	r := stallRoom(t)
	stop := make(chan struct{})
	stormed := make(chan struct{})
	go func() { defer close(stormed); resizeStorm(r.bob, stop) }()
	r.bobConn.waitFull(t)              // the server's writes to bob wait for a window
	time.Sleep(500 * time.Millisecond) // while more window changes arrive
	_ = r.bobConn.Close()              // drops: no channel close, no disconnect message
	close(stop)
	<-stormed
	r.noGhost(t, false)
	bob := connect(t, r.addr, "bob", r.bobKey, "join "+r.code)
	bob.waitFor("you: bob (Blue)", "playing")
}

// TestFrozenLink: a client that stops reading its socket altogether (a frozen link) while the
// server has output for it is disconnected once its output has not drained for the stall
// timeout, though the connection stays open: the seat shows away and the place is free.
func TestFrozenLink(t *testing.T) {
	t.Parallel()
	r := stallRoom(t, "--stall-timeout", "2s")
	r.bobConn.pause()
	stop := make(chan struct{})
	defer close(stop)
	go resizeStorm(r.bob, stop)
	r.noGhost(t, true)
}

// TestStalledSession: a client that keeps its connection working but stops reading one session's
// output (SSH flow control: a terminal that stopped reading) has that session ended once its
// output has not drained for the stall timeout.
func TestStalledSession(t *testing.T) {
	t.Parallel()
	r := stallRoom(t, "--stall-timeout", "2s")
	stop := make(chan struct{})
	defer close(stop)
	go resizeStorm(r.bob, stop)
	r.noGhost(t, true)
}
