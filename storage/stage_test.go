package storage

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// batchLog records the batches a stage hands to its handler.
type batchLog struct {
	mu      sync.Mutex
	batches [][]int
	handled chan struct{} // a token per batch
}

func newBatchLog() *batchLog { return &batchLog{handled: make(chan struct{}, 100)} }

func (l *batchLog) handle(items []int) {
	l.mu.Lock()
	l.batches = append(l.batches, slices.Clone(items))
	l.mu.Unlock()
	l.handled <- struct{}{}
}

func (l *batchLog) snapshot() [][]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.batches)
}

// next blocks until the handler has run once more, or fails the test after a minute.
func (l *batchLog) next(t *testing.T) {
	t.Helper()
	select {
	case <-l.handled:
	case <-time.After(time.Minute):
		t.Fatal("no batch was handled in a minute")
	}
}

// holdBatch makes s's handler wait in the batch that starts with item first until hold is
// closed, and say on entered when it is there.
func holdBatch(s *stage[int], first int) (entered, hold chan struct{}) {
	entered, hold = make(chan struct{}, 1), make(chan struct{})
	handle := s.handle
	s.handle = func(items []int) {
		if items[0] == first {
			entered <- struct{}{}
			<-hold
		}
		handle(items)
	}
	return entered, hold
}

// TestStageBatches: the items that arrive while a batch is handled make up the next one, in
// order, in batches of at most maxBatch; close waits for them and refuses more.
func TestStageBatches(t *testing.T) {
	l := newBatchLog()
	s := newStage(3, 0, 3, l.handle)
	entered, hold := holdBatch(s, 0)
	if err := s.add(0); err != nil { // held in the handler while the rest queues
		t.Fatal(err)
	}
	<-entered
	if err := s.add(1, 2, 3, 4); err != nil {
		t.Fatal(err)
	}
	if err := s.add(5, 6); err != nil {
		t.Fatal(err)
	}
	close(hold)
	for range 3 {
		l.next(t)
	}
	want := [][]int{{0}, {1, 2, 3}, {4, 5, 6}}
	if got := l.snapshot(); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("batches %v, want %v", got, want)
	}
	s.close()
	if err := s.add(7); err != errClosed {
		t.Fatalf("add after close: %v, want errClosed", err)
	}
}

// TestStageGap: after a batch, the stage waits out minGap from the batch's start before it takes
// the next, and the items that arrive meanwhile make up one batch; a lone item is handled at once.
func TestStageGap(t *testing.T) {
	l := newBatchLog()
	s := newStage(10, time.Second, 10, l.handle)
	slept, wake := make(chan time.Duration, 1), make(chan struct{})
	s.sleep = func(d time.Duration, _ <-chan struct{}) { slept <- d; <-wake }
	if err := s.add(0); err != nil {
		t.Fatal(err)
	}
	l.next(t) // handled at once: no batch came before it
	if d := <-slept; d <= 0 || d > time.Second {
		t.Fatalf("waited %v after the first batch, want at most the gap", d)
	}
	for i := 1; i <= 4; i++ { // arrive during the gap
		if err := s.add(i); err != nil {
			t.Fatal(err)
		}
	}
	if got := l.snapshot(); len(got) != 1 {
		t.Fatalf("batches %v handled during the gap, want only the first", got)
	}
	wake <- struct{}{}
	l.next(t)
	<-slept
	close(wake) // the queue is empty after this gap: the goroutine ends
	want := [][]int{{0}, {1, 2, 3, 4}}
	if got := l.snapshot(); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("batches %v, want %v", got, want)
	}
	s.close()
}

// TestStageEnough: enough items arriving during the gap end it, and make the next batch at once;
// after a batch during which enough arrived, the next starts without a gap.
func TestStageEnough(t *testing.T) {
	l := newBatchLog()
	s := newStage(10, time.Hour, 3, l.handle)
	slept, wake := make(chan time.Duration, 10), make(chan struct{})
	s.sleep = func(d time.Duration, full <-chan struct{}) {
		slept <- d
		select {
		case <-full:
		case <-wake:
		}
	}
	entered, hold := holdBatch(s, 4)
	add := func(items ...int) {
		t.Helper()
		if err := s.add(items...); err != nil {
			t.Fatal(err)
		}
	}
	add(0)
	l.next(t) // handled at once
	<-slept   // the gap after it has begun
	add(1)
	add(2)
	if got := l.snapshot(); len(got) != 1 {
		t.Fatalf("batches %v handled with 2 items waiting out the gap, want only the first", got)
	}
	add(3) // the third: the gap ends
	l.next(t)
	<-slept
	add(4)
	wake <- struct{}{} // this gap ends by its time
	<-entered
	add(5, 6, 7) // enough, during the batch of 4
	close(hold)
	l.next(t)
	l.next(t)
	if n := len(slept); n > 1 {
		t.Fatalf("%d gaps begun after the batch of 4, want none before the batch of 5 to 7", n)
	}
	close(wake)
	s.close()
	want := [][]int{{0}, {1, 2, 3}, {4}, {5, 6, 7}}
	if got := l.snapshot(); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("batches %v, want %v", got, want)
	}
}
