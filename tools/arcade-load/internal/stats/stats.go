// Package stats is what the load tool counts with: latencies and their summaries, spans of time,
// errors by kind, and the formats of the report's figures.
package stats

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// TargetBound is the play target's bound on a move's latency (p99 under 50 ms): the report gives
// the share of moves over it, and sorts those moves by cause (slowMoves).
const TargetBound = 50 * time.Millisecond

// Latencies collects durations; safe for concurrent use.
type Latencies struct {
	mu sync.Mutex
	d  []time.Duration
	at []time.Time // when each was measured
}

// Add records d, measured now.
func (l *Latencies) Add(d time.Duration) { l.AddAt(d, time.Now()) }

// AddAt records d, measured at at.
func (l *Latencies) AddAt(d time.Duration, at time.Time) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.at = append(l.at, at)
	l.mu.Unlock()
}

// Timeline returns the distribution of each second from start: where the slow ones were.
func (l *Latencies) Timeline(start time.Time) []Summary {
	l.mu.Lock()
	defer l.mu.Unlock()
	var per []Latencies
	for i, d := range l.d {
		sec := int(l.at[i].Sub(start) / time.Second)
		if sec < 0 {
			continue
		}
		for len(per) <= sec {
			per = append(per, Latencies{})
		}
		per[sec].d = append(per[sec].d, d)
	}
	out := make([]Summary, len(per))
	for i := range per {
		out[i] = per[i].Summary()
	}
	return out
}

// Over returns the share of the durations longer than d, 0 to 1 (0 with none).
func (l *Latencies) Over(d time.Duration) float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.d) == 0 {
		return 0
	}
	n := 0
	for _, x := range l.d {
		if x > d {
			n++
		}
	}
	return float64(n) / float64(len(l.d))
}

// OverSpans returns, for each duration over bound, the span from when it began (its measuring
// time less itself) to its measuring time.
func (l *Latencies) OverSpans(bound time.Duration) []Span {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Span
	for i, d := range l.d {
		if d > bound {
			out = append(out, Span{l.at[i].Add(-d), l.at[i]})
		}
	}
	return out
}

// Summary is a distribution in brief.
type Summary struct {
	N             int
	P50, P99, Max time.Duration
}

// Summary returns the distribution of the durations: count, median, 99th percentile (nearest
// rank) and maximum.
func (l *Latencies) Summary() Summary {
	l.mu.Lock()
	d := slices.Clone(l.d)
	l.mu.Unlock()
	if len(d) == 0 {
		return Summary{}
	}
	slices.Sort(d)
	q := func(p float64) time.Duration {
		i := int(p*float64(len(d))+0.999999) - 1 // nearest rank
		return d[min(max(i, 0), len(d)-1)]
	}
	return Summary{N: len(d), P50: q(0.50), P99: q(0.99), Max: d[len(d)-1]}
}

// String is the summary as the report prints it.
func (s Summary) String() string {
	if s.N == 0 {
		return "no samples"
	}
	return fmt.Sprintf("p50 %s · p99 %s · max %s (n=%d)", MS(s.P50), MS(s.P99), MS(s.Max), s.N)
}

// MS formats a duration in milliseconds with one decimal.
func MS(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

// ErrorLog counts errors by kind and keeps the first example of each; safe for concurrent use.
type ErrorLog struct {
	mu      sync.Mutex
	counts  map[string]int
	example map[string]string
}

// NewErrorLog returns an empty log.
func NewErrorLog() *ErrorLog {
	return &ErrorLog{counts: map[string]int{}, example: map[string]string{}}
}

// Add counts err under kind, keeping it as the kind's example when it is the first.
func (e *ErrorLog) Add(kind string, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.counts[kind]++
	if _, ok := e.example[kind]; !ok && err != nil {
		e.example[kind] = err.Error()
	}
}

// Total returns the number of errors of every kind.
func (e *ErrorLog) Total() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, c := range e.counts {
		n += c
	}
	return n
}

// Snapshot returns the counts by kind.
func (e *ErrorLog) Snapshot() map[string]int {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(map[string]int, len(e.counts))
	for k, v := range e.counts {
		out[k] = v
	}
	return out
}

// String lists the kinds, in name order, with their counts and first examples.
func (e *ErrorLog) String() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.counts) == 0 {
		return "none"
	}
	kinds := make([]string, 0, len(e.counts))
	for k := range e.counts {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var b strings.Builder
	for _, k := range kinds {
		fmt.Fprintf(&b, "\n    %-16s %6d   first: %s", k, e.counts[k], FirstLine(e.example[k], 160))
	}
	return b.String()
}

// FirstLine returns the first line of s, cut to n bytes.
func FirstLine(s string, n int) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > n {
		s = s[:n] + "…"
	}
	return s
}

// KiB formats bytes in KiB.
func KiB(b float64) string { return fmt.Sprintf("%.0f KiB", b/1024) }

// MiB formats bytes in MiB.
func MiB(b uint64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// Pct formats a share of one core.
func Pct(share float64) string { return fmt.Sprintf("%.1f%%", share*100) }
