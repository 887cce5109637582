package storage

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
)

// benchDir is a directory for a benchmark's database: on tmpfs (/dev/shm) when there is one, so
// that the figures are the store's own and not the disk's.
func benchDir(b *testing.B) string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		dir, err := os.MkdirTemp("/dev/shm", "arcade-bench-")
		if err == nil {
			b.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return b.TempDir()
}

// BenchmarkGroupCommit is the move's commit as a room makes it (AppendMove, which returns once the
// move is on disk), with 1, 100 and 5,000 rooms each writing its next move as soon as the one
// before is committed: the most moves a second the store takes from that many rooms. It reports
// the moves and commits a second, the moves per commit, the latency of a move's commit (p50 and
// p99), and per commit bbolt's pages allocated, writes and the time spent spilling and writing
// (bolt.TxStats), and the bytes of a move's record (key and sealed JSON).
func BenchmarkGroupCommit(b *testing.B) {
	for _, writers := range []int{1, 100, 5000} {
		b.Run("writers="+strconv.Itoa(writers), func(b *testing.B) { benchCommit(b, writers) })
	}
}

func benchCommit(b *testing.B, writers int) {
	d, codes := benchStore(b, writers)
	mv := record.Move{Seat: 1, Move: "b c4", At: time.Now().UTC()}
	data, _ := json.Marshal(mv)
	key := moveKey("0123456789a", 12)
	recordBytes := len(key) + len(seal(key, data))

	stats0, commits0, cpu0 := d.db.Stats(), d.writes.commits.Load(), cpuTime()
	var left atomic.Int64
	left.Store(int64(b.N))
	lat := make([][]time.Duration, writers)
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for w := range writers {
		wg.Go(func() {
			for ply := 0; left.Add(-1) >= 0; ply++ {
				t := time.Now()
				m := mv
				m.At = t.UTC()
				m.Seat = 0
				if ply%2 == 1 {
					m.Seat = 1
				}
				if err := d.AppendMove(codes[w], ply, m); err != nil {
					b.Error(err)
					return
				}
				lat[w] = append(lat[w], time.Since(t))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	cpu := cpuTime() - cpu0
	stats := d.db.Stats().TxStats
	commits := float64(d.writes.commits.Load() - commits0)
	all := slices.Concat(lat...)
	slices.Sort(all)
	n := float64(len(all))
	pct := func(p float64) float64 {
		return float64(all[min(len(all)-1, int(p*n))].Microseconds()) / 1000
	}
	b.ReportMetric(n/elapsed.Seconds(), "moves/s")
	b.ReportMetric(commits/elapsed.Seconds(), "commits/s")
	b.ReportMetric(n/commits, "moves/commit")
	b.ReportMetric(pct(0.5), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(stats.GetPageCount()-stats0.TxStats.GetPageCount())/commits, "pages/commit")
	b.ReportMetric(float64(stats.GetWrite()-stats0.TxStats.GetWrite())/commits, "writes/commit")
	b.ReportMetric(float64((stats.GetSpillTime()-stats0.TxStats.GetSpillTime()).Microseconds())/1000/commits, "spill-ms/commit")
	b.ReportMetric(float64((stats.GetWriteTime()-stats0.TxStats.GetWriteTime()).Microseconds())/1000/commits, "write-ms/commit")
	b.ReportMetric(float64(recordBytes), "bytes/move")
	b.ReportMetric(float64(cpu.Microseconds())/n, "cpu-us/move")
}

// BenchmarkCommitPaced is the move's commit at the rate the arcade is asked for: 5,000 rooms each
// writing a move a second (5,000 moves a second), each room's first move at its own moment of
// the first second, for b.N moves in all. It reports the latency of a move's commit (p50, p99,
// max), the commits a second, and the process's CPU time per move (the store's and the
// benchmark's writers').
func BenchmarkCommitPaced(b *testing.B) {
	const rooms, every = 5000, time.Second
	d, codes := benchStore(b, rooms)
	mv := record.Move{Seat: 1, Move: "b c4"}
	per := max(1, b.N/rooms)
	lat := make([][]time.Duration, rooms)
	commits0, cpu0 := d.writes.commits.Load(), cpuTime()
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for w := range rooms {
		wg.Go(func() {
			next := start.Add(time.Duration(w) * every / rooms)
			for ply := range per {
				time.Sleep(time.Until(next))
				t := time.Now()
				m := mv
				m.At, m.Seat = t.UTC(), rules.Seat(ply%2)
				if err := d.AppendMove(codes[w], ply, m); err != nil {
					b.Error(err)
					return
				}
				lat[w] = append(lat[w], time.Since(t))
				next = next.Add(every)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	cpu := cpuTime() - cpu0
	all := slices.Concat(lat...)
	slices.Sort(all)
	n := float64(len(all))
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(n/elapsed.Seconds(), "moves/s")
	b.ReportMetric(float64(d.writes.commits.Load()-commits0)/elapsed.Seconds(), "commits/s")
	b.ReportMetric(ms(all[int(0.5*n)]), "p50-ms")
	b.ReportMetric(ms(all[min(len(all)-1, int(0.99*n))]), "p99-ms")
	b.ReportMetric(ms(all[len(all)-1]), "max-ms")
	b.ReportMetric(float64(cpu.Microseconds())/n, "cpu-us/move")
}

// benchStore opens a store on tmpfs with an unfinished match in each of n rooms, and returns it
// and the rooms' codes.
func benchStore(b *testing.B, n int) (*DB, []string) {
	d, err := Open(filepath.Join(benchDir(b), "arcade.db"), Options{LockTimeout: time.Second})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { d.Close() })
	codes := make([]string, n)
	var wg sync.WaitGroup
	for i := range codes {
		codes[i] = fmt.Sprintf("R%05d", i)
		wg.Go(func() { // at once: they share commits
			if _, err := d.StartMatch(record.Match{Code: codes[i], Game: "stonetowers",
				Options: map[string]string{"size": "8"}, Seats: twoPlayers(), Started: time.Now()}); err != nil {
				b.Error(err)
			}
		})
	}
	wg.Wait()
	return d, codes
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
