package sshd

import (
	"net"
	"sync/atomic"
	"time"

	"charm.land/ssh"
)

// idleConn closes a connection that reads and writes nothing for idle, and one that has not
// opened a session within handshake of connecting.
//
// charm.land/ssh can keep an idle deadline itself (Server.IdleTimeout), but it writes its
// handshake bookkeeping after the handshake while the connection's reader goroutine reads it (a
// data race, seen under -race in v0.4.2). Here the deadlines live in the wrapper, which touches
// only net.Conn.SetDeadline, safe for concurrent use.
type idleConn struct {
	net.Conn
	idle      time.Duration
	handshake time.Time   // the handshake's deadline
	open      atomic.Bool // a session has started: the handshake deadline no longer applies
}

// ctxIdle is the context key of a connection's idleConn.
type idleKey struct{}

var ctxIdle = idleKey{}

// wrapIdle is the server's ConnCallback: every connection gets an idleConn, which the first
// session of the connection marks open (see opened).
func wrapIdle(idle, handshake time.Duration) func(ssh.Context, net.Conn) net.Conn {
	return func(ctx ssh.Context, c net.Conn) net.Conn {
		ic := &idleConn{Conn: c, idle: idle, handshake: time.Now().Add(handshake)}
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

// refresh pushes the deadline forward by idle, but not past the handshake's while no session has
// opened.
func (c *idleConn) refresh() {
	d := time.Now().Add(c.idle)
	if !c.open.Load() && c.handshake.Before(d) {
		d = c.handshake
	}
	_ = c.Conn.SetDeadline(d)
}

func (c *idleConn) Read(b []byte) (int, error) {
	c.refresh()
	return c.Conn.Read(b)
}

func (c *idleConn) Write(b []byte) (int, error) {
	c.refresh()
	return c.Conn.Write(b)
}

// SetDeadline ignores the library's own deadlines (it sets none but the handshake's, which
// idleConn keeps): the idle and handshake deadlines above are the connection's.
func (c *idleConn) SetDeadline(time.Time) error { return nil }
