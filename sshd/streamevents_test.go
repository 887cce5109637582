package sshd

// Tests of third_party/ultraviolet's third patch (see its PATCH.md): TerminalReader.StreamEvents
// reads its input in the calling goroutine and keeps the escape timeout with time.AfterFunc.
// third_party/ultraviolet is a module of its own, which the root's tests do not cover; every SSH
// session's Bubble Tea program runs this code.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
)

// eventStream is one StreamEvents call, running in a goroutine of its own.
type eventStream struct {
	events chan uv.Event // unbuffered, as Bubble Tea's
	result chan error    // what StreamEvents returned
	cancel context.CancelFunc
}

// startStream starts StreamEvents on r, with escTimeout as the escape timeout.
func startStream(t *testing.T, r io.Reader, escTimeout time.Duration) *eventStream {
	t.Helper()
	d := uv.NewTerminalReader(r, "xterm-256color")
	d.EscTimeout = escTimeout
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	s := &eventStream{events: make(chan uv.Event), result: make(chan error, 1), cancel: cancel}
	go func() { s.result <- d.StreamEvents(ctx, s.events) }()
	return s
}

// expect receives len(want) events and checks they are want, in order.
func (s *eventStream) expect(t *testing.T, want ...uv.Event) {
	t.Helper()
	for i, w := range want {
		select {
		case ev := <-s.events:
			if !reflect.DeepEqual(ev, w) {
				t.Fatalf("event %d: %#v, want %#v", i, ev, w)
			}
		case err := <-s.result:
			t.Fatalf("StreamEvents returned %v before event %d, %#v", err, i, w)
		case <-time.After(10 * time.Second):
			t.Fatalf("no event %d (%#v) within 10 s", i, w)
		}
	}
}

// end receives the events sent until StreamEvents returns, which it must within 10 s, and
// returns them with what StreamEvents returned.
func (s *eventStream) end(t *testing.T) ([]uv.Event, error) {
	t.Helper()
	var events []uv.Event
	deadline := time.After(10 * time.Second)
	for {
		select {
		case ev := <-s.events:
			events = append(events, ev)
		case err := <-s.result:
			return events, err
		case <-deadline:
			t.Fatalf("StreamEvents did not return within 10 s; events so far %#v", events)
		}
	}
}

// ends checks that the events sent until StreamEvents returns are want, and that it returns nil.
func (s *eventStream) ends(t *testing.T, want ...uv.Event) {
	t.Helper()
	if events, err := s.end(t); err != nil || !reflect.DeepEqual(events, want) {
		t.Fatalf("at the end: events %#v, StreamEvents returned %v; want %#v and nil", events, err, want)
	}
}

// returned waits (10 s at most) for StreamEvents to return, with no one receiving its events.
func (s *eventStream) returned(t *testing.T) error {
	t.Helper()
	select {
	case err := <-s.result:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("StreamEvents did not return within 10 s")
		return nil
	}
}

// write writes chunks to w, one Write each, in a goroutine of its own (the reader blocks while
// nobody receives its events), then closes w if closeAfter.
func write(t *testing.T, w *io.PipeWriter, closeAfter bool, chunks ...string) {
	t.Helper()
	go func() {
		for _, c := range chunks {
			if _, err := w.Write([]byte(c)); err != nil {
				t.Errorf("writing %q: %v", c, err)
				return
			}
		}
		if closeAfter {
			w.Close()
		}
	}()
}

// chunkReader returns chunks, one a read, then err: reads that come as fast as the reader asks.
type chunkReader struct {
	chunks []string
	off    int // what of chunks[0] was read
	err    error
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.chunks) == 0 {
		return 0, r.err
	}
	n := copy(p, r.chunks[0][r.off:])
	if r.off += n; r.off == len(r.chunks[0]) {
		r.chunks, r.off = r.chunks[1:], 0
	}
	return n, nil
}

// goroutines returns the stacks of all goroutines, one a string.
func goroutines() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Split(string(buf[:n]), "\n\n")
		}
		buf = make([]byte, 2*len(buf))
	}
}

