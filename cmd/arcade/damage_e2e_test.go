package main

import (
	"bufio"
	"bytes"
	binenc "encoding/binary"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
	"golang.org/x/crypto/ssh"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/storage"
)

// unfinishedMatches makes a data folder holding an unfinished stonetowers match of alice (Red)
// and bob (Blue) in each of the rooms, with plies legal moves, and returns its path and the
// matches' IDs in room order.
func unfinishedMatches(t *testing.T, alice, bob ssh.Signer, plies int, codes ...string) (string, []string) {
	t.Helper()
	data := t.TempDir()
	db, err := storage.Open(filepath.Join(data, dbFile), storage.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	seats := []record.Seat{{PlayerID: ssh.FingerprintSHA256(alice.PublicKey()), Name: "alice"},
		{PlayerID: ssh.FingerprintSHA256(bob.PublicKey()), Name: "bob"}}
	opts := rules.Options{"size": "8", "turns": "10"}
	var ids []string
	for _, code := range codes {
		id, err := db.StartMatch(record.Match{Code: code, Game: "stonetowers", Options: opts, Seats: seats, Started: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
		e, err := stonetowers.Game.New(opts, 2, 0)
		if err != nil {
			t.Fatal(err)
		}
		for ply := range plies {
			seat := e.ToMove()[0]
			mv := e.Legal(seat)[0]
			if e, err = e.Apply(seat, mv); err != nil {
				t.Fatal(err)
			}
			if err := db.AppendMove(code, ply, record.Move{Seat: seat, Move: mv}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return data, ids
}

// movesAt returns the database file's bytes and the offsets of every copy of move ply of match id
// in leaf pages: its key followed by its value. Pages freed by later commits may hold old copies
// beside the live one.
func movesAt(t *testing.T, data, id string, ply int) ([]byte, []int) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(data, dbFile))
	if err != nil {
		t.Fatal(err)
	}
	key := binenc.BigEndian.AppendUint64(append([]byte(id), 0), uint64(ply))
	var at []int
	for i := 0; ; {
		j := bytes.Index(b[i:], key)
		if j < 0 {
			break
		}
		i += j + len(key)
		if bytes.HasPrefix(b[i:], []byte("\x01{\"seat\":")) {
			at = append(at, i-len(key))
		}
	}
	if len(at) == 0 {
		t.Fatalf("move %d of %s is not in the file", ply, id)
	}
	return b, at
}

// flipMoveBit flips one bit of the text of move ply of match id, in the file.
func flipMoveBit(t *testing.T, data, id string, ply int) {
	t.Helper()
	b, at := movesAt(t, data, id, ply)
	for _, a := range at {
		i := bytes.Index(b[a:], []byte(`"move":"`))
		b[a+i+len(`"move":"`)] ^= 0x01
	}
	if err := os.WriteFile(filepath.Join(data, dbFile), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// syncBuffer is a bytes.Buffer safe for a process's output and a test reading it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startLogged runs the built server on data with flags, its log (stderr) kept with what it
// announces before its address (on stdout: the metrics' address, with --metrics), and returns its
// address; the address is nil, and the process has ended, when the server did not start.
func startLogged(t *testing.T, bin, data string, flags ...string) (*exec.Cmd, net.Addr, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--addr", "127.0.0.1:0", "--data", data, "--log-level", "warn"}, flags...)...)
	logs := &syncBuffer{}
	cmd.Stderr = logs
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		m := listening.FindStringSubmatch(lines.Text())
		if m == nil {
			_, _ = logs.Write(append(lines.Bytes(), '\n'))
			continue
		}
		addr, err := net.ResolveTCPAddr("tcp", m[1])
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			for lines.Scan() {
			}
		}()
		return cmd, addr, logs
	}
	_ = cmd.Wait()
	return cmd, nil, logs
}

// TestDamagedLeafPageStopsTheServerClearly: bytes flipped in the leaf page of a real database that
// holds a match's moves stop the server with a message that says the database is damaged and what
// to do, and a non-zero status; no stack trace. arcade check says the same, with status 1. The
// file is left as it was.
func TestDamagedLeafPageStopsTheServerClearly(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := binary(t)
	data, ids := unfinishedMatches(t, newKey(t), newKey(t), 8, "KAAAA", "KAAAB")
	b, at := movesAt(t, data, ids[1], 5)
	for _, a := range at {
		page := a / 4096 * 4096
		b[page+10], b[page+11] = 0xff, 0x7f // the element count: elements read far past the page
		b[page+8] = 0x10                    // the page's type
	}
	path := filepath.Join(data, dbFile)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}

	server, addr, logs := startLogged(t, bin, data)
	if addr != nil {
		t.Fatal("the server started on a damaged database")
	}
	if code := server.ProcessState.ExitCode(); code != 1 {
		t.Errorf("the server ended with status %d, want 1", code)
	}
	msg := logs.String()
	t.Logf("the server said:\n%s", msg)
	for _, want := range []string{"damaged", "page", "arcade backup", "arcade check"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the message does not say %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "goroutine") || strings.Contains(msg, "panic:") {
		t.Errorf("a stack trace instead of a message:\n%s", msg)
	}

	out, err := exec.Command(bin, "check", "--data", data).CombinedOutput()
	t.Logf("arcade check said:\n%s", out)
	if code := exitCode(err); code != checkDamaged || !strings.Contains(string(out), "DAMAGED") || strings.Contains(string(out), "goroutine") {
		t.Errorf("arcade check: status %d, want %d:\n%s", code, checkDamaged, out)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, b) {
		t.Error("the damaged file was changed")
	}
}

func exitCode(err error) int {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// TestDamagedMatchesAreSetAside: of five unfinished matches, one holds a move its game refuses,
// one a move with a bit flipped on disk, and one a move that is not even JSON (which stopped the
// whole server from starting). The server starts, logs the three (match, game, why), resumes the
// other two (their players find their seats), and opens no room for the damaged ones, which are
// kept in the file, set aside; arcade check lists them and exits 1.
func TestDamagedMatchesAreSetAside(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := binary(t)
	aliceKey, bobKey := newKey(t), newKey(t)
	data, ids := unfinishedMatches(t, aliceKey, bobKey, 6, "KAAAA", "KAAAB", "KAAAC", "KAAAD", "KAAAE")
	db, err := storage.Open(filepath.Join(data, dbFile), storage.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.AppendMove("KAAAB", 6, record.Move{Seat: 0, Move: "not a move"}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	flipMoveBit(t, data, ids[2], 3)
	raw, err := bolt.Open(filepath.Join(data, dbFile), 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = raw.Update(func(tx *bolt.Tx) error {
		key := binenc.BigEndian.AppendUint64(append([]byte(ids[4]), 0), 6)
		return tx.Bucket([]byte("moves")).Put(key, []byte(`{"seat":0,"move":`))
	})
	raw.Close()
	if err != nil {
		t.Fatal(err)
	}

	server, addr, logs := startLogged(t, bin, data)
	if addr == nil {
		t.Fatalf("the server did not start:\n%s", logs)
	}
	for _, code := range []string{"KAAAA", "KAAAD"} {
		alice := connect(t, addr, "alice", aliceKey, "join "+code)
		alice.waitFor("you: alice (Red)", "the server restarted")
	}
	for _, code := range []string{"KAAAB", "KAAAC", "KAAAE"} {
		alice := connect(t, addr, "alice", aliceKey, "join "+code)
		alice.waitFor("No room has that code")
	}
	msg := logs.String()
	t.Logf("the server logged:\n%s", msg)
	for i, why := range map[int]string{1: "does not replay", 2: "checksum", 4: "move 7"} {
		line := ""
		for l := range strings.Lines(msg) {
			if strings.Contains(l, ids[i]) {
				line = l
			}
		}
		for _, want := range []string{"stonetowers", why, "set aside"} {
			if !strings.Contains(line, want) {
				t.Errorf("the log says nothing with %q of match %s:\n%s", want, ids[i], msg)
			}
		}
	}
	if err := server.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := server.Wait(); err != nil {
		t.Fatalf("the server: %v\n%s", err, logs)
	}

	var out bytes.Buffer
	status, err := runCheck([]string{"--data", data}, noEnv, &out, &out)
	if status != checkDamaged || err == nil {
		t.Errorf("arcade check: status %d (%v), want %d", status, err, checkDamaged)
	}
	t.Logf("arcade check said:\n%s", out.String())
	for _, want := range []string{"matches: 2 ok, 0 damaged, 3 set aside earlier", ids[1], ids[2], ids[4], "result: DAMAGED"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("arcade check does not say %q:\n%s", want, out.String())
		}
	}
}

// TestCheckCommand: arcade check on a clean file says so and exits 0; with a bit flipped in a stored move
// it names the match and exits 1; while a server holds the file it says to stop it, and exits 2.
func TestCheckCommand(t *testing.T) {
	t.Parallel()
	data, ids := unfinishedMatches(t, newKey(t), newKey(t), 5, "KAAAA", "KAAAB", "KAAAC")
	var out bytes.Buffer
	status, err := runCheck([]string{"--data", data}, noEnv, &out, &out)
	if status != checkClean || err != nil || !strings.Contains(out.String(), "matches: 3 ok, 0 damaged") ||
		!strings.Contains(out.String(), "pages: ok") || !strings.Contains(out.String(), "result: ok") {
		t.Fatalf("arcade check of a clean file: status %d, %v:\n%s", status, err, out.String())
	}

	flipMoveBit(t, data, ids[1], 2)
	out.Reset()
	// The file as an argument, the flags after it.
	status, err = runCheck([]string{filepath.Join(data, dbFile), "--data", "/nowhere"}, noEnv, &out, &out)
	if status != checkDamaged || err == nil || !strings.Contains(out.String(), "matches: 2 ok, 1 damaged") ||
		!strings.Contains(out.String(), "damaged: match "+ids[1]) || !strings.Contains(out.String(), "checksum") {
		t.Fatalf("arcade check of a damaged file: status %d, %v:\n%s", status, err, out.String())
	}

	held := t.TempDir()
	stopHeld := serverOn(t, held)
	defer stopHeld()
	out.Reset()
	status, err = runCheck([]string{"--data", held}, noEnv, &out, &out)
	if status != checkFailed || err == nil || !strings.Contains(err.Error(), "stop it") {
		t.Errorf("arcade check of a file a server holds: status %d, %v", status, err)
	}
}
