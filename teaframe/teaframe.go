// Package teaframe draws a Bubble Tea v2 program's view on the terminal's alternate screen, only
// when the program has handled a message, instead of on a clock.
//
// Bubble Tea's own renderer (v2) runs a ticker at the program's frame rate, 60 a second by
// default, for as long as the program runs; each tick locks the renderer and compares the view with
// the last one even when nothing happened. Over SSH that is one ticker per session, so idle
// sessions cost CPU in proportion to their number. A lower frame rate trades that for latency (a
// change waits for the next tick). This package removes the trade: the program runs with Bubble
// Tea's renderer turned off (tea.WithoutRenderer; the arcade's copy of Bubble Tea,
// third_party/bubbletea, then keeps no ticker either), and a wrapper model asks for a frame after
// the messages its model handles. The frame is drawn on the program's own goroutine,
// Options.Coalesce after the message that asked for it, when a timer sends the program a message:
// the messages that arrive meanwhile (typed keys, a move's answer with the room's new state) share
// one frame and one call of the model's View.
//
// Every view is drawn on the alternate screen, whatever its AltScreen field says: the first frame
// enters the alternate screen, and Close leaves it. Every screen of the arcade is on the alternate
// screen, where the renderer knows the whole screen from the view's own lines; an inline view
// would need what the terminal shows around it, kept in cell buffers, which this package does
// without. A frame compares only the lines of the view whose text changed, the old text parsed
// next to the new where they differ, and sends the cells that differ (altscreen.go), in one
// Write. A model may give its view as lines (LineViewer), or as lines in pieces (PieceViewer),
// so that a line made of parts it keeps is never joined. It holds no cell buffers between frames, only the view's lines: Bubble Tea's renderer,
// and ultraviolet's TerminalRenderer under it, keep two screen-sized cell buffers per session,
// parse the whole view and compare every cell at each frame.
//
// What Bubble Tea's renderer does that this one does not: inline views (above); View.OnMouse,
// View.ProgressBar, View.ForegroundColor and View.BackgroundColor are ignored; tea.Println and
// tea.Printf do nothing; and terminal requests made with commands (tea.RequestWindowSize,
// clipboard, raw sequences) are written by Bubble Tea itself: at once with the arcade's copy, and
// by upstream's once-a-second ticker, up to a second later (bytes that may wait for the next frame,
// such as the terminal's bell, can go with it instead, without a command: RawFramer). Escape sequences in the view other
// than SGR styles (hyperlinks, cursor moves) are dropped. The program's output must not be a
// terminal the program has to set up (raw mode): with wish, use its default emulated PTY.
package teaframe

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// Options set up a Renderer.
type Options struct {
	// Width and Height are the terminal's size at the start.
	Width, Height int
	// Env is the session's environment (TERM and TERM_PROGRAM in particular: they decide whether
	// the renderer asks the terminal about synchronized output and Unicode widths).
	Env []string
	// Profile is the terminal's colour profile; colours are downsampled to it.
	Profile colorprofile.Profile
	// Coalesce is how long a frame waits after the message that asked for it, so that messages
	// arriving together (typed keys, a move's answer and the room's new state) share one frame and
	// one call of View. Zero means the default, DefaultCoalesce; negative means no wait.
	Coalesce time.Duration
}

// DefaultCoalesce is the default of Options.Coalesce.
const DefaultCoalesce = 2 * time.Millisecond

