//go:build measure

package main

import (
	"runtime"
	"testing"
	"time"
)

// The tests here weigh the heap of the server (in this process): they run with the tag measure
// (go test -tags measure -run Heap -v ./cmd/arcade), alone, and print their figures; the bounds
// they keep are loose, against a size taken from a client without bounds (gigabytes).

// heapAlloc returns the bytes of live heap after a full collection.
func heapAlloc() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestHugeWindowsHeap: a session of a huge window holds about what one of the largest window a
// session is drawn for holds.
func TestHugeWindowsHeap(t *testing.T) {
	addr := startServer(t).String()
	// A session of ordinary size first, so that what every session needs (the lobby's code paths,
	// the catalogue's caches) is in the baseline.
	hugeWindowClient(t, addr, 80, 24)
	before := heapAlloc()
	sess, read := hugeWindowStorm(t, addr)
	time.Sleep(time.Second) // the program draws for the last size it took
	during := heapAlloc()
	_ = sess.Close()
	<-read
	t.Logf("figures: heap %d KB before, %d KB with the huge window", before>>10, during>>10)
	if during > before && during-before > hugeWindowLimit {
		t.Errorf("heap grew by %d MB with a huge window (from %d MB), want under %d MB",
			(during-before)>>20, before>>20, hugeWindowLimit>>20)
	}
}

// TestEnvironmentFloodHeap: a flood of environment variables before a session starts (60 MB)
// leaves the server's heap within a few MB of where it was.
func TestEnvironmentFloodHeap(t *testing.T) {
	addr := startServer(t)
	hugeWindowClient(t, addr.String(), 80, 24) // what every session needs, in the baseline
	before := heapAlloc()
	environmentFlood(t, addr)
	after := heapAlloc()
	t.Logf("figures: heap %d KB before, %d KB after the flood", before>>10, after>>10)
	if after > before && after-before > 4<<20 {
		t.Errorf("heap grew by %d MB with a flood of environment variables", (after-before)>>20)
	}
}
