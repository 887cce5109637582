package sshd

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/log/v2"
	"charm.land/ssh"
)

// A connection is starting from the moment it is accepted until its first session opens (the
// shell or exec request that runs the middleware), or until it closes: the same span as the
// handshake deadline (Config.HandshakeTimeout), which closes it if it is still starting then.
// Authentication is not where it ends: the arcade accepts every key and guests without one, so
// an authenticated connection without a session is no more trusted than one mid-handshake, and
// ending the count there would let one address hold any number of them until the deadline.
//
// startups counts starting connections per source and in total (OpenSSH's MaxStartups and
// PerSourceMaxStartups, without the random early drop): beyond either cap a connection is
// refused as it is accepted, before any key exchange. The last quarter of the total cap is kept
// for sources with no connection starting: a flood from a few addresses, each at its own cap,
// fills three quarters of the places at most, and every other address still gets in. Its methods
// are safe for concurrent use.
type startups struct {
	total, perSource int
	kept             int // the places of the total only a source with none starting may take
	log              *log.Logger
	onRefuse         func(limit string) // told "startups" or "startups_per_addr"; nil: nothing

	mu       sync.Mutex
	n        int                  // starting connections, all sources
	bySource map[netip.Prefix]int // starting connections per source; no zero entries
	refused  int                  // refusals since the last log line
	logged   time.Time            // when the last refusal was logged

	draining atomic.Int32 // refused connections being told why
}

// Refusals are logged at most once per refusalLogEvery, with the count since the line before, so
// that a flood of connections cannot flood the log.
const refusalLogEvery = 10 * time.Second

// refusalDrain bounds the time a refused connection is kept to be told why (see refuse).
const refusalDrain = 2 * time.Second

// The lines a refused client is shown.
const (
	refusedSource = "arcade: too many connections from your address are still connecting; try again in a minute."
	refusedTotal  = "arcade: too many connections are connecting to the arcade right now; try again in a minute."
)

func newStartups(total, perSource int, logger *log.Logger) *startups {
	return &startups{total: total, perSource: perSource, kept: total / 4, log: logger, bySource: map[netip.Prefix]int{}}
}

// sourceOf is the key a remote address is counted under: its IPv4 address, or the /64 its IPv6
// address is in (one host is commonly given a whole /64, and may use any address in it). An
// address that is not TCP/IP counts as one source, the zero prefix.
func sourceOf(a net.Addr) netip.Prefix {
	ta, ok := a.(*net.TCPAddr)
	if !ok {
		return netip.Prefix{}
	}
	ip := ta.AddrPort().Addr().Unmap()
	bits := 32
	if ip.Is6() {
		bits = 64
	}
	p, err := ip.Prefix(bits)
	if err != nil {
		return netip.Prefix{}
	}
	return p
}

// take counts one more starting connection from src, or returns the line that refuses it if
// either cap is reached, or if src has a connection starting already and only the places kept
// for sources with none are left.
func (st *startups) take(src netip.Prefix) (refusal string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	switch {
	case st.bySource[src] >= st.perSource:
		return refusedSource
	case st.n >= st.total, st.bySource[src] > 0 && st.n >= st.total-st.kept:
		return refusedTotal
	}
	st.n++
	st.bySource[src]++
	return ""
}

// release counts one starting connection from src fewer.
func (st *startups) release(src netip.Prefix) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.n--
	if st.bySource[src]--; st.bySource[src] <= 0 {
		delete(st.bySource, src)
	}
}

// admit is the server's ConnCallback before next (wrapIdle): it counts the connection as
// starting, or refuses it (see refuse) and returns nil, on which charm.land/ssh closes it without
// a handshake. The count ends when the connection closes or its first session opens (started).
func (st *startups) admit(next ssh.ConnCallback) ssh.ConnCallback {
	return func(ctx ssh.Context, c net.Conn) net.Conn {
		src := sourceOf(c.RemoteAddr())
		if why := st.take(src); why != "" {
			if st.onRefuse != nil {
				limit := "startups"
				if why == refusedSource {
					limit = "startups_per_addr"
				}
				st.onRefuse(limit)
			}
			st.noteRefusal(c.RemoteAddr(), why)
			st.refuse(c, why)
			return nil
		}
		sc := &startingConn{Conn: c, st: st, src: src}
		sc.counted.Store(true)
		ctx.SetValue(ctxStarting, sc)
		return next(ctx, sc)
	}
}

