package sshd

import (
	"bytes"
	"fmt"
	"io"
	"testing"
	"time"

	"charm.land/log/v2"
	"charm.land/ssh"
)

// writesSession is a session that keeps every slice written to it, as written.
type writesSession struct {
	fakeSession
	writes [][]byte
}

func (w *writesSession) Write(p []byte) (int, error) {
	w.writes = append(w.writes, p)
	return len(p), nil
}
func (w *writesSession) Pty() (ssh.Pty, <-chan ssh.Window, bool) { return ssh.Pty{}, nil, false }

// TestPtyWrites: a session with a PTY reports the PTY its client asked for; what it writes goes
// to the channel as written when it holds no "\n" (a frame: the same bytes, not a copy), with
// each "\n" as "\r\n" when it does, on stderr too; a session without a PTY writes as written.
func TestPtyWrites(t *testing.T) {
	s := &Server{cfg: Config{StallTimeout: time.Minute}, log: log.New(io.Discard)}
	for _, hasPty := range []bool{true, false} {
		t.Run(fmt.Sprint("pty=", hasPty), func(t *testing.T) {
			raw := &writesSession{}
			var end func() error
			if hasPty {
				var err error
				if end, err = s.ptyRequested(nil, raw, ssh.Pty{Term: "xterm-256color", Window: ssh.Window{Width: 80, Height: 24}}); err != nil {
					t.Fatal(err)
				}
			}
			frame, line := []byte("\x1b[5;3Hmove"), []byte("arcade: goodbye\n")
			s.stallGuard(func(sess ssh.Session) {
				if pty, _, ok := sess.Pty(); ok != hasPty || sess.EmulatedPty() != hasPty || hasPty && (pty.Term != "xterm-256color" || pty.Window.Width != 80) {
					t.Errorf("Pty %+v, %v and EmulatedPty %v, want the PTY asked for: %v", pty, ok, sess.EmulatedPty(), hasPty)
				}
				_, _ = sess.Write(frame)
				_, _ = sess.Write(line)
				_, _ = io.WriteString(sess.Stderr(), "arcade: no\n")
			})(raw)
			if len(raw.writes) != 2 || &raw.writes[0][0] != &frame[0] || len(raw.writes[0]) != len(frame) {
				t.Errorf("the frame was written as %q, want the same bytes, not a copy", raw.writes)
			}
			wantLine, wantErr := "arcade: goodbye\n", "arcade: no\n"
			if hasPty {
				wantLine, wantErr = "arcade: goodbye\r\n", "arcade: no\r\n"
			}
			if len(raw.writes) == 2 && !bytes.Equal(raw.writes[1], []byte(wantLine)) {
				t.Errorf("a line was written as %q, want %q", raw.writes[1], wantLine)
			}
			if got := raw.stderr.String(); got != wantErr {
				t.Errorf("stderr %q, want %q", got, wantErr)
			}
			if hasPty {
				_ = end()
				if _, ok := s.ptyOf(raw); ok {
					t.Error("the PTY is still kept after the session's requests ended")
				}
			}
		})
	}
}
