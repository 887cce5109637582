package storage

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
)

// errClosed: a write came after Close.
var errClosed = errors.New("the database is closed")

// groupCommit writes what rooms write while they play, for many rooms at once, in two stages
// (see stage), each of which takes everything that arrived while it was busy as its next batch:
//
//   - appends: logged writes (match starts, moves, seat changes, abandons, match ends; see
//     logEntry) are appended to the journal, one append and one fdatasync for the batch, and
//     their callers are answered: the writes are durable. The batch, in order, goes on to the
//     commits.
//   - commits: one bbolt transaction applies a batch, a checkpoint: the logged writes, and the
//     transactions given to do (readers' flushes), in the order they came, and records how far
//     into the journal the database now is. A transaction's caller is answered when its commit
//     is on disk.
//
// A move is therefore on disk before anyone sees it, and waits for one fdatasync of an append,
// never for a bbolt commit (two fsyncs, with whole pages). The commits run on their own
// goroutine, so a slow one holds no move back; it only makes the next checkpoint larger.
//
// bbolt's own db.Batch does not group like this: it closes a batch after MaxBatchDelay whether or
// not a commit is running, and the closed batches then queue for the write lock one after
// another. Under 1,000 moves a second a batch held two or three moves, commits queued behind each
// other, and a move waited 0.8 s on average for its commit.
//
// Without a journal (newGroupCommit with nil) logged writes are transactions. groupCommit is
// safe for concurrent use.
type groupCommit struct {
	db      *bolt.DB
	journal *journal           // owned by appends; nil: no journal
	appends *stage[commitCall] // nil without a journal
	commits *stage[commitCall]

	// unapplied counts logged writes answered but not yet in the database.
	unapplied atomic.Int64

	// Owned by the commits stage (and by close, once the stages have stopped).
	carry []commitCall // logged writes whose commit failed, to be tried again first
	kept  uint64       // the oldest journal segment that may still be on disk
}

// commitCall is one write on its way through the stages.
type commitCall struct {
	fn  func(*bolt.Tx) error
	rec []byte // a logged write's journal record; nil for a transaction
	// done answers the caller; nil for a logged write that has been answered already.
	done chan error
	pos  journalPos // a logged write past the appends: the journal's end after its record
}

// Stage timing: the least time between the starts of two appends, and of two commits, while
// writes keep coming; and the most time a checkpoint waits for company.
//
// Appends write a few KiB and wait for one fdatasync; at most 250 a second cost a move at most
// 4 ms more. Commits write whole pages and wait for two fsyncs. A transaction (a reader's flush,
// a new player) has somebody waiting, and is committed at most commitInterval after the last
// commit; logged writes have been answered already, and wait up to checkpointInterval for a
// checkpoint. The longer wait makes checkpoints fewer and larger, and the moves of a match then
// share pages: a room moves about once a second, so a checkpoint every 100 ms wrote a page for
// nearly every move, and one every 10 s writes one for about every ten. On the VM the arcade is
// measured on, every fsync and every page written by any process on the disk showed in the
// latency of moves; so did the collector, which copied bbolt's nodes at every checkpoint.
//
// A crash loses nothing either way: replay at the next open takes whatever the journal holds
// past the last checkpoint, at most about checkpointInterval of play.
const (
	appendInterval     = 4 * time.Millisecond
	commitInterval     = 100 * time.Millisecond
	checkpointInterval = 10 * time.Second
)

// Batch bounds: an append of 4,096 records is about 1 MiB; a checkpoint takes all the journal
// since the last one (10,000 moves at 1,000 a second), and stays under the bound unless the
// database falls far behind.
const (
	maxAppendBatch = 4096
	maxCommitBatch = 1 << 16
)

// newGroupCommit returns a group commit into db, logging into j (nil: no journal). j's records
// before its current end must be in db already. Transactions are committed at most commitEvery
// apart, and logged writes wait at most checkpointEvery for theirs.
func newGroupCommit(db *bolt.DB, j *journal, appendEvery, commitEvery, checkpointEvery time.Duration) *groupCommit {
	g := &groupCommit{db: db, journal: j}
	g.commits = newStage(commitEvery, checkpointEvery, maxCommitBatch, func(calls []commitCall) { g.commit(calls) })
	if j != nil {
		g.appends = newStage(appendEvery, appendEvery, maxAppendBatch, g.append)
		g.kept = j.gen
	}
	return g
}

