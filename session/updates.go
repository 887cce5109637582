package session

import "github.com/arcade/arcade/rooms"

// latest takes the snapshots waiting on sub's channel without waiting for one: the newest, whether
// there was one (fresh), and whether the channel has closed (closed: the subscription has ended,
// and no snapshot comes after snap).
//
// A room's snapshots reach the model without a goroutine of the session's: the room leaves each on
// the subscription's channel (capacity one, the newest replacing one not read) and wakes the
// program (rooms.Sub.OnUpdate, Config.Wake); the model, woken with a tea.WakeMsg, takes what waits.
// Before, a goroutine per subscription (a "feed") waited on the channel to send the program each
// snapshot, and each such goroutine was one more stack for every collection to scan (README, What
// changed: "The room wakes the program").
func latest(sub *rooms.Sub) (snap rooms.Snapshot, fresh, closed bool) {
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
