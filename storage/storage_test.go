package storage

import (
	"bytes"
	"errors"
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
	"github.com/arcade/arcade/sanitize"
)

func openTemp(t *testing.T) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "arcade.db")
	d, err := Open(path, Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d, path
}

func twoPlayers() []record.Seat {
	return []record.Seat{{PlayerID: "SHA256:ann", Name: "ann"}, {PlayerID: "SHA256:bob", Name: "bob"}}
}

func TestClaim(t *testing.T) {
	d, _ := openTemp(t)
	if err := d.Claim("SHA256:ann", "ann"); err != nil {
		t.Fatal(err)
	}
	if err := d.Claim("SHA256:ann", "ann"); err != nil {
		t.Errorf("the same key claiming its name again: %v", err)
	}
	if err := d.Claim("SHA256:eve", "ann"); !errors.Is(err, ErrNameTaken) || !errors.Is(err, sanitize.ErrNameTaken) {
		t.Errorf("another key claiming ann: %v, want ErrNameTaken", err)
	}
	if err := d.Claim("SHA256:ann", "annie"); err != nil {
		t.Errorf("a key may hold more than one name: %v", err)
	}
}

// TestClaimKeepsToTheNameRule: a name that breaks the rule (a lookalike, upper case, a dot) binds
// nothing.
func TestClaimKeepsToTheNameRule(t *testing.T) {
	d, _ := openTemp(t)
	for _, bad := range []string{"ａｌｉｃｅ", "аlice", "ANN", "bob.smith", "", "-x", strings.Repeat("a", 17)} {
		if err := d.Claim("SHA256:eve", bad); !errors.Is(err, sanitize.ErrBadName) {
			t.Errorf("claiming %q: %v, want ErrBadName", bad, err)
		}
	}
	_ = d.db.View(func(tx *bolt.Tx) error {
		if n := tx.Bucket(bucketNames).Stats().KeyN; n != 0 {
			t.Errorf("%d names bound", n)
		}
		return nil
	})
}