// Renderer draws one program's frames to its output. Create it with New, build the program with
// its NewProgram, and call Close when the program has ended.
type Renderer struct {
	w        io.Writer
	coalesce time.Duration
	query    bool // ask the terminal about synchronized output and Unicode widths

	// send delivers a message to the program (its Send); set by NewProgram before the program
	// runs, read by the pacer's goroutine.
	send func(tea.Msg)

	// Set on the program's goroutine only.
	pending bool      // a frame has been asked for and not drawn yet
	latest  tea.Model // the model after the last message, for Close
	held    time.Time // when the frame asked for was first put off (FrameHolder); zero: not put off

	pacer pacer // sends the frameMsgs (pacer.go)

	mu      sync.Mutex // everything below; frames, resizes and Close
	width   int
	height  int
	profile colorprofile.Profile
	method  ansi.Method
	syncd   bool       // wrap frames in synchronized output (the terminal said it can)
	coreOn  bool       // the terminal's Unicode core mode (2027) has been turned on
	lines   frameLines // the lines of the frame on screen, their pieces kept in the renderer's arrays
	flat    []string   // the arrays the pieces of frames in pieces are kept in (keepLines)
	ends    []int32
	pens    []string // the SGR parameters in effect at each line's start
	spare   []string // the array of the frame before's pens, for the next frame's
	last    tea.View // the view on screen (its Content empty: see lines), once shown
	shown   bool     // a frame has been drawn
	area    size     // the part of the screen the view on screen covers
	clear   bool     // redraw everything at the next frame
	closed  bool
	frames  int
}

// size is a part of the screen from its top left corner, in columns and rows.
type size struct{ w, h int }

// New returns a renderer that writes to w.
func New(w io.Writer, o Options) *Renderer {
	env := uv.Environ(o.Env)
	r := &Renderer{
		w:       w,
		width:   o.Width,
		height:  o.Height,
		profile: o.Profile,
		method:  ansi.WcWidth,
	}
	switch c := o.Coalesce; {
	case c == 0:
		r.coalesce = DefaultCoalesce
	case c > 0:
		r.coalesce = c
	}
	// Bubble Tea asks terminals whether they support synchronized output (mode 2026) and Unicode
	// widths (mode 2027), except where it expects unreliable answers; ask where it asks
	// (shouldQuerySynchronizedOutput in Bubble Tea v2.1.1).
	term := env.Getenv("TERM")
	prog, hasProg := env.LookupEnv("TERM_PROGRAM")
	_, sshTTY := env.LookupEnv("SSH_TTY")
	_, wt := env.LookupEnv("WT_SESSION")
	r.query = (!hasProg && !sshTTY) || wt || (hasProg && !strings.Contains(prog, "Apple") && !sshTTY)
	for _, t := range []string{"ghostty", "wezterm", "alacritty", "kitty", "rio"} {
		if strings.Contains(term, t) {
			r.query = true
		}
	}
	return r
}

// NewProgram returns a program that runs m, drawn by r, with the options given and those r needs:
// Bubble Tea's renderer off (with the arcade's copy of Bubble Tea, no ticker is left behind; with
// upstream's, tea.WithFPS(1) slows the one left to once a second). The program's model wraps m; its
// View is empty, and r calls m's View itself, once per frame. Use r for one program only.
//
// A frame is asked for from the renderer's own goroutine, which sends the program a message
// Coalesce after the message that asked for it, and runs from the first frame to Close
// (pacer.go), not with a command: a command, or a timer's function, runs on a goroutine of its own, one per
// frame; and a frame's command batched with the model's own (tea.Batch) would cost more
// goroutines for every message, one of them waiting for the slowest command of the batch.
func (r *Renderer) NewProgram(m tea.Model, opts ...tea.ProgramOption) *tea.Program {
	r.latest = m
	opts = append(slices.Clip(opts), tea.WithoutRenderer(), tea.WithFPS(1))
	p := tea.NewProgram(model{inner: m, r: r}, opts...)
	r.send = p.Send
	return p
}

// askFrame has a frameMsg sent to the program Coalesce from now. Program's goroutine only.
func (r *Renderer) askFrame() {
	r.pending = true
	if r.send != nil {
		r.pacer.ask(r.coalesce, r.send)
	}
}

// Counters of every Renderer in the process, for metrics.
var (
	views      atomic.Uint64 // calls of a model's View
	frames     atomic.Uint64 // frames that sent something
	frameBytes atomic.Uint64 // bytes those frames sent
)

// Stats are counters of every Renderer in the process.
type Stats struct {
	// Views is the number of times a model's View was called (once per frame asked for).
	Views uint64
	// Frames is the number of frames that sent bytes, and Bytes how many.
	Frames, Bytes uint64
}

