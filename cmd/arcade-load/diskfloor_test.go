package main

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// TestDiskFloor: the disk floor flushes the moves made at its rate, every one of them, measures
// each, and leaves nothing behind in its folder. It asserts counts, never how fast the disk was.
func TestDiskFloor(t *testing.T) {
	dir := t.TempDir()
	r, err := diskFloor(context.Background(), dir, 500, 400*time.Millisecond)
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
	if _, err := diskFloor(ctx, t.TempDir(), 1000, time.Minute); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
	if _, err := diskFloor(context.Background(), "/nonexistent/folder", 1000, 100*time.Millisecond); err == nil {
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

// TestDiskWatchAttribute: a move over 50 ms counts as held by a stall when it was under way, from
// sent to seen, while the stall went on; one that began after the stall, or ended before it, does
// not, nor does a move of 50 ms or less.
func TestDiskWatchAttribute(t *testing.T) {
	t0 := time.Now()
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	var lat latencies
	move := func(sent, seen int) {
		lat.d = append(lat.d, ms(seen).Sub(ms(sent)))
		lat.at = append(lat.at, ms(seen))
	}
	move(0, 100)    // over, and under way through the stall from 90 to 150 ms
	move(140, 200)  // over, and sent before the stall ended
	move(150, 220)  // over, sent as the stall ended: not in it
	move(10, 80)    // over, seen before the stall began
	move(100, 140)  // in the stall, but not over 50 ms
	move(300, 1000) // over, under way through the second stall
	w := &diskWatchResult{stalls: []span{{ms(90), ms(150)}, {ms(500), ms(530)}}}
	w.attribute(&lat)
	if w.SlowMoves != 5 || w.SlowInStall != 3 {
		t.Errorf("%d moves over 50 ms, %d in a stall; want 5 and 3", w.SlowMoves, w.SlowInStall)
	}
	if got := w.String(); !strings.Contains(got, "3 of the 5 moves over 50 ms (60%)") {
		t.Errorf("report: %q", got)
	}
}