func TestMatchRoundTrip(t *testing.T) {
	d, path := openTemp(t)
	start := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	id, err := d.StartMatch(record.Match{Code: "K7QXM", Game: "stonetowers", Options: rules.Options{"size": "8"},
		Seed: 42, Seats: twoPlayers(), Started: start})
	if err != nil {
		t.Fatal(err)
	}
	moves := []record.Move{{Seat: 0, Move: "b d4"}, {Seat: 1, Move: "b e5"}, {Seat: 0, Move: "f d4"}}
	for i, mv := range moves {
		if err := d.AppendMove("K7QXM", i, mv); err != nil {
			t.Fatal(err)
		}
	}
	open, _, err := d.Unfinished()
	if err != nil || len(open) != 1 || open[0].ID != id || len(open[0].Moves) != 3 || open[0].Code != "K7QXM" {
		t.Fatalf("Unfinished = %+v, %v", open, err)
	}
	// Reopen: the unfinished match is still the room's.
	d.Close()
	d2, err := Open(path, Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	if err := d2.AppendMove("K7QXM", 3, record.Move{Seat: 1, Move: "pass"}); err != nil {
		t.Fatalf("append after reopen: %v", err)
	}
	out := rules.Outcome{Over: true, Scores: []int{30, 20}, Ranks: []int{1, 2}, Reason: "all turns played"}
	if err := d2.EndMatch("K7QXM", out, false); err != nil {
		t.Fatal(err)
	}
	got, err := d2.Match(id)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Rated || got.Plies != 4 {
		t.Errorf("ended match: rated=%v plies=%d", got.Rated, got.Plies)
	}
	if len(got.Moves) != 4 || got.Moves[3].Move != "pass" || got.Seed != 42 || got.Options["size"] != "8" || !got.Finished() {
		t.Errorf("Match = %+v", got)
	}
	if open, _, _ := d2.Unfinished(); len(open) != 0 {
		t.Errorf("a finished match is still unfinished: %+v", open)
	}
	if _, err := d2.Match("nope"); !errors.Is(err, ErrNoMatch) {
		t.Errorf("Match(nope) = %v", err)
	}
}

func play(t *testing.T, d *DB, code string, seats []record.Seat, ranks []int, unrated bool) record.Match {
	t.Helper()
	id, err := d.StartMatch(record.Match{Code: code, Game: "stonetowers", Seats: seats, Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	scores := make([]int, len(ranks))
	for i, r := range ranks {
		scores[i] = 10 - r
	}
	if err := d.EndMatch(code, rules.Outcome{Over: true, Scores: scores, Ranks: ranks}, unrated); err != nil {
		t.Fatal(err)
	}
	m, err := d.Match(id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRatingsAndLeaderboard(t *testing.T) {
	d, _ := openTemp(t)
	for range 3 {
		play(t, d, "AAAAA", twoPlayers(), []int{1, 2}, false)
	}
	play(t, d, "BBBBB", []record.Seat{{PlayerID: "SHA256:ann", Name: "ann"}, {Name: "hard bot", Bot: "hard"}}, []int{2, 1}, false)
	play(t, d, "CCCCC", twoPlayers(), []int{2, 1}, true)
	board, err := d.Leaderboard("stonetowers", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(board) != 2 || board[0].Name != "ann" || board[1].Name != "bob" {
		t.Fatalf("leaderboard = %+v", board)
	}
	ann, bob := board[0], board[1]
	if ann.Games != 3 || ann.Wins != 3 || bob.Losses != 3 || ann.Rating.R <= 1500 || bob.Rating.R >= 1500 {
		t.Errorf("ann %+v, bob %+v: bot and unrated games must not count", ann, bob)
	}
	if !ann.Provisional || ann.Rank != 1 {
		t.Errorf("after 3 games ann is provisional and first: %+v", ann)
	}
	p, err := d.Profile("SHA256:ann", 10)
	if err != nil {
		t.Fatal(err)
	}
	if p.Played["stonetowers"] != 5 || p.Won["stonetowers"] != 3 || len(p.Recent) != 5 || len(p.Standings) != 1 {
		t.Errorf("profile = played %v won %v recent %d standings %d", p.Played, p.Won, len(p.Recent), len(p.Standings))
	}
	for i := 1; i < len(p.Recent); i++ {
		if p.Recent[i-1].ID < p.Recent[i].ID {
			t.Errorf("recent matches not newest first: %s before %s", p.Recent[i-1].ID, p.Recent[i].ID)
		}
	}
}

func TestMultiplayerRatedPairwise(t *testing.T) {
	d, _ := openTemp(t)
	seats := []record.Seat{{PlayerID: "a", Name: "a"}, {PlayerID: "b", Name: "b"}, {PlayerID: "c", Name: "c"}}
	play(t, d, "MULTI", seats, []int{2, 1, 3}, false)
	board, _ := d.Leaderboard("stonetowers", 0)
	if len(board) != 3 || board[0].Name != "b" || board[1].Name != "a" || board[2].Name != "c" {
		t.Fatalf("3-player ranks 2,1,3 give %+v", board)
	}
	if board[1].Rating.R <= board[2].Rating.R {
		t.Errorf("second place %v not above third %v", board[1].Rating, board[2].Rating)
	}
}

// TestConcurrentWriters: many rooms recording at once (run with -race): every write is in the
// database, in order, and the writes shared commits.
func TestConcurrentWriters(t *testing.T) {
	d, _ := openTemp(t)
	const rooms, moves = 16, 30
	commits := txID(t, d)
	var wg sync.WaitGroup
	for r := range rooms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code := fmt.Sprintf("R%04d", r)
			if _, err := d.StartMatch(record.Match{Code: code, Game: "stonetowers", Seats: twoPlayers()}); err != nil {
				t.Error(err)
				return
			}
			for i := range moves {
				if err := d.AppendMove(code, i, record.Move{Seat: rules.Seat(i % 2), Move: fmt.Sprint(i)}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if commits = txID(t, d) - commits; commits >= rooms*(moves+1) {
		t.Errorf("%d writes took %d commits; want them to share commits", rooms*(moves+1), commits)
	}
	open, _, err := d.Unfinished()
	if err != nil || len(open) != rooms {
		t.Fatalf("Unfinished: %d matches, %v", len(open), err)
	}
	for _, m := range open {
		if len(m.Moves) != moves {
			t.Errorf("match %s has %d moves, want %d", m.Code, len(m.Moves), moves)
		}
		for i, mv := range m.Moves {
			if mv.Move != fmt.Sprint(i) {
				t.Errorf("match %s move %d = %q", m.Code, i, mv.Move)
				break
			}
		}
	}
}

func TestOpenRefusals(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	data := bytes.Repeat([]byte("not a database "), 1000)
	if err := os.WriteFile(garbage, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(garbage, Options{LockTimeout: time.Second}); !errors.Is(err, ErrDamaged) {
		t.Errorf("garbage file: %v, want ErrDamaged", err)
	}
	if after, _ := os.ReadFile(garbage); !bytes.Equal(after, data) {
		t.Error("a damaged file was written to")
	}
	small := filepath.Join(dir, "small.db")
	os.WriteFile(small, []byte("tiny"), 0o600)
	if _, err := Open(small, Options{LockTimeout: time.Second}); !errors.Is(err, ErrDamaged) {
		t.Errorf("tiny file: %v, want ErrDamaged", err)
	}

	path := filepath.Join(dir, "arcade.db")
	d, err := Open(path, Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path, Options{LockTimeout: 100 * time.Millisecond}); !errors.Is(err, ErrLocked) {
		t.Errorf("second open: %v, want ErrLocked", err)
	}
	d.Close()

	// A file of a later schema is refused.
	db, _ := bolt.Open(path, 0o600, nil)
	db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(keySchema, []byte("99")) })
	db.Close()
	if _, err := Open(path, Options{LockTimeout: time.Second}); !errors.Is(err, ErrNewerSchema) {
		t.Errorf("newer schema: %v, want ErrNewerSchema", err)
	}
}

func TestBackupWhileInUse(t *testing.T) {
	d, _ := openTemp(t)
	play(t, d, "AAAAA", twoPlayers(), []int{1, 2}, false)
	var buf bytes.Buffer
	var announced int64
	n, err := d.BackupSized(&buf, func(size int64) error { announced = size; return nil })
	if err != nil || n == 0 || int64(buf.Len()) != n {
		t.Fatalf("Backup: %d bytes, %v", n, err)
	}
	if announced != n {
		t.Errorf("BackupSized announced %d bytes and wrote %d", announced, n)
	}
	copyPath := filepath.Join(t.TempDir(), "copy.db")
	if err := os.WriteFile(copyPath, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Open(copyPath, Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatalf("open the copy: %v", err)
	}
	defer c.Close()
	if board, _ := c.Leaderboard("stonetowers", 0); len(board) != 2 {
		t.Errorf("the copy's leaderboard: %+v", board)
	}
}

// TestConcurrentMatchEnds: matches of the same two players that end at the same time (their ends
// sharing commits) each count in the ratings once.
func TestConcurrentMatchEnds(t *testing.T) {
	d, _ := openTemp(t)
	const n = 12
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			code := fmt.Sprintf("E%04d", i)
			id, err := d.StartMatch(record.Match{Code: code, Game: "stonetowers", Seats: twoPlayers(), Started: time.Now()})
			if err != nil {
				t.Error(err)
				return
			}
			if err := d.EndMatch(code, rules.Outcome{Over: true, Scores: []int{9, 8}, Ranks: []int{1, 2}}, false); err != nil {
				t.Errorf("EndMatch %s: %v", code, err)
			}
			if m, err := d.Match(id); err != nil || !m.Rated {
				t.Errorf("match %s: rated %v, %v", code, m.Rated, err)
			}
		})
	}
	wg.Wait()
	board, err := d.Leaderboard("stonetowers", 0)
	if err != nil || len(board) != 2 {
		t.Fatalf("leaderboard %+v, %v", board, err)
	}
	if ann, bob := board[0], board[1]; ann.Games != n || ann.Wins != n || bob.Games != n || bob.Losses != n {
		t.Errorf("after %d matches at once: ann %+v, bob %+v", n, ann, bob)
	}
	if open, _, err := d.Unfinished(); err != nil || len(open) != 0 {
		t.Errorf("unfinished after the ends: %d, %v", len(open), err)
	}
}

// openAt opens the database at path, or fails the test.
func openAt(t *testing.T, path string) *DB {
	t.Helper()
	d, err := Open(path, Options{LockTimeout: time.Second})
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
			if err := d.AppendMove(code, ply, record.Move{Seat: 0, Move: fmt.Sprint(ply)}); err != nil {
				t.Fatal(err)
			}
			ply++
		}
	}
}

// txID returns the ID of the last transaction committed: commits count it up by one.
func txID(t *testing.T, d *DB) int {
	t.Helper()
	var id int
	if err := d.db.View(func(tx *bolt.Tx) error { id = tx.ID(); return nil }); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestRestoreBackup: restoring is copying a backup over the file while no server runs; the
// database then holds what the backup held, and nothing written after it.
func TestRestoreBackup(t *testing.T) {
	d, path := openTemp(t)
	moves := start(t, d, "REST1")
	moves(3)
	id := d.active["REST1"]
	var buf bytes.Buffer
	if _, err := d.Backup(&buf); err != nil {
		t.Fatal(err)
	}
	moves(2)
	play(t, d, "REST2", twoPlayers(), []int{1, 2}, false)
	d.Close()

	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	d = openAt(t, path)
	defer d.Close()
	if got := moveTexts(t, d, id); got != "0 1 2" {
		t.Errorf("moves after the restore: %q, want the 3 in the backup", got)
	}
	if board, err := d.Leaderboard("stonetowers", 0); err != nil || len(board) != 0 {
		t.Errorf("leaderboard after the restore: %+v, %v; want the backup's (empty)", board, err)
	}
	if err := d.AppendMove("REST1", 3, record.Move{Move: "3"}); err != nil {
		t.Errorf("the restored room's next move: %v", err)
	}
}

// moveTexts returns the moves of match id, space-separated.
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