// waitGoroutines polls the goroutines' stacks until ok accepts them, for 10 s at most, and returns
// the stacks it accepted.
func waitGoroutines(t *testing.T, what string, ok func(stacks []string) bool) []string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		stacks := goroutines()
		if ok(stacks) {
			return stacks
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s, %s; goroutines:\n\n%s", what, strings.Join(stacks, "\n\n"))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// count returns how many stacks contain all of frames.
func count(stacks []string, frames ...string) int {
	n := 0
next:
	for _, s := range stacks {
		for _, f := range frames {
			if !strings.Contains(s, f) {
				continue next
			}
		}
		n++
	}
	return n
}

func key(code rune, text string) uv.Event { return uv.KeyPressEvent{Code: code, Text: text} }

var (
	keyA   = key('a', "a")
	keyB   = key('b', "b")
	keyC   = key('c', "c")
	keyEsc = key(uv.KeyEscape, "")
	keyUp  = key(uv.KeyUp, "")
)

// TestStreamEventsKeys: keys typed arrive as key presses, in order, each as soon as it is read
// (the input stays open), and the end of the input returns nil.
func TestStreamEventsKeys(t *testing.T) {
	pr, pw := io.Pipe()
	s := startStream(t, pr, uv.DefaultEscTimeout)
	write(t, pw, false, "abc")
	s.expect(t, keyA, keyB, keyC)
	write(t, pw, false, "\r")
	s.expect(t, key(uv.KeyEnter, ""))
	write(t, pw, false, "\x1b[A")
	s.expect(t, keyUp)
	write(t, pw, true, "b")
	s.ends(t, keyB)
}

// TestStreamEventsEscTimeout: a lone ESC arrives as the escape key once the escape timeout has
// passed with no more input, and not before; the reader goes on afterwards. An ESC whose "[A"
// comes in a second write arrives as the up arrow, not as escape and text.
func TestStreamEventsEscTimeout(t *testing.T) {
	t.Run("lone ESC", func(t *testing.T) {
		const escTimeout = 20 * time.Millisecond
		pr, pw := io.Pipe()
		s := startStream(t, pr, escTimeout)
		start := time.Now()
		write(t, pw, false, "\x1b")
		s.expect(t, keyEsc)
		if waited := time.Since(start); waited < escTimeout {
			t.Errorf("the escape key came after %v, before the escape timeout (%v)", waited, escTimeout)
		}
		write(t, pw, false, "a")
		s.expect(t, keyA)
		write(t, pw, false, "\x1b")
		s.expect(t, keyEsc)
		pw.Close()
		s.ends(t)
	})
	t.Run("ESC then [A", func(t *testing.T) {
		pr, pw := io.Pipe()
		s := startStream(t, pr, time.Hour) // no timeout between the writes, however slow
		write(t, pw, false, "\x1b", "[A")
		s.expect(t, keyUp)
		write(t, pw, false, "\x1b", "[", "A", "c")
		s.expect(t, keyUp, keyC)
		pw.Close()
		s.ends(t)
	})
}

// TestStreamEventsTimeoutDuringSend: an escape timeout that comes due while StreamEvents is
// sending the events of a later read (the up arrow, which nobody receives yet) does not send what
// that read left (an ESC) once the send is done: as upstream, the timeout starts again after the
// read's events are sent, and the "[A" that comes next joins the ESC as the up arrow. Each write
// here must come within 3 s (the escape timeout, long for a busy machine) of the step before it.
func TestStreamEventsTimeoutDuringSend(t *testing.T) {
	pr, pw := io.Pipe()
	s := startStream(t, pr, 3*time.Second)
	write(t, pw, false, "\x1b[", "A\x1b")
	waitGoroutines(t, "the escape timeout has not come due", func(stacks []string) bool {
		return count(stacks, "ultraviolet.(*eventStream).expire") > 0
	})
	s.expect(t, keyUp)
	waitGoroutines(t, "the escape timeout's callback still waits for the read to be done", func(stacks []string) bool {
		return count(stacks, "ultraviolet.(*eventStream).expire", "Mutex).") == 0
	})
	write(t, pw, true, "[A")
	s.expect(t, keyUp)
	s.ends(t)
}

// TestStreamEventsPaste: a bracketed paste split across several writes, its end marker too,
// arrives as one paste, and the keys after it as keys.
func TestStreamEventsPaste(t *testing.T) {
	pr, pw := io.Pipe()
	s := startStream(t, pr, time.Hour)
	write(t, pw, false, "\x1b[200~hel", "lo\x1b", "[A wo", "rld\x1b[2", "01", "~ab")
	s.expect(t, uv.PasteStartEvent{}, uv.PasteEvent{Content: "hello\x1b[A world"}, uv.PasteEndEvent{}, keyA, keyB)
	pw.Close()
	s.ends(t)
}

// TestStreamEventsEnd: at the end of the input StreamEvents sends what it holds as it is
// (an incomplete sequence too) and returns nil, and on a read error it sends it and returns the
// error; a reader canceled by cancelreader (as Bubble Tea does) returns nil.
func TestStreamEventsEnd(t *testing.T) {
	errBoom := errors.New("boom")
	for _, tc := range []struct {
		name   string
		chunks []string
		err    error
		want   []uv.Event
	}{
		{"EOF", []string{"a", "\x1b"}, io.EOF, []uv.Event{keyA, keyEsc}},
		{"EOF in a sequence", []string{"ab\x1b["}, io.EOF, []uv.Event{keyA, keyB, uv.KeyPressEvent{Code: '[', Mod: uv.ModAlt}}},
		{"error", []string{"ab", "\x1b"}, errBoom, []uv.Event{keyA, keyB, keyEsc}},
		{"wrapped EOF", []string{"c"}, fmt.Errorf("reading: %w", io.EOF), []uv.Event{keyC}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startStream(t, &chunkReader{chunks: tc.chunks, err: tc.err}, time.Hour)
			events, err := s.end(t)
			if !reflect.DeepEqual(events, tc.want) {
				t.Errorf("events %#v, want %#v", events, tc.want)
			}
			if tc.err == errBoom {
				if err != errBoom {
					t.Errorf("StreamEvents returned %v, want %v", err, errBoom)
				}
			} else if err != nil {
				t.Errorf("StreamEvents returned %v, want nil", err)
			}
		})
	}
	t.Run("canceled", func(t *testing.T) {
		pr, pw := io.Pipe()
		cr, err := uv.NewCancelReader(pr)
		if err != nil {
			t.Fatal(err)
		}
		s := startStream(t, cr, time.Hour)
		write(t, pw, false, "a\x1b")
		s.expect(t, keyA)
		cr.Cancel()
		pw.Close() // the pipe's read returns, and the cancel reader reports the cancel
		s.ends(t, keyEsc)
	})
}

