package uv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/cancelreader"
	"github.com/rivo/uniseg"
)

// ErrReaderNotStarted is returned when the reader has not been started yet.
var ErrReaderNotStarted = fmt.Errorf("reader not started")

// DefaultEscTimeout is the default timeout at which the [TerminalReader] will
// process ESC sequences. It is set to 50 milliseconds.
const DefaultEscTimeout = 50 * time.Millisecond

// TerminalReader represents an input event loop that reads input events from
// a reader and parses them into human-readable events. It supports
// reading escape sequences, mouse events, and bracketed paste mode.
type TerminalReader struct {
	EventDecoder

	// MouseMode determines whether mouse events are enabled or not. This is a
	// platform-specific feature and is only available on Windows. When this is
	// true, the reader will be initialized to read mouse events using the
	// Windows Console API.
	MouseMode *MouseMode

	// EscTimeout is the escape character timeout duration. Most escape
	// sequences start with an escape character [ansi.ESC] and are followed by
	// one or more characters. If the next character is not received within
	// this timeout, the reader will assume that the escape sequence is
	// complete and will process the received characters as a complete escape
	// sequence.
	//
	// By default, this is set to [DefaultEscTimeout] (50 milliseconds).
	EscTimeout time.Duration

	r     io.Reader
	table map[string]Key // table is a lookup table for key sequences.

	term string // term is the terminal name $TERM.

	// paste is the bracketed paste mode buffer.
	// When nil, bracketed paste mode is disabled.
	paste []byte

	lookup bool // lookup indicates whether to use the lookup table for key sequences.

	// vtInput indicates whether we're using Windows Console API VT input mode.
	//nolint:unused,nolintlint
	vtInput bool

	eventScanner *eventScanner

	// We use these buffers to decode UTF-16 sequences and graphemes from the
	// Windows Console API and Win32-Input-Mode events.
	utf16Half   [2]bool    // 0 key up, 1 key down
	utf16Buf    [2][2]rune // 0 key up, 1 key down
	graphemeBuf [2][]rune  // 0 key up, 1 key down
	//nolint:unused,nolintlint
	lastMouseBtns uint32 // the last mouse button state for the previous event
	//nolint:unused,nolintlint
	lastWinsizeX, lastWinsizeY int16 // the last window size for the previous event to prevent multiple size events from firing

	logger Logger // The logger to use for debugging.
}

// NewTerminalReader returns a new input event reader. The reader streams input
// events from the terminal and parses escape sequences into human-readable
// events. It supports reading Terminfo databases.
//
// Use [TerminalReader.UseTerminfo] to use Terminfo defined key sequences.
// Use [TerminalReader.Legacy] to control legacy key encoding behavior.
//
// Example:
//
//	```go
//	var cr cancelreader.CancelReader
//	var evc chan Event
//	sc := NewTerminalReader(cr, os.Getenv("TERM"))
//	go sc.StreamEvents(ctx, evc)
//	```
func NewTerminalReader(r io.Reader, termType string) *TerminalReader {
	d := &TerminalReader{
		EscTimeout: DefaultEscTimeout,
		r:          r,
		term:       termType,
		lookup:     true, // Use lookup table by default.
	}
	d.r = r
	if d.table == nil {
		d.table = buildKeysTable(d.Legacy, d.term, d.UseTerminfo)
	}
	evs := newEventScanner()
	evs.EventDecoder = d.EventDecoder
	evs.table = d.table
	evs.lookup = d.lookup
	evs.setLogger(d.logger)
	d.eventScanner = evs
	return d
}

// readBufSize is the size of the read buffer used to read input events at a time.
const readBufSize = 1024 // patched for arcade (see PATCH.md): 4096 upstream

