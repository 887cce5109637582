// Package teaframe draws a Bubble Tea v2 program's view only when the program has handled a
// message, instead of on a clock.
//
// Bubble Tea's own renderer (v2) runs a ticker at the program's frame rate, 60 a second by
// default, for as long as the program runs; each tick locks the renderer and compares the view with
// the last one even when nothing happened. Over SSH that is one ticker per session: a thousand idle
// sessions cost about 30% of a core in wake-ups alone. A lower frame rate trades that for latency
// (a change waits up to a frame for the next tick). This package removes the trade: the program
// runs with Bubble Tea's renderer turned off (tea.WithoutRenderer; the arcade's copy of Bubble Tea,
// third_party/bubbletea, then keeps no ticker either), and a wrapper model asks for a frame after
// the messages its model handles. The frame is drawn on the program's own goroutine,
// Options.Coalesce (2 ms) after the message that asked for it, when a timer sends the program a
// message: the messages that arrive meanwhile (typed keys, a move's answer with the room's new
// state) share one frame and one call of the model's View.
//
// A frame on the alternate screen (where the arcade's screens are) compares only the lines of
// the view whose text changed, the old text parsed next to the new, and sends the cells that
// differ (altscreen.go). It holds no cell buffers between frames, only the view's lines: Bubble
// Tea's renderer, and ultraviolet's TerminalRenderer under it, keep two screen-sized cell
// buffers (about 200 KiB each at 80 x 24) per session, parse the whole view and compare every
// cell at each frame.
//
// An inline view (not on the alternate screen) is drawn by ultraviolet's TerminalRenderer, the
// changed lines redrawn into a cell buffer that holds the last frame. After ReleaseAfter (5 s)
// without a frame both cell buffers are dropped, keeping only the last view's lines; the next
// frame rebuilds them from those without sending anything again. When many sessions have dropped
// their buffers (32 MiB), the package has the Go runtime collect and return the memory to the
// system once the drops have been quiet for 10 seconds.
//
// What Bubble Tea's renderer does that this one does not: View.OnMouse, View.ProgressBar,
// View.ForegroundColor and View.BackgroundColor are ignored, Println/Printf above an inline program
// do nothing, and terminal requests made with commands (tea.RequestWindowSize, clipboard, raw
// sequences) are written by Bubble Tea itself: at once with the arcade's copy, and by upstream's
// once-a-second ticker, up to a second later. On the alternate screen, escape sequences in the
// view other than SGR styles (hyperlinks, cursor moves) are dropped. In an inline view, a style or
// hyperlink left open at the end of one line and closed on a later line is drawn right, at the
// cost of redrawing every line (lipgloss never does this); on the alternate screen it costs
// nothing. The program's output must not be a terminal the program has to set up (raw mode):
// with wish, use its default emulated PTY.
package teaframe

