package sshd

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strings"
	"testing"

	"charm.land/log/v2"
	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// TestStartupsCaps: the starting connections of one source stop at the per-source cap while
// another source's go on, all of them stop at the total cap, and a release makes room again.
func TestStartupsCaps(t *testing.T) {
	st := newStartups(4, 2, log.New(&bytes.Buffer{}))
	a := netip.MustParsePrefix("192.0.2.1/32")
	b := netip.MustParsePrefix("192.0.2.2/32")
	c := netip.MustParsePrefix("2001:db8::/64")
	steps := []struct {
		src  netip.Prefix
		want string
	}{
		{a, ""}, {a, ""}, {a, refusedSource}, // a's two, then a is refused
		{b, ""},            // b is counted apart from a
		{c, ""},            // the fourth: the total is reached
		{b, refusedTotal},  // b is under its own cap, but the total is reached
		{a, refusedSource}, // the source's cap is told first
		{netip.Prefix{}, refusedTotal},
	}
	for i, s := range steps {
		if got := st.take(s.src); got != s.want {
			t.Fatalf("step %d: take(%v) = %q, want %q", i, s.src, got, s.want)
		}
	}
	st.release(a)
	if got := st.take(b); got != refusedTotal {
		t.Fatalf("after a release, b, which has one starting: %q, want %q (the place is kept)", got, refusedTotal)
	}
	d := netip.MustParsePrefix("192.0.2.4/32")
	if got := st.take(d); got != "" {
		t.Fatalf("after a release, d, which has none starting: %q, want counted", got)
	}
	if got := st.take(a); got != refusedTotal {
		t.Fatalf("a at the total again: %q, want %q", got, refusedTotal)
	}
	for _, src := range []netip.Prefix{a, b, d, c} {
		st.release(src)
	}
	if st.n != 0 || len(st.bySource) != 0 {
		t.Errorf("after every release: %d counted, %v by source; want none", st.n, st.bySource)
	}
}

// TestStartupsKeepPlacesForNewSources: sources that flood, each up to its own cap, fill three
// quarters of the total at most; the last quarter is for sources with nothing starting, so
// everyone else still gets in.
func TestStartupsKeepPlacesForNewSources(t *testing.T) {
	st := newStartups(12, 3, log.New(&bytes.Buffer{}))
	// Four sources flood, three connections each: with nothing kept they would hold all 12.
	refused := 0
	for i := range 4 {
		src := netip.MustParsePrefix(fmt.Sprintf("198.51.100.%d/32", i+1))
		for range 3 {
			switch st.take(src) {
			case refusedTotal:
				refused++
			case "":
			default:
				t.Fatalf("flooder %v refused by its own cap before it reached it", src)
			}
		}
	}
	if st.n != 10 || refused != 2 {
		t.Fatalf("flooders hold %d places with %d refused; want 10 (9, then the fourth's first) and 2", st.n, refused)
	}
	for i := range 2 {
		src := netip.MustParsePrefix(fmt.Sprintf("203.0.113.%d/32", i+1))
		if got := st.take(src); got != "" {
			t.Fatalf("source %v with nothing starting, while flooders hold their share: %q, want counted", src, got)
		}
	}
	if got := st.take(netip.MustParsePrefix("203.0.113.9/32")); got != refusedTotal {
		t.Fatalf("past the total: %q, want %q", got, refusedTotal)
	}
}

// TestSourceOf: IPv4 addresses count one by one (an IPv4-mapped IPv6 address as its IPv4 one),
// IPv6 addresses by their /64, and the port never matters.
func TestSourceOf(t *testing.T) {
	tcp := func(s string) net.Addr { return net.TCPAddrFromAddrPort(netip.MustParseAddrPort(s)) }
	same := [][2]net.Addr{
		{tcp("192.0.2.1:1000"), tcp("192.0.2.1:2000")},
		{tcp("192.0.2.1:1000"), tcp("[::ffff:192.0.2.1]:1000")},
		{tcp("[2001:db8:1:2::1]:22"), tcp("[2001:db8:1:2:ffff:ffff:ffff:ffff]:23")},
	}
	for _, p := range same {
		if a, b := sourceOf(p[0]), sourceOf(p[1]); a != b {
			t.Errorf("%v and %v count as %v and %v, want one source", p[0], p[1], a, b)
		}
	}
	apart := [][2]net.Addr{
		{tcp("192.0.2.1:1000"), tcp("192.0.2.2:1000")},
		{tcp("[2001:db8:1:2::1]:22"), tcp("[2001:db8:1:3::1]:22")},
		{tcp("0.0.0.1:22"), tcp("[::1]:22")},
	}
	for _, p := range apart {
		if a, b := sourceOf(p[0]), sourceOf(p[1]); a == b {
			t.Errorf("%v and %v both count as %v, want two sources", p[0], p[1], a)
		}
	}
}

// mapContext is a connection's context holding values.
type mapContext struct {
	ssh.Context
	values map[any]any
}