// sendBytes reads data from the reader and sends it to the provided channel.
// It stops when an error occurs or when the context is closed.
//
// Patched for arcade (see PATCH.md): two buffers, used in turn, instead of a new one for every
// read. readc is unbuffered and its receiver copies what it receives before it receives again, so
// by the time a send completes the buffer sent before it is free. Since the third patch, only
// Windows uses sendBytes (through streamData and streamDataInput).
func (d *TerminalReader) sendBytes(ctx context.Context, readc chan []byte) error {
	var bufs [2][readBufSize]byte
	for i := 0; ; i ^= 1 {
		readBuf := &bufs[i]
		n, err := d.r.Read(readBuf[:])
		if err != nil {
			return err //nolint:wrapcheck
		}

		select {
		case <-ctx.Done():
			return nil
		case readc <- readBuf[:n]:
		}
	}
}

// StreamEvents sends events to the provided channel. It stops when the context
// is closed or when an error occurs.
//
// Patched for arcade (see PATCH.md): the calling goroutine reads d.r itself and the escape
// timeout is a time.AfterFunc timer, so that a reader waiting for input holds one goroutine, not
// two. Upstream read in a second goroutine (streamData) and selected over it, ctx and a timer.
// The buffer and the decoder are shared by the read path and the timer's callback under
// eventStream.mu; the scans of the buffer are the same as upstream's. ctx is checked after every
// read (a blocked read returns when the reader is canceled or closed, which upstream waited for
// too) and in the timer's callback, and no send on eventc outlives ctx.
func (d *TerminalReader) StreamEvents(ctx context.Context, eventc chan<- Event) error {
	s := &eventStream{d: d, ctx: ctx, eventc: eventc}
	next := func() ([]byte, error) {
		n, err := d.r.Read(s.readBuf[:])
		return s.readBuf[:n], err
	}
	if runtime.GOOS == "windows" {
		// Windows' console reader has its own read loop (terminal_reader_windows.go).
		var wait func()
		next, wait = d.streamDataInput(ctx)
		defer wait()
	}
	for {
		if done, err := s.received(next()); done {
			return err
		}
	}
}

// eventStream is the state of one StreamEvents call.
//
// Patched for arcade (see PATCH.md): upstream kept it in StreamEvents's local variables.
type eventStream struct {
	d      *TerminalReader
	ctx    context.Context
	eventc chan<- Event

	mu       sync.Mutex
	buf      bytes.Buffer // the input read but not yet sent as events
	ttimeout time.Time    // when buf expires, if no more input comes
	timer    *time.Timer  // runs expire; nil until buf first keeps bytes
	due      time.Time    // when the timer was last set to run expire; zero if it is not set
	done     bool         // StreamEvents returns, or has returned

	// readBuf is read into by StreamEvents's goroutine alone. It comes last: the collector
	// scans an object only as far as its last pointer.
	readBuf [readBufSize]byte
}

// received handles what one read returned: it sends the events in buf and arms the escape
// timeout for what remains, or, on an error or when ctx is done, sends all of buf as it is and
// reports that StreamEvents returns, and with what.
//
// Patched for arcade (see PATCH.md): upstream's readc and errc cases (and ctx.Done) of the
// select in StreamEvents.
func (s *eventStream) received(data []byte, err error) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx.Err() != nil {
		s.finish()
		return true, nil
	}
	if err != nil {
		s.finish()
		if errors.Is(err, io.EOF) || errors.Is(err, cancelreader.ErrCanceled) {
			return true, nil
		}
		return true, err // return the first error encountered
	}

	d := s.d
	d.logf("input: %q", data)
	s.buf.Write(data)
	s.ttimeout = time.Now().Add(d.EscTimeout)
	n := d.sendEvents(s.ctx, s.eventc, s.buf.Bytes(), false)
	if s.timer != nil {
		s.timer.Stop()
	}

	if n > 0 {
		d.logf("processed %d bytes from buffer", n)
		s.buf.Next(n)
	}

	s.due = time.Time{}
	if s.buf.Len() > 0 {
		d.logf("resetting timeout for remaining buffer after parse")
		s.arm()
	}
	return false, nil
}

