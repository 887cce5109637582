package storage

import (
	"errors"
	"fmt"
	"io"

	bolt "go.etcd.io/bbolt"
)

// Snapshots: a replica (see Apply) is copied whole, with the position it has, so that another
// replica can start from the copy instead of applying the history from its first change
// (package cluster keeps such copies beside its stream, and trims the stream behind them).

// ErrBehind: a snapshot holds fewer changes than the database it would replace; Restore refuses
// it, as going back would apply changes twice.
var ErrBehind = errors.New("the snapshot is behind the database")

// Snapshot writes a consistent copy of the whole database to w, as Backup does, first calling
// begin, when not nil, with the position of the last change the copy holds (Applied, as of the
// copy) and the copy's size in bytes. An error from begin ends the snapshot before anything is
// written. It returns the number of bytes written.
func (d *DB) Snapshot(w io.Writer, begin func(applied uint64, size int64) error) (int64, error) {
	var n int64
	err := d.view(func(tx *bolt.Tx) error {
		at, err := appliedIn(tx)
		if err != nil {
			return err
		}
		if begin != nil {
			if err := begin(at, tx.Size()); err != nil {
				return err
			}
		}
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// Restore replaces everything the database holds with the database file at path, a copy that
// Snapshot (or Backup) wrote of a replica of the same history, and returns the position that copy
// has (Applied). A copy of schema 3 (a node of the release before) is migrated in the same
// transaction. The file at path is checked as Open checks a file (its pages, its schema and
// buckets) and only read. It is all or nothing: one transaction deletes every bucket and copies
// every bucket of the copy, so that a crash leaves the database as it was or as the copy. A copy
// whose position is before the database's is refused with ErrBehind, and a damaged one with
// ErrDamaged; the database is then left as it was.
//
// The transaction holds the whole copy: Restore needs memory for it. It is meant for a replica
// that has not applied the changes the copy holds (a new one, or one left behind); the caller
// must apply nothing else meanwhile.
func (d *DB) Restore(path string) (uint64, error) {
	if err := verifyPages(path); err != nil {
		return 0, fmt.Errorf("restore %s: %w: %w", path, ErrDamaged, err)
	}
	src, err := boltOpen(path, 0, true, nil)
	if err != nil {
		return 0, fmt.Errorf("restore: %w", err)
	}
	defer src.Close()
	// The copy's values are put straight from its pages: its transaction stays open until the
	// database's has committed.
	stx, err := src.Begin(false)
	if err != nil {
		return 0, fmt.Errorf("restore %s: %w", path, err)
	}
	defer func() { _ = stx.Rollback() }()
	schema, err := checkLayout(stx)
	if err != nil {
		return 0, fmt.Errorf("restore %s: %w", path, err)
	} else if schema != SchemaVersion && schema != sealedSchema {
		return 0, fmt.Errorf("restore %s: %w: it has schema %d, a replica schema %d", path, ErrDamaged, schema, SchemaVersion)
	}
	at, err := appliedIn(stx)
	if err != nil {
		return 0, fmt.Errorf("restore %s: %w", path, err)
	}
	active := map[string]string{}
	err = d.writes.do(func(tx *bolt.Tx) error {
		clear(active)
		now, err := appliedIn(tx)
		if err != nil {
			return err
		}
		if at < now {
			return fmt.Errorf("%w: it has changes up to %d, the database up to %d", ErrBehind, at, now)
		}
		var names [][]byte
		if err := tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
			names = append(names, append([]byte(nil), name...))
			return nil
		}); err != nil {
			return err
		}
		for _, name := range names {
			if err := tx.DeleteBucket(name); err != nil {
				return fmt.Errorf("delete bucket %s: %w", name, err)
			}
		}
		err = stx.ForEach(func(name []byte, b *bolt.Bucket) error {
			nb, err := tx.CreateBucket(name)
			if err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
			return copyBucket(nb, b)
		})
		if err != nil {
			return err
		}
		if schema == sealedSchema { // a snapshot of a node of the release before: migrated as Open would
			if err := migrateAccounts(tx); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketActive).ForEach(func(k, v []byte) error {
			if id, err := decodeBinding(k, v, false); err == nil {
				active[string(k)] = id // a damaged entry is Unfinished's to report, as at open
			}
			return nil
		})
	})
	if err != nil {
		return 0, fmt.Errorf("restore %s: %w", path, err)
	}
	d.mu.Lock()
	d.active = active
	d.mu.Unlock()
	d.boards.reset()
	return at, nil
}

// copyBucket puts every key of src, nested buckets included, into dst, which is empty. Keys come
// in order, so dst's pages are filled whole.
func copyBucket(dst, src *bolt.Bucket) error {
	dst.FillPercent = 1
	if err := dst.SetSequence(src.Sequence()); err != nil {
		return err
	}
	return src.ForEach(func(k, v []byte) error {
		if v != nil {
			return dst.Put(k, v)
		}
		nb, err := dst.CreateBucket(k)
		if err != nil {
			return err
		}
		return copyBucket(nb, src.Bucket(k))
	})
}

// Path returns the path of the database file.
func (d *DB) Path() string { return d.db.Path() }

// keyOrigin is the meta key of the identity of the history the file is a replica of.
var keyOrigin = []byte("origin")

// Origin returns the identity of the history the file is a replica of, as SetOrigin recorded it
// ("" when none was, or it cannot be read). A snapshot carries it.
func (d *DB) Origin() string {
	var id string
	_ = d.view(func(tx *bolt.Tx) error {
		id = string(tx.Bucket(bucketMeta).Get(keyOrigin))
		return nil
	})
	return id
}

// SetOrigin records id as the identity of the history the file is a replica of (package cluster:
// when its stream was made), so that a replica started again can tell its history from another
// of the same name.
func (d *DB) SetOrigin(id string) error {
	return d.writes.do(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(keyOrigin, []byte(id)) })
}