// ReadStats returns the counters of every Renderer in the process.
func ReadStats() Stats {
	return Stats{Views: views.Load(), Frames: frames.Load(), Bytes: frameBytes.Load()}
}

// frameMsg asks the wrapper to draw a frame.
type frameMsg struct{}

type model struct {
	inner tea.Model
	r     *Renderer
}

func (m model) Init() tea.Cmd {
	m.r.askFrame()
	return m.inner.Init()
}

func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	r := m.r
	switch msg := msg.(type) {
	case frameMsg:
		if r.hold(m.inner) {
			return m, nil
		}
		r.pending = false
		views.Add(1)
		var raw string
		if rf, ok := m.inner.(RawFramer); ok {
			raw = rf.FrameRaw()
		}
		switch inner := m.inner.(type) {
		case PieceViewer:
			v, pieces := inner.ViewPieces()
			r.drawFrame(v, frameLines{pieces: pieces}, raw)
		case LineViewer:
			v, lines := inner.ViewLines()
			r.drawLines(v, lines, raw)
		default:
			r.drawLines(m.inner.View(), nil, raw)
		}
		return m, nil
	case tea.WindowSizeMsg:
		r.resize(msg.Width, msg.Height)
	case tea.ColorProfileMsg:
		r.setProfile(msg.Profile)
	case tea.ModeReportMsg:
		r.modeReport(msg)
	}
	inner, cmd := m.inner.Update(msg)
	m.inner = inner
	r.latest = inner
	if !r.pending {
		r.askFrame()
	}
	return m, cmd
}

// FrameHolder is implemented by models whose screen is about to change again, such as a screen
// that has sent a move and waits for its answer and the room's new state, a few milliseconds
// away: while HoldFrame reports true, the frame asked for is put off, HoldStep at a time, for at
// most HoldLimit from when it was first put off, so that the screen is drawn once, with the
// answer, instead of once before it and once after. HoldFrame is called on the program's
// goroutine when a frame is due.
type FrameHolder interface {
	HoldFrame() bool
}

// HoldStep is how often a frame put off (FrameHolder) asks again; HoldLimit is how long it is put
// off at most, from its first holding, before it is drawn whatever HoldFrame says.
const (
	HoldStep  = 2 * time.Millisecond
	HoldLimit = 50 * time.Millisecond
)

// hold reports whether the frame due now is put off (FrameHolder); if so, the renderer asks again
// HoldStep later, the frame still pending. Program's goroutine only.
func (r *Renderer) hold(inner tea.Model) bool {
	h, ok := inner.(FrameHolder)
	if !ok || !h.HoldFrame() {
		r.held = time.Time{}
		return false
	}
	now := time.Now()
	if r.held.IsZero() {
		r.held = now
	} else if now.Sub(r.held) >= HoldLimit {
		r.held = time.Time{}
		return false
	}
	if r.send != nil {
		r.pacer.ask(HoldStep, r.send)
	}
	return true
}

// View is empty: see NewProgram.
func (m model) View() tea.View { return tea.View{} }

func (r *Renderer) resize(w, h int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if w == r.width && h == r.height {
		return
	}
	r.width, r.height = w, h
	r.clear = true
}

func (r *Renderer) setProfile(p colorprofile.Profile) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if p == r.profile {
		return
	}
	r.profile = p
	r.clear = true
}

func (r *Renderer) modeReport(msg tea.ModeReportMsg) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch msg.Mode {
	case ansi.ModeSynchronizedOutput:
		if msg.Value == ansi.ModeReset {
			r.syncd = true
		}
	case ansi.ModeUnicodeCore:
		if msg.Value == ansi.ModeReset || msg.Value == ansi.ModeSet || msg.Value == ansi.ModePermanentlySet {
			if r.method != ansi.GraphemeWidth {
				r.method = ansi.GraphemeWidth
				r.clear = true // the next frame turns the mode on (unicodeCore) and redraws
			}
		}
	}
}

// LineViewer is implemented by models that can give their view as lines: a frame then needs
// neither the joined text of the view nor its splitting again. ViewLines returns the view (its
// Content ignored) and its lines, which must be what strings.Split(View().Content, "\n") would
// return. The renderer keeps the slice until the next frame: the model must not modify it or
// reuse its array.
type LineViewer interface {
	ViewLines() (tea.View, []string)
}

