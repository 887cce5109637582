package watch

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"
)

// TestDiskFloor: the disk floor flushes the moves made at its rate, every one of them, measures
// each, and leaves nothing behind in its folder. It asserts counts, never how fast the disk was.
func TestDiskFloor(t *testing.T) {
	dir := t.TempDir()
	r, err := DiskFloor(context.Background(), dir, 500, 400*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	// 500 a second for 0.4 s, give or take the last millisecond.
	if r.Latency.N < 190 || r.Latency.N > 200 {
		t.Errorf("%d moves flushed, want 200 (500/s for 400 ms)", r.Latency.N)
	}
	if r.Flushes == 0 || r.Flushes > r.Latency.N {
		t.Errorf("%d flushes for %d moves", r.Flushes, r.Latency.N)
	}
	if r.Over50 < 0 || r.Over50 > 1 || r.Latency.P50 <= 0 || r.Latency.P50 > r.Latency.Max {
		t.Errorf("figures out of range: %+v", r)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("the floor left %d files in its folder", len(left))
	}
}

// TestDiskFloorStops: a cancelled disk floor returns the context's error, and a folder
// it cannot write to is an error, not a measurement.
func TestDiskFloorStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, err := DiskFloor(ctx, t.TempDir(), 1000, time.Minute); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
	if _, err := DiskFloor(context.Background(), "/nonexistent/folder", 1000, 100*time.Millisecond); err == nil {
		t.Error("a folder that does not exist: no error")
	}
}

// TestDiskWatch: the watch flushes at its pace until the end it is given, counts its stalls
// among its flushes, and leaves nothing behind. It asserts counts, never how fast the disk was.
func TestDiskWatch(t *testing.T) {
	dir := t.TempDir()
	r, err := watchDisk(context.Background(), dir, time.Now().Add(400*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	// A flush every 20 ms for 400 ms: 20 at most, fewer if the disk was slow.
	if r.Flushes == 0 || r.Flushes > 20 {
		t.Errorf("%d flushes in 400 ms, want 1 to 20", r.Flushes)
	}
	if r.Stalls > r.Flushes || len(r.stalls) != r.Stalls || r.Longest <= 0 {
		t.Errorf("figures out of range: %+v", r)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("the watch left %d files in its folder", len(left))
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := watchDisk(ctx, t.TempDir(), time.Now().Add(time.Minute)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
	if _, err := watchDisk(context.Background(), "/nonexistent/folder", time.Now().Add(time.Second)); err == nil {
		t.Error("a folder that does not exist: no error")
	}
}
