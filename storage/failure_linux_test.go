package storage

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
)

// breakable is a database whose file a test can make fail under bbolt.
type breakable struct {
	*DB
	path  string
	fd    int // bbolt's descriptor of the file
	spare int // a duplicate of it, which keeps the open file (and bbolt's lock) while fd is replaced
	log   *bytes.Buffer
}

// openBreakable opens a database in a new folder, reaching its file through Options.openFile.
func openBreakable(t *testing.T) *breakable {
	t.Helper()
	b := &breakable{path: filepath.Join(t.TempDir(), "arcade.db"), log: &bytes.Buffer{}, fd: -1}
	var file *os.File
	d, err := Open(b.path, Options{LockTimeout: time.Second, Logger: slog.New(slog.NewTextHandler(b.log, nil)),
		openFile: func(name string, flag int, mode os.FileMode) (*os.File, error) {
			f, err := os.OpenFile(name, flag, mode)
			file = f
			return f, err
		}})
	if err != nil {
		t.Fatal(err)
	}
	b.DB, b.fd = d, int(file.Fd())
	if b.spare, err = syscall.Dup(b.fd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.close(t) })
	return b
}

// close puts the file back and closes the database, once.
func (b *breakable) close(t *testing.T) {
	t.Helper()
	if b.spare < 0 {
		return
	}
	b.repair(t)
	syscall.Close(b.spare)
	b.spare = -1
	if err := b.Close(); err != nil {
		t.Error(err)
	}
}

// breakFile makes bbolt's later writes to the file fail as how says: "write": every write fails
// (the descriptor becomes a read-only one of the same file); "sync": writes vanish and fdatasync
// fails (the descriptor becomes /dev/null's), as when the disk loses a write.
func (b *breakable) breakFile(t *testing.T, how string) {
	t.Helper()
	var f *os.File
	var err error
	switch how {
	case "write":
		f, err = os.Open(b.path)
	case "sync":
		f, err = os.OpenFile(os.DevNull, os.O_RDWR, 0)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Dup3(int(f.Fd()), b.fd, 0); err != nil {
		t.Fatal(err)
	}
}

// repair puts the file back under bbolt's descriptor.
func (b *breakable) repair(t *testing.T) {
	t.Helper()
	if err := syscall.Dup3(b.spare, b.fd, 0); err != nil {
		t.Fatal(err)
	}
}

// freePages gives bbolt free pages in the file, so that the next commits take their pages from
// them and do not grow the file: they reach the writing of pages and the fdatasync.
func (b *breakable) freePages(t *testing.T) {
	t.Helper()
	scratch := []byte("scratch")
	for _, fn := range []func(*bolt.Tx) error{
		func(tx *bolt.Tx) error {
			bk, err := tx.CreateBucketIfNotExists(scratch)
			if err != nil {
				return err
			}
			return bk.Put([]byte("big"), make([]byte, 1<<20))
		},
		func(tx *bolt.Tx) error { return tx.DeleteBucket(scratch) },
	} {
		if err := b.db.Update(fn); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFailedCommit: when bbolt cannot write the file, or cannot sync it, the move that met the
// failure fails with ErrFailed and is not in the database; every later write fails with
// ErrFailed without touching the file; reads go on; the failure is logged once. After a
// restart the database has what was committed before the failure, and takes writes again.
func TestFailedCommit(t *testing.T) {
	for _, c := range []struct {
		how   string
		cause error // what the commit met: a write refused, a sync refused
	}{{"write", syscall.EBADF}, {"sync", syscall.EINVAL}} {
		t.Run(c.how, func(t *testing.T) {
			b := openBreakable(t)
			if err := b.Claim("SHA256:ann", "ann"); err != nil {
				t.Fatal(err)
			}
			moves := start(t, b.DB, "BREAK")
			moves(2)
			id := b.active["BREAK"]
			b.freePages(t)
			b.breakFile(t, c.how)

			err := b.AppendMove("BREAK", 2, record.Move{Move: "lost"})
			if !errors.Is(err, ErrFailed) || !errors.Is(err, c.cause) {
				t.Fatalf("the move that met the failure: %v; want ErrFailed from %v", err, c.cause)
			}
			if m, err := b.Match(id); err != nil || len(m.Moves) != 2 {
				t.Errorf("read after the failure: %d moves, %v; want the 2 committed before", len(m.Moves), err)
			}
			b.repair(t) // a store that failed stays failed, whatever the disk does next
			if err := b.AppendMove("BREAK", 2, record.Move{Move: "again"}); !errors.Is(err, ErrFailed) {
				t.Errorf("a move after the failure: %v, want ErrFailed", err)
			}
			if err := b.Claim("SHA256:bob", "bob"); !errors.Is(err, ErrFailed) {
				t.Errorf("a claim after the failure: %v, want ErrFailed", err)
			}
			if _, err := b.StartMatch(record.Match{Code: "LATER", Game: "stonetowers", Seats: twoPlayers()}); !errors.Is(err, ErrFailed) {
				t.Errorf("a match start after the failure: %v, want ErrFailed", err)
			}
			if n := strings.Count(b.log.String(), "every write is refused"); n != 1 {
				t.Errorf("the failure was logged %d times, want once:\n%s", n, b.log)
			}

			b.close(t)
			d := openAt(t, b.path)
			defer d.Close()
			if m, err := d.Match(id); err != nil || len(m.Moves) != 2 {
				t.Errorf("after a restart: %d moves, %v; want the 2 committed before the failure", len(m.Moves), err)
			}
			if err := d.AppendMove("BREAK", 2, record.Move{Move: "2"}); err != nil {
				t.Errorf("a move after the restart: %v", err)
			}
		})
	}
}
