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
//
// The same goroutine sends the room clock's ticks (armTick): a timer's function (time.AfterFunc)
// would run on a goroutine of its own at every tick, and a timed turn's clock ticks a second
// after each move (2:00 turns to 1:50), in every session that shows it. The goroutine stays while
// a tick is armed.

// wakeLinger is how long the waker's goroutine waits for the next wake-up before it ends: longer
// than the time between two moves of a room being played, so that moves start no goroutine.
const wakeLinger = 5 * time.Second

// wakeMsg has the model take the snapshots waiting for it.
type wakeMsg struct{}

// waker sends a session's wakeMsgs and its clock's tickMsgs with send, the program's Send. A
// waker with send is ready.
type waker struct {
	send   func(tea.Msg)
	waking atomic.Bool // a wakeMsg is on its way to the model

	mu      sync.Mutex
	running bool          // the goroutine runs; it ends only with kick empty and no tick armed
	kick    chan struct{} // a wakeMsg is due; capacity one, made with tick
	tick    *time.Timer   // fires when the tick armed is due; made stopped, at the first use
	tickAt  time.Time     // when the tick armed is due; zero when none is
	tickGen int           // the generation the tick armed carries (tickMsg.gen)
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
	w.ready()
	select {
	case w.kick <- struct{}{}:
	default: // taken by the goroutine, which sends the wakeMsg still
	}
	w.start()
}

// received clears waking: the model has the wakeMsg. The program's goroutine only.
func (w *waker) received() { w.waking.Store(false) }

// armTick has tickMsg{gen} sent after d, instead of the tick armed before, if any. A tick whose
// time came as it was armed again is not sent: the one armed now is.
func (w *waker) armTick(d time.Duration, gen int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ready()
	w.tickAt, w.tickGen = time.Now().Add(d), gen
	w.tick.Reset(d)
	w.start()
}

// stopTick stops the tick armed, if any. A tick already on its way to the model still comes.
func (w *waker) stopTick() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.tick != nil {
		w.tick.Stop()
	}
	w.tickAt = time.Time{}
}

// ticking reports whether a tick is armed.
func (w *waker) ticking() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return !w.tickAt.IsZero()
}

// ready makes the channel and the timer the goroutine waits on. Called with mu held.
func (w *waker) ready() {
	if w.kick == nil {
		w.kick = make(chan struct{}, 1)
		w.tick = time.NewTimer(time.Hour)
		w.tick.Stop()
	}
}

// start starts the goroutine unless it runs. Called with mu held.
func (w *waker) start() {
	if !w.running {
		w.running = true
		go w.run()
	}
}

// run sends a wakeMsg for each kick and the ticks armed, until no kick has come for wakeLinger
// and no tick is armed. Its linger's timer is never moved earlier while it waits (which has the
// runtime scan the heap of timers, every session's): it fires wakeLinger after it was set and,
// while messages were sent since, is set again for what is left of wakeLinger after the last.
func (w *waker) run() {
	idle := time.NewTimer(wakeLinger)
	defer idle.Stop()
	last := time.Now()
	for {
		select {
		case <-w.kick:
			w.send(wakeMsg{})
			last = time.Now()
		case <-w.tick.C:
			w.mu.Lock()
			due := !w.tickAt.IsZero() && !time.Now().Before(w.tickAt) // else armed again since
			gen := w.tickGen
			if due {
				w.tickAt = time.Time{}
			}
			w.mu.Unlock()
			if due {
				w.send(tickMsg{gen: gen})
				last = time.Now()
			}
		case <-idle.C:
			if left := wakeLinger - time.Since(last); left > 0 {
				idle.Reset(left)
				continue
			}
			w.mu.Lock()
			if len(w.kick) > 0 || !w.tickAt.IsZero() { // a wake-up came as the wait ended, or a tick waits
				w.mu.Unlock()
				idle.Reset(wakeLinger)
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
