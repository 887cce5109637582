package storage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
)

var testGames = []rules.Game{stonetowers.Game}

// fill records rooms unfinished stonetowers matches of plies legal moves each (the first legal
// move every time), in one commit, and returns their IDs in room order (rooms R0000, R0001...).
func fill(t *testing.T, d *DB, rooms, plies int) []string {
	t.Helper()
	ids := make([]string, rooms)
	opts := rules.Options{"size": "8"}
	err := d.writes.do(func(tx *bolt.Tx) error {
		for r := range rooms {
			d.mu.Lock()
			ids[r] = d.newID()
			d.mu.Unlock()
			m := record.Match{Version: record.Version, ID: ids[r], Code: fmt.Sprintf("R%04d", r), Game: "stonetowers",
				Options: opts, Seed: uint64(r), Seats: twoPlayers(), Started: time.Now().UTC()}
			if err := (startEntry{Match: m}).apply(tx); err != nil {
				return err
			}
			e, err := stonetowers.Game.New(opts, 2, uint64(r))
			if err != nil {
				return err
			}
			for ply := range plies {
				seat := e.ToMove()[0]
				mv := e.Legal(seat)[0]
				if e, err = e.Apply(seat, mv); err != nil {
					return err
				}
				if err := (moveEntry{ID: ids[r], Ply: ply, Move: record.Move{Seat: seat, Move: mv}}).apply(tx); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// filled makes a closed database file of rooms unfinished matches of plies moves each.
func filled(t *testing.T, rooms, plies int) (path string, ids []string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "arcade.db")
	d, err := Open(path, Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ids = fill(t, d, rooms, plies)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	return path, ids
}

// pageOf returns the offset of the page of the file at path that holds the stored move
// (sealed, as its bytes are on disk) of match id at ply.
func pageOf(t *testing.T, path, id string, ply int) (data []byte, page int, at int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	key := moveKey(id, ply)
	at = bytes.Index(data, key)
	if at < 0 {
		t.Fatalf("no key of move %d of %s in the file", ply, id)
	}
	return data, at / 4096 * 4096, at
}

// openErr opens path and returns Open's error, closing a database that opened.
func openErr(path string) error {
	d, err := Open(path, Options{LockTimeout: time.Second})
	if err == nil {
		d.Close()
	}
	return err
}

// TestDamagedLeafPageIsRefused: bytes flipped in the leaf page that holds a match's moves (its
// type, its element count, its elements' offsets, a key) make Open fail with ErrDamaged, naming
// the page, where bbolt alone panics (some of it in a goroutine of its own, which ends the
// process) or faults.
func TestDamagedLeafPageIsRefused(t *testing.T) {
	path, ids := filled(t, 20, 30)
	clean, page, at := pageOf(t, path, ids[3], 7)
	cases := map[string]func(b []byte){
		"type":     func(b []byte) { b[page+8] = 0x10 },
		"count":    func(b []byte) { b[page+10], b[page+11] = 0xff, 0x7f },
		"elements": func(b []byte) { flip(b[page+16 : page+40]) },
		"offset":   func(b []byte) { b[page+16+16*5+6] ^= 0xff }, // the high bytes of element 5's pos
		"key":      func(b []byte) { b[at] ^= 0x40 },             // the first key byte: out of order
	}
	for name, damage := range cases {
		t.Run(name, func(t *testing.T) {
			b := bytes.Clone(clean)
			damage(b)
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			err := openErr(path)
			if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), fmt.Sprintf("page %d", page/4096)) {
				t.Fatalf("Open of a file with a damaged leaf page: %v", err)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, b) {
				t.Error("Open changed the damaged file")
			}
		})
	}
}

func flip(b []byte) {
	for i := range b {
		b[i] ^= 0x5a
	}
}

// TestRandomDamageNeverPanics: bytes flipped at random in the pages in use of a real file, hundreds
// of times: Open either refuses the file or opens it, and then reading every match and checking
// the file never panics (a panic in any goroutine would end this test binary).
func TestRandomDamageNeverPanics(t *testing.T) {
	if testing.Short() {
		t.Skip("hundreds of damaged files")
	}
	path, _ := filled(t, 20, 40)
	clean, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := currentMeta(bytes.NewReader(clean))
	if !ok {
		t.Fatal("no valid meta page")
	}
	clean = clean[:m.pgid*m.pageSize] // bbolt grows the file ahead; the pages past the last in use are not needed
	rng := rand.New(rand.NewPCG(1, 2))
	opened, refused := 0, 0
	for range 400 {
		b := bytes.Clone(clean)
		for range 1 + rng.IntN(4) {
			page := 2 + rng.IntN(int(m.pgid)-2)
			// Most of a page's structure (header, elements) and keys lie near its start.
			off := rng.IntN(512)
			if rng.IntN(2) == 0 {
				off = rng.IntN(4096)
			}
			b[page*4096+off] ^= byte(1 + rng.IntN(255))
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		d, err := Open(path, Options{LockTimeout: time.Second})
		if err != nil {
			if !errors.Is(err, ErrDamaged) {
				t.Errorf("Open of a damaged file: %v", err)
			}
			refused++
			continue
		}
		opened++
		d.Unfinished()
		d.Check(testGames)
		d.Profile("SHA256:ann", 10)
		d.Leaderboard("stonetowers", 10)
		d.Close()
	}
	t.Logf("%d damaged files opened, %d refused", opened, refused)
}

// TestFlippedBitInMoveIsDamaged: one bit flipped in the last stored move of a match, so that it
// names another move the game accepts there (what a replay alone cannot tell from the real one),
// is found by its checksum: the match is not resumed as a different board but reported damaged,
// and Match says so.
func TestFlippedBitInMoveIsDamaged(t *testing.T) {
	const plies = 10
	path, ids := filled(t, 3, plies)
	// The position before the last move, as fill played it, and a one-bit change of that move
	// the game accepts.
	opts := rules.Options{"size": "8"}
	e, err := stonetowers.Game.New(opts, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	for range plies - 1 {
		seat := e.ToMove()[0]
		if e, err = e.Apply(seat, e.Legal(seat)[0]); err != nil {
			t.Fatal(err)
		}
	}
	seat := e.ToMove()[0]
	last := e.Legal(seat)[0]
	at, bit := -1, byte(0)
	for i := 0; i < len(last) && at < 0; i++ {
		for b := range 8 {
			other := []byte(last)
			other[i] ^= 1 << b
			if _, err := e.Apply(seat, string(other)); err == nil {
				at, bit = i, 1<<b
				break
			}
		}
	}
	if at < 0 {
		t.Fatalf("no one-bit change of %q is a legal move", last)
	}
	data, _, key := pageOf(t, path, ids[1], plies-1)
	val := key + len(moveKey(ids[1], plies-1))
	text := []byte(`"move":"` + last + `"`)
	i := bytes.Index(data[val:], text)
	if i < 0 || i > 40 {
		t.Fatalf("the move's value is not after its key: %q", data[val:val+40])
	}
	data[val+i+len(`"move":"`)+at] ^= bit
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	d := openAt(t, path)
	open, bad, err := d.Unfinished()
	if err != nil {
		t.Fatal(err)
	}
	if len(open) != 2 || len(bad) != 1 || bad[0].ID != ids[1] || bad[0].Code != "R0001" ||
		!strings.Contains(bad[0].Reason, "checksum") || !strings.Contains(bad[0].Reason, fmt.Sprintf("move %d", plies)) {
		t.Fatalf("Unfinished: %d resumable, damaged %+v", len(open), bad)
	}
	if _, err := d.Match(ids[1]); !errors.Is(err, ErrDamaged) {
		t.Errorf("Match of the damaged match: %v", err)
	}
}

// TestMalformedMoveIsQuarantined: a move that is not JSON (its checksum right: written so) makes
// its match damaged; set aside, the match is no longer unfinished, its records are kept in the
// quarantine bucket byte for byte, Match reports it damaged, and the other matches resume.
func TestMalformedMoveIsQuarantined(t *testing.T) {
	path, ids := filled(t, 3, 6)
	d := openAt(t, path)
	key := moveKey(ids[0], 2)
	bad := seal(key, []byte(`{"seat":0,"move":`))
	if err := d.writes.do(func(tx *bolt.Tx) error { return tx.Bucket(bucketMoves).Put(key, bad) }); err != nil {
		t.Fatal(err)
	}
	open, damaged, err := d.Unfinished()
	if err != nil || len(open) != 2 || len(damaged) != 1 || damaged[0].ID != ids[0] || damaged[0].Game != "stonetowers" {
		t.Fatalf("Unfinished: %d, %+v, %v", len(open), damaged, err)
	}
	if err := d.Quarantine(damaged[0]); err != nil {
		t.Fatal(err)
	}
	d.Close()

	d = openAt(t, path)
	open, damaged, err = d.Unfinished()
	if err != nil || len(open) != 2 || len(damaged) != 0 || open[0].ID != ids[1] || open[1].ID != ids[2] {
		t.Fatalf("after the quarantine, Unfinished: %+v, %+v, %v", open, damaged, err)
	}
	if _, err := d.Match(ids[0]); !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "set aside") {
		t.Errorf("Match of the quarantined match: %v", err)
	}
	q, err := d.Quarantined()
	if err != nil || len(q) != 1 || q[0].ID != ids[0] || q[0].Code != "R0000" || q[0].Game != "stonetowers" || q[0].At.IsZero() {
		t.Fatalf("Quarantined: %+v, %v", q, err)
	}
	if p, err := d.Profile("SHA256:ann", 10); err != nil || len(p.Recent) != 2 {
		t.Errorf("the profile lists %d matches (%v), want the 2 not set aside", len(p.Recent), err)
	}
	err = d.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketQuar).Bucket([]byte(ids[0]))
		if b == nil || b.Get(keyHeader) == nil {
			return errors.New("no header kept")
		}
		if n := b.Bucket(bucketQMov).Stats().KeyN; n != 6 {
			return fmt.Errorf("%d moves kept, want 6", n)
		}
		if !bytes.Equal(b.Bucket(bucketQMov).Get(key), bad) {
			return errors.New("the malformed move is not kept as it was")
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
	r, err := d.Check(testGames)
	if err != nil || r.Clean() || len(r.Quarantined) != 1 || r.Matches != 2 || len(r.Damaged) != 0 {
		t.Errorf("Check after the quarantine: %+v, %v", r, err)
	}
}

// TestCheck: a clean file checks clean; a move the game refuses, a move lost from a finished
// match, a damaged standing and a damaged header are each reported.
func TestCheck(t *testing.T) {
	path, ids := filled(t, 5, 8)
	d := openAt(t, path)
	play(t, d, "FIN01", twoPlayers(), []int{1, 2}, false)
	r, err := d.Check(testGames)
	if err != nil || !r.Clean() || r.Matches != 6 || len(r.Pages) != 0 {
		t.Fatalf("Check of a clean file: %+v, %v", r, err)
	}
	err = d.writes.do(func(tx *bolt.Tx) error {
		// A move the game refuses, sealed as if written so.
		k := moveKey(ids[0], 3)
		if err := tx.Bucket(bucketMoves).Put(k, seal(k, []byte(`{"seat":1,"move":"zz"}`))); err != nil {
			return err
		}
		// A bit flipped in a header and in a standing.
		for _, b := range []*bolt.Bucket{tx.Bucket(bucketMatches), tx.Bucket(bucketRatings)} {
			k, v := b.Cursor().Last()
			v = bytes.Clone(v)
			v[3] ^= 0x01
			if err := b.Put(bytes.Clone(k), v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err = d.Check(testGames)
	if err != nil || r.Clean() || r.Matches != 4 || len(r.Damaged) != 3 {
		t.Fatalf("Check of a damaged file: %d ok, %+v, %v", r.Matches, r.Damaged, err)
	}
	var reasons []string
	for _, dmg := range r.Damaged {
		reasons = append(reasons, dmg.Reason)
	}
	all := strings.Join(reasons, "\n")
	for _, want := range []string{"does not replay", "ratings record", "checksum"} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q among the reasons:\n%s", want, all)
		}
	}
}

// TestOtherSchemaRefused: a file of schema 1 (a development build before v0.1.0) or of a later
// schema is refused by Open, for writing or read-only, with an error that names both schemas and
// what to do; the file is left byte for byte as it was.
func TestOtherSchemaRefused(t *testing.T) {
	for _, c := range []struct {
		schema string
		want   error
		says   []string
	}{
		{"1", ErrOlderSchema, []string{"development build before v0.1.0", "schema 1", "schema 2 to 4 files only", "start with a new data folder"}},
		{"5", ErrNewerSchema, []string{"newer version", "schema 5", "schema 2 to 4 files only"}},
	} {
		path, _ := filled(t, 1, 2)
		setSchema(t, path, c.schema)
		before, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, ro := range []bool{false, true} {
			_, err := Open(path, Options{LockTimeout: time.Second, ReadOnly: ro})
			if !errors.Is(err, c.want) {
				t.Fatalf("schema %s, read-only %v: %v, want %v", c.schema, ro, err, c.want)
			}
			for _, want := range append(c.says, path) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("schema %s, read-only %v: %q does not say %q", c.schema, ro, err, want)
				}
			}
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
			t.Errorf("schema %s: the refused file was written to", c.schema)
		}
	}
}

// setSchema records schema as the schema version of the (closed) database at path.
func setSchema(t *testing.T, path, schema string) {
	t.Helper()
	raw, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = raw.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(keySchema, []byte(schema)) })
	if cerr := raw.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestDamagedLayoutRefused: a file of the current schema without one of its buckets, without a
// schema version or with one that is not a number is damaged (not an older file), for writing or
// read-only, and left as it was.
func TestDamagedLayoutRefused(t *testing.T) {
	breaks := map[string]func(tx *bolt.Tx) error{
		"no solo bucket": func(tx *bolt.Tx) error { return tx.DeleteBucket(bucketSolo) },
		"no quarantine":  func(tx *bolt.Tx) error { return tx.DeleteBucket(bucketQuar) },
		"no meta bucket": func(tx *bolt.Tx) error { return tx.DeleteBucket(bucketMeta) },
		"no schema":      func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Delete(keySchema) },
		"schema x":       func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(keySchema, []byte("x")) },
		"schema 0":       func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(keySchema, []byte("0")) },
	}
	for name, breakIt := range breaks {
		path, _ := filled(t, 1, 2)
		raw, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		err = raw.Update(breakIt)
		raw.Close()
		if err != nil {
			t.Fatal(err)
		}
		before, _ := os.ReadFile(path)
		for _, ro := range []bool{false, true} {
			if _, err := Open(path, Options{LockTimeout: time.Second, ReadOnly: ro}); !errors.Is(err, ErrDamaged) ||
				errors.Is(err, ErrOlderSchema) {
				t.Errorf("%s, read-only %v: %v, want ErrDamaged", name, ro, err)
			}
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
			t.Errorf("%s: the damaged file was written to", name)
		}
	}
}

// TestSealCatchesMovedRecord: a record's sum covers its key, so a sealed move found under another
// ply is damaged.
func TestSealCatchesMovedRecord(t *testing.T) {
	data, _ := json.Marshal(record.Move{Seat: 0, Move: "b d4"})
	v := seal(moveKey("abc", 1), data)
	if got, err := unseal(moveKey("abc", 1), v); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("unseal under its key: %q, %v", got, err)
	}
	if _, err := unseal(moveKey("abc", 3), v); !errors.Is(err, errBadSum) {
		t.Errorf("unseal under another key: %v", err)
	}
	if _, err := unseal(moveKey("abc", 1), data); err == nil {
		t.Error("a bare record is read from a sealed file")
	}
}

// TestCheckRefusesWhileLocked: a read-only Open (arcade check) of a file a server holds fails with
// ErrLocked after its timeout.
func TestCheckRefusesWhileLocked(t *testing.T) {
	_, path := openTemp(t)
	_, err := Open(path, Options{LockTimeout: 100 * time.Millisecond, ReadOnly: true})
	if !errors.Is(err, ErrLocked) {
		t.Errorf("read-only Open of a held file: %v", err)
	}
}