import (
	"bytes"
	"io"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// Options set up a Renderer.
type Options struct {
	// Width and Height are the terminal's size at the start.
	Width, Height int
	// Env is the session's environment (TERM in particular: it decides which cursor movements the
	// renderer may use).
	Env []string
	// Profile is the terminal's colour profile; colours are downsampled to it.
	Profile colorprofile.Profile
	// MapNewline says that the output turns "\n" into "\r\n" on its way (an emulated PTY, as wish
	// gives by default), so the renderer can use a bare newline to go to the next line's start.
	MapNewline bool
	// ReleaseAfter is how long after its last frame an idle inline view drops its cell buffers.
	// Zero means the default, 5 seconds; negative means never.
	ReleaseAfter time.Duration
	// Coalesce is how long a frame waits after the message that asked for it, so that messages
	// arriving together (typed keys, a move's answer and the room's new state) share one frame and
	// one call of View. Zero means the default, 2 ms; negative means no wait.
	Coalesce time.Duration
}

// DefaultCoalesce is the default of Options.Coalesce.
const DefaultCoalesce = 2 * time.Millisecond

// DefaultReleaseAfter is the default of Options.ReleaseAfter.
const DefaultReleaseAfter = 5 * time.Second

// Renderer draws one program's frames to its output. Create it with New, build the program with
// its NewProgram, and call Close when the program has ended.
type Renderer struct {
	w            io.Writer
	env          []string
	term         string
	mapNewline   bool
	releaseAfter time.Duration
	coalesce     time.Duration
	query        bool // ask the terminal about synchronized output and Unicode widths

	// send delivers a message to the program (its Send); set by NewProgram before the program
	// runs, read by frameTimer's goroutine.
	send func(tea.Msg)

	// Set on the program's goroutine only.
	pending    bool        // a frame has been asked for and not drawn yet
	frameTimer *time.Timer // sends frameMsg Coalesce after a frame is asked for
	latest     tea.Model   // the model after the last message, for Close

	mu       sync.Mutex // everything below; frames, resizes, release and Close
	width    int
	height   int
	profile  colorprofile.Profile
	method   ansi.Method
	syncd    bool                 // wrap frames in synchronized output (the terminal said it can)
	coreOn   bool                 // the terminal's Unicode core mode (2027) has been turned on
	scr      *uv.TerminalRenderer // the screen as the terminal has it; nil while released
	cells    uv.ScreenBuffer      // the frame being drawn; nil RenderBuffer while released
	lines    []string             // the lines of the frame on screen
	pens     []string             // on the alternate screen: the SGR parameters at each line's start
	out      switchWriter
	last     *tea.View // the view on screen (its Content empty: see lines); nil before the first frame
	area     uv.Rectangle
	cx, cy   int  // cursor position after the last frame
	clear    bool // redraw everything at the next frame
	closed   bool
	released bool
	timer    *time.Timer
	frames   int
}

// New returns a renderer that writes to w.
func New(w io.Writer, o Options) *Renderer {
	env := uv.Environ(o.Env)
	r := &Renderer{
		w:            w,
		env:          o.Env,
		term:         env.Getenv("TERM"),
		mapNewline:   o.MapNewline,
		releaseAfter: o.ReleaseAfter,
		width:        o.Width,
		height:       o.Height,
		profile:      o.Profile,
		method:       ansi.WcWidth,
	}
	if r.releaseAfter == 0 {
		r.releaseAfter = DefaultReleaseAfter
	}
	switch c := o.Coalesce; {
	case c == 0:
		r.coalesce = DefaultCoalesce
	case c > 0:
		r.coalesce = c
	}
	r.out.w = &bytes.Buffer{}
	// Bubble Tea asks terminals whether they support synchronized output (mode 2026) and Unicode
	// widths (mode 2027), except where it expects unreliable answers; ask where it asks
	// (shouldQuerySynchronizedOutput in Bubble Tea v2.1.1).
	prog, hasProg := env.LookupEnv("TERM_PROGRAM")
	_, sshTTY := env.LookupEnv("SSH_TTY")
	_, wt := env.LookupEnv("WT_SESSION")
	r.query = (!hasProg && !sshTTY) || wt || (hasProg && !strings.Contains(prog, "Apple") && !sshTTY)
	for _, t := range []string{"ghostty", "wezterm", "alacritty", "kitty", "rio"} {
		if strings.Contains(r.term, t) {
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
// A frame is asked for with a timer that sends the program a message (one timer per renderer,
// reset for each frame), not with a command. The timer's function runs on a goroutine of its own,
// as a command does; but a frame's command batched with the model's own (tea.Batch) cost three
// goroutines more, one of which waited for the slowest of the batch. With 2,000 sessions playing
// DISCON, the arcade created 6.8 goroutines per move instead of 9.1.
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
	if r.frameTimer == nil {
		r.frameTimer = time.AfterFunc(r.coalesce, r.sendFrame)
		return
	}
	r.frameTimer.Reset(r.coalesce)
}

// sendFrame sends a frameMsg to the program; Send returns at once once the program has ended.
func (r *Renderer) sendFrame() {
	if r.send != nil {
		r.send(frameMsg{})
	}
}

// Counters of every Renderer in the process, for metrics.
var (
	views      atomic.Uint64 // calls of a model's View
	frames     atomic.Uint64 // frames that sent something
	frameBytes atomic.Uint64 // bytes those frames sent
	held       atomic.Int64  // renderers holding cell buffers
)

// Stats are counters of every Renderer in the process.
type Stats struct {
	// Views is the number of times a model's View was called (once per frame asked for).
	Views uint64
	// Frames is the number of frames that sent bytes, and Bytes how many.
	Frames, Bytes uint64
	// Held is the number of renderers holding their cell buffers now (not idle, or not long).
	Held int64
}

// ReadStats returns the counters of every Renderer in the process.
func ReadStats() Stats {
	return Stats{Views: views.Load(), Frames: frames.Load(), Bytes: frameBytes.Load(), Held: held.Load()}
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
		r.pending = false
		views.Add(1)
		if lv, ok := m.inner.(LineViewer); ok {
			v, lines := lv.ViewLines()
			r.drawLines(v, lines)
		} else {
			r.draw(m.inner.View())
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
	if r.scr != nil {
		r.scr.SetColorProfile(p)
	}
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
				if r.scr != nil {
					r.scr.SetWidthMethod(ansi.GraphemeWidth)
				}
				r.clear = true // the next frame turns the mode on (unicodeCore) and redraws
			}
		}
	}
}

// switchWriter is the TerminalRenderer's output: a buffer, or nowhere while a rebuilt renderer is
// brought up to date with what the terminal already shows.
type switchWriter struct {
	w       *bytes.Buffer
	discard bool
}

func (s *switchWriter) Write(p []byte) (int, error) {
	if s.discard {
		return len(p), nil
	}
	return s.w.Write(p)
}

// newScreen returns a TerminalRenderer set up as Bubble Tea sets up its own (reset, setOptimizations),
// in the screen mode of the view on screen. Scroll optimization is off: the arcade's screens do
// not scroll, and it hashes every line of every frame to find scrolls.
func (r *Renderer) newScreen() *uv.TerminalRenderer {
	scr := uv.NewTerminalRenderer(&r.out, r.env)
	scr.SetColorProfile(r.profile)
	scr.SetTabStops(-1)
	scr.SetBackspace(false)
	scr.SetMapNewline(r.mapNewline)
	scr.SetScrollOptim(false)
	if r.method == ansi.GraphemeWidth {
		scr.SetWidthMethod(ansi.GraphemeWidth)
	}
	alt := r.last != nil && r.last.AltScreen
	scr.SetFullscreen(alt)
	scr.SetRelativeCursor(!alt)
	return scr
}

// ensureScreen makes sure the cell renderer and the frame buffer exist: after a release they are
// rebuilt and brought up to date with the last frame, whose bytes the terminal already has (so
// they are thrown away). Called with r.mu held.
func (r *Renderer) ensureScreen() {
	if r.scr != nil {
		return
	}
	r.scr = r.newScreen()
	held.Add(1)
	if !r.released || r.last == nil || r.area.Empty() {
		r.released = false
		return
	}
	r.out.discard = true
	r.cells = uv.NewScreenBuffer(r.area.Dx(), r.area.Dy())
	r.cells.Method = r.method
	drawLines(r.cells, r.lines)
	r.scr.Render(r.cells.RenderBuffer)
	_ = r.scr.Flush()
	r.out.discard = false
	if r.last.AltScreen {
		// The renderer's idea of the cursor may be past the last column (a pending wrap) in a
		// way that cannot be restored; an unknown position makes its next move absolute.
		r.scr.SetPosition(-1, -1)
	} else {
		r.scr.SetPosition(r.cx, r.cy)
	}
	r.released = false
}

// release drops the cell buffers of an idle session.
func (r *Renderer) release() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || r.scr == nil || r.clear {
		return
	}
	r.scr = nil
	r.cells = uv.ScreenBuffer{}
	r.released = true
	held.Add(-1)
	noteReleased(2 * int64(r.area.Dx()*r.area.Dy()) * int64(unsafe.Sizeof(uv.Cell{})))
}

