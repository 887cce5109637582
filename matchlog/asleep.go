package matchlog

import (
	"sync"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
)

// Sleepers is what waking a sleeping correspondence room reads of the store (storage.DB, a
// cluster node's replica).
type Sleepers interface {
	// CorrespondenceOf returns room code's unfinished correspondence match as the store's index
	// has it; false when there is none.
	CorrespondenceOf(code string) (record.Correspondence, bool)
	// UnfinishedMatch returns room code's unfinished match with its moves.
	UnfinishedMatch(code string) (record.Match, bool, error)
}

// Wake opens the sleeping correspondence room of code from store (as Resume does) and reports
// whether it is open now: true when it was open already, false when store has no correspondence
// match of the code. A match that does not replay is an error wrapping rooms.ErrDoesNotReplay
// (the caller sets it aside).
func Wake(hub *rooms.Hub, store Sleepers, code string) (bool, error) {
	code, ok := rooms.NormalizeCode(code)
	if !ok {
		return false, nil
	}
	if _, open := hub.Room(code); open {
		return true, nil
	}
	if _, ok := store.CorrespondenceOf(code); !ok {
		return false, nil
	}
	m, ok, err := store.UnfinishedMatch(code)
	if err != nil || !ok {
		return false, err
	}
	if err := Resume(hub, m); err != nil {
		if _, open := hub.Room(code); open {
			return true, nil // woken meanwhile by another session
		}
		return false, err
	}
	return true, nil
}

// Dues is what the deadlines' scheduler reads of the store (storage.DB.Due).
type Dues interface {
	// Due returns the rooms whose turn runs out at or before by (at most limit, earliest first)
	// and the deadline of the next one after them (zero: none).
	Due(by time.Time, limit int) ([]string, time.Time, error)
}

// Deadlines wakes the sleeping correspondence rooms whose turn runs out, so that the room, which
// alone keeps its match's time, ends the match. One goroutine and one timer serve every
// deadline: the timer is set for the earliest the store holds (a Seek in its index, no memory per
// room), and set again after each wake, when a room goes to sleep (Poke), and at least every
// rescan (a cluster's other nodes write deadlines too). Safe for concurrent use.
type Deadlines struct {
	store Dues
	wake  func(code string)
	logf  func(format string, args ...any)
	poke  chan struct{}
	done  chan struct{}
	wg    sync.WaitGroup
	once  sync.Once
}

// rescan bounds how long the scheduler goes without reading the store's earliest deadline.
const rescan = time.Minute

// dueBatch is how many rooms the scheduler wakes at a time.
const dueBatch = 100

// StartDeadlines starts the scheduler of store's deadlines, which calls wake (one at a time)
// with the code of each room whose turn has run out, until Close.
func StartDeadlines(store Dues, wake func(code string), logf func(format string, args ...any)) *Deadlines {
	d := &Deadlines{store: store, wake: wake, logf: logf, poke: make(chan struct{}, 1), done: make(chan struct{})}
	d.wg.Go(d.run)
	return d
}

// Poke has the scheduler read the store's earliest deadline again (a room went to sleep, with
// its turn's deadline); it never blocks.
func (d *Deadlines) Poke() {
	select {
	case d.poke <- struct{}{}:
	default:
	}
}

// Close stops the scheduler and waits for it.
func (d *Deadlines) Close() {
	d.once.Do(func() { close(d.done) })
	d.wg.Wait()
}

func (d *Deadlines) run() {
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-d.done:
			return
		case <-d.poke:
		case <-t.C:
		}
		wait := rescan
		if next := d.fire(); !next.IsZero() {
			wait = min(wait, max(time.Until(next), 0))
		}
		t.Reset(wait)
	}
}

// fire wakes the rooms whose turn has run out, and returns when the next runs out.
func (d *Deadlines) fire() time.Time {
	now := time.Now()
	codes, next, err := d.store.Due(now, dueBatch)
	if err != nil {
		d.logf("deadlines: %v", err)
		return time.Time{}
	}
	for _, code := range codes {
		select {
		case <-d.done:
			return time.Time{}
		default:
		}
		d.wake(code)
	}
	if len(codes) == dueBatch {
		return now.Add(time.Second) // more are due (a second on: none that fails holds the loop)
	}
	return next
}