// PieceViewer is implemented by models whose lines are made of pieces they keep, such as a
// board's row beside a panel's line: ViewPieces returns the view (its Content ignored) and its
// lines, each given as its pieces, whose text one after the other is the line's (what
// strings.Split(View().Content, "\n") would return). A line is compared with the last frame's
// piece by piece, and a changed one is assembled in a scratch buffer only to be compared, so the
// model need not join the pieces, nor keep the joined line, at every frame. A piece holds whole
// escape sequences. The renderer keeps the pieces (the strings) until the next frame, not the
// slices: the model may reuse them at its next call.
type PieceViewer interface {
	ViewPieces() (tea.View, [][]string)
}

// frameLines are a view's lines: in pieces (pieces), or the pieces of every line one after the
// other (flat), line i ending at ends[i], or with ends nil one piece a line (lines given as
// strings, and the renderer's copy of them).
type frameLines struct {
	pieces [][]string
	flat   []string
	ends   []int32
}

// linesOf is lines as frameLines, without a copy.
func linesOf(lines []string) frameLines { return frameLines{flat: lines} }

func (f frameLines) len() int {
	switch {
	case f.pieces != nil:
		return len(f.pieces)
	case f.ends == nil:
		return len(f.flat)
	}
	return len(f.ends)
}

// at returns line i's pieces (a string line is one piece, without a copy).
func (f frameLines) at(i int) []string {
	switch {
	case f.pieces != nil:
		return f.pieces[i]
	case f.ends == nil:
		return f.flat[i : i+1 : i+1]
	}
	start := int32(0)
	if i > 0 {
		start = f.ends[i-1]
	}
	return f.flat[start:f.ends[i]:f.ends[i]]
}

// last returns the last n lines, all of them when there are fewer (lines as given, not kept).
func (f frameLines) last(n int) frameLines {
	if k := f.len() - max(n, 0); k > 0 {
		if f.pieces != nil {
			f.pieces = f.pieces[k:]
		} else {
			f.flat = f.flat[k:]
		}
	}
	return f
}

// blank reports whether the view is empty: no lines, or one empty line.
func (f frameLines) blank() bool {
	switch f.len() {
	case 0:
		return true
	case 1:
		for _, p := range f.at(0) {
			if p != "" {
				return false
			}
		}
		return true
	}
	return false
}

// samePieces reports whether two lines are the same pieces.
func samePieces(a, b []string) bool {
	if len(a) == 1 && len(b) == 1 {
		return a[0] == b[0]
	}
	return slices.Equal(a, b)
}

// same reports whether f's lines are old's, piece by piece.
func (f frameLines) same(old frameLines) bool {
	if f.len() != old.len() {
		return false
	}
	for i := range f.len() {
		if !samePieces(old.at(i), f.at(i)) {
			return false
		}
	}
	return true
}

// draw shows view v, sending only what changed since the last frame.
func (r *Renderer) draw(v tea.View) { r.drawLines(v, nil, "") }

// RawFramer is implemented by models that have bytes for the terminal that are not part of the
// screen (the terminal's bell), to be sent with the next frame: FrameRaw is called once a frame,
// before the view, and returns them once (then forgets them). They are written after the frame's
// changes, in the same Write, even when the screen has not changed. Unlike tea.Raw they cost no
// command, and so no goroutine.
type RawFramer interface {
	FrameRaw() string
}

// drawLines shows view v whose text is lines (nil: v.Content's lines; else v.Content is ignored)
// on the alternate screen, sending only what changed since the last frame, then raw.
func (r *Renderer) drawLines(v tea.View, lines []string, raw string) {
	if lines == nil {
		lines = strings.Split(v.Content, "\n")
	}
	r.drawFrame(v, linesOf(lines), raw)
}

