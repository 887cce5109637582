package tea

// Tests of the arcade's patch (third_party/bubbletea.md): the event loop starts commands itself
// (no command dispatcher goroutine), and a program without a renderer keeps no ticker and no
// goroutine to flush its output, writing terminal sequences at once instead.

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a program's output, read by the test while the program writes.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

type arcadeInitMsg struct{}

// arcadeModel says on started when its Init command's message arrives, asks for a raw sequence
// on "r" and quits on "q".
type arcadeModel struct{ started chan<- struct{} }

func (m arcadeModel) Init() Cmd { return func() Msg { return arcadeInitMsg{} } }

func (m arcadeModel) Update(msg Msg) (Model, Cmd) {
	switch msg := msg.(type) {
	case arcadeInitMsg:
		close(m.started)
	case KeyPressMsg:
		switch msg.String() {
		case "r":
			return m, Raw("\x1b]2;arcade raw\a")
		case "q":
			return m, Quit
		}
	}
	return m, nil
}

func (m arcadeModel) View() View { return NewView("") }

// countStacks counts the goroutines whose stack holds frame.
func countStacks(frame string) int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Count(string(buf[:n]), frame)
		}
		buf = make([]byte, 2*len(buf))
	}
}

// TestArcadeNoTickerNoDispatcher: a program without a renderer runs its commands (Init's, and
// Update's) and writes a raw sequence asked for with a command, with no goroutine in
// handleCommands or in startRenderer's ticker loop.
func TestArcadeNoTickerNoDispatcher(t *testing.T) {
	const ticker = "(*Program).startRenderer.func"
	before := countStacks(ticker) // other tests' programs, with renderers, may still be ending
	pr, pw := io.Pipe()
	out := &lockedBuffer{}
	started := make(chan struct{})
	p := NewProgram(arcadeModel{started: started}, WithInput(pr), WithOutput(out), WithoutRenderer(),
		WithoutSignalHandler())
	done := make(chan error, 1)
	go func() {
		_, err := p.Run()
		done <- err
	}()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("Init's command did not run")
	}
	if n := countStacks("(*Program).handleCommands"); n > 0 {
		t.Errorf("%d goroutines in handleCommands", n)
	}
	if n := countStacks(ticker); n > before {
		t.Errorf("%d goroutines in startRenderer's ticker loop, %d before the program", n, before)
	}
	if _, err := pw.Write([]byte("r")); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(out.String(), "\x1b]2;arcade raw\a"); {
		if time.Now().After(deadline) {
			t.Fatalf("the raw sequence was not written; output %q", out.String())
		}
		time.Sleep(time.Millisecond)
	}
	if _, err := pw.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the program did not quit")
	}
	_ = pw.Close()
}
