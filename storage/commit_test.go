package storage

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

func openBolt(t *testing.T) *bolt.DB {
	t.Helper()
	db, err := bolt.Open(filepath.Join(t.TempDir(), "g.db"), 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("b")); return err }); err != nil {
		t.Fatal(err)
	}
	return db
}

func put(k string) func(*bolt.Tx) error {
	return func(tx *bolt.Tx) error { return tx.Bucket([]byte("b")).Put([]byte(k), []byte("v")) }
}

func keys(t *testing.T, db *bolt.DB) map[string]bool {
	t.Helper()
	got := map[string]bool{}
	_ = db.View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("b")).ForEach(func(k, _ []byte) error { got[string(k)] = true; return nil })
	})
	return got
}

// TestGroupCommitShares: writes that arrive while a commit is being written share the next
// transaction, and every one of them is on disk when do returns.
func TestGroupCommitShares(t *testing.T) {
	db := openBolt(t)
	g := newGroupCommit(db, slog.New(slog.DiscardHandler))
	// Hold the first commit until the others have queued behind it.
	release := make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- g.do(func(tx *bolt.Tx) error { <-release; return put("first")(tx) })
	}()
	for {
		g.calls.mu.Lock()
		running := g.calls.running && len(g.calls.queue) == 0
		g.calls.mu.Unlock()
		if running {
			break
		}
		time.Sleep(time.Millisecond)
	}
	const n = 50
	var wg sync.WaitGroup
	var txMu sync.Mutex
	txs := map[int]bool{} // the transactions the queued writes ran in
	for i := range n {
		wg.Go(func() {
			err := g.do(func(tx *bolt.Tx) error {
				txMu.Lock()
				txs[tx.ID()] = true
				txMu.Unlock()
				return put(fmt.Sprint(i))(tx)
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	for {
		g.calls.mu.Lock()
		queued := len(g.calls.queue)
		g.calls.mu.Unlock()
		if queued == n {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if len(txs) != 1 {
		t.Errorf("%d queued writes took %d transactions, want 1", n, len(txs))
	}
	if got := keys(t, db); len(got) != n+1 {
		t.Errorf("%d keys on disk, want %d", len(got), n+1)
	}
}

// TestGroupCommitFailureIsolated: a write that fails or panics fails alone; the writes sharing its
// transaction are committed.
func TestGroupCommitFailureIsolated(t *testing.T) {
	db := openBolt(t)
	g := newGroupCommit(db, slog.New(slog.DiscardHandler))
	bad := errors.New("bad write")
	var wg sync.WaitGroup
	var failed, panicked atomic.Int32
	for i := range 40 {
		wg.Go(func() {
			var fn func(*bolt.Tx) error
			switch i % 10 {
			case 3:
				fn = func(tx *bolt.Tx) error { _ = put("bad" + fmt.Sprint(i))(tx); return bad }
			case 7:
				fn = func(*bolt.Tx) error { panic("boom") }
			default:
				fn = put(fmt.Sprint(i))
			}
			err := g.do(fn)
			switch {
			case i%10 == 3:
				if !errors.Is(err, bad) {
					t.Errorf("write %d: %v, want its own error", i, err)
				}
				failed.Add(1)
			case i%10 == 7:
				if err == nil {
					t.Errorf("write %d panicked and reported no error", i)
				}
				panicked.Add(1)
			case err != nil:
				t.Errorf("write %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	got := keys(t, db)
	for i := range 40 {
		k := fmt.Sprint(i)
		if want := i%10 != 3 && i%10 != 7; got[k] != want {
			t.Errorf("key %s on disk = %v, want %v", k, got[k], want)
		}
		if got["bad"+k] {
			t.Errorf("the failed write %d left its key", i)
		}
	}
	if failed.Load() != 4 || panicked.Load() != 4 {
		t.Errorf("failed %d, panicked %d; want 4 and 4", failed.Load(), panicked.Load())
	}
}

// TestGroupCommitClose: close waits for the pending writes; later writes fail.
func TestGroupCommitClose(t *testing.T) {
	db := openBolt(t)
	g := newGroupCommit(db, slog.New(slog.DiscardHandler))
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			if err := g.do(put(fmt.Sprint(i))); err != nil && !errors.Is(err, errClosed) {
				t.Error(err)
			}
		})
	}
	time.Sleep(time.Millisecond)
	g.close()
	g.calls.mu.Lock()
	running, pending := g.calls.running, len(g.calls.queue)
	g.calls.mu.Unlock()
	if running || pending != 0 {
		t.Errorf("after close: running %v with %d pending", running, pending)
	}
	if err := g.do(put("late")); !errors.Is(err, errClosed) {
		t.Errorf("write after close: %v, want errClosed", err)
	}
	wg.Wait()
}
