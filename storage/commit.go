package storage

import (
	"errors"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// errClosed: a write came after Close.
var errClosed = errors.New("the database is closed")

// groupCommit commits the writes of many callers in shared transactions: while one commit is being
// written (and for the rest of its interval), the writes that arrive wait, and the next commit
// takes all of them at once. A lone write is committed at once, without waiting for company; a
// busy server shares each commit (and its two fsyncs and some five pages written) among as many
// writes as arrived during the previous one, so the number of commits a second stays bounded and
// the groups grow with the load.
//
// bbolt's own db.Batch does not do this: it closes a batch after MaxBatchDelay whether or not a
// commit is running, and the closed batches then queue for the write lock one after another.
// Under 1,000 moves a second a batch held two or three moves, commits queued behind each other,
// and a move waited 0.8 s on average for its commit.
//
// groupCommit is safe for concurrent use.
type groupCommit struct {
	db *bolt.DB
	// interval is the least time from the start of one commit to the start of the next while
	// writes keep coming: a busy server commits at most 1/interval times a second, in bigger
	// groups. A write that finds no commit under way is committed at once.
	interval time.Duration

	mu      sync.Mutex
	pending []commitCall
	running bool // a goroutine is committing; it takes pending when it is done
	closed  bool
	idle    *sync.Cond // signalled when running turns false
}

type commitCall struct {
	fn   func(*bolt.Tx) error
	done chan error
}

// maxGroup bounds the writes of one transaction.
const maxGroup = 4096

func newGroupCommit(db *bolt.DB, interval time.Duration) *groupCommit {
	g := &groupCommit{db: db, interval: interval}
	g.idle = sync.NewCond(&g.mu)
	return g
}

// do runs fn in a read-write transaction shared with other writers, and blocks until that
// transaction is committed to disk. fn must not fail for reasons that depend on the other
// writers' changes; its error, or a panic, fails only its own write.
func (g *groupCommit) do(fn func(*bolt.Tx) error) error {
	done := make(chan error, 1)
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return errClosed
	}
	g.pending = append(g.pending, commitCall{fn: fn, done: done})
	if !g.running {
		g.running = true
		go g.loop()
	}
	g.mu.Unlock()
	return <-done
}

// loop commits the pending writes, group after group, until none are left.
func (g *groupCommit) loop() {
	var calls []commitCall
	var last time.Time
	for {
		if !last.IsZero() {
			time.Sleep(time.Until(last.Add(g.interval)))
		}
		last = time.Now()
		g.mu.Lock()
		n := min(len(g.pending), maxGroup)
		if n == 0 {
			g.running = false
			g.idle.Broadcast()
			g.mu.Unlock()
			return
		}
		calls = append(calls[:0], g.pending[:n]...)
		rest := copy(g.pending, g.pending[n:])
		clear(g.pending[rest:])
		g.pending = g.pending[:rest]
		g.mu.Unlock()
		g.commit(calls)
	}
}

// commit writes calls in one transaction. A call whose function fails is answered with its error
// and the transaction is tried again without it.
func (g *groupCommit) commit(calls []commitCall) {
	for len(calls) > 0 {
		failed, ferr := -1, error(nil)
		err := g.db.Update(func(tx *bolt.Tx) error {
			for i, c := range calls {
				if err := safeCall(c.fn, tx); err != nil {
					failed, ferr = i, err
					return err
				}
			}
			return nil
		})
		if failed >= 0 {
			calls[failed].done <- ferr
			calls = append(calls[:failed], calls[failed+1:]...)
			continue
		}
		for _, c := range calls {
			c.done <- err
		}
		return
	}
}

// safeCall runs fn, turning a panic into an error.
func safeCall(fn func(*bolt.Tx) error, tx *bolt.Tx) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic while writing: %v", p)
		}
	}()
	return fn(tx)
}

// close refuses further writes and blocks until the pending ones are committed.
func (g *groupCommit) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	for g.running {
		g.idle.Wait()
	}
}
