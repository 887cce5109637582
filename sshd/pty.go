package sshd

import (
	"bytes"
	"io"

	"charm.land/ssh"
)

// A session's PTY is emulated, as charm.land/ssh's EmulatePty does (no PTY is allocated; the
// program reads and writes the channel), but without its writer: charm.land/ssh's emulated PTY
// copies every write twice with bytes.ReplaceAll (turning "\n" into "\r\n"), whatever it holds,
// and a frame (package teaframe) holds no "\n". Here the PTY the client asked for is kept per
// session (ptyRequested, ptyOf) and the session's writes are turned into "\r\n" by stallSession,
// only when they hold a "\n".

// ptyRequested is the server's PtyHandler: it keeps the PTY the client asked for sess, until the
// session's requests end. It allocates none and leaves charm.land/ssh's emulation off, so that
// the session's Write and Stderr write to the channel as they are (see stallSession).
func (s *Server) ptyRequested(_ ssh.Context, sess ssh.Session, pty ssh.Pty) (func() error, error) {
	s.ptys.Store(sess, pty)
	return func() error { s.ptys.Delete(sess); return nil }, nil
}

// ptyOf returns the PTY the client asked for sess, charm.land/ssh's own session (not a wrapper of
// it), and whether it asked for one.
func (s *Server) ptyOf(sess ssh.Session) (ssh.Pty, bool) {
	pty, ok := s.ptys.Load(sess)
	if !ok {
		return ssh.Pty{}, false
	}
	return pty.(ssh.Pty), true
}

// ptyWrite writes p to w as a terminal expects it, each "\n" as "\r\n"; p without a "\n" (a
// frame) is written as it is, not copied.
func ptyWrite(w io.Writer, p []byte) (int, error) {
	if bytes.IndexByte(p, '\n') < 0 {
		return w.Write(p)
	}
	return ssh.NewPtyWriter(w).Write(p)
}
