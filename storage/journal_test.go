package storage

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
)

// TestJournalRecords: records come back as written; a tail cut short, a damaged record or zeros
// end the segment, and appending goes on from the last good record.
func TestJournalRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "arcade.db")
	const limit = 4096
	j, err := createJournal(path, 1, limit)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.append([][]byte{[]byte("one"), []byte("two")}); err != nil {
		t.Fatal(err)
	}
	pos, err := j.append([][]byte{[]byte("three")})
	if err != nil {
		t.Fatal(err)
	}
	if want := (journalPos{1, 3*8 + 3 + 3 + 5}); pos != want {
		t.Errorf("position after three records %+v, want %+v", pos, want)
	}
	if _, err := j.append([][]byte{{}}); err == nil {
		t.Error("an empty record was appended")
	}
	j.close()
	name := segmentPath(path, 1)
	read := func(from int64) string {
		t.Helper()
		payloads, ends, err := readSegment(name, from)
		if err != nil {
			t.Fatal(err)
		}
		if len(ends) != len(payloads) {
			t.Fatalf("%d ends for %d records", len(ends), len(payloads))
		}
		var out []string
		for _, p := range payloads {
			out = append(out, string(p))
		}
		return fmt.Sprint(out)
	}
	if got := read(0); got != "[one two three]" {
		t.Fatalf("records %s", got)
	}
	if got := read(8 + 3); got != "[two three]" {
		t.Errorf("records from the second on: %s", got)
	}
	whole, _ := os.ReadFile(name)
	if len(whole) != limit || strings.Trim(string(whole[pos.off:]), "\x00") != "" {
		t.Fatalf("the segment is %d bytes, with %q after the records; want %d, zeros", len(whole), whole[pos.off:], limit)
	}
	whole = whole[:pos.off]
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"a crash in the middle of the last record's write", whole[:len(whole)-2], "[one two]"},
		{"a crash in the middle of a header", append(whole[:len(whole):len(whole)], 9, 0), "[one two three]"},
		{"zeros after the records", append(whole[:len(whole):len(whole)], make([]byte, 64)...), "[one two three]"},
		{"a damaged record", func() []byte {
			b := append([]byte(nil), whole...)
			b[8+3+8] ^= 0xff // a byte of "two"'s payload
			return b
		}(), "[one]"},
		{"an absurd length", func() []byte {
			b := append([]byte(nil), whole...)
			b[8+3+3] = 0xff // the high byte of "two"'s length
			return b
		}(), "[one]"},
	}
	for _, c := range cases {
		os.WriteFile(name, c.data, 0o600)
		if got := read(0); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	if payloads, _, err := readSegment(segmentPath(path, 7), 0); err != nil || len(payloads) != 0 {
		t.Errorf("a missing segment: %d records, %v", len(payloads), err)
	}
}

// openAt opens the database at path, or fails the test.
func openAt(t *testing.T, path string) *DB {
	t.Helper()
	d, err := Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// start starts a match of two players in room code, and returns a function that records its next
// n moves, each move's text its number.
func start(t *testing.T, d *DB, code string) (moves func(n int)) {
	t.Helper()
	if _, err := d.StartMatch(record.Match{Code: code, Game: "stonetowers", Seats: twoPlayers()}); err != nil {
		t.Fatal(err)
	}
	ply := 0
	return func(n int) {
		t.Helper()
		for range n {
			if err := d.AppendMove(code, ply, record.Move{Seat: rules.Seat(ply % 2), Move: fmt.Sprint(ply)}); err != nil {
				t.Fatal(err)
			}
			ply++
		}
	}
}

// crashAfterAppends makes d's writes stop at the journal, as if the process were killed before
// any checkpoint: logged writes are answered, and never reach the database.
func crashAfterAppends(d *DB) {
	d.writes.commits = newStage(0, 0, maxCommitBatch, func(calls []commitCall) {
		for _, c := range calls {
			if c.done != nil {
				c.done <- fmt.Errorf("crashed")
			}
		}
	})
}

// kill stops d as a killed process would: no checkpoint, no Close.
func kill(t *testing.T, d *DB) {
	t.Helper()
	d.writes.appends.close()
	d.writes.journal.close()
	if err := d.db.Close(); err != nil {
		t.Fatal(err)
	}
}

func activeCodes(t *testing.T, path string) map[string]string {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := map[string]string{}
	db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketActive).ForEach(func(k, v []byte) error { out[string(k)] = string(v); return nil })
	})
	return out
}

