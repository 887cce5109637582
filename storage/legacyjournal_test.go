package storage

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
)

// oldRecord is e as the journal of an older arcade wrote it: length, CRC-32C, kind and JSON.
func oldRecord(t *testing.T, e entry) []byte {
	t.Helper()
	kind := map[string]byte{"startEntry": kindStart, "moveEntry": kindMove, "seatsEntry": kindSeats,
		"abandonEntry": kindAbandon, "endEntry": kindEnd}[strings.TrimPrefix(fmt.Sprintf("%T", e), "storage.")]
	data, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	p := append([]byte{kind}, data...)
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(p)))
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(p, castagnoli))
	return append(b, p...)
}

// oldSegment is a journal segment as an older arcade left it: records, then zeros to 4 KiB (it
// wrote its segments full of zeros before appending to them).
func oldSegment(recs ...[]byte) []byte {
	b := bytes.Join(recs, nil)
	return append(b, make([]byte, max(0, 4096-len(b)))...)
}

// setOldJournal makes the database at path one an older arcade left: its journal position is
// pos, and the segments are written beside it (number -> content).
func setOldJournal(t *testing.T, path string, pos journalPos, segments map[uint64][]byte) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(keyJournal, pos.bytes()) })
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	for gen, data := range segments {
		if err := os.WriteFile(segmentPath(path, gen), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// openLogged opens the database at path, and returns what it logged.
func openLogged(t *testing.T, path string) (*DB, string) {
	t.Helper()
	var log bytes.Buffer
	d, err := Open(path, Options{LockTimeout: time.Second, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return d, log.String()
}

// journalFiles lists what is beside the database at path of its journal.
func journalFiles(t *testing.T, path string) []string {
	t.Helper()
	names, err := filepath.Glob(path + ".journal.*")
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range names {
		names[i] = filepath.Base(n)
	}
	return names
}

// moveTexts returns the moves of match id, as text.
func moveTexts(t *testing.T, d *DB, id string) string {
	t.Helper()
	m, err := d.Match(id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, mv := range m.Moves {
		out = append(out, mv.Move)
	}
	return strings.Join(out, " ")
}

// TestMigrateJournal: a database an older arcade left with a journal gets the records past its
// position once: moves, a match start, a seat change, a match end (rated once), an abandon; the
// records before the position, and the segments before its segment, are not applied again. The
// journal is removed, and the next start finds nothing to apply.
func TestMigrateJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "arcade.db")
	d := openAt(t, path)
	moves := start(t, d, "OLD01")
	moves(2)
	old := d.active["OLD01"]
	start(t, d, "OLD02")
	gone := d.active["OLD02"]
	d.Close()

	// Segment 3 holds moves 0 and 1 (in the database already) before the position, then 2 and 3;
	// segment 4 a new match with a seat change and its end, the abandon of OLD02 and move 4 of
	// OLD01; segment 5 is prepared and empty. Segment 2 is a leftover the database has.
	seats := []record.Seat{{PlayerID: "SHA256:ann", Name: "ann"}, {Name: "bot", Bot: "easy"}}
	before := oldRecord(t, moveEntry{ID: old, Ply: 0, Move: record.Move{Move: "X"}})
	before = append(before, oldRecord(t, moveEntry{ID: old, Ply: 1, Move: record.Move{Move: "X"}})...)
	newMatch := record.Match{ID: "2222222new1", Code: "NEW01", Game: "stonetowers", Seats: twoPlayers(),
		Started: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
	setOldJournal(t, path, journalPos{gen: 3, off: int64(len(before))}, map[uint64][]byte{
		2: oldSegment([]byte("garbage that is never read")),
		3: oldSegment(before,
			oldRecord(t, moveEntry{ID: old, Ply: 2, Move: record.Move{Move: "2"}}),
			oldRecord(t, moveEntry{ID: old, Ply: 3, Move: record.Move{Move: "3"}})),
		4: oldSegment(
			oldRecord(t, startEntry{Match: newMatch}),
			oldRecord(t, moveEntry{ID: newMatch.ID, Ply: 0, Move: record.Move{Move: "a"}}),
			oldRecord(t, seatsEntry{ID: newMatch.ID, Seats: seats}),
			oldRecord(t, seatsEntry{ID: newMatch.ID, Seats: twoPlayers()}),
			oldRecord(t, endEntry{Code: "NEW01", ID: newMatch.ID, Ended: newMatch.Started.Add(time.Hour),
				Outcome: rules.Outcome{Over: true, Scores: []int{2, 1}, Ranks: []int{1, 2}}}),
			oldRecord(t, abandonEntry{Code: "OLD02"}),
			oldRecord(t, moveEntry{ID: old, Ply: 4, Move: record.Move{Move: "4"}})),
		5: oldSegment(),
	})
	os.WriteFile(segmentPath(path, 6)+".new", []byte("half prepared"), 0o600)

	check := func(d *DB) {
		t.Helper()
		if got := moveTexts(t, d, old); got != "0 1 2 3 4" {
			t.Errorf("moves of the old match: %q, want 0 1 2 3 4", got)
		}
		m, err := d.Match(newMatch.ID)
		if err != nil || !m.Finished() || !m.Rated || m.Plies != 1 || m.Seats[1].Name != "bob" {
			t.Errorf("the match started in the journal: %+v, %v", m, err)
		}
		board, err := d.Leaderboard("stonetowers", 0)
		if err != nil || len(board) != 2 || board[0].Name != "ann" || board[0].Games != 1 {
			t.Errorf("leaderboard %+v, %v; want ann first after one game", board, err)
		}
		open, _, err := d.Unfinished()
		if err != nil || len(open) != 1 || open[0].ID != old {
			t.Errorf("unfinished %+v, %v; want only OLD01 (OLD02 abandoned, NEW01 ended)", open, err)
		}
		if _, err := d.Match(gone); err != nil {
			t.Errorf("the abandoned match's record: %v", err)
		}
		if files := journalFiles(t, path); len(files) != 0 {
			t.Errorf("journal files left: %v", files)
		}
		if _, ok, err := d.journalPos(); ok || err != nil {
			t.Errorf("the journal position is still in the database (%v)", err)
		}
	}
	d, log := openLogged(t, path)
	if !strings.Contains(log, "applied the journal of an older arcade") || !strings.Contains(log, "records=9") {
		t.Errorf("the log says %q; want the journal applied, 9 records", log)
	}
	check(d)
	d.Close()
	d, log = openLogged(t, path)
	defer d.Close()
	if log != "" {
		t.Errorf("the second start logged %q", log)
	}
	check(d)
}

// TestMigrateDamagedJournal: a record that cannot be read is logged with its file and offset; the
// records before it are applied, the damaged segment and those after it are kept aside, renamed,
// and a later start neither applies them nor touches them.
func TestMigrateDamagedJournal(t *testing.T) {
	for _, c := range []struct {
		name   string
		damage func(rec []byte) []byte // the third record as damaged
	}{
		{"a changed byte", func(r []byte) []byte { r[len(r)-2] ^= 0x20; return r }},
		{"cut short", func(r []byte) []byte { return r[:len(r)-3] }},
		{"an unknown kind", func(r []byte) []byte {
			r[8] = 'z'
			binary.LittleEndian.PutUint32(r[4:], crc32.Checksum(r[8:], castagnoli))
			return r
		}},
		{"zeros, then records", func(r []byte) []byte { return make([]byte, len(r)) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "arcade.db")
			d := openAt(t, path)
			start(t, d, "DMG01")
			id := d.active["DMG01"]
			d.Close()
			rec := func(ply int) []byte {
				return oldRecord(t, moveEntry{ID: id, Ply: ply, Move: record.Move{Move: fmt.Sprint(ply)}})
			}
			first := append(rec(0), rec(1)...)
			seg1 := oldSegment(first, c.damage(rec(2)), rec(3))
			seg2 := oldSegment(rec(4))
			setOldJournal(t, path, journalPos{gen: 1}, map[uint64][]byte{1: seg1, 2: seg2})

			d, log := openLogged(t, path)
			name := filepath.Base(segmentPath(path, 1))
			if !strings.Contains(log, "level=ERROR") || !strings.Contains(log, name) ||
				!strings.Contains(log, fmt.Sprintf("byte=%d", len(first))) {
				t.Errorf("the log says %q; want an error naming %s and byte %d", log, name, len(first))
			}
			if got := moveTexts(t, d, id); got != "0 1" {
				t.Errorf("moves %q, want the 2 before the damage", got)
			}
			want := []string{name + keptSuffix, filepath.Base(segmentPath(path, 2)) + keptSuffix}
			if got := journalFiles(t, path); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("journal files %v, want %v", got, want)
			}
			if kept, err := os.ReadFile(segmentPath(path, 1) + keptSuffix); err != nil || !bytes.Equal(kept, seg1) {
				t.Errorf("the damaged segment was not kept as it was (%v)", err)
			}
			d.Close()
			d, log = openLogged(t, path)
			defer d.Close()
			if got := moveTexts(t, d, id); got != "0 1" || log != "" {
				t.Errorf("after a second start: moves %q, log %q", got, log)
			}
		})
	}
}

// TestMigrateJournalOfAnotherDatabase: segments that do not continue the database (it is a
// restored copy older than the journal, or has no journal position) are not applied, and are kept.
func TestMigrateJournalOfAnotherDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "arcade.db")
	d := openAt(t, path)
	start(t, d, "GAP01")
	id := d.active["GAP01"]
	d.Close()
	seg := oldSegment(oldRecord(t, moveEntry{ID: id, Ply: 0, Move: record.Move{Move: "0"}}))
	setOldJournal(t, path, journalPos{gen: 1}, map[uint64][]byte{3: seg, 4: oldSegment()})
	d, log := openLogged(t, path)
	defer d.Close()
	if !strings.Contains(log, "do not continue the database") {
		t.Errorf("the log says %q", log)
	}
	if got := moveTexts(t, d, id); got != "" {
		t.Errorf("moves %q applied from a journal that does not continue the database", got)
	}
	if got := journalFiles(t, path); len(got) != 2 || !strings.HasSuffix(got[0], keptSuffix) {
		t.Errorf("journal files %v, want both kept", got)
	}
}
