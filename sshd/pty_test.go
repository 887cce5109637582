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

// BenchmarkFrameWrite is the write of a frame of a move's size (643 bytes of styled cells, no
// "\n") to a session with a PTY: through charm.land/ssh's emulated PTY writer, as before pty.go,
// and through ptyWrite.
func BenchmarkFrameWrite(b *testing.B) {
	cell := []byte("\x1b[5;3H\x1b[1;31m·\x1b[m ")
	frame := bytes.Repeat(cell, 643/len(cell)+1)[:643]
	for _, c := range []struct {
		name  string
		write func(io.Writer, []byte) (int, error)
	}{
		{"charm-ptywriter", func(w io.Writer, p []byte) (int, error) { return ssh.NewPtyWriter(w).Write(p) }},
		{"sshd", ptyWrite},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = c.write(io.Discard, frame)
			}
		})
	}
}
