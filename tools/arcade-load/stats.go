package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// targetBound is the play target's bound on a move's latency (p99 under 50 ms): the report gives
// the share of moves over it, and sorts those moves by cause (slowMoves).
const targetBound = 50 * time.Millisecond

// latencies collects durations; safe for concurrent use.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
	at []time.Time // when each was measured
}

func (l *latencies) add(d time.Duration) {
	now := time.Now()
	l.mu.Lock()
	l.d = append(l.d, d)
	l.at = append(l.at, now)
	l.mu.Unlock()
}

// timeline returns the distribution of each second from start: where the slow ones were.
func (l *latencies) timeline(start time.Time) []summary {
	l.mu.Lock()
	defer l.mu.Unlock()
	var per []latencies
	for i, d := range l.d {
		sec := int(l.at[i].Sub(start) / time.Second)
		if sec < 0 {
			continue
		}
		for len(per) <= sec {
			per = append(per, latencies{})
		}
		per[sec].d = append(per[sec].d, d)
	}
	out := make([]summary, len(per))
	for i := range per {
		out[i] = per[i].summary()
	}
	return out
}

// over returns the share of the durations longer than d, 0 to 1 (0 with none).
func (l *latencies) over(d time.Duration) float64 {
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

// overSpans returns, for each duration over bound, the span from when it began (its measuring
// time less itself) to its measuring time.
func (l *latencies) overSpans(bound time.Duration) []span {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []span
	for i, d := range l.d {
		if d > bound {
			out = append(out, span{l.at[i].Add(-d), l.at[i]})
		}
	}
	return out
}

// summary is a distribution in brief.
type summary struct {
	N             int
	P50, P99, Max time.Duration
}

func (l *latencies) summary() summary {
	l.mu.Lock()
	d := slices.Clone(l.d)
	l.mu.Unlock()
	if len(d) == 0 {
		return summary{}
	}
	slices.Sort(d)
	q := func(p float64) time.Duration {
		i := int(p*float64(len(d))+0.999999) - 1 // nearest rank
		return d[min(max(i, 0), len(d)-1)]
	}
	return summary{N: len(d), P50: q(0.50), P99: q(0.99), Max: d[len(d)-1]}
}

func (s summary) String() string {
	if s.N == 0 {
		return "no samples"
	}
	return fmt.Sprintf("p50 %s · p99 %s · max %s (n=%d)", ms(s.P50), ms(s.P99), ms(s.Max), s.N)
}

// ms formats a duration in milliseconds with one decimal.
func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

// errorLog counts errors by kind and keeps the first example of each; safe for concurrent use.
type errorLog struct {
	mu      sync.Mutex
	counts  map[string]int
	example map[string]string
}

func newErrorLog() *errorLog {
	return &errorLog{counts: map[string]int{}, example: map[string]string{}}
}

func (e *errorLog) add(kind string, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.counts[kind]++
	if _, ok := e.example[kind]; !ok && err != nil {
		e.example[kind] = err.Error()
	}
}

func (e *errorLog) total() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, c := range e.counts {
		n += c
	}
	return n
}

// snapshot returns the counts by kind.
func (e *errorLog) snapshot() map[string]int {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(map[string]int, len(e.counts))
	for k, v := range e.counts {
		out[k] = v
	}
	return out
}

func (e *errorLog) String() string {
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
		fmt.Fprintf(&b, "\n    %-16s %6d   first: %s", k, e.counts[k], firstLine(e.example[k], 160))
	}
	return b.String()
}

func firstLine(s string, n int) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > n {
		s = s[:n] + "…"
	}
	return s
}

// kib formats bytes in KiB.
func kib(b float64) string { return fmt.Sprintf("%.0f KiB", b/1024) }

// mib formats bytes in MiB.
func mib(b uint64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// pct formats a share of one core.
func pct(share float64) string { return fmt.Sprintf("%.1f%%", share*100) }
