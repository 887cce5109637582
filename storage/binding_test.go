package storage

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon"
	"github.com/arcade/arcade/rules/stonetowers"
)

// flipInValue flips one bit of the fingerprint or ID to in the binding of key (in names, or in
// active), in the closed database at path, as the disk might: through bbolt, so the pages hold
// together.
func flipInValue(t *testing.T, path, key, to string) {
	t.Helper()
	raw, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = raw.Update(func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bucketNames, bucketActive} {
			b := tx.Bucket(name)
			v := b.Get([]byte(key))
			if v == nil {
				continue
			}
			if want := seal([]byte(key), []byte(strconv.Quote(to))); !bytes.Equal(v, want) {
				t.Fatalf("the binding of %q is %q, want %q", key, v, want)
			}
			v = bytes.Clone(v)
			v[len(v)-6] ^= 0x01 // the last character: another key's or match's, were it not sealed
			return b.Put([]byte(key), v)
		}
		t.Fatalf("no binding of %q", key)
		return nil
	})
	if cerr := raw.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestDamagedNameBinding: one bit flipped in the binding of a name is found by its sum: Check
// reports it, another key is not given the name, and the owner, whose latest name it is, is not
// locked out: the binding is written again for them.
func TestDamagedNameBinding(t *testing.T) {
	d, path := openTemp(t)
	const alice, mallory = "SHA256:alice", "SHA256:mallory"
	for _, c := range [][2]string{{alice, "alice"}, {"SHA256:bob", "bob"}} {
		if err := d.Claim(c[0], c[1]); err != nil {
			t.Fatal(err)
		}
	}
	d.Close()
	flipInValue(t, path, "alice", alice)

	ro, err := Open(path, Options{LockTimeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := ro.Check(nil)
	ro.Close()
	if err != nil || len(r.Damaged) != 1 || !strings.Contains(r.Damaged[0].Reason, `name "alice"`) ||
		!strings.Contains(r.Damaged[0].Reason, "checksum") {
		t.Fatalf("Check: %+v, %v; want the binding of alice damaged", r, err)
	}

	var log bytes.Buffer
	d, err = Open(path, Options{LockTimeout: time.Second, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Claim(mallory, "alice"); !errors.Is(err, ErrDamaged) {
		t.Fatalf("another key claiming the damaged name: %v, want ErrDamaged", err)
	}
	if err := d.Claim(alice, "alice"); err != nil {
		t.Fatalf("the owner claiming their damaged name: %v", err)
	}
	if !strings.Contains(log.String(), "damaged") {
		t.Errorf("nothing logged of the damaged binding: %q", log.String())
	}
	if err := d.Claim(mallory, "alice"); !errors.Is(err, ErrNameTaken) {
		t.Errorf("another key claiming the name bound again: %v, want ErrNameTaken", err)
	}
	if err := d.Claim("SHA256:bob", "bob"); err != nil {
		t.Errorf("bob: %v", err)
	}
	if r, err := d.Check(nil); err != nil || !r.Clean() {
		t.Errorf("Check after the owner came back: %+v, %v", r, err)
	}
}

// TestDamagedNameOfAnOlderName: a damaged binding of a name that is not its key's latest is bound
// to no one: neither its key (nothing proves it held it) nor another.
func TestDamagedNameOfAnOlderName(t *testing.T) {
	d, path := openTemp(t)
	const ann = "SHA256:ann"
	for _, name := range []string{"ann", "annie"} {
		if err := d.Claim(ann, name); err != nil {
			t.Fatal(err)
		}
	}
	d.Close()
	flipInValue(t, path, "ann", ann)
	d = openAt(t, path)
	defer d.Close()
	for _, id := range []string{ann, "SHA256:mallory"} {
		if err := d.Claim(id, "ann"); !errors.Is(err, ErrDamaged) {
			t.Errorf("%s claiming the damaged name: %v, want ErrDamaged", id, err)
		}
	}
	if err := d.Claim(ann, "annie"); err != nil {
		t.Errorf("ann's latest name: %v", err)
	}
}

// TestDamagedRoomEntry: one bit flipped in a room's entry (its unfinished match's ID) is found by
// its sum: Unfinished reports the room, not another match, and Quarantine removes the entry.
func TestDamagedRoomEntry(t *testing.T) {
	path, ids := filled(t, 2, 3)
	flipInValue(t, path, "R0001", ids[1])
	d := openAt(t, path)
	defer d.Close()
	open, bad, err := d.Unfinished()
	if err != nil || len(open) != 1 || len(bad) != 1 || bad[0].Code != "R0001" || bad[0].ID != "" ||
		!strings.Contains(bad[0].Reason, "checksum") {
		t.Fatalf("Unfinished: %d resumable, damaged %+v, %v", len(open), bad, err)
	}
	if _, ok := d.ActiveMatch("R0001"); ok {
		t.Error("the damaged room's entry is a room's match")
	}
	if err := d.Quarantine(bad[0]); err != nil {
		t.Fatal(err)
	}
	if open, bad, err := d.Unfinished(); err != nil || len(open) != 1 || len(bad) != 0 {
		t.Errorf("after Quarantine: %d resumable, damaged %+v, %v", len(open), bad, err)
	}
}

// TestV010Migrated: opened for writing, v0.1.0's file (schema 2, bindings bare) is migrated to
// SchemaVersion with every binding sealed, and checks clean.
func TestV010Migrated(t *testing.T) {
	orig, err := os.ReadFile(v010File)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "arcade.db")
	if err := os.WriteFile(path, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	openAt(t, path).Close()
	d, err := Open(path, Options{LockTimeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.bare {
		t.Error("the migrated file is read as schema 2")
	}
	bindings := 0
	err = d.view(func(tx *bolt.Tx) error {
		if v := string(tx.Bucket(bucketMeta).Get(keySchema)); v != strconv.Itoa(SchemaVersion) {
			t.Errorf("schema %q after the migration", v)
		}
		for _, name := range [][]byte{bucketNames, bucketActive} {
			_ = tx.Bucket(name).ForEach(func(k, v []byte) error {
				bindings++
				if _, err := binding(tx.Bucket(name), k); err != nil {
					t.Errorf("%s %q: %v", name, k, err)
				}
				return nil
			})
		}
		return nil
	})
	if err != nil || bindings != 5 { // four names, one room
		t.Errorf("%d bindings read, %v", bindings, err)
	}
	entries := 0
	err = d.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketByPlayer).ForEach(func(k, v []byte) error {
			entries++
			return checkIndex(k, v, false)
		})
	})
	if err != nil || entries == 0 {
		t.Errorf("byplayer after the migration: %d entries, %v", entries, err)
	}
	if r, err := d.Check([]rules.Game{stonetowers.Game, lhexicon.Game}); err != nil || !r.Clean() || r.Matches != 4 {
		t.Errorf("Check of the migrated file: %+v, %v", r, err)
	}
}

// TestDatabaseMode: a new database is created 0600; one readable by others (a copy made with cp)
// is made 0600 at Open, with a warning in the log; a read-only Open changes nothing.
func TestDatabaseMode(t *testing.T) {
	d, path := openTemp(t)
	d.Close()
	mode := func() os.FileMode {
		t.Helper()
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return info.Mode().Perm()
	}
	if m := mode(); m != 0o600 {
		t.Errorf("a new database has mode %#o, want 0600", m)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	ro, err := Open(path, Options{LockTimeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	ro.Close()
	if m := mode(); m != 0o644 {
		t.Errorf("a read-only Open changed the mode to %#o", m)
	}
	var log bytes.Buffer
	d, err = Open(path, Options{LockTimeout: time.Second, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if m := mode(); m != 0o600 {
		t.Errorf("after Open the mode is %#o, want 0600", m)
	}
	if s := log.String(); !strings.Contains(s, "level=WARN") || !strings.Contains(s, "0600") || !strings.Contains(s, "0644") {
		t.Errorf("the log says %q; want a warning naming both modes", s)
	}
}

// TestDamagedIndexEntry: one bit flipped in the key of a byplayer entry (a match listed under
// another key) is found by the sum its value holds, and Check reports it.
func TestDamagedIndexEntry(t *testing.T) {
	path, _ := filled(t, 1, 2)
	raw, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = raw.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketByPlayer)
		k, v := b.Cursor().First()
		if k == nil {
			t.Fatal("no byplayer entry")
		}
		moved := bytes.Clone(k)
		moved[0] ^= 0x01
		v = bytes.Clone(v)
		if err := b.Delete(k); err != nil {
			return err
		}
		return b.Put(moved, v)
	})
	if cerr := raw.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(path, Options{LockTimeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	r, err := d.Check([]rules.Game{stonetowers.Game})
	if err != nil || len(r.Damaged) != 1 || !strings.Contains(r.Damaged[0].Reason, "byplayer entry") ||
		!strings.Contains(r.Damaged[0].Reason, "checksum") {
		t.Errorf("Check: %+v, %v; want the byplayer entry damaged", r, err)
	}
}