// arm sets the timer to run expire after the escape timeout. s.mu must be held.
//
// Patched for arcade (see PATCH.md).
func (s *eventStream) arm() {
	s.due = time.Now().Add(s.d.EscTimeout)
	if s.timer == nil {
		s.timer = time.AfterFunc(s.d.EscTimeout, s.expire)
	} else {
		s.timer.Reset(s.d.EscTimeout)
	}
}

// expire is the escape timeout's callback.
//
// Patched for arcade (see PATCH.md): upstream's timeout case of the select in StreamEvents. A
// call that came due while the read path held mu, which then stopped or reset the timer, finds
// due not set or not yet come and does nothing: upstream drained the timer's channel then.
func (s *eventStream) expire() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done || s.due.IsZero() || time.Now().Before(s.due) {
		return
	}
	if s.ctx.Err() != nil {
		s.finish()
		return
	}

	d := s.d
	d.logf("timeout reached")

	// Timeout reached process the buffer including any incomplete sequences.
	var n int // n is the number of bytes processed
	timedout := time.Now().After(s.ttimeout)
	if s.buf.Len() > 0 && timedout {
		d.logf("timeout expired, processing buffer")
		n = d.sendEvents(s.ctx, s.eventc, s.buf.Bytes(), true)
	}

	if n > 0 {
		s.buf.Next(n)
	}

	s.due = time.Time{}
	if s.buf.Len() > 0 {
		d.logf("resetting timeout for remaining buffer")
		s.arm()
	}
}

// finish sends all of buf as it is and stops the timer, for good. s.mu must be held.
//
// Patched for arcade (see PATCH.md).
func (s *eventStream) finish() {
	s.done = true
	if s.timer != nil {
		s.timer.Stop()
	}
	s.d.sendEvents(s.ctx, s.eventc, s.buf.Bytes(), true)
	s.buf.Reset()
}

// streamDataInput runs streamData in a goroutine of its own, as upstream StreamEvents did on
// every platform. next returns what streamData sends, or the error it ends with (io.EOF if it
// ends for ctx); wait waits for the goroutine to end, as upstream did before returning.
//
// Patched for arcade (see PATCH.md): used on Windows only, where streamData reads the console's
// input records; the caller copies what next returns before it calls next again, which
// sendBytes's two buffers need.
func (d *TerminalReader) streamDataInput(ctx context.Context) (next func() ([]byte, error), wait func()) {
	readc := make(chan []byte)
	errc := make(chan error, 1)
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		err := d.streamData(ctx, readc)
		if err == nil {
			err = io.EOF
		}
		errc <- err
	}()
	next = func() ([]byte, error) {
		select {
		case read := <-readc:
			return read, nil
		case err := <-errc:
			return nil, err
		}
	}
	return next, func() { <-ended }
}

// SetLogger sets the logger to use for debugging. If nil, no logging will be
// performed.
func (d *TerminalReader) SetLogger(logger Logger) {
	d.logger = logger
}

// sendEvents sends the events in buf and returns how many bytes of buf they took.
//
// Patched for arcade (see PATCH.md): a send gives up when ctx is done, so that neither the reader
// nor the escape timeout's callback waits forever for a program that has ended.
func (d *TerminalReader) sendEvents(ctx context.Context, eventc chan<- Event, buf []byte, expired bool) int {
	n, events := d.eventScanner.scanEvents(buf, expired)
	for _, event := range events {
		select {
		case eventc <- event:
		case <-ctx.Done():
			return n
		}
	}
	return n
}

// eventScanner scans the buffer for events and sends them to the event channel.
type eventScanner struct {
	EventDecoder

	utf16Half   [2]bool    // 0 key up, 1 key down
	utf16Buf    [2][2]rune // 0 key up, 1 key down
	graphemeBuf [2][]rune  // 0 key up, 1 key down
	paste       []byte
	table       map[string]Key
	lookup      bool
	logger      Logger
}