// drawFrame shows view v whose text is lines (v.Content is ignored) on the alternate screen,
// sending only what changed since the last frame, then raw.
func (r *Renderer) drawFrame(v tea.View, lines frameLines, raw string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	v.Content = ""
	v.AltScreen = true // every view is drawn on the alternate screen (package doc)
	area := size{r.width, r.height}
	if lines.blank() {
		area.h = 0
	}
	lines = lines.last(area.h)
	first := !r.shown
	var last *tea.View
	if !first {
		last = &r.last
	}
	if !first && !r.clear && area == r.area && viewEqual(last, &v) && lines.same(r.lines) {
		if raw != "" { // nothing changed on the screen: raw alone
			frames.Add(1)
			frameBytes.Add(uint64(len(raw)))
			_, _ = io.WriteString(r.w, raw)
		}
		return // nothing changed: no other bytes
	}

	// The frame is assembled in one buffer, written with one Write: the screen's changes after
	// room for its head, which depends on whether there are any (below).
	f := framePool.Get().(*bytes.Buffer)
	defer framePool.Put(f)
	f.Reset()
	f.Write(headRoom[:])
	r.drawAlt(f, last, &v, lines, area, first)
	hasUpdates := f.Len() > frameHead

	// Around the changes as Bubble Tea does: screen switch, then cursor visibility and
	// synchronized output.
	var hb [frameHead]byte
	head := hb[:0]
	if first {
		head = append(head, ansi.ResetModifyOtherKeys+ansi.KittyKeyboard(0, 1)+ansi.SetModeAltScreenSaveCursor...)
	}
	didShow := last != nil && last.Cursor != nil
	show := v.Cursor != nil
	visChange := first || didShow != show
	if r.syncd {
		if hasUpdates {
			head = append(head, ansi.SetModeSynchronizedOutput...)
		}
		if visChange && !show {
			head = append(head, ansi.ResetModeTextCursorEnable...)
		}
	} else if (visChange && !show) || (hasUpdates && show && didShow) {
		head = append(head, ansi.ResetModeTextCursorEnable...)
	}
	start := frameHead - len(head)
	copy(f.Bytes()[start:], head)
	if r.syncd {
		if visChange && show {
			f.WriteString(ansi.SetModeTextCursorEnable)
		}
		if hasUpdates {
			f.WriteString(ansi.ResetModeSynchronizedOutput)
		}
	} else if (visChange && show) || (hasUpdates && show && didShow) {
		f.WriteString(ansi.SetModeTextCursorEnable)
	}
	f.WriteString(raw)
	frame := f.Bytes()[start:]
	if len(frame) > 0 {
		frames.Add(1)
		frameBytes.Add(uint64(len(frame)))
		_, _ = r.w.Write(frame)
	}
	r.last = v
	r.shown = true
	r.area = area
	r.frames++
}

// frameHead is the room left at the start of a frame's buffer for what goes before the screen's
// changes: at most the first frame's terminal set-up, synchronized output and the cursor hidden.
const frameHead = 64

var headRoom [frameHead]byte

// framePool holds the buffers frames are assembled in. A frame's buffer is free again once the
// writer's Write has returned (io.Writer's contract: Write must not retain p; an SSH channel
// copies it into its packets), so a server drawing thousands of frames a second reuses a few
// buffers instead of growing a new one for each frame, and a session holds none between frames.
var framePool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// drawAlt writes into body the bytes that turn the alternate screen showing view last (nil
// before the first frame) into one showing view v (see altscreen.go); first says that the
// terminal has shown no frame yet. Called with r.mu held.
func (r *Renderer) drawAlt(body *bytes.Buffer, last, v *tea.View, lines frameLines, area size, first bool) {
	if first && r.query {
		body.WriteString(ansi.RequestModeSynchronizedOutput + ansi.RequestModeUnicodeCore)
	}
	r.unicodeCore(body)
	writeModes(body, last, v)
	full := r.clear || first || area != r.area
	r.clear = false
	pens := altFrame(body, r.profile, r.method, area.w, r.lines, r.pens, lines, full, r.spare)
	r.pens, r.spare = pens, r.pens
	clear(r.spare) // they point into the last frame's lines
	r.keepLines(lines)
	if c := v.Cursor; c != nil {
		body.WriteString(ansi.CursorPosition(c.X+1, c.Y+1))
	}
}

