package storage

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
)

// crashChildEnv names the database a crash child writes to (see TestCrashChild).
const crashChildEnv = "ARCADE_STORAGE_CRASH_CHILD"

// TestCrashChild is the child of TestKillLosesNoAcknowledgedWrite, and skips unless started as
// one: it opens the database crashChildEnv names and has many rooms write to it until it is
// killed, printing each write once it is acknowledged: "start CODE ID", "move CODE PLY",
// "end CODE ID". A room plays matches of up to 40 moves, one after the other.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashChildEnv)
	if path == "" {
		t.Skip("the child of TestKillLosesNoAcknowledgedWrite")
	}
	d, err := Open(path, Options{LockTimeout: 10 * time.Second})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	var mu sync.Mutex
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Printf(format+"\n", args...) // one write to the pipe: in it once written
	}
	prefix := os.Getenv(crashChildEnv + "_ROUND")
	for r := range 24 {
		go func() {
			code := fmt.Sprintf("%s%03d", prefix, r)
			for {
				id, err := d.StartMatch(record.Match{Code: code, Game: "stonetowers", Seats: twoPlayers()})
				if err != nil {
					say("error %v", err)
					return
				}
				say("start %s %s", code, id)
				for ply := range 40 {
					if err := d.AppendMove(code, ply, record.Move{Seat: rules.Seat(ply % 2), Move: strconv.Itoa(ply)}); err != nil {
						say("error %v", err)
						return
					}
					say("move %s %d", code, ply)
				}
				out := rules.Outcome{Over: true, Scores: []int{1, 0}, Ranks: []int{1, 2}}
				if err := d.EndMatch(code, out, false); err != nil {
					say("error %v", err)
					return
				}
				say("end %s %s", code, id)
			}
		}()
	}
	select {}
}

// TestKillLosesNoAcknowledgedWrite: a process writing for many rooms at once is killed with
// SIGKILL in the middle of its writes, three times over on the same database; every write it
// was answered for is in the database when it is opened again: match starts, every move, match
// ends.
func TestKillLosesNoAcknowledgedWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	path := filepath.Join(t.TempDir(), "arcade.db")
	type match struct {
		id    string
		plies int // moves acknowledged
		ended bool
	}
	var matches []*match
	for round := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+path, crashChildEnv+"_ROUND="+string(rune('A'+round)))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		rooms := map[string]*match{} // the match each room is playing
		moves, killed := 0, false
		lines := bufio.NewScanner(out)
		for lines.Scan() {
			f := strings.Fields(lines.Text())
			switch {
			case len(f) == 3 && f[0] == "start":
				m := &match{id: f[2]}
				rooms[f[1]] = m
				matches = append(matches, m)
			case len(f) == 3 && f[0] == "move":
				m := rooms[f[1]]
				if ply, _ := strconv.Atoi(f[2]); m == nil || ply != m.plies {
					t.Fatalf("acknowledged out of order: %q", lines.Text())
				}
				m.plies++
				moves++
			case len(f) == 3 && f[0] == "end":
				rooms[f[1]].ended = true
			case len(f) > 0 && f[0] == "error":
				t.Fatalf("the child: %s", lines.Text())
			}
			// Killed in the middle of the writes; what it acknowledged meanwhile is read to the end.
			if moves >= 2000 && !killed {
				if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				killed = true
			}
		}
		_ = cmd.Wait()
		if !killed {
			t.Fatalf("round %d: the child stopped after %d moves", round, moves)
		}
		t.Logf("round %d: %d moves and %d matches acknowledged before the kill", round, moves, len(rooms))

		d := openAt(t, path)
		lost := 0
		for _, m := range matches {
			got, err := d.Match(m.id)
			if err != nil {
				t.Errorf("match %s, acknowledged as started: %v", m.id, err)
				lost++
				continue
			}
			if len(got.Moves) < m.plies || len(got.Moves) > m.plies+1 {
				t.Errorf("match %s: %d moves in the database, %d acknowledged", m.id, len(got.Moves), m.plies)
			}
			for i, mv := range got.Moves {
				if mv.Move != strconv.Itoa(i) {
					t.Errorf("match %s: move %d is %q", m.id, i, mv.Move)
					break
				}
			}
			if m.ended && !got.Finished() {
				t.Errorf("match %s, acknowledged as ended, is not finished", m.id)
			}
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		if lost > 0 || t.Failed() {
			t.FailNow()
		}
	}
}
