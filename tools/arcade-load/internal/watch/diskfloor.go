package watch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
)

// The disk floor is what the disk under the arcade's database gives a group commit like the
// arcade's own, with nothing else running: moves arrive at the play phase's rate, and the moves
// that arrived while a batch was flushed make up the next batch, as storage's group commit does.
// A batch is written as a bbolt commit writes it, in a file written full beforehand: a page for
// each move (the leaf of its match) and an fdatasync, then the meta page and an fdatasync. A
// move's latency is from its arrival to the end of its batch's second flush.
//
// A move reaches the opponent's screen only once it is on disk, so the share of the floor's moves
// over a latency is about the least share of the arcade's moves over it on that disk at that
// time. The floor is measured right before the play phase and right after it: a disk's flushes
// can be fast for minutes and then stall for a few hundred milliseconds at a time.
const (
	diskFloorPage      = 4096    // bbolt's page, on Linux
	diskFloorFileBytes = 4 << 20 // the file written round
	// diskFloorGap is the least time from one batch's start to the next one's, as storage's
	// commitGap.
	diskFloorGap = 4 * time.Millisecond
)

// DiskFloorResult is what a disk floor measured.
type DiskFloorResult struct {
	Dir     string
	Latency stats.Summary // from a move's arrival to its flush's end
	Over50  float64       // share of moves over 50 ms (the play target's bound), 0 to 1
	Flushes int           // batches, of two fdatasyncs each
}

func (r *DiskFloorResult) String() string {
	return fmt.Sprintf("%s; %.2f%% over 50 ms; %d flushes", r.Latency, 100*r.Over50, r.Flushes)
}

// errNoMoves: a disk floor measured nothing.
var errNoMoves = errors.New("no move was flushed")

// DiskFloor measures the disk floor in dir for d, with rate moves a second. Its file is removed
// at the end. It blocks until d has passed or ctx is done.
func DiskFloor(ctx context.Context, dir string, rate float64, d time.Duration) (*DiskFloorResult, error) {
	f, err := prewrittenFile(dir, "arcade-load-disk-floor-", diskFloorFileBytes)
	if err != nil {
		return nil, fmt.Errorf("disk floor: %w", err)
	}
	defer os.Remove(f.Name())
	defer f.Close()

	var mu sync.Mutex
	var arrived []time.Time
	wake := make(chan struct{}, 1) // a token when moves arrive
	start := time.Now()
	end := start.Add(d)
	arrivals := make(chan struct{}) // closed when every move is made
	// The moves: every millisecond, as many as rate says by now.
	go func() {
		defer close(arrivals)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		made := 0
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-tick.C:
				if now.After(end) {
					return
				}
				due := int(now.Sub(start).Seconds() * rate)
				if due == made {
					continue
				}
				mu.Lock()
				for ; made < due; made++ {
					arrived = append(arrived, now)
				}
				mu.Unlock()
				select {
				case wake <- struct{}{}:
				default:
				}
			}
		}
	}()

	// The batches, as the arcade's group commit makes them: a move that finds the flushes idle
	// goes at once, and the moves that arrive meanwhile wait for the next batch, which starts
	// diskFloorGap after this one at the earliest (storage's commitGap).
	res := &DiskFloorResult{Dir: dir}
	var lat stats.Latencies
	var record []byte
	off := int64(diskFloorPage)
flushes:
	for ctx.Err() == nil {
		mu.Lock()
		batch := arrived
		arrived = nil
		mu.Unlock()
		if len(batch) == 0 {
			select {
			case <-ctx.Done():
			case <-wake:
				continue
			case <-arrivals: // closed, and every move flushed
				break flushes
			}
			continue
		}
		start := time.Now()
		// Pages of bytes that are not zeros, as a database's are: a virtual disk may treat
		// writes of zeros apart. The first page of the file is the meta page.
		n := min(len(batch)*diskFloorPage, diskFloorFileBytes-diskFloorPage)
		for len(record) < n {
			record = append(record, "move "...)
		}
		if off+int64(n) > diskFloorFileBytes {
			off = diskFloorPage
		}
		if _, err := f.WriteAt(record[:n], off); err != nil {
			return nil, fmt.Errorf("disk floor: %w", err)
		}
		off += int64(n)
		if err := syscall.Fdatasync(int(f.Fd())); err != nil {
			return nil, fmt.Errorf("disk floor: %w", err)
		}
		if _, err := f.WriteAt(record[:diskFloorPage], 0); err != nil {
			return nil, fmt.Errorf("disk floor: %w", err)
		}
		if err := syscall.Fdatasync(int(f.Fd())); err != nil {
			return nil, fmt.Errorf("disk floor: %w", err)
		}
		done := time.Now()
		for _, at := range batch {
			lat.Add(done.Sub(at))
		}
		res.Flushes++
		if wait := diskFloorGap - time.Since(start); wait > 0 {
			time.Sleep(wait)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res.Latency = lat.Summary()
	if res.Latency.N == 0 {
		return nil, errNoMoves
	}
	res.Over50 = lat.Over(stats.TargetBound)
	return res, nil
}