// keepLines makes lines the lines on screen. Lines given as strings are kept as they are (the
// model does not change them: LineViewer); lines in pieces have their pieces copied into the
// renderer's own arrays (reused from frame to frame): the strings are kept, not the model's
// slices (PieceViewer). Called with r.mu held.
func (r *Renderer) keepLines(lines frameLines) {
	if lines.pieces == nil {
		r.lines = lines
		return
	}
	flat, ends := r.flat[:0], r.ends[:0]
	for i := range lines.len() {
		flat = append(flat, lines.at(i)...)
		ends = append(ends, int32(len(flat)))
	}
	clear(flat[len(flat):cap(flat)]) // the pieces of the frame before, no longer shown
	r.lines, r.flat, r.ends = frameLines{flat: flat, ends: ends}, flat, ends
}

// unicodeCore turns the terminal's Unicode core mode on, once, when the terminal has said it has
// it (the renderer then measures graphemes as the terminal does), as Bubble Tea does. Called with
// r.mu held.
func (r *Renderer) unicodeCore(w io.StringWriter) {
	if r.method == ansi.GraphemeWidth && !r.coreOn {
		_, _ = w.WriteString(ansi.SetModeUnicodeCore)
		r.coreOn = true
	}
}

// Draw draws v now, as a frame the wrapped model asked for would (for tests and benchmarks that
// hold the view themselves; a program's frames come through NewProgram). It must not be called at the
// same time as the program's own frames.
func (r *Renderer) Draw(v tea.View) { r.draw(v) }

// DrawLines is Draw for a view given as lines (see LineViewer).
func (r *Renderer) DrawLines(v tea.View, lines []string) { r.drawLines(v, lines, "") }

// DrawPieces is Draw for a view given as lines in pieces (see PieceViewer).
func (r *Renderer) DrawPieces(v tea.View, lines [][]string) {
	r.drawFrame(v, frameLines{pieces: lines}, "")
}

// writeModes queues the terminal mode changes from last's view to v's (all of them for the first
// frame), as Bubble Tea's renderer does.
func writeModes(w io.StringWriter, last, v *tea.View) {
	if last == nil || v.DisableBracketedPasteMode != last.DisableBracketedPasteMode {
		if !v.DisableBracketedPasteMode {
			_, _ = w.WriteString(ansi.SetModeBracketedPaste)
		} else if last != nil {
			_, _ = w.WriteString(ansi.ResetModeBracketedPaste)
		}
	}
	if last == nil || last.ReportFocus != v.ReportFocus {
		if v.ReportFocus {
			_, _ = w.WriteString(ansi.SetModeFocusEvent)
		} else if last != nil {
			_, _ = w.WriteString(ansi.ResetModeFocusEvent)
		}
	}
	if last == nil || v.MouseMode != last.MouseMode {
		switch v.MouseMode {
		case tea.MouseModeNone:
			if last != nil && last.MouseMode != tea.MouseModeNone {
				_, _ = w.WriteString(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr)
			}
		case tea.MouseModeCellMotion:
			if last != nil && last.MouseMode == tea.MouseModeAllMotion {
				_, _ = w.WriteString(ansi.ResetModeMouseAnyEvent)
			}
			_, _ = w.WriteString(ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr)
		case tea.MouseModeAllMotion:
			if last != nil && last.MouseMode == tea.MouseModeCellMotion {
				_, _ = w.WriteString(ansi.ResetModeMouseButtonEvent)
			}
			_, _ = w.WriteString(ansi.SetModeMouseAnyEvent + ansi.SetModeMouseExtSgr)
		}
	}
	if last == nil || v.WindowTitle != last.WindowTitle {
		if last != nil || v.WindowTitle != "" {
			_, _ = w.WriteString(ansi.SetWindowTitle(v.WindowTitle))
		}
	}
	if last == nil || v.KeyboardEnhancements != last.KeyboardEnhancements {
		_, _ = w.WriteString(ansi.SetModifyOtherKeys2)
		_, _ = w.WriteString(ansi.KittyKeyboard(keyboardFlags(v.KeyboardEnhancements), 1))
		_, _ = w.WriteString(ansi.RequestKittyKeyboard)
	}
	var shape, lastShape int
	if v.Cursor != nil {
		shape = cursorStyle(v.Cursor.Shape, v.Cursor.Blink)
	}
	if last != nil && last.Cursor != nil {
		lastShape = cursorStyle(last.Cursor.Shape, last.Cursor.Blink)
	}
	if shape != lastShape {
		_, _ = w.WriteString(ansi.SetCursorStyle(shape))
	}
}