// Collections after releases. A server whose sessions have gone idle allocates nothing, so the Go
// runtime would not collect the buffers they dropped until its two-minute forced collection, and
// even then would keep the pages for a heap twice the size of what is live. Once enough has been
// dropped, the package collects and gives the pages back to the system (debug.FreeOSMemory) when
// the drops have been quiet for collectQuiet (or collectMax after the first, if they never are).
const (
	collectAfter = 32 << 20 // bytes of cell buffers dropped
	collectQuiet = 10 * time.Second
	collectMax   = time.Minute
)

var collector struct {
	mu      sync.Mutex
	dropped int64
	first   time.Time // of the drops not collected yet
	timer   *time.Timer
}

func noteReleased(n int64) {
	c := &collector
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dropped == 0 {
		c.first = time.Now()
	}
	c.dropped += n
	if c.dropped < collectAfter {
		return
	}
	wait := min(collectQuiet, time.Until(c.first.Add(collectMax)))
	if c.timer == nil {
		c.timer = time.AfterFunc(wait, collect)
	} else {
		c.timer.Reset(wait)
	}
}

func collect() {
	c := &collector
	c.mu.Lock()
	c.dropped = 0
	c.mu.Unlock()
	debug.FreeOSMemory() // a collection, then the freed pages go back to the system at once
}

