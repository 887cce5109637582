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
// not by a goroutine a frame; the goroutine stays while frames come less than pacerLinger apart,
// ends pacerLinger after the last, and the next request starts it again; stop ends it at once and
// later requests send nothing.
func TestPacerSendsFrames(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sent := make(chan tea.Msg)
		send := func(msg tea.Msg) { sent <- msg }
		var p pacer
		running := func() bool {
			p.mu.Lock()
			defer p.mu.Unlock()
			return p.running
		}
		frame := func(gap time.Duration) {
			t.Helper()
			time.Sleep(gap)
			p.ask(DefaultCoalesce, send)
			start := time.Now()
			if msg := <-sent; msg != (frameMsg{}) || time.Since(start) != DefaultCoalesce {
				t.Fatalf("sent %T after %v, want a frameMsg after %v", msg, time.Since(start), DefaultCoalesce)
			}
		}
		for range 100 {
			frame(time.Second)
			if n := pacers(); n != 1 {
				t.Fatalf("%d goroutines send the frames, want the pacer's alone", n)
			}
		}
		frame(pacerLinger - time.Second)
		time.Sleep(pacerLinger - time.Second)
		synctest.Wait()
		if !running() {
			t.Fatal("the pacer ended less than pacerLinger after a frame")
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if running() || pacers() != 0 {
			t.Fatal("the pacer still runs pacerLinger after the last frame")
		}
		frame(0)
		if !running() {
			t.Fatal("a frame after the pacer ended did not start it again")
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
			t.Fatal("a frame was asked for after stop")
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