// newEventScanner creates a new event scanner.
func newEventScanner() *eventScanner {
	return &eventScanner{}
}

// setLogger sets the logger to use for debugging. If nil, no logging will be
// performed.
func (d *eventScanner) setLogger(logger Logger) {
	d.logger = logger
}

func (d *eventScanner) logf(format string, v ...interface{}) {
	logf(d.logger, format, v...)
}

func (d *eventScanner) scanEvents(buf []byte, expired bool) (total int, events []Event) {
	if len(buf) == 0 {
		return 0, nil
	}

	var dn int
	d.logf("processing buf %d %q", len(buf), buf)
	dn, buf = d.deserializeWin32Input(buf)
	total += dn

	// Lookup table first
	if d.lookup && len(buf) > 2 && buf[0] == ansi.ESC {
		if k, ok := d.table[string(buf)]; ok {
			return len(buf), []Event{KeyPressEvent(k)}
		}
	}

	// total is the total number of bytes processed
	for len(buf) > 0 {
		esc := buf[0] == ansi.ESC
		n, event := d.Decode(buf)

		// Handle bracketed-paste
		if d.paste != nil { //nolint:nestif
			if _, ok := event.(PasteEndEvent); !ok {
				switch event := event.(type) {
				case KeyPressEvent:
					if len(event.Text) > 0 {
						d.paste = append(d.paste, event.Text...)
					} else {
						seq := string(buf[:n])
						isWin32 := strings.HasPrefix(seq, "\x1b[") && strings.HasSuffix(seq, "_")
						switch {
						case isWin32 && event.Code == KeyEnter && event.Code == event.BaseCode:
							// This handles special cases where
							// win32-input-mode encodes newlines and other keys
							// as keypress events. We need to encode them as
							// their respective values.
							d.paste = append(d.paste, '\n')
						case isWin32 && unicode.IsControl(event.Code) && event.Code == event.BaseCode:
							// This handles other cases such as tabs, escapes, etc.
							d.paste = append(d.paste, string(event.Code)...)
						case !isWin32:
							// We ignore all other non-text win32-input-mode events.
							if esc && n <= 2 && !expired {
								// If the event is an escape sequence and we
								// are not expired, we need to wait for more
								// input.
								return total, events
							}
							d.paste = append(d.paste, seq...)
						}
					}
				case UnknownEvent:
					if !expired {
						// If the event is unknown and we are not expired, we
						// return need to try to decode the buffer again.
						return total, events
					}
				default:
					// Everything else is ignored...
				}
				buf = buf[n:]
				total += n
				continue
			}
		}

		var isUnknown bool
		switch event.(type) {
		case ignoredEvent:
			// ignore this event
			event = nil
		case UnknownEvent:
			isUnknown = true
			// Try to look up the event in the table.
			if !expired {
				return total, events
			}

			if k, ok := d.table[string(buf[:n])]; ok {
				events = append(events, KeyPressEvent(k))
				return total + n, events
			}

			events = append(events, event)
		case PasteStartEvent:
			d.paste = []byte{} // reset the paste buffer
		case PasteEndEvent:
			var paste []rune
			for len(d.paste) > 0 {
				r, w := utf8.DecodeRune(d.paste)
				if r != utf8.RuneError {
					paste = append(paste, r)
				}
				d.paste = d.paste[w:]
			}
			d.paste = nil // reset the paste buffer
			events = append(events, PasteEvent{string(paste)})
		}

		if !isUnknown && event != nil {
			if esc && n <= 2 && !expired {
				// Wait for more input
				return total, events
			}

			if m, ok := event.(MultiEvent); ok {
				// If the event is a MultiEvent, append all events to the queue.
				events = append(events, m...)
			} else {
				// Otherwise, just append the event to the queue.
				events = append(events, event)
			}
		}

		buf = buf[n:]
		total += n
	}

	return total, events
}