// TestStreamEventsAfterCancel: once ctx is done, neither StreamEvents, blocked sending a key
// nobody receives, nor the escape timeout's callback, blocked sending the escape key, waits for a
// receiver any longer; StreamEvents returns nil when its read returns, and the callback ends.
func TestStreamEventsAfterCancel(t *testing.T) {
	const expire = "ultraviolet.(*eventStream).expire"
	t.Run("read", func(t *testing.T) {
		pr, pw := io.Pipe()
		s := startStream(t, pr, time.Hour)
		write(t, pw, false, "abc")
		waitGoroutines(t, "StreamEvents is not sending", func(stacks []string) bool {
			return count(stacks, "sshd.startStream", "ultraviolet.(*TerminalReader).sendEvents") == 1
		})
		s.cancel()
		waitGoroutines(t, "StreamEvents is not reading again", func(stacks []string) bool {
			return count(stacks, "sshd.startStream", "ultraviolet.(*TerminalReader).StreamEvents", "io.(*pipe).read") == 1
		})
		pw.Close()
		if err := s.returned(t); err != nil {
			t.Fatalf("StreamEvents returned %v, want nil", err)
		}
	})
	t.Run("escape timeout", func(t *testing.T) {
		pr, pw := io.Pipe()
		s := startStream(t, pr, 20*time.Millisecond)
		write(t, pw, false, "\x1b")
		waitGoroutines(t, "the escape timeout's callback is not sending", func(stacks []string) bool {
			return count(stacks, expire, "ultraviolet.(*TerminalReader).sendEvents") > 0
		})
		s.cancel()
		waitGoroutines(t, "an escape timeout's callback is still running", func(stacks []string) bool {
			return count(stacks, expire) == 0
		})
		pw.Close()
		if err := s.returned(t); err != nil {
			t.Fatalf("StreamEvents returned %v, want nil", err)
		}
	})
}

