//go:build measure

package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/coloretta"
	"github.com/arcade/arcade/storage"
)

// sleepingMatches is how many open correspondence matches TestMeasureSleepingMatches stores.
const sleepingMatches = 10_000

// TestMeasureSleepingMatches: the resident memory of the real binary with 10,000 open
// correspondence matches (Coloretta, 3 days a move, two moves each, among 2,000 players) and
// nobody connected, against the same binary on an empty database, and on a database of the same
// matches finished (the same file, give or take: what a database of that size costs, whatever
// its matches are), each measured once it has settled, alternating, twice each (go test -tags
// measure -run TestMeasureSleepingMatches -v ./cmd/arcade). The matches' rooms sleep: the
// target is under 20 MiB more than the empty server's (issue 35), counted as VmRSS counts it:
// the process's own memory (RssAnon) and the database's pages it maps (RssFile), which the
// server gives back once started (storage.DB.ReleaseMapped).
func TestMeasureSleepingMatches(t *testing.T) {
	bin := binary(t)
	empty, asleep, ended := t.TempDir(), t.TempDir(), t.TempDir()
	seedSleeping(t, filepath.Join(asleep, dbFile), sleepingMatches, false)
	seedSleeping(t, filepath.Join(ended, dbFile), sleepingMatches, true)
	measure := func(data string) map[string]int {
		cmd, _ := startBinary(t, bin, data)
		time.Sleep(15 * time.Second) // started, resumed, settled
		st := procStatus(t, cmd.Process.Pid)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if info, err := os.Stat(filepath.Join(data, dbFile)); err == nil {
			st["file"] = int(info.Size() >> 10)
		}
		return st
	}
	show := func(what string, m map[string]int) string {
		return fmt.Sprintf("%s %d KiB (anon %d, file %d; database %d KiB)", what, m["VmRSS"], m["RssAnon"], m["RssFile"], m["file"])
	}
	var worst int
	for range 2 {
		e, a, f := measure(empty), measure(asleep), measure(ended)
		worst = max(worst, a["VmRSS"]-e["VmRSS"])
		t.Logf("figures: %s; %s; %s: +%d KiB anon, +%d KiB in all over the empty server", show("empty", e),
			show(fmt.Sprintf("%d sleeping", sleepingMatches), a), show(fmt.Sprintf("%d finished", sleepingMatches), f),
			a["RssAnon"]-e["RssAnon"], a["VmRSS"]-e["VmRSS"])
	}
	if worst > 20<<10 {
		t.Errorf("%d sleeping matches cost %d KiB of resident memory, more than 20 MiB", sleepingMatches, worst)
	}
}

// procStatus reads the memory lines of /proc/PID/status, in KiB.
func procStatus(t *testing.T, pid int) map[string]int {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]int{}
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		k, v, ok := strings.Cut(lines.Text(), ":")
		if fields := strings.Fields(v); ok && len(fields) == 2 && fields[1] == "kB" {
			out[k], _ = strconv.Atoi(fields[0])
		}
	}
	return out
}

// seedSleeping writes n correspondence matches of Coloretta, 3 days a move, into the database at
// path, as the rooms record them: a start and two moves (a draw and its placing) each, among
// n/5 players, many at a time through the group commit; ended, each ends after its moves.
func seedSleeping(t *testing.T, path string, n int, ended bool) {
	t.Helper()
	db, err := storage.Open(path, storage.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	players := max(n/5, 2)
	for i := range players {
		if err := db.Claim(fmt.Sprintf("SHA256:p%d", i), fmt.Sprintf("p%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	opts := rules.Options{"rounds": "4"}
	var wg sync.WaitGroup
	work := make(chan int)
	errs := make(chan error, 1)
	for range 64 {
		wg.Go(func() {
			for i := range work {
				if err := seedMatch(db, i, players, opts, ended); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		})
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
}

// seedMatch writes match i of seedSleeping.
func seedMatch(db *storage.DB, i, players int, opts rules.Options, ended bool) error {
	code := fmt.Sprintf("S%04d", i)
	seed := uint64(i + 1)
	eng, err := coloretta.Game.New(opts, 2, seed)
	if err != nil {
		return err
	}
	a, b := i%players, (i*7+1)%players
	if a == b {
		b = (b + 1) % players
	}
	seats := []record.Seat{{PlayerID: fmt.Sprintf("SHA256:p%d", a), Name: fmt.Sprintf("p%d", a)},
		{PlayerID: fmt.Sprintf("SHA256:p%d", b), Name: fmt.Sprintf("p%d", b)}}
	now := time.Now().UTC()
	due := func() *record.Turn { return &record.Turn{ToMove: eng.ToMove(), Due: now.Add(3 * rooms.Day)} }
	copts := rules.Options{"rounds": "4", rooms.ClockOption: "3d"}
	if _, err := db.StartMatch(record.Match{Code: code, Game: "coloretta", Options: copts, Seed: seed,
		Seats: seats, Started: now, Turn: due()}); err != nil {
		return err
	}
	for ply, mv := range []string{"d", "p1"} {
		seat := eng.ToMove()[0]
		if eng, err = eng.Apply(seat, mv); err != nil {
			return fmt.Errorf("match %d, %s: %w", i, mv, err)
		}
		if err := db.AppendMove(code, ply, record.Move{Seat: seat, Move: mv, At: now, Turn: due()}); err != nil {
			return err
		}
	}
	if ended {
		return db.EndMatch(code, rules.Outcome{Over: true, Reason: "abandoned"}, true)
	}
	return nil
}
