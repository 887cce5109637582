package main

import (
	"runtime"
	"testing"
	"time"
)

// TestLatenciesOver: the share of durations strictly longer than the bound, and none without any.
func TestLatenciesOver(t *testing.T) {
	var l latencies
	if got := l.over(50 * time.Millisecond); got != 0 {
		t.Errorf("no durations: over = %g, want 0", got)
	}
	for _, ms := range []int{10, 50, 51, 200} {
		l.add(time.Duration(ms) * time.Millisecond)
	}
	if got := l.over(50 * time.Millisecond); got != 0.5 {
		t.Errorf("10, 50, 51 and 200 ms: over 50 ms = %g, want 0.5 (50 ms itself is not over)", got)
	}
}

// TestOwnCollections: the report's count of the tool's own collections follows its runtime.
func TestOwnCollections(t *testing.T) {
	before := ownCollections()
	runtime.GC()
	if after := ownCollections(); after < before+1 {
		t.Errorf("collections %d, then %d after runtime.GC", before, after)
	}
}
