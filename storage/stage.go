package storage

import (
	"sync"
	"time"
)

// A stage hands the items added to it to its handler in batches, in the order they were added,
// on one goroutine at a time: the items that arrive while a batch is being handled make up the
// next batch. A lone item is handled at once, without waiting for company; under load the
// batches grow with the time a batch takes, and a batch starts at least minGap after the one
// before it, so that a stream of items that each take less than minGap to handle still comes in
// batches, unless enough items wait already: those share their batch without waiting longer.
//
// The goroutine runs only while there is work: it starts at the first item and ends when the
// queue is empty minGap after its last batch started. A stage is safe for concurrent use.
type stage[T any] struct {
	maxBatch int           // the most items in one batch
	minGap   time.Duration // the least time from one batch's start to the next one's
	enough   int           // this many items waiting start the next batch before minGap
	handle   func([]T)
	// sleep waits d, or less once full has a value; tests replace it.
	sleep func(d time.Duration, full <-chan struct{})
	full  chan struct{} // a value when enough items wait during a gap; capacity one

	mu      sync.Mutex
	queue   []T
	running bool // a goroutine is handling batches; it takes the queue when it is done
	closed  bool
	idle    *sync.Cond // signalled when running turns false
}

func newStage[T any](maxBatch int, minGap time.Duration, enough int, handle func([]T)) *stage[T] {
	s := &stage[T]{maxBatch: maxBatch, minGap: minGap, enough: enough, handle: handle, sleep: sleepUnless,
		full: make(chan struct{}, 1)}
	s.idle = sync.NewCond(&s.mu)
	return s
}

// sleepUnless waits d, or until full has a value.
func sleepUnless(d time.Duration, full <-chan struct{}) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-full:
	}
}

// add queues items for the handler. After close it fails with errClosed and queues nothing.
func (s *stage[T]) add(items ...T) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	if len(items) == 0 {
		return nil
	}
	s.queue = append(s.queue, items...)
	if len(s.queue) >= s.enough && len(s.queue)-len(items) < s.enough {
		select {
		case s.full <- struct{}{}: // ends the gap, if one is being waited out
		default:
		}
	}
	if !s.running {
		s.running = true
		go s.loop()
	}
	return nil
}

// loop hands the queue to the handler, batch after batch, until it is empty.
func (s *stage[T]) loop() {
	var batch []T
	for {
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
		select {
		case <-s.full: // a signal from before this batch took the queue
		default:
		}
		s.mu.Unlock()
		start := time.Now()
		s.handle(batch)
		clear(batch)
		s.mu.Lock()
		enough := len(s.queue) >= s.enough
		s.mu.Unlock()
		if wait := s.minGap - time.Since(start); wait > 0 && !enough {
			s.sleep(wait, s.full) // the items that arrive meanwhile join the next batch
		}
	}
}

// close refuses further items and blocks until the queued ones are handled.
func (s *stage[T]) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for s.running {
		s.idle.Wait()
	}
}
