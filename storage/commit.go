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

// groupCommit commits the writes of many callers together: while one group is being written (and
// for the rest of its interval), the writes that arrive wait, and the next group takes all of
// them at once. A lone write is written at once, without waiting for company; a busy server
// shares each group's fsyncs among as many writes as arrived during the previous one, so the
// number of fsyncs a second stays bounded and the groups grow with the load.
//
// Two kinds of writes share the groups. A logged write (moves) is durable once its record is in
// the journal: one append and one fdatasync for the group. Its change to the database waits, in
// memory, for the next checkpoint. A transaction (match starts and ends, ratings) runs in a bbolt
// commit, whose two fsyncs cost more than the journal's one; each such commit first writes the
// logged changes still waiting (a checkpoint), after which the journal is emptied. Checkpoints
// also come when enough logged changes wait, or a second after the last one.
//
// bbolt's own db.Batch does not group like this: it closes a batch after MaxBatchDelay whether or
// not a commit is running, and the closed batches then queue for the write lock one after
// another. Under 1,000 moves a second a batch held two or three moves, commits queued behind each
// other, and a move waited 0.8 s on average for its commit.
//
// groupCommit is safe for concurrent use.
type groupCommit struct {
	db *bolt.DB
	// journal takes the logged writes; nil means they are committed as transactions.
	journal *journal
	// interval is the least time from the start of one group to the start of the next while
	// writes keep coming. A write that finds no group under way is written at once.
	interval time.Duration

	mu      sync.Mutex
	queue   []commitCall
	running bool // a goroutine is writing; it takes the queue when it is done
	closed  bool
	idle    *sync.Cond // signalled when running turns false

	// Owned by the writing goroutine (or by close, once it has stopped).
	logged     []func(*bolt.Tx) error // changes of journaled writes not in the database yet
	checkpoint time.Time              // when the database last took the logged changes
}

type commitCall struct {
	fn   func(*bolt.Tx) error
	rec  []byte // the journal record of a logged write; nil for a transaction
	done chan error
}

// Limits of a group and of the changes waiting for a checkpoint.
const (
	maxGroup        = 4096
	maxLogged       = 8192
	checkpointEvery = time.Second
)

func newGroupCommit(db *bolt.DB, j *journal, interval time.Duration) *groupCommit {
	g := &groupCommit{db: db, journal: j, interval: interval, checkpoint: time.Now()}
	g.idle = sync.NewCond(&g.mu)
	return g
}

// do runs fn in a read-write transaction shared with other writers, and blocks until that
// transaction is committed to disk. fn must not fail for reasons that depend on the other
// writers' changes; its error, or a panic, fails only its own write.
func (g *groupCommit) do(fn func(*bolt.Tx) error) error {
	return g.enqueue(commitCall{fn: fn})
}

// log makes a change durable by writing rec to the journal, and blocks until it is on disk; fn,
// which makes the change in the database, runs at a later checkpoint (before any transaction that
// comes after it). fn must not fail but for the database's own errors, and must be idempotent: after a
// crash it runs again when the journal is read back. Without a journal, log is do.
func (g *groupCommit) log(rec []byte, fn func(*bolt.Tx) error) error {
	if g.journal == nil {
		return g.do(fn)
	}
	return g.enqueue(commitCall{fn: fn, rec: rec})
}

func (g *groupCommit) enqueue(c commitCall) error {
	c.done = make(chan error, 1)
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return errClosed
	}
	g.queue = append(g.queue, c)
	if !g.running {
		g.running = true
		go g.loop()
	}
	g.mu.Unlock()
	return <-c.done
}

// loop writes the queued writes, group after group, until none are left.
func (g *groupCommit) loop() {
	var calls []commitCall
	var last time.Time
	for {
		if !last.IsZero() {
			time.Sleep(time.Until(last.Add(g.interval)))
		}
		last = time.Now()
		g.mu.Lock()
		n := min(len(g.queue), maxGroup)
		if n == 0 {
			g.running = false
			g.idle.Broadcast()
			g.mu.Unlock()
			return
		}
		calls = append(calls[:0], g.queue[:n]...)
		rest := copy(g.queue, g.queue[n:])
		clear(g.queue[rest:])
		g.queue = g.queue[:rest]
		g.mu.Unlock()
		g.write(calls)
	}
}

// write writes one group: the logged writes to the journal, then, when there are transactions or
// a checkpoint is due, one bbolt commit.
func (g *groupCommit) write(calls []commitCall) {
	var recs [][]byte
	txs := calls[:0:0]
	for _, c := range calls {
		if c.rec != nil {
			recs = append(recs, c.rec)
		} else {
			txs = append(txs, c)
		}
	}
	if len(recs) > 0 {
		err := g.journal.append(recs)
		for _, c := range calls {
			if c.rec == nil {
				continue
			}
			if err == nil {
				g.logged = append(g.logged, c.fn)
			}
			c.done <- err
		}
	}
	due := len(g.logged) >= maxLogged || len(g.logged) > 0 && time.Since(g.checkpoint) >= checkpointEvery
	if len(txs) > 0 || due {
		g.commit(txs)
	}
}

// commit writes the logged changes still waiting, then calls, in one transaction. A call whose
// function fails is answered with its error and the transaction is tried again without it. Once
// the logged changes are in the database, the journal is emptied.
func (g *groupCommit) commit(calls []commitCall) {
	for {
		failed, ferr := -1, error(nil)
		err := g.db.Update(func(tx *bolt.Tx) error {
			for _, fn := range g.logged {
				if err := safeCall(fn, tx); err != nil {
					return fmt.Errorf("checkpoint: %w", err)
				}
			}
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
		if err == nil && len(g.logged) > 0 {
			clear(g.logged)
			g.logged = g.logged[:0]
			g.checkpoint = time.Now()
			// The changes are in the database: the journal may go. If emptying it fails, its
			// records are read back at the next open and written again, which changes nothing.
			_ = g.journal.reset()
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

// flush blocks until every logged change is in the database (a checkpoint), for readers that
// need them there.
func (g *groupCommit) flush() error {
	if g.journal == nil {
		return nil
	}
	return g.do(func(*bolt.Tx) error { return nil })
}

// close refuses further writes, blocks until the queued ones are written, and writes the logged
// changes still waiting into the database.
func (g *groupCommit) close() {
	g.mu.Lock()
	g.closed = true
	for g.running {
		g.idle.Wait()
	}
	g.mu.Unlock()
	if len(g.logged) > 0 {
		g.commit(nil)
	}
}
