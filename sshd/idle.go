package sshd

import (
	"net"
	"sync/atomic"
	"time"

	"charm.land/ssh"
)

// idleConn closes a connection that reads and writes nothing for idle, one that has not opened a
// session within handshake of connecting, and one whose client has not taken in what the server
// writes for stall (a frozen link, or a client that stopped reading its socket): a write to the
// socket that has not completed by then closes the connection, which ends every session on it.
//
// charm.land/ssh can keep an idle deadline itself (Server.IdleTimeout), but it writes its
// handshake bookkeeping after the handshake while the connection's reader goroutine reads it (a
// data race, seen under -race in v0.4.2). Here the deadlines live in the wrapper, which touches
// only net.Conn.SetDeadline, safe for concurrent use.
type idleConn struct {
	net.Conn
	idle      time.Duration
	stall     time.Duration
	handshake time.Time   // the handshake's deadline
	open      atomic.Bool // a session has started: the handshake deadline no longer applies
}

// ctxIdle is the context key of a connection's idleConn.
type idleKey struct{}

var ctxIdle = idleKey{}

// wrapIdle is the server's ConnCallback: every connection gets an idleConn, which the first
// session of the connection marks open (see opened).
func wrapIdle(idle, handshake, stall time.Duration) func(ssh.Context, net.Conn) net.Conn {
	return func(ctx ssh.Context, c net.Conn) net.Conn {
		ic := &idleConn{Conn: c, idle: idle, stall: stall, handshake: time.Now().Add(handshake)}
		ic.refresh()
		ctx.SetValue(ctxIdle, ic)
		return ic
	}
}

// opened marks the session's connection as past its handshake.
func opened(sess ssh.Session) {
	if ic, ok := sess.Context().Value(ctxIdle).(*idleConn); ok {
		ic.open.Store(true)
	}
}

// refresh pushes the read deadline forward by idle, but not past the handshake's while no
// session has opened, and returns it. Reading and writing both count as activity.
func (c *idleConn) refresh() time.Time {
	d := time.Now().Add(c.idle)
	if !c.open.Load() && c.handshake.Before(d) {
		d = c.handshake
	}
	_ = c.Conn.SetReadDeadline(d)
	return d
}

func (c *idleConn) Read(b []byte) (int, error) {
	c.refresh()
	return c.Conn.Read(b)
}

// Write writes b within stall (or the read deadline, if that comes first); a write that does not
// complete in time closes the connection: its client is not reading.
func (c *idleConn) Write(b []byte) (int, error) {
	d := c.refresh()
	if s := time.Now().Add(c.stall); s.Before(d) {
		d = s
	}
	_ = c.Conn.SetWriteDeadline(d)
	n, err := c.Conn.Write(b)
	if err != nil {
		_ = c.Conn.Close()
	}
	return n, err
}

// SetDeadline ignores the library's own deadlines (it sets none but the handshake's, which
// idleConn keeps): the idle and handshake deadlines above are the connection's.
func (c *idleConn) SetDeadline(time.Time) error { return nil }