// TestWritesSurviveACrash: match starts, moves, seat changes, abandons and ends answered but not yet
// checkpointed into the database are in the journal, and a database opened after a crash has
// each of them once; the journal's old segments are gone.
func TestWritesSurviveACrash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "arcade.db")
	d := openAt(t, path)
	// Checkpointed before the crash: a match with three moves, and an abandoned one.
	if _, err := d.StartMatch(record.Match{Code: "AAAAA", Game: "stonetowers", Seats: twoPlayers()}); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := d.AppendMove("AAAAA", i, record.Move{Seat: rules.Seat(i % 2), Move: fmt.Sprint("a", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.StartMatch(record.Match{Code: "GONE1", Game: "stonetowers", Seats: twoPlayers()}); err != nil {
		t.Fatal(err)
	}
	win := rules.Outcome{Over: true, Scores: []int{9, 8}, Ranks: []int{1, 2}}
	play(t, d, "RATE1", twoPlayers(), []int{1, 2}, false)
	if err := d.writes.flush(); err != nil {
		t.Fatal(err)
	}

	// In the journal only: four more moves, a new match with moves and a bot, an abandon.
	crashAfterAppends(d)
	for i := 3; i < 7; i++ {
		if err := d.AppendMove("AAAAA", i, record.Move{Seat: rules.Seat(i % 2), Move: fmt.Sprint("a", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.StartMatch(record.Match{Code: "BBBBB", Game: "stonetowers", Seats: twoPlayers()}); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if err := d.AppendMove("BBBBB", i, record.Move{Seat: rules.Seat(i % 2), Move: fmt.Sprint("b", i)}); err != nil {
			t.Fatal(err)
		}
	}
	botSeats := []record.Seat{twoPlayers()[0], {Name: "bot", Bot: "easy"}}
	if err := d.SetSeats("BBBBB", botSeats); err != nil {
		t.Fatal(err)
	}
	if err := d.Abandon("GONE1"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.StartMatch(record.Match{Code: "RATE2", Game: "stonetowers", Seats: twoPlayers()}); err != nil {
		t.Fatal(err)
	}
	if err := d.EndMatch("RATE2", win, false); err != nil {
		t.Fatal(err)
	}
	kill(t, d)
	if got := activeCodes(t, path); len(got) != 2 || got["BBBBB"] != "" {
		t.Fatalf("before the replay the database has %v; the test proves nothing", got)
	}
	// A torn append at the moment of the crash is dropped.
	gens, _ := listSegments(path)
	f, err := os.OpenFile(segmentPath(path, gens[len(gens)-1]), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte{40, 0, 0, 0, 1, 2, 3, 4, 'm', '{'})
	f.Close()

	d2 := openAt(t, path)
	defer d2.Close()
	open, err := d2.Unfinished()
	if err != nil || len(open) != 2 {
		t.Fatalf("unfinished: %d, %v", len(open), err)
	}
	want := map[string]int{"AAAAA": 7, "BBBBB": 2}
	for _, m := range open {
		if len(m.Moves) != want[m.Code] {
			t.Errorf("room %s: %d moves after the crash, want %d", m.Code, len(m.Moves), want[m.Code])
		}
		for i, mv := range m.Moves {
			if mv.Move != fmt.Sprint(string(m.Code[0]+'a'-'A'), i) {
				t.Errorf("room %s move %d = %q", m.Code, i, mv.Move)
			}
		}
		if m.Code == "BBBBB" && m.Seats[1].Bot != "easy" {
			t.Errorf("the bot's seat was lost: %+v", m.Seats)
		}
	}
	// Each ended match is rated once: the one checkpointed before the crash is not rated again.
	if board, err := d2.Leaderboard("stonetowers", 0); err != nil || len(board) != 2 || board[0].Games != 2 || board[0].Wins != 2 {
		t.Errorf("leaderboard after the replay: %+v, %v; want ann with 2 games, 2 wins", board, err)
	}
	if gens, _ := listSegments(path); gens[0] != d2.writes.journal.gen || len(gens) > 2 {
		t.Errorf("segments after the replay: %v, want only the new one and the next", gens)
	}
	// The database and its journal go on: a move after the restart, and a clean reopen.
	if err := d2.AppendMove("BBBBB", 2, record.Move{Seat: 0, Move: "b2"}); err != nil {
		t.Fatal(err)
	}
	d2.Close()
	d3 := openAt(t, path)
	defer d3.Close()
	if open, _ := d3.Unfinished(); len(open) != 2 || len(open[0].Moves)+len(open[1].Moves) != 10 {
		t.Errorf("after a clean restart: %+v", open)
	}
}

// TestJournalSegments: appends move on to new segments, checkpoints remove the old ones, and a
// crash with records in several segments loses none of them.
func TestJournalSegments(t *testing.T) {
	path := filepath.Join(t.TempDir(), "arcade.db")
	d := openAt(t, path)
	d.writes.journal.limit = 200 // a couple of records a segment
	moves := start(t, d, "SEGMT")
	moves(20)
	if err := d.writes.flush(); err != nil {
		t.Fatal(err)
	}
	if gens, _ := listSegments(path); gens[0] != d.writes.journal.gen || len(gens) > 2 {
		t.Errorf("after a checkpoint the journal has segments %v, want the current (%d) and the next", gens, d.writes.journal.gen)
	}
	crashAfterAppends(d)
	moves(20)
	if gens, _ := listSegments(path); len(gens) < 5 {
		t.Fatalf("segments %v; the test wants records in several", gens)
	}
	kill(t, d)
	d2 := openAt(t, path)
	defer d2.Close()
	open, _ := d2.Unfinished()
	if len(open) != 1 || len(open[0].Moves) != 40 {
		t.Fatalf("after the crash: %+v", open)
	}
	for i, mv := range open[0].Moves {
		if mv.Move != fmt.Sprint(i) {
			t.Errorf("move %d = %q", i, mv.Move)
		}
	}
}

// TestCommitsDoNotHoldAppends: while a commit is held up (a slow disk, a match end), moves are
// still answered as soon as they are in the journal; the next checkpoint takes them, at once
// when a reader needs them.
func TestCommitsDoNotHoldAppends(t *testing.T) {
	d, _ := openTemp(t)
	moves := start(t, d, "SLOWC")
	release := make(chan struct{})
	held := make(chan struct{})
	slow := make(chan error, 1)
	go func() { slow <- d.writes.do(func(*bolt.Tx) error { close(held); <-release; return nil }) }()
	<-held
	moves(10)
	if n := d.writes.unapplied.Load(); n != 10 {
		t.Errorf("%d moves wait for the checkpoint, want 10", n)
	}
	close(release)
	if err := <-slow; err != nil {
		t.Fatal(err)
	}
	// Nobody waits for the moves' checkpoint: they linger for company (checkpointInterval)
	// until a reader asks for them.
	if n := d.writes.unapplied.Load(); n != 10 {
		t.Errorf("%d moves wait for the checkpoint after the held commit, want 10 (lingering)", n)
	}
	m, err := d.Match(d.active["SLOWC"])
	if err != nil || len(m.Moves) != 10 {
		t.Fatalf("after the held commit: %d moves, %v", len(m.Moves), err)
	}
	if n := d.writes.unapplied.Load(); n != 0 {
		t.Errorf("%d moves still wait after a flush", n)
	}
}

// TestLoggedWriteThatCannotApply: a logged write whose change fails at the checkpoint (its match
// is gone) is dropped alone, at the checkpoint and again when replayed.
func TestLoggedWriteThatCannotApply(t *testing.T) {
	path := filepath.Join(t.TempDir(), "arcade.db")
	d := openAt(t, path)
	if _, err := d.StartMatch(record.Match{Code: "GOODM", Game: "stonetowers", Seats: twoPlayers()}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			if err := d.AppendMove("GOODM", i, record.Move{Move: fmt.Sprint(i)}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Go(func() {
		if err := d.writes.log(seatsEntry{ID: "nosuchmatch"}); err != nil {
			t.Errorf("the write was not logged: %v", err)
		}
	})
	wg.Wait()
	if m, err := d.Match(d.active["GOODM"]); err != nil || len(m.Moves) != 8 {
		t.Fatalf("the good moves: %d, %v", len(m.Moves), err)
	}
	crashAfterAppends(d)
	if err := d.writes.log(seatsEntry{ID: "nosuchmatch"}); err != nil {
		t.Fatal(err)
	}
	if err := d.AppendMove("GOODM", 8, record.Move{Move: "8"}); err != nil {
		t.Fatal(err)
	}
	kill(t, d)
	d2, err := Open(path, time.Second)
	if err != nil {
		t.Fatalf("the replay of a write that cannot apply: %v", err)
	}
	defer d2.Close()
	if open, _ := d2.Unfinished(); len(open) != 1 || len(open[0].Moves) != 9 {
		t.Errorf("after the replay: %+v", open)
	}
}

// TestDamagedJournalPosition: a journal position that is not one is reported, not guessed at.
func TestDamagedJournalPosition(t *testing.T) {
	path := filepath.Join(t.TempDir(), "arcade.db")
	d := openAt(t, path)
	d.Close()
	db, _ := bolt.Open(path, 0o600, nil)
	db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(keyJournal, []byte("xyz")) })
	db.Close()
	if _, err := Open(path, time.Second); err == nil {
		t.Error("opened with a damaged journal position")
	}
}

// TestRestoredCopyIgnoresLaterJournal: a copy restored beside a journal that has moved on (its
// segments removed since the copy) gets none of the later records: a gap in the segments ends
// the replay, so the database is the copy, not the copy with some later writes.
func TestRestoredCopyIgnoresLaterJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "arcade.db")
	d := openAt(t, path)
	d.writes.journal.limit = 200
	moves := start(t, d, "COPYM")
	moves(5)
	var copyBuf bytes.Buffer
	if _, err := d.Backup(&copyBuf); err != nil {
		t.Fatal(err)
	}
	moves(20) // on through several segments; the copy's are removed at checkpoints
	if err := d.writes.flush(); err != nil {
		t.Fatal(err)
	}
	crashAfterAppends(d)
	moves(3) // in the journal only
	kill(t, d)
	if err := os.WriteFile(path, copyBuf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	d2 := openAt(t, path)
	defer d2.Close()
	open, err := d2.Unfinished()
	if err != nil || len(open) != 1 {
		t.Fatalf("unfinished: %+v, %v", open, err)
	}
	if n := len(open[0].Moves); n != 5 {
		t.Errorf("the restored copy has %d moves, want the 5 it was taken with", n)
	}
}

// TestFailedAppend: when the journal cannot be written, the writes of the group fail (the room
// tells the player the move was not saved), nothing of them reaches the database, and nothing
// waits for them.
func TestFailedAppend(t *testing.T) {
	d, _ := openTemp(t)
	moves := start(t, d, "FAILS")
	moves(2)
	d.writes.journal.f.Close() // the disk is gone
	if err := d.AppendMove("FAILS", 2, record.Move{Move: "lost"}); err == nil {
		t.Fatal("a move the journal could not take was answered as saved")
	}
	m, err := d.Match(d.active["FAILS"])
	if err != nil || len(m.Moves) != 2 {
		t.Errorf("after the failed append: %d moves, %v; want the 2 saved before", len(m.Moves), err)
	}
	if n := d.writes.unapplied.Load(); n != 0 {
		t.Errorf("%d writes still wait for a checkpoint, want 0", n)
	}
}
