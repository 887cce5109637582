package main

import (
	"strings"
	"testing"

	"github.com/arcade/arcade/metrics"
)

// TestCommitQuantiles: the storage wait is read from the buckets the server's metrics package
// writes, as each quantile's bucket bound, with the share of moves over 32 ms.
func TestCommitQuantiles(t *testing.T) {
	reg := metrics.NewRegistry()
	h := reg.Histogram("arcade_move_commit_seconds", "test", metrics.ExponentialBuckets(0.0005, 2, 14))
	for range 900 {
		h.Observe(0.003) // <= 4 ms
	}
	for range 95 {
		h.Observe(0.012) // <= 16 ms
	}
	for range 4 {
		h.Observe(0.050) // <= 64 ms
	}
	h.Observe(9) // past the last bucket
	var text strings.Builder
	if _, err := reg.WriteTo(&text); err != nil {
		t.Fatal(err)
	}
	m := parseMetrics(text.String())
	got := commitQuantiles(m)
	want := "p50 <= 4 ms · p99 <= 16 ms · p99.9 <= 64 ms; 0.50% over 32 ms"
	if got != want {
		t.Errorf("commitQuantiles = %q\nwant            %q\nfrom %s", got, want, text.String())
	}
	if commitQuantiles(map[string]float64{}) != "" {
		t.Error("quantiles without a histogram")
	}
	for k := range m {
		if strings.Contains(k, "_bucket{") && !strings.HasPrefix(k, commitBuckets) {
			t.Errorf("kept another histogram's bucket %s", k)
		}
	}
}

// TestGCDuring: the collector's figures are the differences between two scrapes, per collection
// and per move; without the counters there are none.
func TestGCDuring(t *testing.T) {
	before := map[string]float64{"go_gc_cycles_total": 4, "go_gc_cpu_seconds_total": 1.0,
		"go_gc_assist_cpu_seconds_total": 0.4, "go_goroutines_created_total": 1000}
	after := map[string]float64{"go_gc_cycles_total": 7, "go_gc_cpu_seconds_total": 2.2,
		"go_gc_assist_cpu_seconds_total": 1.0, "go_goroutines_created_total": 31000}
	g := gcDuring(before, after, 10000)
	if g == nil {
		t.Fatal("no figures")
	}
	want := "3 collections, 400 ms of CPU each (50% by assists); 3.0 goroutines created per move"
	if got := g.String(); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	delete(before, "go_gc_cycles_total")
	if gcDuring(before, after, 10000) != nil {
		t.Error("figures from a scrape without the cycle counter")
	}
	if gcDuring(nil, after, 10000) != nil {
		t.Error("figures without a first scrape")
	}
}
