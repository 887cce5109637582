package rooms

import "time"

// limiter counts failed joins per player ID in a sliding window. Not safe for concurrent use: the
// hub guards it with its mutex.
type limiter struct {
	max    int // < 0: no limit
	window time.Duration
	fails  map[string][]time.Time
}

// sweepAt is the number of tracked IDs beyond which a failure sweeps out IDs with no recent ones.
const sweepAt = 4096

func newLimiter(max int, window time.Duration) *limiter {
	return &limiter{max: max, window: window, fails: map[string][]time.Time{}}
}

// blocked reports whether id has used up its failures in the window ending at now.
func (l *limiter) blocked(id string, now time.Time) bool {
	if l.max < 0 {
		return false
	}
	return len(l.prune(id, now)) >= l.max
}

// fail counts a failure of id at now.
func (l *limiter) fail(id string, now time.Time) {
	if l.max < 0 {
		return
	}
	l.fails[id] = append(l.prune(id, now), now)
	if len(l.fails) > sweepAt {
		for other := range l.fails {
			l.prune(other, now)
		}
	}
}

// prune drops id's failures older than the window and returns the rest.
func (l *limiter) prune(id string, now time.Time) []time.Time {
	ts := l.fails[id]
	i := 0
	for i < len(ts) && now.Sub(ts[i]) >= l.window {
		i++
	}
	if i == len(ts) {
		delete(l.fails, id)
		return nil
	}
	if i > 0 {
		ts = append(ts[:0], ts[i:]...)
		l.fails[id] = ts
	}
	return ts
}
