package session

import "github.com/arcade/arcade/rooms"

// A room's snapshots reach the model without a goroutine of the session's waiting for them: the
// room leaves each on the subscription's channel (capacity one, the newest replacing one not read)
// and calls wake (rooms.Sub.OnUpdate), which has the model receive a wakeMsg; the model then takes
// what waits (latest). The room must never wait for the program (which may be waiting for the
// room), and a program's Send blocks until its event loop takes the message, so wake sends from a
// short-lived goroutine of its own, and sends only when no wakeMsg is already on its way: at most
// one such goroutine per session, however fast the room's snapshots come.

// wakeMsg has the model take the snapshots waiting for it.
type wakeMsg struct{}

// wake has the model receive a wakeMsg soon, unless one is on its way already; it never blocks.
// It is the room's callback (rooms.Sub.OnUpdate), called on the room's goroutine. The model clears
// waking when it receives the wakeMsg, before it takes the snapshots: a snapshot left before that
// is taken then, and one left after it sends another wakeMsg.
func (m *model) wake() {
	if m.waking.CompareAndSwap(false, true) {
		go m.cfg.Send(wakeMsg{})
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