// Close ends the program's drawing: it draws the model's last state if a frame was still due, then
// puts the terminal back as it was (main screen, cursor, mouse and keyboard modes), as Bubble Tea's
// renderer does when a program ends. Call it after the program has returned, before the session
// closes. Later frames draw nothing.
func (r *Renderer) Close() {
	r.pacer.stop()
	if r.pending && r.latest != nil {
		r.draw(r.latest.View()) // the program has returned: nothing else calls the model now
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.closed = true
	if !r.shown {
		return
	}
	lv := &r.last
	var f bytes.Buffer
	// Leaving the alternate screen puts back the main screen and its cursor.
	f.WriteString(ansi.ResetModifyOtherKeys + ansi.KittyKeyboard(0, 1) + ansi.ResetModeAltScreenSaveCursor)
	if lv.Cursor == nil {
		f.WriteString(ansi.SetModeTextCursorEnable)
	}
	if !lv.DisableBracketedPasteMode {
		f.WriteString(ansi.ResetModeBracketedPaste)
	}
	if lv.ReportFocus {
		f.WriteString(ansi.ResetModeFocusEvent)
	}
	if lv.MouseMode != tea.MouseModeNone {
		f.WriteString(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr)
	}
	if lv.WindowTitle != "" {
		f.WriteString(ansi.SetWindowTitle(""))
	}
	if c := lv.Cursor; c != nil && cursorStyle(c.Shape, c.Blink) > 1 {
		f.WriteString(ansi.SetCursorStyle(0))
	}
	if r.method == ansi.GraphemeWidth {
		f.WriteString(ansi.ResetModeUnicodeCore)
	}
	_, _ = r.w.Write(f.Bytes())
}

// Frames returns the number of frames that sent something to the terminal.
func (r *Renderer) Frames() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.frames
}

// viewEqual reports whether a and b, both on the alternate screen, are the same but for their text
// (compared as lines).
func viewEqual(a, b *tea.View) bool {
	if a.MouseMode != b.MouseMode ||
		a.WindowTitle != b.WindowTitle || a.ReportFocus != b.ReportFocus ||
		a.DisableBracketedPasteMode != b.DisableBracketedPasteMode ||
		a.KeyboardEnhancements != b.KeyboardEnhancements || (a.Cursor == nil) != (b.Cursor == nil) {
		return false
	}
	if a.Cursor != nil && (a.Cursor.Position != b.Cursor.Position || a.Cursor.Shape != b.Cursor.Shape ||
		a.Cursor.Blink != b.Cursor.Blink) {
		return false
	}
	return true
}

// cursorStyle is the DECSCUSR number of a cursor shape (as Bubble Tea encodes it).
func cursorStyle(shape tea.CursorShape, blink bool) int {
	s := int(shape)*2 + 1
	if !blink {
		s++
	}
	return s
}

// keyboardFlags are the Kitty keyboard protocol flags of ke (as Bubble Tea sets them).
func keyboardFlags(ke tea.KeyboardEnhancements) int {
	flags := 1 // always disambiguate
	if ke.ReportEventTypes {
		flags |= ansi.KittyReportEventTypes
	}
	if ke.ReportAlternateKeys {
		flags |= ansi.KittyReportAlternateKeys
	}
	if ke.ReportAllKeysAsEscapeCodes {
		flags |= ansi.KittyReportAllKeysAsEscapeCodes
	}
	if ke.ReportAssociatedText {
		flags |= ansi.KittyReportAssociatedKeys
	}
	return flags
}
