package watch

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
)

// The disk watch looks at the disk while the play phase is measured: every DiskWatchEvery, a
// small write in place in a file of its own in the arcade's data folder, and an fdatasync. A
// stall of the disk holds every flush issued during it, the database's and the watch's alike, so
// the watch's slow flushes say when the disk stalled, and the moves over 50 ms that were under way
// then are the ones the disk held back (see SlowMoves). It adds a flush every DiskWatchEvery, 50
// a second beside the arcade's own, so it is off unless asked for.
const (
	DiskWatchEvery = 20 * time.Millisecond
	// diskStall is a flush long enough to be a stall: a calm one takes 1 to 4 ms on the
	// development VM's disk.
	diskStall = 25 * time.Millisecond
	// diskWatchFileBytes is the size of the watch's file, written round.
	diskWatchFileBytes = 64 << 10
)

// DiskWatchResult is what a disk watch saw.
type DiskWatchResult struct {
	Flushes int
	Stalls  int           // flushes over diskStall
	Longest time.Duration // the longest flush
	Stalled time.Duration // the stalls' time, together
	stalls  []stats.Span
}

func (r *DiskWatchResult) String() string {
	return fmt.Sprintf("%d flushes, %d over %s (longest %s, %s in all)", r.Flushes, r.Stalls,
		stats.MS(diskStall), stats.MS(r.Longest), stats.MS(r.Stalled))
}

// StartDiskWatch runs the disk watch in dir over window, on a goroutine of its own. The channel
// gives what it saw once it is done, or nil when it did not run to the end (errs has why).
func StartDiskWatch(ctx context.Context, dir string, window stats.Span, errs *stats.ErrorLog) <-chan *DiskWatchResult {
	out := make(chan *DiskWatchResult, 1)
	go func() {
		defer close(out)
		t := time.NewTimer(time.Until(window.From))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		w, err := watchDisk(ctx, dir, window.To)
		if err != nil {
			errs.Add("disk-watch", err)
			return
		}
		out <- w
	}()
	return out
}

// watchDisk flushes a small write in dir every DiskWatchEvery until end, and returns what it saw.
// It blocks until end, or until ctx is done (then it returns ctx's error). Its file is removed.
func watchDisk(ctx context.Context, dir string, end time.Time) (*DiskWatchResult, error) {
	f, err := prewrittenFile(dir, "arcade-load-disk-watch-", diskWatchFileBytes)
	if err != nil {
		return nil, fmt.Errorf("disk watch: %w", err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	res := &DiskWatchResult{}
	record := []byte("watch") // not zeros: a virtual disk may treat writes of zeros apart
	tick := time.NewTicker(DiskWatchEvery)
	defer tick.Stop()
	for off := int64(0); ; off += int64(len(record)) {
		if off+int64(len(record)) > diskWatchFileBytes {
			off = 0 // round the file again
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case now := <-tick.C:
			if now.After(end) {
				return res, nil
			}
		}
		from := time.Now()
		if _, err := f.WriteAt(record, off); err != nil {
			return nil, fmt.Errorf("disk watch: %w", err)
		}
		if err := syscall.Fdatasync(int(f.Fd())); err != nil {
			return nil, fmt.Errorf("disk watch: %w", err)
		}
		to := time.Now()
		d := to.Sub(from)
		res.Flushes++
		res.Longest = max(res.Longest, d)
		if d > diskStall {
			res.Stalls++
			res.Stalled += d
			res.stalls = append(res.stalls, stats.Span{From: from, To: to})
		}
	}
}

// prewrittenFile creates a file in dir, written full of zeros (size bytes) and flushed, so that a
// write into it later changes data in place and no file metadata, as most of a bbolt commit's
// writes do.
func prewrittenFile(dir, prefix string, size int) (*os.File, error) {
	f, err := os.CreateTemp(dir, prefix)
	if err != nil {
		return nil, err
	}
	if _, err = f.WriteAt(make([]byte, size), 0); err == nil {
		err = f.Sync()
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return f, nil
}