// do runs fn in a read-write transaction shared with other writers, after every write that came
// before it, and blocks until that transaction is committed to disk. fn must not fail for reasons
// that depend on the other writers' changes; its error, or a panic, fails only its own write.
func (g *groupCommit) do(fn func(*bolt.Tx) error) error {
	c := commitCall{fn: fn, done: make(chan error, 1)}
	first := g.commits
	if g.appends != nil {
		first = g.appends
	}
	if err := first.add(c); err != nil {
		return err
	}
	return <-c.done
}

// log makes the write e durable, in the journal, and blocks until it is on disk; the database
// takes it at a later checkpoint, before any transaction that comes after it. Without a journal,
// log is do(e.apply).
func (g *groupCommit) log(e logEntry) error {
	if g.journal == nil {
		return g.do(e.apply)
	}
	rec, err := encodeEntry(e)
	if err != nil {
		return err
	}
	c := commitCall{fn: e.apply, rec: rec, done: make(chan error, 1)}
	g.unapplied.Add(1)
	if err := g.appends.add(c); err != nil {
		g.unapplied.Add(-1)
		return err
	}
	return <-c.done
}

// append writes the logged writes of a batch to the journal, answers their callers, and hands
// the batch on to the commits. Appends' goroutine only.
func (g *groupCommit) append(calls []commitCall) {
	var recs [][]byte
	for _, c := range calls {
		if c.rec != nil {
			recs = append(recs, c.rec)
		}
	}
	var pos journalPos
	var err error
	if len(recs) > 0 {
		pos, err = g.journal.append(recs)
	}
	next := make([]commitCall, 0, len(calls))
	for _, c := range calls {
		if c.rec != nil {
			c.done <- err
			if err != nil {
				g.unapplied.Add(-1)
				continue
			}
			c.done, c.rec, c.pos = nil, nil, pos
		}
		next = append(next, c)
	}
	add := g.commits.addLater // answered writes may wait for a checkpoint
	for _, c := range next {
		if c.done != nil {
			add = g.commits.add // somebody waits for a transaction
			break
		}
	}
	if err := add(next...); err != nil { // only after close, which waits for appends
		for _, c := range next {
			if c.done != nil {
				c.done <- err
			}
		}
	}
}

// commit applies a batch in one transaction, with the logged writes of a failed commit first,
// and records the journal position reached. A call whose function fails is answered with its
// error (a logged write is dropped; it fails the same way when replayed) and the transaction is
// tried again without it. Once the logged writes are in the database, the journal segments
// before them are removed. It returns the commit's own error (not a call's). Commits' goroutine
// only.
func (g *groupCommit) commit(calls []commitCall) error {
	if len(g.carry) > 0 {
		calls = append(g.carry, calls...)
		g.carry = nil
	}
	var pos journalPos
	for _, c := range calls {
		if c.done == nil && c.pos.after(pos) {
			pos = c.pos
		}
	}
	for {
		failed, ferr := -1, error(nil)
		err := g.db.Update(func(tx *bolt.Tx) error {
			for i, c := range calls {
				if err := safeCall(c.fn, tx); err != nil {
					failed, ferr = i, err
					return err
				}
			}
			if pos.gen == 0 {
				return nil
			}
			return tx.Bucket(bucketMeta).Put(keyJournal, pos.bytes())
		})
		if failed >= 0 {
			if c := calls[failed]; c.done != nil {
				c.done <- ferr
			} else {
				g.unapplied.Add(-1)
			}
			calls = append(calls[:failed], calls[failed+1:]...)
			continue
		}
		logged := 0
		for _, c := range calls {
			if c.done == nil {
				logged++
				if err != nil { // the commit failed, not the write: try it again
					g.carry = append(g.carry, c)
				}
			}
		}
		if err == nil {
			if g.journal != nil && pos.gen > g.kept {
				removeSegments(g.journal.path, pos.gen)
				g.kept = pos.gen
			}
			g.unapplied.Add(int64(-logged))
		}
		for _, c := range calls {
			if c.done != nil {
				c.done <- err
			}
		}
		return err
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

// flush blocks until every logged write answered before it is in the database, for readers that
// need them there. It costs nothing when there are none.
func (g *groupCommit) flush() error {
	if g.unapplied.Load() == 0 {
		return nil
	}
	return g.do(func(*bolt.Tx) error { return nil })
}

// close refuses further writes and blocks until the queued ones are in the database.
func (g *groupCommit) close() {
	if g.appends != nil {
		g.appends.close()
	}
	g.commits.close()
	if len(g.carry) > 0 {
		g.commit(nil) // a last try; what fails is replayed from the journal at the next open
	}
}
