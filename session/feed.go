package session

import (
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rooms"
)

// feed carries a room subscription's snapshots to the session's program. One goroutine per
// subscription takes each snapshot off the room's channel, leaves it in the feed and sends the
// program the feed itself; Update takes the newest snapshot out.
//
// It replaces a command re-armed after every snapshot. Bubble Tea runs each command in a goroutine
// of its own, started by a dispatcher goroutine that lives as long as the program: for every
// snapshot of every session the dispatcher woke and allocated, a goroutine was created, and the
// snapshot message was boxed in an allocation. The feed's goroutine allocates nothing (the
// snapshot is copied into the feed, and the message is the feed's pointer), which matters while
// the Go collector marks: each goroutine that allocates then first pays for some marking (README,
// What changed: "Snapshots by a feed").
type feed struct {
	sub *rooms.Sub

	mu     sync.Mutex
	snap   rooms.Snapshot
	fresh  bool // snap has not been taken yet
	closed bool // the subscription has ended: no snapshot comes after snap
}

// startFeed starts the goroutine that feeds sub's snapshots to send (the program's Send, which
// blocks until the program takes the message or has ended). The goroutine ends when the
// subscription does. A nil send panics here, on the caller's goroutine (the session's, whose
// panics end the session alone), not later on the feed's.
func startFeed(sub *rooms.Sub, send func(tea.Msg)) *feed {
	if send == nil {
		panic("session: Config.Send is nil, and a room's snapshots need it")
	}
	f := &feed{sub: sub}
	go f.run(send)
	return f
}

func (f *feed) run(send func(tea.Msg)) {
	for snap := range f.sub.Updates() {
		f.mu.Lock()
		f.snap, f.fresh = snap, true
		f.mu.Unlock()
		send(f)
	}
	f.mu.Lock()
	f.closed = true
	f.mu.Unlock()
	send(f)
}

// take returns the newest snapshot if it has not been taken yet (fresh), and whether the
// subscription has ended. A feed is sent once per snapshot, so a message may find that an earlier
// one took its snapshot with a newer one: then fresh is false.
func (f *feed) take() (snap rooms.Snapshot, fresh, closed bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	snap, fresh, closed = f.snap, f.fresh, f.closed
	f.fresh = false
	return snap, fresh, closed
}
