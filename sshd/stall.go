package sshd

import (
	"io"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/log/v2"
	"charm.land/ssh"
)

// stallGrace is how long a stalled session has to answer the close of its channel before its
// whole connection is closed.
const stallGrace = 5 * time.Second

// stallSession is a session whose output is watched: a write that has not returned within stall
// (the client stopped reading the session: its SSH window is full, or its link is frozen) ends
// the session. A blocked write is what keeps a program, and the seat it holds, from noticing
// anything else, so ending the session is what frees both.
//
// The session's channel is closed first, which a client that still reads its connection
// answers at once (a terminal stopped by flow control on a ControlMaster connection: the other
// sessions on the connection go on). A client that does not answer within stallGrace has its
// connection closed, which ends every write on it.
//
// It is also the session's PTY, emulated (pty.go): Pty and EmulatedPty report the PTY the client
// asked for, and Write and Stderr turn "\n" into "\r\n" when it has one.
type stallSession struct {
	ssh.Session
	stall  time.Duration
	log    *log.Logger
	pty    ssh.Pty // the PTY the client asked for, if hasPty
	hasPty bool

	mu    sync.Mutex   // one write at a time, so the watch times the write in progress
	since atomic.Int64 // when the write in progress began, in Unix nanoseconds; 0 between writes
	timer *time.Timer  // fires stall after the last write began
}

// stallGuard is the middleware that gives each session a stallSession (see there).
func (s *Server) stallGuard(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		ss := &stallSession{Session: sess, stall: s.cfg.StallTimeout, log: s.log}
		ss.pty, ss.hasPty = s.ptyOf(sess)
		ss.timer = time.AfterFunc(time.Hour, ss.stalled)
		ss.timer.Stop()
		defer ss.timer.Stop()
		next(ss)
	}
}

// Pty returns the PTY the client asked for, the session's window changes, and whether it asked
// for a PTY.
func (s *stallSession) Pty() (ssh.Pty, <-chan ssh.Window, bool) {
	_, windows, _ := s.Session.Pty()
	return s.pty, windows, s.hasPty
}

// EmulatedPty reports whether the session has a PTY: every PTY is emulated.
func (s *stallSession) EmulatedPty() bool { return s.hasPty }

// Stderr is the session's stderr, each "\n" written as "\r\n" when it has a PTY.
func (s *stallSession) Stderr() io.ReadWriter {
	if s.hasPty {
		return ssh.NewPtyReadWriter(s.Session.Stderr())
	}
	return s.Session.Stderr()
}

// Write writes p to the session under the watch, each "\n" as "\r\n" when it has a PTY.
func (s *stallSession) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.since.Store(time.Now().UnixNano())
	s.timer.Reset(s.stall)
	var n int
	var err error
	if s.hasPty {
		n, err = ptyWrite(s.Session, p)
	} else {
		n, err = s.Session.Write(p)
	}
	s.since.Store(0)
	s.timer.Stop()
	return n, err
}

// stalled runs when the timer fires: if the write that armed it is still in progress, it ends
// the session, and closes the connection if that does not end the write within stallGrace.
func (s *stallSession) stalled() {
	since := s.since.Load()
	if since == 0 || time.Since(time.Unix(0, since)) < s.stall {
		return // the write returned, or a later one re-armed the timer
	}
	s.log.Warn("output stalled: ending the session", "addr", s.RemoteAddr().String(),
		"after", time.Since(time.Unix(0, since)).Round(time.Millisecond))
	_ = s.Session.Close()
	time.AfterFunc(stallGrace, func() {
		if s.since.Load() != since {
			return
		}
		if ic, ok := s.Context().Value(ctxIdle).(*idleConn); ok {
			s.log.Warn("output stalled: closing the connection", "addr", s.RemoteAddr().String())
			_ = ic.Conn.Close()
		}
	})
}
