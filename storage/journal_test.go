package storage

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
)

// TestJournalRecords: records come back as written; a tail cut short or damaged is dropped, and
// writing goes on after the last good record.
func TestJournalRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	j, recs, err := openJournal(path)
	if err != nil || len(recs) != 0 {
		t.Fatalf("new journal: %d records, %v", len(recs), err)
	}
	if err := j.append([][]byte{[]byte("one"), []byte("two")}); err != nil {
		t.Fatal(err)
	}
	if err := j.append([][]byte{[]byte("three")}); err != nil {
		t.Fatal(err)
	}
	j.close()
	read := func() []string {
		t.Helper()
		j, recs, err := openJournal(path)
		if err != nil {
			t.Fatal(err)
		}
		j.close()
		var out []string
		for _, r := range recs {
			out = append(out, string(r))
		}
		return out
	}
	if got := fmt.Sprint(read()); got != "[one two three]" {
		t.Fatalf("records %s", got)
	}
	whole, _ := os.ReadFile(path)

	// A crash in the middle of the last record's write.
	os.WriteFile(path, whole[:len(whole)-2], 0o600)
	if got := fmt.Sprint(read()); got != "[one two]" {
		t.Errorf("after a torn write: %s", got)
	}
	if info, _ := os.Stat(path); info.Size() != int64(len(whole)-(8+len("three"))) {
		t.Errorf("the torn tail is still there: %d bytes", info.Size())
	}
	// A damaged record and what follows it.
	bad := append([]byte(nil), whole...)
	bad[8+3+8] ^= 0xff // a byte of "two"'s payload
	os.WriteFile(path, bad, 0o600)
	if got := fmt.Sprint(read()); got != "[one]" {
		t.Errorf("after a damaged record: %s", got)
	}
	// Writing goes on after the last good record.
	j, _, err = openJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.append([][]byte{[]byte("four")}); err != nil {
		t.Fatal(err)
	}
	j.close()
	if got := fmt.Sprint(read()); got != "[one four]" {
		t.Errorf("after appending to a repaired journal: %s", got)
	}
	// Empty.
	j, _, _ = openJournal(path)
	if err := j.reset(); err != nil {
		t.Fatal(err)
	}
	j.close()
	if got := read(); len(got) != 0 {
		t.Errorf("after reset: %v", got)
	}
}

// TestMovesSurviveACrash: moves acknowledged but not yet checkpointed into the database are in
// the journal, and a database opened after a crash (no Close) has them.
func TestMovesSurviveACrash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "arcade.db")
	d, err := Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.StartMatch(record.Match{Code: "CRASH", Game: "stonetowers", Seats: twoPlayers()}); err != nil {
		t.Fatal(err)
	}
	const n = 7
	for i := range n {
		if err := d.AppendMove("CRASH", i, record.Move{Seat: rules.Seat(i % 2), Move: fmt.Sprint("m", i)}); err != nil {
			t.Fatal(err)
		}
	}
	// Let the writer finish, then stop as a killed process would: no checkpoint, no Close.
	g := d.writes
	g.mu.Lock()
	for g.running {
		g.idle.Wait()
	}
	g.closed = true
	g.mu.Unlock()
	if len(g.logged) == 0 {
		t.Fatal("the moves were checkpointed already; the test proves nothing")
	}
	if info, err := os.Stat(path + journalSuffix); err != nil || info.Size() == 0 {
		t.Fatalf("journal: %v, %v", info, err)
	}
	d.journal.close()
	d.db.Close()

	d2, err := Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	open, err := d2.Unfinished()
	if err != nil || len(open) != 1 {
		t.Fatalf("unfinished: %d, %v", len(open), err)
	}
	if got := len(open[0].Moves); got != n {
		t.Errorf("%d moves after the crash, want %d", got, n)
	}
	for i, mv := range open[0].Moves {
		if mv.Move != fmt.Sprint("m", i) {
			t.Errorf("move %d = %q", i, mv.Move)
		}
	}
	if info, err := os.Stat(path + journalSuffix); err != nil || info.Size() != 0 {
		t.Errorf("the journal was not emptied into the database at open: %v, %v", info, err)
	}
}
