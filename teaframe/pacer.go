package teaframe

import (
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
)

// A frame is drawn on the program's goroutine when the program receives a frameMsg, which must
// come from another goroutine Coalesce after the message that asked for the frame. A timer's
// function (time.AfterFunc) runs on a goroutine of its own each time it fires: a goroutine per
// frame, for every session that sees a move. The pacer is one goroutine of the renderer's
// instead, from its first frame to Close, which waits on one timer: the pause before the next
// frame.
//
// The goroutine does nothing but receive from the pause's channel and send the frameMsg: no
// select, and no timer of its own to end it when frames stop (a select over the pause, a linger
// timer and a stop channel cost more than the goroutine a frame it replaced, at every frame).
// An idle session keeps the blocked goroutine, and its 2 KiB of stack.
//
// The pause is reset only once it has fired (a frame is asked for only once the last one has
// been drawn: Renderer.pending), never while it waits: the runtime keeps timers in a heap per
// P, and a timer reset while it waits is fixed in the heap later by a scan of the whole heap
// (timers.adjust), thousands of sessions' timers at every frame.

// pacer sends a renderer's frameMsgs. The zero pacer is ready.
type pacer struct {
	mu      sync.Mutex
	pause   *time.Timer // fires when the frame asked for is due; made, with the goroutine, at the first request
	stopped atomic.Bool
}

// ask has a frameMsg sent with send after wait (at once when wait is 0); it never blocks. The
// renderer asks for one frame at a time (Renderer.pending): the next ask comes once the frame
// has been drawn.
func (p *pacer) ask(wait time.Duration, send func(tea.Msg)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.stopped.Load():
	case p.pause == nil:
		p.pause = time.NewTimer(wait)
		go p.run(send)
	default:
		p.pause.Reset(wait)
	}
}

// stop ends the goroutine, if it runs, and every later ask does nothing (Renderer.Close, once
// the program has ended).
func (p *pacer) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped.Swap(true) && p.pause != nil {
		p.pause.Reset(0) // wakes the goroutine, which sees stopped
	}
}

// run sends a frameMsg each time the pause ends, until stop. send is the program's Send, which
// returns at once once the program has ended.
func (p *pacer) run(send func(tea.Msg)) {
	for range p.pause.C {
		if p.stopped.Load() {
			return
		}
		send(frameMsg{})
	}
}
