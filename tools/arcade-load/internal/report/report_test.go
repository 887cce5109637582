package report

import (
	"strings"
	"testing"

	"github.com/arcade/arcade/metrics"
	"github.com/arcade/arcade/tools/arcade-load/internal/server"
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
	m := server.ParseMetrics(text.String())
	got := commitQuantiles(m)
	want := "p50 <= 4 ms · p99 <= 16 ms · p99.9 <= 64 ms; 0.50% over 32 ms"
	if got != want {
		t.Errorf("commitQuantiles = %q\nwant            %q\nfrom %s", got, want, text.String())
	}
	if commitQuantiles(map[string]float64{}) != "" {
		t.Error("quantiles without a histogram")
	}
	for k := range m {
		if strings.Contains(k, "_bucket{") && !strings.HasPrefix(k, server.CommitBuckets) {
			t.Errorf("kept another histogram's bucket %s", k)
		}
	}
}