// lastLines returns lines, only the last height of them when there are more.
func lastLines(lines []string, height int) []string {
	if height <= 0 {
		return nil
	}
	if len(lines) > height {
		lines = lines[len(lines)-height:]
	}
	return lines
}

// drawLines draws every line into buf, which it clears first (so that every line counts as
// changed).
func drawLines(buf uv.ScreenBuffer, lines []string) {
	buf.Clear()
	uv.NewStyledString(strings.Join(lines, "\n")).Draw(buf, buf.Bounds())
}

// standsAlone reports whether a line can be drawn on its own: it opens no style that a later line
// would inherit (its last SGR sequence is a reset, as lipgloss writes them) and holds no OSC
// sequence (a hyperlink may span lines).
func standsAlone(line string) bool {
	i := strings.LastIndex(line, "\x1b[")
	if i < 0 {
		return true
	}
	if strings.Contains(line, "\x1b]") {
		return false
	}
	// Find the last SGR: a CSI sequence ending in 'm'.
	for i >= 0 {
		j := i + 2
		for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
			j++
		}
		if j < len(line) && line[j] == 'm' {
			p := line[i+2 : j]
			return p == "" || p == "0"
		}
		i = strings.LastIndex(line[:i], "\x1b[")
	}
	return true
}

// LineViewer is implemented by models that can give their view as lines: a frame then needs
// neither the joined text of the view nor its splitting again. ViewLines returns the view (its
// Content ignored) and its lines, which must be what strings.Split(View().Content, "\n") would
// return. The renderer keeps the slice until the next frame: the model must not modify it or
// reuse its array.
type LineViewer interface {
	ViewLines() (tea.View, []string)
}

// draw shows view v, sending only what changed since the last frame.
func (r *Renderer) draw(v tea.View) { r.drawLines(v, strings.Split(v.Content, "\n")) }

// drawLines shows view v whose text is lines (v.Content is ignored), sending only what changed
// since the last frame.
func (r *Renderer) drawLines(v tea.View, lines []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	v.Content = ""
	area := uv.Rect(0, 0, r.width, r.height)
	if len(lines) == 0 || len(lines) == 1 && lines[0] == "" {
		area.Max.Y = 0
	} else if !v.AltScreen {
		area.Max.Y = min(len(lines), r.height) // inline: as tall as the view
	}
	lines = lastLines(lines, area.Dy())
	first := r.last == nil
	if !first && !r.clear && area == r.area && viewEqual(r.last, &v) && slices.Equal(lines, r.lines) {
		return // nothing changed: no bytes at all
	}
	last := r.last
	altChange := (last == nil && v.AltScreen) || (last != nil && last.AltScreen != v.AltScreen)
	var body *bytes.Buffer
	if v.AltScreen {
		body = r.drawAlt(&v, lines, area, altChange)
	} else {
		body = r.drawInline(&v, lines, area, altChange)
	}

	// Assemble the frame as Bubble Tea does: screen switch, then cursor visibility and synchronized
	// output around the updates.
	f := framePool.Get().(*bytes.Buffer)
	defer framePool.Put(f)
	f.Reset()
	if altChange {
		f.WriteString(ansi.ResetModifyOtherKeys + ansi.KittyKeyboard(0, 1))
		if v.AltScreen {
			f.WriteString(ansi.SetModeAltScreenSaveCursor)
		} else {
			f.WriteString(ansi.ResetModeAltScreenSaveCursor)
		}
	}
	hasUpdates := body.Len() > 0
	didShow := last != nil && last.Cursor != nil
	show := v.Cursor != nil
	visChange := last == nil || didShow != show || altChange
	if r.syncd {
		if hasUpdates {
			f.WriteString(ansi.SetModeSynchronizedOutput)
		}
		if visChange && !show {
			f.WriteString(ansi.ResetModeTextCursorEnable)
		}
	} else if (visChange && !show) || (hasUpdates && show && didShow) {
		f.WriteString(ansi.ResetModeTextCursorEnable)
	}
	f.Write(body.Bytes())
	body.Reset()
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
	if f.Len() > 0 {
		frames.Add(1)
		frameBytes.Add(uint64(f.Len()))
		_, _ = r.w.Write(f.Bytes())
	}
	r.last = &v
	r.area = area
	r.frames++
}

