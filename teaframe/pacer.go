package teaframe

import (
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
)

// A frame is drawn on the program's goroutine when the program receives a frameMsg, which must
// come from another goroutine Coalesce after the message that asked for the frame. A timer's
// function (time.AfterFunc) runs on a goroutine of its own each time it fires: a goroutine per
// frame, for every session that sees a move. The pacer is one goroutine of the renderer's
// instead: it starts at a frame's request and stays while requests keep coming, ending
// pacerLinger after the last frame it sent. A session that draws frames (a room being played,
// a player typing) keeps one goroutine, not one per frame; an idle session, none.

// pacerLinger is how long the pacer's goroutine waits for the next request before it ends:
// longer than the time between two frames of a room being played.
const pacerLinger = 5 * time.Second

// pacer sends a renderer's frameMsgs. The zero pacer is ready.
type pacer struct {
	mu      sync.Mutex
	running bool          // the goroutine runs; it ends only with asks empty
	asks    chan struct{} // a frame is asked for; capacity one, made at the first request
	done    chan struct{} // closed by stop: the goroutine ends at once
	stopped bool
}

// ask has a frameMsg sent with send after wait (at once when wait is 0); it never blocks. The
// renderer asks for one frame at a time (Renderer.pending): the next ask comes once the frame
// has been drawn.
func (p *pacer) ask(wait time.Duration, send func(tea.Msg)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	if p.asks == nil {
		p.asks, p.done = make(chan struct{}, 1), make(chan struct{})
	}
	select {
	case p.asks <- struct{}{}:
	default: // one is waiting already
	}
	if !p.running {
		p.running = true
		go p.run(wait, send)
	}
}

// stop ends the goroutine, if it runs, and every later ask does nothing (Renderer.Close).
func (p *pacer) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped && p.done != nil {
		close(p.done)
	}
	p.stopped = true
}

// run sends a frameMsg wait after each ask, until no ask has come for pacerLinger after the last
// frame, or stop. send is the program's Send, which returns at once once the program has ended.
func (p *pacer) run(wait time.Duration, send func(tea.Msg)) {
	t := time.NewTimer(pacerLinger)
	defer t.Stop()
	for {
		select {
		case <-p.asks:
			if wait > 0 {
				t.Reset(wait)
				select {
				case <-t.C:
				case <-p.done:
					return
				}
			}
			send(frameMsg{})
			t.Reset(pacerLinger)
		case <-t.C:
			p.mu.Lock()
			if len(p.asks) > 0 { // an ask came as the wait ended
				p.mu.Unlock()
				continue
			}
			p.running = false
			p.mu.Unlock()
			return
		case <-p.done:
			return
		}
	}
}