func (d *eventScanner) encodeGraphemeBufs() []byte {
	var b []byte
	for kd := range d.graphemeBuf {
		if len(d.graphemeBuf[kd]) > 0 {
			switch kd {
			case 1:
				b = append(b, string(d.graphemeBuf[kd])...)
			case 0:
				// Encode the release grapheme as Kitty Keyboard to get the release event.
				grs := uniseg.NewGraphemes(string(d.graphemeBuf[kd]))
				for grs.Next() {
					var codepoints string
					gr := grs.Str()
					for i, r := range gr {
						if r == 0 {
							continue
						}
						if i > 0 {
							codepoints += ":"
						}
						codepoints += strconv.FormatInt(int64(r), 10)
					}
					// This is dark :)
					// During serializing/deserializing of win32 input events, the
					// API will split a grapheme into runes and send them as a
					// keydown/keyup sequences. We collect the runes, decoded them
					// from UTF-16 just fine. However, [EventDecoder.Decode] will
					// always decode graphemes as [KeyPressEvent]s. Thus, to
					// workaround that and the existing API, while we are
					// intercepting win32 input events, we encode the grapheme
					// release events as Kitty Keyboard sequences so that
					// [EventDecoder.Decode] can properly decode them as
					// [KeyReleaseEvent]s.
					seq := fmt.Sprintf("\x1b[%d;1:3;%su", d.graphemeBuf[kd][0], codepoints)
					b = append(b, seq...)
				}
			}
			d.graphemeBuf[kd] = d.graphemeBuf[kd][:0] // reset the buffer
		}
	}
	return b
}

func (d *eventScanner) storeGraphemeRune(kd int, r rune) {
	if d.utf16Half[kd] {
		// We have a half pair that needs to be decoded.
		d.utf16Half[kd] = false
		d.utf16Buf[kd][1] = r
		r := utf16.DecodeRune(d.utf16Buf[kd][0], d.utf16Buf[kd][1])
		d.graphemeBuf[kd] = append(d.graphemeBuf[kd], r)
	} else if utf16.IsSurrogate(r) {
		// This is the first half of a UTF-16 surrogate pair.
		d.utf16Half[kd] = true
		d.utf16Buf[kd][0] = r
	} else {
		// This should be a single UTF-16 that can be converted
		// to UTF-8.
		d.graphemeBuf[kd] = append(d.graphemeBuf[kd], r)
	}
}

// deserializeWin32Input deserializes the Win32 input events converting
// KeyEventRecrods to bytes. Before returning the bytes, it will also try to
// decode any UTF-16 pairs that might be present in the input buffer.
func (d *eventScanner) deserializeWin32Input(buf []byte) (int, []byte) {
	p := ansi.GetParser()
	defer ansi.PutParser(p)

	var processed int
	var state byte
	des := make([]byte, 0, len(buf))

	for len(buf) > 0 {
		seq, width, n, newState := ansi.DecodeSequence(buf, state, p)
		switch width {
		case 0:
			if p.Command() == '_' { // Win32 Input Mode
				vk, _ := p.Param(0, 0)
				if vk == 0 {
					// This is either a serialized KeyEventRecord or a UTF-16
					// pair.
					uc, _ := p.Param(2, 0)
					kd, _ := p.Param(3, 0)
					kd = clamp(kd, 0, 1) // kd is the key down state (0 or 1)
					d.storeGraphemeRune(kd, rune(uc))
					processed += n
					break
				}
			}
			fallthrough
		default:
			des = append(des, d.encodeGraphemeBufs()...)
			des = append(des, seq...)
		}

		state = newState
		buf = buf[n:]
	}

	des = append(des, d.encodeGraphemeBufs()...)

	return processed, des
}

func (d *TerminalReader) logf(format string, v ...interface{}) {
	logf(d.logger, format, v...)
}

func logf(logger Logger, format string, v ...interface{}) {
	if logger == nil {
		return
	}
	logger.Printf(format, v...)
}
