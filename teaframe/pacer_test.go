package teaframe

import (
	"runtime"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestPacerSendsFrames: each frame asked for is sent Coalesce later by the pacer's one goroutine,
// not by a goroutine a frame, however far apart the frames come; stop ends the goroutine, and
// later requests send nothing.
func TestPacerSendsFrames(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sent := make(chan tea.Msg)
		send := func(msg tea.Msg) { sent <- msg }
		var p pacer
		frame := func(gap time.Duration) {
			t.Helper()
			time.Sleep(gap)
			p.ask(DefaultCoalesce, send)
			start := time.Now()
			if msg := <-sent; msg != (frameMsg{}) || time.Since(start) != DefaultCoalesce {
				t.Fatalf("sent %T after %v, want a frameMsg after %v", msg, time.Since(start), DefaultCoalesce)
			}
		}
		for i := range 100 {
			frame(time.Duration(i%7) * time.Second)
			if n := pacers(); n != 1 {
				t.Fatalf("%d goroutines send the frames, want the pacer's alone", n)
			}
		}
		p.ask(DefaultCoalesce, send)
		p.stop()
		synctest.Wait()
		if pacers() != 0 {
			t.Fatal("the pacer runs after stop")
		}
		p.ask(0, send)
		synctest.Wait()
		if pacers() != 0 || len(sent) != 0 {
			t.Fatal("a frame was sent after stop")
		}
	})
}

// TestPacerAtOnce: a renderer that does not wait (a negative Coalesce) has its frames sent at
// once, by the pacer still.
func TestPacerAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := New(nil, Options{Coalesce: -1})
		sent := make(chan tea.Msg)
		r.send = func(msg tea.Msg) { sent <- msg }
		r.askFrame()
		start := time.Now()
		if msg := <-sent; msg != (frameMsg{}) || time.Since(start) != 0 {
			t.Errorf("sent %T after %v, want a frameMsg at once", msg, time.Since(start))
		}
		r.Close()
	})
}

// pacers counts the goroutines of pacers.
func pacers() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Count(string(buf[:n]), "created by github.com/arcade/arcade/teaframe.(*pacer).ask")
		}
		buf = make([]byte, 2*len(buf))
	}
}
