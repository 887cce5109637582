package storage

import (
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
)

// errClosed: a write came after Close.
var errClosed = errors.New("the database is closed")

// maxBatch bounds the writes in one transaction: 4,096 moves dirty at most some 4,096 pages.
const maxBatch = 4096

// commitGap is the least time from one commit's start to the next one's. Where a commit takes
// less (a fast disk, tmpfs), moves arriving one at a time would each get a transaction of their
// own, with its page reads and copies, allocations and two fdatasyncs; waiting for company this
// long keeps commits to 250 a second under load, at the price of up to commitGap more for a
// move. A write that comes when no commit has started for commitGap is committed at once, and
// so is the next batch once commitEnough writes wait: a commit's own cost, shared by that many,
// is no reason to keep them waiting.
const commitGap = 4 * time.Millisecond

// commitEnough writes waiting start the next commit without waiting out commitGap.
const commitEnough = 256

// groupCommit commits writes to bbolt in groups: the writes that arrive while a transaction is
// being committed wait for it to end and then share the next one, in the order they came (see
// stage). A write returns when its transaction is on disk, so whatever a room shows after a
// write returned survives a crash; a lone write is committed at once, and under load one commit
// (bbolt's two fdatasyncs) serves the writes of many rooms.
//
// bbolt's own db.Batch does not group like this: it closes a batch after MaxBatchDelay whether or
// not a commit is running, and the closed batches then queue for the write lock one after
// another. Under 1,000 moves a second a batch held two or three moves, commits queued behind each
// other, and a move waited 0.8 s on average for its commit.
//
// A commit that fails (bbolt could not grow, write or sync the file) fails the store: bbolt has
// rolled the transaction back in memory, but what the file, and the kernel's cache of it, hold
// of it is not known (Linux may drop the dirty pages of a failed fdatasync and report success to
// the next one), so nothing more is written and every later write fails with ErrFailed, as
// PostgreSQL stops at a failed fsync. Its writes are in doubt: not applied by their callers, and
// possibly in the file at the next start.
//
// groupCommit is safe for concurrent use.
type groupCommit struct {
	db     *bolt.DB
	log    *slog.Logger
	calls  *stage[commitCall]
	failed atomic.Pointer[error] // the error of the commit that failed the store; nil: none
	// commits counts the transactions run (a batch with a failing write runs one more).
	commits atomic.Uint64
}

// commitCall is one write waiting for its commit.
type commitCall struct {
	fn   func(*bolt.Tx) error
	done chan error // its outcome, once
}

func newGroupCommit(db *bolt.DB, log *slog.Logger) *groupCommit {
	g := &groupCommit{db: db, log: log}
	g.calls = newStage(maxBatch, commitGap, commitEnough, g.commit)
	return g
}

// do runs fn in a read-write transaction shared with other writers, after every write that came
// before it, and blocks until that transaction is committed to disk. fn's error, or a panic,
// fails only its own write; a failed commit fails every write in it with ErrFailed, and so
// does every later do.
func (g *groupCommit) do(fn func(*bolt.Tx) error) error { return <-g.start(fn) }

// start queues fn as do does, without waiting: fn's outcome comes on the channel returned. Writes
// started one after another by one goroutine run in that order.
func (g *groupCommit) start(fn func(*bolt.Tx) error) <-chan error {
	c := commitCall{fn: fn, done: make(chan error, 1)}
	if err := g.failedWith(); err != nil {
		c.done <- err
		return c.done
	}
	if err := g.calls.add(c); err != nil {
		c.done <- err
	}
	return c.done
}

// commit runs a batch of writes in one transaction and answers each. A write whose function
// fails is answered with its error, and the transaction is run again without it. The stage's
// goroutine only (or before the stage is used).
func (g *groupCommit) commit(calls []commitCall) {
	for len(calls) > 0 {
		if err := g.failedWith(); err != nil {
			for _, c := range calls {
				c.done <- err
			}
			return
		}
		failed, ferr := -1, error(nil)
		g.commits.Add(1)
		err := safeUpdate(g.db, func(tx *bolt.Tx) error {
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
			calls = slices.Delete(calls, failed, failed+1)
			continue
		}
		if err != nil {
			err = g.fail(err)
		}
		for _, c := range calls {
			c.done <- err
		}
		return
	}
}

// fail makes the store failed with the error of a commit, logs it the first time, and returns
// the error later writes get.
func (g *groupCommit) fail(cause error) error {
	err := fmt.Errorf("%w: %w", ErrFailed, cause)
	if g.failed.CompareAndSwap(nil, &err) {
		g.log.Error("storage: a commit failed to reach the disk; every write is refused until the server is restarted",
			"err", cause)
	}
	return *g.failed.Load()
}

// failedWith returns the error that failed the store, or nil.
func (g *groupCommit) failedWith() error {
	if p := g.failed.Load(); p != nil {
		return *p
	}
	return nil
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

// safeUpdate is db.Update, with a panic of bbolt's while committing (a page damaged since Open) an
// error wrapping ErrDamaged; bbolt has rolled the transaction back by then. The commit fails, and
// the store with it.
func safeUpdate(db *bolt.DB, fn func(*bolt.Tx) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: the storage library failed writing it: %v", ErrDamaged, p)
		}
	}()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	return db.Update(fn)
}

// close refuses further writes and blocks until the queued ones are committed.
func (g *groupCommit) close() { g.calls.close() }
