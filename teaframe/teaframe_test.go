package teaframe

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/hinshun/vt10x"
)

// term is a renderer writing into a terminal emulator.
type term struct {
	t   *testing.T
	r   *Renderer
	out bytes.Buffer // the last frame's bytes
	vt  vt10x.Terminal
}

func newTerm(t *testing.T, o Options) *term {
	t.Helper()
	tm := &term{t: t, vt: vt10x.New(vt10x.WithSize(o.Width, o.Height))}
	tm.r = New(writerFunc(func(p []byte) (int, error) {
		tm.out.Write(p)
		// An emulated PTY turns "\n" into "\r\n" (the renderer writes none; a bare newline
		// would show here).
		return tm.vt.Write(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n")))
	}), o)
	return tm
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// frame draws content (on the alternate screen) and returns the bytes sent.
func (tm *term) frame(content string) string {
	tm.out.Reset()
	tm.r.draw(tea.View{Content: content, AltScreen: true, MouseMode: tea.MouseModeCellMotion, WindowTitle: "t"})
	return tm.out.String()
}

// inline draws content as a view not on the alternate screen and returns the bytes sent.
func (tm *term) inline(content string) string {
	tm.out.Reset()
	tm.r.draw(tea.View{Content: content})
	return tm.out.String()
}

// screen returns the emulator's text with trailing spaces and empty last lines trimmed.
func (tm *term) screen() string {
	var lines []string
	for l := range strings.SplitSeq(strings.TrimSuffix(tm.vt.String(), "\n"), "\n") {
		lines = append(lines, strings.TrimRight(l, " "))
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

func (tm *term) want(plain string) {
	tm.t.Helper()
	if got := tm.screen(); got != plain {
		tm.t.Fatalf("screen:\n%s\nwant:\n%s", got, plain)
	}
}

var (
	red  = lipgloss.NewStyle().Foreground(lipgloss.Color("#ff0000")).Bold(true)
	dim  = lipgloss.NewStyle().Foreground(lipgloss.Color("#808080"))
	opts = Options{Width: 40, Height: 8, Profile: colorprofile.TrueColor, Env: []string{"TERM=xterm-256color", "SSH_TTY=/dev/pts/0"}}
)

func board(turn int, who string) (styled, plain string) {
	rows := []string{
		"Stone Towers · room ABCDE",
		"",
		fmt.Sprintf("Turns left: %s %d · %s %d", red.Render("R"), 25-turn, dim.Render("B"), 25-turn),
		"Last: " + red.Render(who),
		"",
		dim.Render("enter play · esc leave"),
	}
	styled = strings.Join(rows, "\n")
	return styled, lipgloss.NewStyle().Render(stripANSI(styled))
}

func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// TestFramesSendOnlyChanges: the first frame sets the terminal up and draws everything; a frame
// with one changed line sends a few bytes; an unchanged view sends nothing at all.
func TestFramesSendOnlyChanges(t *testing.T) {
	tm := newTerm(t, opts)
	s, p := board(0, "Red built e5")
	first := tm.frame(s)
	tm.want(p)
	for _, seq := range []string{"\x1b[?1049h", "\x1b[?1002h", "\x1b[?1006h", "\x1b[?2004h", "\x1b]2;t\x07", "\x1b[?25l"} {
		if !strings.Contains(first, seq) {
			t.Errorf("first frame lacks %q: %q", seq, first)
		}
	}
	s, p = board(1, "Blue built f6")
	second := tm.frame(s)
	tm.want(p)
	t.Logf("first frame %d bytes, one-line change %d bytes", len(first), len(second))
	if len(second) == 0 || len(second) > len(first)/3 {
		t.Errorf("a frame changing two lines sent %d bytes (the first sent %d)", len(second), len(first))
	}
	if again := tm.frame(s); again != "" {
		t.Errorf("an unchanged view sent %q", again)
	}
}

// TestViewOffAltScreen: a view that is not on the alternate screen is drawn on it all the same:
// the first frame enters it, a view that differs from the last only in its AltScreen field sends
// nothing, a change sends only the change, and Close leaves the alternate screen.
func TestViewOffAltScreen(t *testing.T) {
	tm := newTerm(t, opts)
	s, p := board(0, "Red built e5")
	first := tm.inline(s)
	tm.want(p)
	if !strings.Contains(first, ansi.SetModeAltScreenSaveCursor) {
		t.Errorf("the first frame does not enter the alternate screen: %q", first)
	}
	if f := tm.frame(s); strings.Contains(f, ansi.SetModeAltScreenSaveCursor) ||
		strings.Contains(f, ansi.ResetModeAltScreenSaveCursor) || strings.Contains(f, ansi.EraseEntireScreen) {
		t.Errorf("the same view with AltScreen set switched or cleared the screen: %q", f)
	}
	tm.frame(s)
	s, p = board(1, "Blue built f6")
	change := tm.inline(s)
	tm.want(p)
	for _, seq := range []string{ansi.SetModeAltScreenSaveCursor, ansi.ResetModeAltScreenSaveCursor, ansi.EraseEntireScreen} {
		if strings.Contains(change, seq) {
			t.Errorf("a change to a view off the alternate screen sent %q: %q", seq, change)
		}
	}
	if len(change) == 0 || len(change) > len(first)/3 {
		t.Errorf("a change of two lines sent %d bytes (the first frame %d)", len(change), len(first))
	}
	if again := tm.inline(s); again != "" {
		t.Errorf("an unchanged view sent %q", again)
	}
	tm.out.Reset()
	tm.r.Close()
	if !strings.Contains(tm.out.String(), ansi.ResetModeAltScreenSaveCursor) {
		t.Errorf("Close does not leave the alternate screen: %q", tm.out.String())
	}
}

// TestStyleOpenAcrossLines: a style left open at the end of one line and closed on a later line
// is drawn right, when the lines it spans change and when they do not.
func TestStyleOpenAcrossLines(t *testing.T) {
	tm := newTerm(t, opts)
	tm.frame("one\n\x1b[1mtwo\nthree\x1b[m\nfour")
	tm.want("one\ntwo\nthree\nfour")
	tm.frame("one\n\x1b[1mtwo\nTHREE\x1b[m\nfour")
	tm.want("one\ntwo\nTHREE\nfour")
	tm.frame("ONE\n\x1b[1mtwo\nTHREE\x1b[m\nfour")
	tm.want("ONE\ntwo\nTHREE\nfour")
	fresh := newTerm(t, opts)
	fresh.frame("ONE\n\x1b[1mtwo\nTHREE\x1b[m\nfour")
	if got, want := vtCells(tm.vt), vtCells(fresh.vt); got != want {
		t.Errorf("the screen differs from a fresh draw\ngot:\n%s\nwant:\n%s", got, want)
	}
	if tm.vt.Cell(0, 2).Mode == tm.vt.Cell(0, 3).Mode {
		t.Error("the line under the open style is drawn as the line after it")
	}
}

// TestResizeAndClose: a resize redraws everything at the new size; Close puts the terminal back.
func TestResizeAndClose(t *testing.T) {
	tm := newTerm(t, opts)
	s, p := board(0, "Red built e5")
	tm.frame(s)
	tm.r.resize(30, 8)
	tm.vt.Resize(30, 8)
	tm.frame(s)
	tm.want(p)
	tm.out.Reset()
	tm.r.Close()
	for _, seq := range []string{"\x1b[?1049l", "\x1b[?25h", "\x1b[?2004l", "\x1b[?1002l"} {
		if !strings.Contains(tm.out.String(), seq) {
			t.Errorf("Close lacks %q: %q", seq, tm.out.String())
		}
	}
	tm.out.Reset()
	tm.frame("after close")
	if tm.out.Len() != 0 {
		t.Errorf("a frame after Close sent %q", tm.out.String())
	}
}

// counter is a model that counts keys and how often its View is called.
type counter struct {
	keys  int
	views *int
	mu    *sync.Mutex
}

func (c counter) Init() tea.Cmd { return nil }

func (c counter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		if k.String() == "q" {
			return c, tea.Quit
		}
		c.keys++
	}
	return c, nil
}

func (c counter) View() tea.View {
	c.mu.Lock()
	*c.views++
	c.mu.Unlock()
	return tea.View{Content: fmt.Sprintf("keys: %d", c.keys), AltScreen: true}
}

// syncBuffer is a bytes.Buffer safe for the program's goroutines and the test's.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// programRun is a program drawn by a Renderer, run on a pipe for its input and a buffer for its
// output, as a test drives it.
type programRun struct {
	t    *testing.T
	p    *tea.Program
	r    *Renderer
	in   *io.PipeWriter
	out  *syncBuffer
	done chan error
}

// runProgram starts m in a program drawn by a new Renderer.
func runProgram(t *testing.T, m tea.Model) *programRun {
	t.Helper()
	in, inW := io.Pipe()
	out := &syncBuffer{}
	r := New(out, opts)
	p := r.NewProgram(m,
		tea.WithInput(in), tea.WithOutput(out), tea.WithWindowSize(opts.Width, opts.Height),
		tea.WithEnvironment(opts.Env), tea.WithoutSignalHandler(), tea.WithColorProfile(colorprofile.TrueColor))
	run := &programRun{t: t, p: p, r: r, in: inW, out: out, done: make(chan error, 1)}
	go func() { _, err := p.Run(); run.done <- err }()
	return run
}

// waitFor waits until the output holds s.
func (run *programRun) waitFor(s string) {
	run.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(run.out.String(), s) {
		if time.Now().After(deadline) {
			run.t.Fatalf("output never showed %q: %q", s, run.out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// send types keys.
func (run *programRun) send(keys string) {
	run.t.Helper()
	if _, err := run.in.Write([]byte(keys)); err != nil {
		run.t.Fatal(err)
	}
}

// quit types q, waits for the program to end and closes the Renderer.
func (run *programRun) quit() {
	run.t.Helper()
	run.send("q")
	select {
	case err := <-run.done:
		if err != nil {
			run.t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		run.t.Fatal("program did not quit")
	}
	run.r.Close()
}

// TestProgram: a real program drawn by a Renderer; keys typed together share one frame and one
// call of View; the terminal shows the model's last state.
func TestProgram(t *testing.T) {
	views, mu := 0, &sync.Mutex{}
	run := runProgram(t, counter{views: &views, mu: mu})
	run.waitFor("keys: 0")
	time.Sleep(50 * time.Millisecond) // the start's messages (size, profile, environment) settle
	mu.Lock()
	before := views
	mu.Unlock()
	run.send("abcdefgh")
	run.waitFor("8")
	time.Sleep(50 * time.Millisecond)
	mu.Lock()
	n := views - before
	mu.Unlock()
	if n < 1 || n > 3 {
		t.Errorf("8 keys typed at once cost %d calls of View; want 1 to 3", n)
	}
	run.quit()
	if !strings.Contains(run.out.String(), "\x1b[?1049l") {
		t.Error("terminal not put back after the program")
	}
}

// lineModel is a model that gives its view as lines too, and counts how it was asked.
type lineModel struct {
	content      string
	views, lines *int
}

func (m lineModel) Init() tea.Cmd                       { return nil }
func (m lineModel) Update(tea.Msg) (tea.Model, tea.Cmd) { return m, nil }
func (m lineModel) View() tea.View {
	*m.views++
	return tea.View{Content: m.content, AltScreen: true}
}
func (m lineModel) ViewLines() (tea.View, []string) {
	*m.lines++
	return tea.View{AltScreen: true}, strings.Split(m.content, "\n")
}

// TestLineViewer: a model that gives its lines is drawn from them, to the same bytes as from its
// text.
func TestLineViewer(t *testing.T) {
	var views, lines int
	var viaLines, viaText bytes.Buffer
	r := New(&viaLines, opts)
	ref := New(&viaText, opts)
	for turn := range 3 {
		s, _ := board(turn, "Red built e5")
		m := lineModel{content: s, views: &views, lines: &lines}
		model{inner: m, r: r}.Update(frameMsg{})
		ref.draw(tea.View{Content: s, AltScreen: true})
		if viaLines.String() != viaText.String() {
			t.Fatalf("frame %d from lines:\n%q\nfrom text:\n%q", turn, viaLines.String(), viaText.String())
		}
	}
	if lines != 3 || views != 0 {
		t.Errorf("ViewLines called %d times, View %d; want 3 and 0", lines, views)
	}
}

// bellModel is a model with a bell to ring with its next frame (RawFramer).
type bellModel struct {
	content string
	ring    *bool
}

func (m bellModel) Init() tea.Cmd                       { return nil }
func (m bellModel) Update(tea.Msg) (tea.Model, tea.Cmd) { return m, nil }
func (m bellModel) View() tea.View                      { return tea.View{Content: m.content, AltScreen: true} }
func (m bellModel) FrameRaw() string {
	if *m.ring {
		*m.ring = false
		return "\a"
	}
	return ""
}

// TestRawFramer: a model's raw bytes are written once, at the end of the next frame, in the same
// Write; alone when the screen has not changed; and not with the frames after.
func TestRawFramer(t *testing.T) {
	var writes []string
	r := New(writerFunc(func(p []byte) (int, error) {
		writes = append(writes, string(p))
		return len(p), nil
	}), opts)
	ring := true
	m := model{inner: bellModel{content: "your move", ring: &ring}, r: r}
	m.Update(frameMsg{})
	if len(writes) != 1 || !strings.HasSuffix(writes[0], "\a") || !strings.Contains(writes[0], "your move") {
		t.Fatalf("the first frame's writes %q, want one, the screen then the bell", writes)
	}
	m.Update(frameMsg{})
	if len(writes) != 1 {
		t.Errorf("a frame without a change or a bell wrote %q", writes[1:])
	}
	ring = true
	m.Update(frameMsg{})
	if len(writes) != 2 || writes[1] != "\a" {
		t.Errorf("the bell with an unchanged screen wrote %q, want the bell alone", writes[1:])
	}
	m.inner = bellModel{content: "waiting", ring: &ring}
	m.Update(frameMsg{})
	if len(writes) != 3 || strings.Contains(writes[2], "\a") {
		t.Errorf("a frame after the bell wrote %q, want the screen's change without a bell", writes[2:])
	}
}

// TestUnicodeCoreMode: when the terminal says it has Unicode core mode (2027), the next frame
// turns it on, once, and measures graphemes as the terminal will; Close turns it off.
func TestUnicodeCoreMode(t *testing.T) {
	var out bytes.Buffer
	r := New(&out, opts)
	draw := func(s string) string {
		out.Reset()
		r.draw(tea.View{Content: s, AltScreen: true})
		return out.String()
	}
	if first := draw("one"); strings.Contains(first, ansi.SetModeUnicodeCore) {
		t.Error("the mode was turned on before the terminal said it has it")
	}
	r.modeReport(tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeReset})
	if f := draw("two"); strings.Count(f, ansi.SetModeUnicodeCore) != 1 {
		t.Errorf("the frame after the report: %q", f)
	}
	if f := draw("three"); strings.Contains(f, ansi.SetModeUnicodeCore) {
		t.Errorf("the mode was turned on again: %q", f)
	}
	out.Reset()
	r.Close()
	if !strings.Contains(out.String(), ansi.ResetModeUnicodeCore) {
		t.Error("Close leaves the mode on")
	}
}

// rawModel sends a raw sequence to the terminal when r is typed, and quits on q.
type rawModel struct{}

func (rawModel) Init() tea.Cmd { return nil }

func (rawModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "r":
			return rawModel{}, tea.Raw("\x1b]2;raw sequence\a")
		case "q":
			return rawModel{}, tea.Quit
		}
	}
	return rawModel{}, nil
}

func (rawModel) View() tea.View { return tea.View{Content: "raw", AltScreen: true} }

// TestProgramWithoutTicker: with the arcade's copy of Bubble Tea (third_party/bubbletea), a
// program drawn by a Renderer keeps no goroutine of its own but its event loop and input reader:
// no ticker (Bubble Tea's renderer is off) and no command dispatcher. A terminal request made
// with a command, which upstream's ticker wrote, still reaches the terminal.
func TestProgramWithoutTicker(t *testing.T) {
	run := runProgram(t, rawModel{})
	run.waitFor("raw")
	stacks := make([]byte, 1<<20)
	stacks = stacks[:runtime.Stack(stacks, true)]
	for _, f := range []string{"bubbletea/v2.(*Program).startRenderer", "bubbletea/v2.(*Program).handleCommands"} {
		if bytes.Contains(stacks, []byte(f)) {
			t.Errorf("a goroutine runs %s:\n%s", f, stacks)
		}
	}
	run.send("r")
	run.waitFor("\x1b]2;raw sequence\a")
	run.quit()
}

// TestFrameSendsOnlyTheChangedCell: after a view, the same view sends nothing; a view with one
// cell changed sends the cursor move to it, its style and its character, nothing else.
func TestFrameSendsOnlyTheChangedCell(t *testing.T) {
	tm := newTerm(t, opts)
	s, _ := board(0, "Red built e5")
	tm.frame(s)
	if again := tm.frame(s); again != "" {
		t.Errorf("an unchanged view sent %q", again)
	}
	lines := strings.Split(s, "\n")
	lines[0] = strings.Replace(lines[0], "ABCDE", "ABXDE", 1) // column 22 (23rd) of row 0
	changed := strings.Join(lines, "\n")
	if got, want := tm.frame(changed), "\x1b[1;23H\x1b[mX"; got != want {
		t.Errorf("one changed cell sent %q, want %q", got, want)
	}
	// In a style, in a line whose end is the same: the cell with its style.
	lines[3] = "Last: " + red.Render("Red built e6")
	want := "\x1b[4;18H" + penSequence(opts.Profile, "1;38;2;255;0;0") + "6"
	if got := tm.frame(strings.Join(lines, "\n")); got != want {
		t.Errorf("one changed styled cell sent %q, want %q", got, want)
	}
	if again := tm.frame(strings.Join(lines, "\n")); again != "" {
		t.Errorf("an unchanged view sent %q", again)
	}
}

// holdModel is a model whose frames wait while *hold is true (FrameHolder).
type holdModel struct {
	content string
	hold    *bool
}

func (m holdModel) Init() tea.Cmd                       { return nil }
func (m holdModel) Update(tea.Msg) (tea.Model, tea.Cmd) { return m, nil }
func (m holdModel) View() tea.View                      { return tea.View{Content: m.content, AltScreen: true} }
func (m holdModel) HoldFrame() bool                     { return *m.hold }

// TestFrameHolder: while the model holds its frames, a frame due is put off and stays asked
// for; once it lets go, the next is drawn with what the model shows then; and a frame put off
// for HoldLimit is drawn even though the model still holds.
func TestFrameHolder(t *testing.T) {
	var writes []string
	r := New(writerFunc(func(p []byte) (int, error) {
		writes = append(writes, string(p))
		return len(p), nil
	}), opts)
	hold := false
	m := model{inner: holdModel{content: "your move", hold: &hold}, r: r}
	m.Update(frameMsg{})
	if len(writes) != 1 || !strings.Contains(writes[0], "your move") {
		t.Fatalf("the first frame wrote %q", writes)
	}
	hold = true
	m.inner = holdModel{content: "sending", hold: &hold}
	r.pending = true
	for range 3 {
		m.Update(frameMsg{})
	}
	if len(writes) != 1 || !r.pending {
		t.Fatalf("frames put off wrote %q (pending %v), want nothing and the frame still asked for", writes[1:], r.pending)
	}
	hold = false
	m.inner = holdModel{content: "their move", hold: &hold}
	m.Update(frameMsg{})
	if len(writes) != 2 || !strings.Contains(writes[1], "their move") || r.pending {
		t.Fatalf("the frame after the hold wrote %q (pending %v), want the new screen", writes[1:], r.pending)
	}
	hold = true
	m.inner = holdModel{content: "slow store", hold: &hold}
	m.Update(frameMsg{})
	if len(writes) != 2 {
		t.Fatalf("a frame put off wrote %q", writes[2:])
	}
	r.held = time.Now().Add(-HoldLimit)
	m.Update(frameMsg{})
	if len(writes) != 3 || !strings.Contains(writes[2], "slow") {
		t.Fatalf("a frame put off for HoldLimit wrote %q, want the screen drawn", writes[2:])
	}
	if !r.held.IsZero() {
		t.Error("the hold's start was kept after the frame was drawn")
	}
}
