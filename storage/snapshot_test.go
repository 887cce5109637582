package storage

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// snapshotTo writes d's snapshot to a file and returns its path and the position begin was told.
func snapshotTo(t *testing.T, d *DB) (string, uint64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "snapshot.db")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var told uint64
	var size int64
	n, err := d.Snapshot(f, func(applied uint64, sz int64) error {
		told, size = applied, sz
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != size {
		t.Errorf("snapshot wrote %d bytes, announced %d", n, size)
	}
	return path, told
}

// TestRestoreSnapshot: a replica that applied the first changes of a history, restored from a
// snapshot of one that applied more, then given the rest, holds what a replica that applied the
// whole history holds, key for key; restoring tells the snapshot's position.
func TestRestoreSnapshot(t *testing.T) {
	h, starts := clusterHistory(t)
	whole, _ := openTemp(t)
	applyAll(t, whole, h)

	cut := len(h) - 3 // the snapshot's position: the last changes come after it
	src, _ := openTemp(t)
	applyAll(t, src, h[:cut])
	if err := src.SetOrigin("the stream made at noon"); err != nil {
		t.Fatal(err)
	}
	if err := whole.SetOrigin("the stream made at noon"); err != nil {
		t.Fatal(err)
	}
	path, told := snapshotTo(t, src)
	if told != uint64(cut) {
		t.Errorf("the snapshot's position: begin told %d, want %d", told, cut)
	}

	dst, _ := openTemp(t)
	applyAll(t, dst, h[:2]) // a replica left behind
	at, err := dst.Restore(path)
	if err != nil {
		t.Fatal(err)
	}
	if at != uint64(cut) || dst.Applied() != uint64(cut) {
		t.Errorf("restored at %d, Applied %d, want %d", at, dst.Applied(), cut)
	}
	if got := dst.Origin(); got != "the stream made at noon" {
		t.Errorf("restored, the replica's origin is %q, want the snapshot's", got)
	}
	for i := cut; i < len(h); i++ {
		if err := dst.Apply(uint64(i+1), h[i]); err != nil {
			t.Fatalf("change %d after the restore: %v", i+1, err)
		}
	}
	if got, want := dump(t, dst), dump(t, whole); !reflect.DeepEqual(got, want) {
		t.Errorf("restored and followed, the file differs from one that applied the whole history:\n%v\nwant\n%v", got, want)
	}
	if got, want := stateOf(t, dst, starts), stateOf(t, whole, starts); !reflect.DeepEqual(got, want) {
		t.Errorf("restored and followed, the store shows\n%+v\nwant\n%+v", got, want)
	}
}

// TestRestoreRefusals: a snapshot behind the database and a file that is not a database are
// refused, and the database is left as it was.
func TestRestoreRefusals(t *testing.T) {
	h, _ := clusterHistory(t)
	behind, _ := openTemp(t)
	applyAll(t, behind, h[:3])
	path, _ := snapshotTo(t, behind)

	d, _ := openTemp(t)
	applyAll(t, d, h)
	before := dump(t, d)
	if _, err := d.Restore(path); !errors.Is(err, ErrBehind) {
		t.Errorf("restore of a snapshot behind: %v, want ErrBehind", err)
	}
	junk := filepath.Join(t.TempDir(), "junk.db")
	if err := os.WriteFile(junk, make([]byte, 8192), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Restore(junk); !errors.Is(err, ErrDamaged) {
		t.Errorf("restore of a file of zeros: %v, want ErrDamaged", err)
	}
	if !reflect.DeepEqual(dump(t, d), before) {
		t.Error("a refused restore changed the database")
	}
	if err := d.Apply(uint64(len(h)+1), Change{Kind: ChangeBell, PlayerID: ann.PlayerID, Bell: false}); err != nil {
		t.Errorf("a change after the refusals: %v", err)
	}
}
