package watch

import (
	"testing"
	"time"

	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
)

// TestParseGCTrace: the collections are read from the runtime's own lines among the server's log,
// placed from the process's start, and kept only when they overlap the window.
func TestParseGCTrace(t *testing.T) {
	log := []byte(`time=2026-11-22T12:00:00Z level=WARN msg="room created" code=K7QXM
gc 1 @2.154s 0%: 0.17+12+0.099 ms clock, 0.34+7.9/4.4/0.013+0.19 ms cpu, 15->15->6 MB, 16 MB goal, 0 MB stacks, 0 MB globals, 2 P
gc 5 @24.371s 0%: 4.3+251+0.096 ms clock, 8.6+115/141/0+0.19 ms cpu, 755->760->172 MB, 803 MB goal, 24 MB stacks, 0 MB globals, 2 P
gc 6 @49.900s 1%: 1.0+200+0.5 ms clock, 2.0+100/100/0+1.0 ms cpu, 800->810->180 MB, 850 MB goal, 24 MB stacks, 0 MB globals, 2 P
gc 7 @70.000s 1%: 1+100+1 ms clock, 2+50/50/0+2 ms cpu, 800->810->180 MB, 850 MB goal, 24 MB stacks, 0 MB globals, 2 P
not a gc line: gc 8 @1.0s
`)
	start := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	window := stats.Span{From: start.Add(10 * time.Second), To: start.Add(50 * time.Second)}
	r := parseGCTrace(log, start, window)
	if r.Collections != 2 {
		t.Fatalf("%d collections in the window, want 2 (gc 5 and gc 6, which ends after it): %+v", r.Collections, r)
	}
	gc5 := stats.Span{From: start.Add(24371 * time.Millisecond), To: start.Add(24371*time.Millisecond + 255396*time.Microsecond + GCBacklog)}
	if r.spans[0] != gc5 {
		t.Errorf("gc 5: %v to %v, want %v to %v", r.spans[0].From, r.spans[0].To, gc5.From, gc5.To)
	}
	if r.Longest != 255396*time.Microsecond || r.Collecting != r.Longest+201500*time.Microsecond {
		t.Errorf("longest %v, together %v", r.Longest, r.Collecting)
	}
	if got := parseGCTrace([]byte("no collections here\n"), start, window); got.Collections != 0 || got.spans != nil {
		t.Errorf("a log without gctrace: %+v", got)
	}
}