// framePool holds the buffers frames are assembled in. A frame's buffer is free again once the
// writer's Write has returned (io.Writer's contract: Write must not retain p; an SSH channel
// copies it into its packets), so a server drawing thousands of frames a second reuses a few
// buffers instead of growing a new one for each frame.
var framePool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// drawAlt returns the bytes that turn the alternate screen into view v (see altscreen.go). Called
// with r.mu held.
func (r *Renderer) drawAlt(v *tea.View, lines []string, area uv.Rectangle, altChange bool) *bytes.Buffer {
	if r.scr != nil {
		// Cell buffers of an inline view before: the alternate screen needs none.
		r.scr, r.cells = nil, uv.ScreenBuffer{}
		held.Add(-1)
	}
	r.released = false
	body := r.out.w
	if r.last == nil && r.query {
		body.WriteString(ansi.RequestModeSynchronizedOutput + ansi.RequestModeUnicodeCore)
	}
	r.unicodeCore(body)
	writeModes(body, r.last, v)
	full := r.clear || altChange || area != r.area
	r.clear = false
	r.pens = altFrame(body, r.profile, r.method, area.Dx(), r.lines, r.pens, lines, full)
	r.lines = lines
	if c := v.Cursor; c != nil {
		body.WriteString(ansi.CursorPosition(c.X+1, c.Y+1))
	}
	return body
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

// drawInline returns the bytes that turn the terminal's lines into inline view v, with
// ultraviolet's cell renderer. Called with r.mu held.
func (r *Renderer) drawInline(v *tea.View, lines []string, area uv.Rectangle, altChange bool) *bytes.Buffer {
	r.ensureScreen()
	scr := r.scr
	redraw := r.clear || area != r.area
	if redraw {
		scr.Erase()
		scr.Resize(r.width, r.height)
		r.clear = false
	}
	if r.last == nil && r.query {
		_, _ = scr.WriteString(ansi.RequestModeSynchronizedOutput + ansi.RequestModeUnicodeCore)
	}
	r.unicodeCore(scr)
	if altChange {
		scr.SetRelativeCursor(true)
		scr.SetFullscreen(false)
		scr.RestoreCursor()
		scr.Erase()
	}
	writeModes(scr, r.last, v)

	// Draw only the lines whose text changed into the frame buffer, which holds the last frame:
	// the renderer then compares only those with the screen. Both costs grow with the change, not
	// with the screen. A line that does not stand alone (see standsAlone) means drawing them all.
	full := redraw || altChange || r.cells.RenderBuffer == nil || r.cells.Bounds() != area
	if r.cells.RenderBuffer == nil || r.cells.Bounds() != area {
		r.cells = uv.NewScreenBuffer(area.Dx(), area.Dy())
	}
	r.cells.Method = r.method
	for _, l := range lines {
		if !full && !standsAlone(l) {
			full = true
		}
	}
	if full {
		drawLines(r.cells, lines)
	} else {
		for y := range area.Dy() {
			var old, line string
			if y < len(r.lines) {
				old = r.lines[y]
			}
			if y < len(lines) {
				line = lines[y]
			}
			if old == line {
				continue
			}
			row := uv.Rect(0, y, area.Dx(), 1)
			if line == "" {
				r.cells.ClearArea(row)
			} else {
				uv.NewStyledString(line).Draw(r.cells, row) // clears the row first
			}
		}
	}
	r.lines, r.pens = lines, nil
	scr.Render(r.cells.RenderBuffer)
	if c := v.Cursor; c != nil {
		scr.MoveTo(c.X, c.Y)
	} else {
		// Do not leave the cursor dangling at the end of a line in inline mode (as Bubble Tea).
		if x, y := scr.Position(); x >= r.width-1 {
			scr.MoveTo(0, y)
		}
	}
	_ = scr.Flush()
	r.cx, r.cy = scr.Position()
	r.armRelease()
	return r.out.w
}

// Draw draws v now, as a frame the wrapped model asked for would (for tests and benchmarks that
// hold the view themselves; a program's frames come through NewProgram). It must not be called at the
// same time as the program's own frames.
func (r *Renderer) Draw(v tea.View) { r.draw(v) }

// DrawLines is Draw for a view given as lines (see LineViewer).
func (r *Renderer) DrawLines(v tea.View, lines []string) { r.drawLines(v, lines) }

// armRelease (re)starts the idle countdown after which the cell buffers are dropped.
func (r *Renderer) armRelease() {
	if r.releaseAfter < 0 {
		return
	}
	if r.timer == nil {
		r.timer = time.AfterFunc(r.releaseAfter, r.release)
		return
	}
	r.timer.Reset(r.releaseAfter)
}

// writeModes queues the terminal mode changes from last's view to v's (all of them for the first
// frame), as Bubble Tea's renderer does.
func writeModes(scr io.StringWriter, last, v *tea.View) {
	if last == nil || v.DisableBracketedPasteMode != last.DisableBracketedPasteMode {
		if !v.DisableBracketedPasteMode {
			_, _ = scr.WriteString(ansi.SetModeBracketedPaste)
		} else if last != nil {
			_, _ = scr.WriteString(ansi.ResetModeBracketedPaste)
		}
	}
	if last == nil || last.ReportFocus != v.ReportFocus {
		if v.ReportFocus {
			_, _ = scr.WriteString(ansi.SetModeFocusEvent)
		} else if last != nil {
			_, _ = scr.WriteString(ansi.ResetModeFocusEvent)
		}
	}
	if last == nil || v.MouseMode != last.MouseMode {
		switch v.MouseMode {
		case tea.MouseModeNone:
			if last != nil && last.MouseMode != tea.MouseModeNone {
				_, _ = scr.WriteString(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr)
			}
		case tea.MouseModeCellMotion:
			if last != nil && last.MouseMode == tea.MouseModeAllMotion {
				_, _ = scr.WriteString(ansi.ResetModeMouseAnyEvent)
			}
			_, _ = scr.WriteString(ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr)
		case tea.MouseModeAllMotion:
			if last != nil && last.MouseMode == tea.MouseModeCellMotion {
				_, _ = scr.WriteString(ansi.ResetModeMouseButtonEvent)
			}
			_, _ = scr.WriteString(ansi.SetModeMouseAnyEvent + ansi.SetModeMouseExtSgr)
		}
	}
	if last == nil || v.WindowTitle != last.WindowTitle {
		if last != nil || v.WindowTitle != "" {
			_, _ = scr.WriteString(ansi.SetWindowTitle(v.WindowTitle))
		}
	}
	if last == nil || v.KeyboardEnhancements != last.KeyboardEnhancements || v.AltScreen != last.AltScreen {
		_, _ = scr.WriteString(ansi.SetModifyOtherKeys2)
		_, _ = scr.WriteString(ansi.KittyKeyboard(keyboardFlags(v.KeyboardEnhancements), 1))
		_, _ = scr.WriteString(ansi.RequestKittyKeyboard)
	}
	var shape, lastShape int
	if v.Cursor != nil {
		shape = cursorStyle(v.Cursor.Shape, v.Cursor.Blink)
	}
	if last != nil && last.Cursor != nil {
		lastShape = cursorStyle(last.Cursor.Shape, last.Cursor.Blink)
	}
	if shape != lastShape {
		_, _ = scr.WriteString(ansi.SetCursorStyle(shape))
	}
}

// Close ends the program's drawing: it draws the model's last state if a frame was still due, then
// puts the terminal back as it was (main screen, cursor, mouse and keyboard modes), as Bubble Tea's
// renderer does when a program ends. Call it after the program has returned, before the session
// closes. Later frames draw nothing.
func (r *Renderer) Close() {
	if r.frameTimer != nil {
		r.frameTimer.Stop()
	}
	if r.pending && r.latest != nil {
		r.draw(r.latest.View()) // the program has returned: nothing else calls the model now
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.closed = true
	if r.timer != nil {
		r.timer.Stop()
	}
	lv := r.last
	if lv == nil {
		return
	}
	var f bytes.Buffer
	f.WriteString(ansi.ResetModifyOtherKeys + ansi.KittyKeyboard(0, 1))
	if !lv.AltScreen {
		// Leave the cursor below the inline view. (Leaving the alternate screen puts back the
		// cursor of the main screen.)
		r.ensureScreen()
		r.scr.MoveTo(0, max(r.area.Dy(), 1)-1)
		_ = r.scr.Flush()
		f.Write(r.out.w.Bytes())
		r.out.w.Reset()
	}
	if lv.AltScreen {
		f.WriteString(ansi.ResetModeAltScreenSaveCursor)
	} else {
		f.WriteString(ansi.EraseScreenBelow)
	}
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
	if r.scr != nil {
		r.scr = nil
		r.cells = uv.ScreenBuffer{}
		held.Add(-1)
	}
}

// Frames returns the number of frames that sent something to the terminal.
func (r *Renderer) Frames() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.frames
}

// Released reports whether the cell buffers are dropped (the session has been idle).
func (r *Renderer) Released() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.scr == nil
}

// viewEqual reports whether a and b are the same but for their text (compared as lines).
func viewEqual(a, b *tea.View) bool {
	if a.AltScreen != b.AltScreen || a.MouseMode != b.MouseMode ||
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