// TestStreamEventsOneGoroutine: StreamEvents waits for input in its caller's goroutine, with an
// escape timeout pending too; no goroutine of ultraviolet reads for it (upstream's streamData and
// sendBytes).
func TestStreamEventsOneGoroutine(t *testing.T) {
	pr, pw := io.Pipe()
	s := startStream(t, pr, time.Hour)
	write(t, pw, false, "a\x1b")
	s.expect(t, keyA)
	stacks := waitGoroutines(t, "StreamEvents's goroutine does not read the pipe", func(stacks []string) bool {
		return count(stacks, "sshd.startStream", "ultraviolet.(*TerminalReader).StreamEvents", "io.(*pipe).read") == 1
	})
	for _, f := range []string{"ultraviolet.(*TerminalReader).streamData", "ultraviolet.(*TerminalReader).sendBytes"} {
		if count(stacks, f) > 0 {
			t.Errorf("a goroutine runs %s; goroutines:\n\n%s", f, strings.Join(stacks, "\n\n"))
		}
	}
	pw.Close()
	s.ends(t, keyEsc)
}

// randomInput returns up to 40 bytes made mostly of what escape sequences are made of, with now
// and then a whole sequence (paste brackets among them), split into reads at random points.
func randomInput(r *rand.Rand) (chunks []string) {
	pieces := []string{
		"\x1b", "\x1b", "\x1b", "[", "[", ";", "~", "O", "M", "<", "A", "u", "0", "1", "2", "5", "9",
		"a", "z", " ", "\r", "\t", "\x7f", "\x00", "\x03", "\x1b[200~", "\x1b[201~", "\x1b[A", "\x1b[1;5C",
	}
	var b strings.Builder
	for n := r.IntN(40); b.Len() < n; {
		if r.IntN(8) == 0 {
			b.WriteByte(byte(0x20 + r.IntN(0x5f))) // any printable byte
		} else {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
	}
	for rest := b.String(); rest != ""; {
		n := 1 + r.IntN(len(rest))
		chunks, rest = append(chunks, rest[:n]), rest[n:]
	}
	return chunks
}

// TestStreamEventsAsUpstream: on 300 random inputs, each read in pieces at random points with no
// pause between the reads (the escape timeout never fires), StreamEvents sends the same events,
// split the same way, as upstream's did: a digest of them all must be upstreamDigest. The decoder
// holds back incomplete sequences between reads and how the input is split does change the events
// now and then ("\x1b\x1bO\x00" read at once is escape, "\x1bO" unknown and ctrl+space; read as
// "\x1b\x1bO" and "\x00", alt+shift+o and ctrl+space), so the split input is compared with
// upstream itself, not with the input read at once.
//
// upstreamDigest is what this test prints, with -v, when it runs against the original
// ultraviolet module (whose StreamEvents reads in a goroutine of its own): from the root,
//
//	sed '/^replace github.com\/charmbracelet\/ultraviolet/d' go.mod >/tmp/up.mod
//	cp go.sum /tmp/up.sum
//	go test -mod=mod -modfile=/tmp/up.mod -run TestStreamEventsAsUpstream -v ./sshd
//
// (go.mod's version of ultraviolet is downloaded if the module cache lacks it). Update the digest
// with the copy in third_party/ultraviolet (see its PATCH.md).
func TestStreamEventsAsUpstream(t *testing.T) {
	const upstreamDigest = "94ceab4c2499ea86b2df0a1dcf2494414d5a5f58dc94ea22d7ff0a46f7b4b4ae"
	r := rand.New(rand.NewPCG(3, 4))
	h := sha256.New()
	for i := range 300 {
		chunks := randomInput(r)
		s := startStream(t, &chunkReader{chunks: chunks, err: io.EOF}, time.Hour)
		events, err := s.end(t)
		if err != nil {
			t.Fatalf("case %d, %q: StreamEvents returned %v", i, chunks, err)
		}
		fmt.Fprintf(h, "%q\n%#v\n", chunks, events)
	}
	digest := hex.EncodeToString(h.Sum(nil))
	t.Logf("digest %s", digest)
	if digest != upstreamDigest {
		t.Errorf("the events' digest is %s, upstream's %s (see above the test how to get upstream's)", digest, upstreamDigest)
	}
}
