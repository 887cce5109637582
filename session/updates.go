package session

import (
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rooms"
)

// A room's snapshots reach the model without the room ever waiting for the program: the room
// leaves each on the subscription's channel (capacity one, the newest replacing one not read) and
// calls wake (rooms.Sub.OnUpdate), which has the model receive a wakeMsg; the model then takes
// what waits (latest). A program's Send blocks until its event loop takes the message (and the
// program may be waiting for the room, or for a slow client), so the wakeMsg is sent by a
// goroutine of the session's, the waker's: it starts at a wake-up and stays while wake-ups keep
// coming, ending wakeLinger after the last one. A session in a room where moves are played keeps
// one such goroutine, not one per snapshot; a session in the lobby, or in a quiet room, none.

// wakeLinger is how long the waker's goroutine waits for the next wake-up before it ends: longer
// than the time between two moves of a room being played, so that moves start no goroutine.
const wakeLinger = 5 * time.Second

// wakeMsg has the model take the snapshots waiting for it.
type wakeMsg struct{}

// waker sends a session's wakeMsgs. The zero waker is ready.
type waker struct {
	waking atomic.Bool // a wakeMsg is on its way to the model

	mu      sync.Mutex
	running bool          // the goroutine runs; it ends only with kick empty
	kick    chan struct{} // a wakeMsg is due; capacity one, made at the first wake-up
}

// wake has the model receive a wakeMsg soon, unless one is on its way already; it never blocks.
// It is the room's callback (rooms.Sub.OnUpdate), called on the room's goroutine. The model clears
// waking when it receives the wakeMsg (received), before it takes the snapshots: a snapshot left
// before that is taken then, and one left after it sends another wakeMsg.
func (m *model) wake() {
	w := &m.waker
	if !w.waking.CompareAndSwap(false, true) {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.kick == nil {
		w.kick = make(chan struct{}, 1)
	}
	select {
	case w.kick <- struct{}{}:
	default: // taken by the goroutine, which sends the wakeMsg still
	}
	if !w.running {
		w.running = true
		go w.run(m.cfg.Send)
	}
}

// received clears waking: the model has the wakeMsg. The program's goroutine only.
func (w *waker) received() { w.waking.Store(false) }

// run sends a wakeMsg for each kick, until none has come for wakeLinger.
func (w *waker) run(send func(tea.Msg)) {
	idle := time.NewTimer(wakeLinger)
	defer idle.Stop()
	for {
		select {
		case <-w.kick:
			send(wakeMsg{})
			idle.Reset(wakeLinger)
		case <-idle.C:
			w.mu.Lock()
			if len(w.kick) > 0 { // a wake-up came as the wait ended
				w.mu.Unlock()
				continue
			}
			w.running = false
			w.mu.Unlock()
			return
		}
	}
}

// Latest takes the snapshots waiting on sub's channel without waiting for one: the newest, whether
// there was one (fresh), and whether the channel has closed (closed: the subscription has ended,
// and no snapshot comes after snap). A session reads its room with it after each wake-up, as does
// a host relaying a subscription to another node (cluster/remote).
func Latest(sub Sub) (snap rooms.Snapshot, fresh, closed bool) {
	for {
		select {
		case s, ok := <-sub.Updates():
			if !ok {
				return snap, fresh, true
			}
			snap, fresh = s, true
		default:
			return snap, fresh, false
		}
	}
}
