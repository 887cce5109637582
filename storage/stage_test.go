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

// TestStageLingers: items added with addLater while a batch is handled wait for the linger (here
// an hour, so never in the test); an item added with add takes them along at once; close takes
// the lingering ones without waiting.
func TestStageLingers(t *testing.T) {
	l := newBatchLog()
	s := newStage(0, time.Hour, 100, l.handle)
	entered, hold := holdBatch(s, 1)

	if err := s.addLater(1); err != nil { // a lone item goes at once
		t.Fatal(err)
	}
	<-entered
	if err := s.addLater(2, 3); err != nil {
		t.Fatal(err)
	}
	close(hold)
	l.next(t)
	select {
	case <-l.handled:
		t.Fatalf("lingering items were handled before the linger or an urgent item: %v", l.snapshot())
	case <-time.After(50 * time.Millisecond):
	}
	if err := s.add(4); err != nil {
		t.Fatal(err)
	}
	l.next(t)
	if got, want := l.snapshot(), [][]int{{1}, {2, 3, 4}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("batches %v, want %v", got, want)
	}

	entered, hold = holdBatch(s, 5)
	if err := s.addLater(5); err != nil { // the queue was empty: a lone item goes at once
		t.Fatal(err)
	}
	<-entered
	if err := s.addLater(6); err != nil {
		t.Fatal(err)
	}
	close(hold)
	l.next(t)
	closed := make(chan struct{})
	go func() { s.close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(time.Minute):
		t.Fatal("close waited for the linger")
	}
	if got := l.snapshot(); len(got) != 4 || !slices.Equal(got[3], []int{6}) {
		t.Fatalf("batches after close %v, want the lingering item handled last", got)
	}
	if err := s.addLater(7); err != errClosed {
		t.Fatalf("addLater after close: %v, want errClosed", err)
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

// TestStageMaxBatch: a queue longer than maxBatch is handled in order, in batches of at most
// maxBatch, and the rest of a queue that held an urgent item does not linger.
func TestStageMaxBatch(t *testing.T) {
	l := newBatchLog()
	s := newStage(0, time.Hour, 3, l.handle)
	entered, hold := holdBatch(s, 0)
	if err := s.add(0); err != nil { // held in the handler while the rest queues
		t.Fatal(err)
	}
	<-entered
	if err := s.addLater(1, 2, 3, 4); err != nil {
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
}