// noteRefusal logs a refusal, or only counts it when one was logged within refusalLogEvery.
func (st *startups) noteRefusal(addr net.Addr, why string) {
	now := time.Now()
	st.mu.Lock()
	st.refused++
	if !st.logged.IsZero() && now.Sub(st.logged) < refusalLogEvery {
		st.mu.Unlock()
		return
	}
	n := st.refused
	st.refused, st.logged = 0, now
	st.mu.Unlock()
	limit := fmt.Sprintf("%d per address", st.perSource)
	if why == refusedTotal {
		limit = fmt.Sprintf("%d in all", st.total)
	}
	// refused counts this refusal and those since the line before, which were not logged.
	st.log.Warn("refused a connection: too many connections starting", "limit", limit,
		"addr", addr.String(), "refused", n)
}

// refuse tells a refused client why, as SSH allows before any key exchange: a line before the
// version string (which `ssh -v`, PuTTY's event log and a raw TCP client show), the version
// string, and an unencrypted SSH_MSG_DISCONNECT "too many connections" with the same line, which
// OpenSSH's ssh prints ("Received disconnect from ...") and x/crypto's client returns as its
// error. It then closes its side and reads what the client sent until the client closes too,
// for at most refusalDrain: closing with the client's version unread would send a reset, which
// can reach the client before the message and hide it. At most total refusals are told at once;
// beyond that, in a flood, a connection is closed with no word.
func (st *startups) refuse(c net.Conn, why string) {
	if st.draining.Add(1) > int32(st.total) {
		st.draining.Add(-1)
		return
	}
	defer st.draining.Add(-1)
	_ = c.SetDeadline(time.Now().Add(refusalDrain))
	msg := append([]byte(why+"\r\n"+serverVersion+"\r\n"), disconnectPacket(disconnectTooManyConnections, why)...)
	if _, err := c.Write(msg); err != nil {
		return
	}
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(c, 64<<10))
}

// serverVersion is the version string of x/crypto's server, which the handshake sends when
// ServerConfig.ServerVersion is empty, as it is here.
const serverVersion = "SSH-2.0-Go"

// disconnectTooManyConnections is SSH_DISCONNECT_TOO_MANY_CONNECTIONS (RFC 4253, section 11.1).
const disconnectTooManyConnections = 12

// disconnectPacket is an SSH_MSG_DISCONNECT in the binary packet protocol before any key
// exchange (RFC 4253, section 6): no encryption and no MAC, padded to a multiple of 8 bytes with
// at least 4 bytes of padding.
func disconnectPacket(reason uint32, msg string) []byte {
	payload := []byte{1} // SSH_MSG_DISCONNECT
	payload = binary.BigEndian.AppendUint32(payload, reason)
	payload = binary.BigEndian.AppendUint32(payload, uint32(len(msg)))
	payload = append(payload, msg...)
	payload = binary.BigEndian.AppendUint32(payload, 0) // language tag: none
	pad := 8 - (5+len(payload))%8
	if pad < 4 {
		pad += 8
	}
	p := binary.BigEndian.AppendUint32(nil, uint32(1+len(payload)+pad))
	p = append(p, byte(pad))
	p = append(p, payload...)
	return append(p, make([]byte, pad)...)
}

// startingConn is a connection counted as starting until done or Close, whichever is first.
type startingConn struct {
	net.Conn
	st      *startups
	src     netip.Prefix
	counted atomic.Bool
}

// ctxStarting is the context key of a connection's startingConn.
type startingKey struct{}

var ctxStarting = startingKey{}

// done ends the connection's count; later calls do nothing.
func (c *startingConn) done() {
	if c.counted.CompareAndSwap(true, false) {
		c.st.release(c.src)
	}
}

// Close ends the count before closing, so that the place is free once the peer sees the close.
func (c *startingConn) Close() error {
	c.done()
	return c.Conn.Close()
}

// started is a middleware: the first session of a connection ends its start (see startups).
func started(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if sc, ok := sess.Context().Value(ctxStarting).(*startingConn); ok {
			sc.done()
		}
		next(sess)
	}
}
