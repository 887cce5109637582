package stats

import (
	"testing"
	"time"
)

// TestLatenciesOver: the share of durations strictly longer than the bound, and none without any.
func TestLatenciesOver(t *testing.T) {
	var l Latencies
	if got := l.Over(50 * time.Millisecond); got != 0 {
		t.Errorf("no durations: over = %g, want 0", got)
	}
	for _, MS := range []int{10, 50, 51, 200} {
		l.Add(time.Duration(MS) * time.Millisecond)
	}
	if got := l.Over(50 * time.Millisecond); got != 0.5 {
		t.Errorf("10, 50, 51 and 200 ms: over 50 ms = %g, want 0.5 (50 ms itself is not over)", got)
	}
}
