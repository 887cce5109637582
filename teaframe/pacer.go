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
//
// Its two timers are never moved while they wait: the runtime keeps timers in a heap per P, and
// a timer reset while it waits is fixed in the heap later by a scan of the whole heap
// (timers.adjust), thousands of sessions' timers. The pause is reset only once it has fired: a
// frame is asked for only once the last one has been drawn (Renderer.pending). The linger fires
// pacerLinger after it was set and, while frames came since, is set again for what is left of
// pacerLinger after the last one.
type pacer struct {
	mu      sync.Mutex
	running bool          // the goroutine runs; it ends only with no frame asked for
	asked   bool          // a frame has been asked for and not sent yet
	pause   *time.Timer   // fires when the frame asked for is due; made at the first request
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
	if p.pause == nil {
		p.pause, p.done = time.NewTimer(wait), make(chan struct{})
	} else {
		p.pause.Reset(wait)
	}
	p.asked = true
	if !p.running {
		p.running = true
		go p.run(send)
	}
}

// stop ends the goroutine, if it runs, and every later ask does nothing (Renderer.Close).
func (p *pacer) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped && p.done != nil {
		close(p.done)
		p.pause.Stop()
	}
	p.stopped = true
}

// run sends a frameMsg each time the pause ends, until no frame has been asked for for
// pacerLinger after the last one it sent, or stop. send is the program's Send, which returns at
// once once the program has ended.
func (p *pacer) run(send func(tea.Msg)) {
	linger := time.NewTimer(pacerLinger)
	defer linger.Stop()
	last := time.Now()
	for {
		select {
		case <-p.pause.C:
			p.mu.Lock()
			p.asked = false
			p.mu.Unlock()
			send(frameMsg{})
			last = time.Now()
		case <-linger.C:
			if left := pacerLinger - time.Since(last); left > 0 {
				linger.Reset(left)
				continue
			}
			p.mu.Lock()
			if p.asked { // asked for as the wait ended
				p.mu.Unlock()
				linger.Reset(pacerLinger)
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
