package storage

import (
	"sync"
	"time"
)

// A stage hands the items added to it to its handler in batches, in the order they were added,
// on one goroutine at a time: the items that arrive while a batch is being handled (and for the
// rest of the interval) make up the next batch. A lone item is handled at once, without waiting
// for company; under load the batches grow, and the handler runs at most once an interval.
//
// Items added with addLater may wait longer, up to linger from the start of the last batch, so
// that more of them share a batch; an item added with add while they wait cuts the wait short
// (once the interval has passed). A stage whose linger is at most its interval treats both alike.
//
// The goroutine runs only while there is work: it starts at the first item and ends when the
// queue is empty. A stage is safe for concurrent use.
type stage[T any] struct {
	// interval is the least time from the start of one batch to the start of the next.
	interval time.Duration
	// linger is the most time from the start of one batch to the start of the next while only
	// items added with addLater are queued.
	linger   time.Duration
	maxBatch int // the most items in one batch
	handle   func([]T)
	wake     chan struct{} // a token when an urgent item is queued, for a lingering loop

	mu      sync.Mutex
	queue   []T
	urgent  bool // an item added with add is queued
	running bool // a goroutine is handling batches; it takes the queue when it is done
	closed  bool
	idle    *sync.Cond // signalled when running turns false
}

func newStage[T any](interval, linger time.Duration, maxBatch int, handle func([]T)) *stage[T] {
	s := &stage[T]{interval: interval, linger: linger, maxBatch: maxBatch, handle: handle, wake: make(chan struct{}, 1)}
	s.idle = sync.NewCond(&s.mu)
	return s
}

// add queues items for the handler, to be handled once the interval allows. After close it fails
// with errClosed and queues nothing.
func (s *stage[T]) add(items ...T) error { return s.enqueue(true, items) }

// addLater queues items that may linger (see stage). After close it fails with errClosed and
// queues nothing.
func (s *stage[T]) addLater(items ...T) error { return s.enqueue(false, items) }

func (s *stage[T]) enqueue(urgent bool, items []T) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	if len(items) == 0 {
		return nil
	}
	s.queue = append(s.queue, items...)
	if urgent && !s.urgent {
		s.urgent = true
		s.nudge()
	}
	if !s.running {
		s.running = true
		go s.loop()
	}
	return nil
}

// nudge wakes a lingering loop. s.mu must be held.
func (s *stage[T]) nudge() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// loop hands the queue to the handler, batch after batch, until it is empty.
func (s *stage[T]) loop() {
	var batch []T
	var last time.Time
	for {
		if !last.IsZero() {
			s.wait(last)
		}
		last = time.Now()
		s.mu.Lock()
		n := min(len(s.queue), s.maxBatch)
		if n == 0 {
			s.running = false
			s.idle.Broadcast()
			s.mu.Unlock()
			return
		}
		batch = append(batch[:0], s.queue[:n]...)
		rest := copy(s.queue, s.queue[n:])
		clear(s.queue[rest:])
		s.queue = s.queue[:rest]
		if rest == 0 {
			s.urgent = false // what is left of the queue, if anything, counts as urgent
		}
		s.mu.Unlock()
		s.handle(batch)
		clear(batch)
	}
}

// wait blocks until the next batch may start, the last one having started at last: until the
// interval has passed, and then, while only lingering items are queued, until linger has.
func (s *stage[T]) wait(last time.Time) {
	time.Sleep(time.Until(last.Add(s.interval)))
	if s.linger <= s.interval {
		return
	}
	s.mu.Lock()
	now := s.urgent || s.closed || len(s.queue) == 0 // an empty queue ends the loop at once
	select {
	case <-s.wake: // a token from before; s.urgent tells whether it still counts
	default:
	}
	s.mu.Unlock()
	if now {
		return
	}
	t := time.NewTimer(time.Until(last.Add(s.linger)))
	defer t.Stop()
	select {
	case <-t.C:
	case <-s.wake:
	}
}

// close refuses further items and blocks until the queued ones are handled, without lingering.
func (s *stage[T]) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.running {
		s.urgent = true
		s.nudge()
	}
	for s.running {
		s.idle.Wait()
	}
}