func (c *mapContext) SetValue(k, v any) { c.values[k] = v }
func (c *mapContext) Value(k any) any   { return c.values[k] }

// ctxSession is a session on a connection's context.
type ctxSession struct {
	ssh.Session
	ctx ssh.Context
}

func (s ctxSession) Context() ssh.Context { return s.ctx }

// TestStartEndsOnce: a connection counts from admit until its first session opens; its close
// after that, a second session and a second close release nothing more. A connection that closes
// without a session releases its place too.
func TestStartEndsOnce(t *testing.T) {
	st := newStartups(10, 10, log.New(&bytes.Buffer{}))
	admit := st.admit(func(_ ssh.Context, c net.Conn) net.Conn { return c })
	open := func() (net.Conn, ssh.Context) {
		a, b := net.Pipe()
		t.Cleanup(func() { b.Close() })
		ctx := &mapContext{values: map[any]any{}}
		c := admit(ctx, a)
		if c == nil {
			t.Fatal("a connection under the caps was refused")
		}
		return c, ctx
	}
	c1, ctx1 := open()
	c2, _ := open()
	if st.n != 2 {
		t.Fatalf("%d starting after two connections, want 2", st.n)
	}
	reached := 0
	h := started(func(ssh.Session) { reached++ })
	h(ctxSession{ctx: ctx1})
	h(ctxSession{ctx: ctx1})
	if reached != 2 || st.n != 1 {
		t.Fatalf("after c1's sessions: handler reached %d times, %d starting; want 2 and 1", reached, st.n)
	}
	c1.Close()
	c1.Close()
	c2.Close()
	if st.n != 0 || len(st.bySource) != 0 {
		t.Errorf("after every close: %d starting, %v by source; want none", st.n, st.bySource)
	}
}

// TestRefusalIsToldAndClosed: a connection past the cap is refused, not handed on: the client
// reads the refusal line, the version string and an SSH_MSG_DISCONNECT "too many connections"
// with the same line, then the end of the stream; the refusal is logged.
func TestRefusalIsToldAndClosed(t *testing.T) {
	var logged bytes.Buffer
	st := newStartups(10, 1, log.New(&logged))
	handed := 0
	admit := st.admit(func(_ ssh.Context, c net.Conn) net.Conn { handed++; return c })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	results := make(chan net.Conn, 2)
	go func() {
		for range 2 {
			c, err := ln.Accept()
			if err != nil {
				results <- nil
				return
			}
			results <- admit(&mapContext{values: map[any]any{}}, c)
		}
	}()
	first, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if c := <-results; c == nil {
		t.Fatal("the first connection was refused")
	} else {
		defer c.Close()
	}
	second, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	got, err := io.ReadAll(second) // the server closes its side once it has written
	if err != nil {
		t.Fatal(err)
	}
	second.Close()
	if c := <-results; c != nil || handed != 1 {
		t.Fatalf("the second connection was handed on (%d handed)", handed)
	}
	head := refusedSource + "\r\n" + serverVersion + "\r\n"
	if !bytes.HasPrefix(got, []byte(head)) {
		t.Fatalf("the client read %q, want it to start with %q", got, head)
	}
	pkt := got[len(head):]
	if len(pkt) < 5 || len(pkt)%8 != 0 || int(binary.BigEndian.Uint32(pkt))+4 != len(pkt) || pkt[4] < 4 {
		t.Fatalf("not one unencrypted packet padded to 8 bytes: % x", pkt)
	}
	var msg struct {
		Reason   uint32 `sshtype:"1"`
		Message  string
		Language string
	}
	if err := gossh.Unmarshal(pkt[5:len(pkt)-int(pkt[4])], &msg); err != nil {
		t.Fatal(err)
	}
	if msg.Reason != disconnectTooManyConnections || msg.Message != refusedSource {
		t.Errorf("disconnect %d %q, want %d %q", msg.Reason, msg.Message, disconnectTooManyConnections, refusedSource)
	}
	if !strings.Contains(logged.String(), "too many connections starting") {
		t.Errorf("the refusal was not logged: %q", logged.String())
	}
}

// TestRefusalLogIsBounded: a flood of refusals logs one line, and the next line counts the
// refusals it did not log.
func TestRefusalLogIsBounded(t *testing.T) {
	var logged bytes.Buffer
	st := newStartups(10, 1, log.New(&logged))
	addr := &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 4242}
	for range 10_000 {
		st.noteRefusal(addr, refusedSource)
	}
	if n := strings.Count(logged.String(), "\n"); n != 1 {
		t.Fatalf("%d log lines for a flood of refusals, want 1:\n%s", n, logged.String())
	}
	st.logged = st.logged.Add(-refusalLogEvery) // as if the time had passed
	st.noteRefusal(addr, refusedTotal)
	lines := strings.Split(strings.TrimSpace(logged.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[1], "refused=10000") || !strings.Contains(lines[1], "10 in all") {
		t.Errorf("the second line does not count the 9,999 unlogged refusals and this one, at the total cap:\n%s", logged.String())
	}
}
