package metrics

import (
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestExposition: each kind of metric, written in the text format exactly as Prometheus reads it.
func TestExposition(t *testing.T) {
	r := NewRegistry()
	sessions := r.Gauge("arcade_sessions", "SSH sessions open now.")
	moves := r.Counter("arcade_moves_total", "Moves accepted.")
	r.GaugeFunc("arcade_rooms", "Open rooms.", func() float64 { return 3 })
	r.CounterFunc("arcade_matches_total", "Matches started.", func() float64 { return 7 })
	errs := r.CounterVec("arcade_errors_total", "Errors by kind.", "kind")
	lat := r.Histogram("arcade_move_seconds", "Time to commit a move.\nSecond line with a \\.", []float64{0.001, 0.01, 0.1})

	sessions.Set(12)
	sessions.Add(-2)
	moves.Add(41)
	moves.Inc()
	errs.With("record").Inc()
	errs.With(`we"ird\`).Add(2)
	errs.With("record").Inc()
	lat.Observe(0.0005)
	lat.ObserveDuration(5 * time.Millisecond)
	lat.Observe(0.01) // on a bound: counts in that bucket
	lat.Observe(2)

	var b strings.Builder
	n, err := r.WriteTo(&b)
	if err != nil {
		t.Fatal(err)
	}
	want := `# HELP arcade_sessions SSH sessions open now.
# TYPE arcade_sessions gauge
arcade_sessions 10
# HELP arcade_moves_total Moves accepted.
# TYPE arcade_moves_total counter
arcade_moves_total 42
# HELP arcade_rooms Open rooms.
# TYPE arcade_rooms gauge
arcade_rooms 3
# HELP arcade_matches_total Matches started.
# TYPE arcade_matches_total counter
arcade_matches_total 7
# HELP arcade_errors_total Errors by kind.
# TYPE arcade_errors_total counter
arcade_errors_total{kind="record"} 2
arcade_errors_total{kind="we\"ird\\"} 2
# HELP arcade_move_seconds Time to commit a move.\nSecond line with a \\.
# TYPE arcade_move_seconds histogram
arcade_move_seconds_bucket{le="0.001"} 1
arcade_move_seconds_bucket{le="0.01"} 3
arcade_move_seconds_bucket{le="0.1"} 3
arcade_move_seconds_bucket{le="+Inf"} 4
arcade_move_seconds_sum 2.0155
arcade_move_seconds_count 4
`
	if got := b.String(); got != want {
		t.Errorf("exposition:\n%s\nwant:\n%s", got, want)
	}
	if n != int64(len(want)) {
		t.Errorf("WriteTo returned %d, wrote %d", n, len(want))
	}
}

// TestHandler: the registry serves itself with the format's content type.
func TestHandler(t *testing.T) {
	r := NewRegistry()
	r.Counter("x_total", "An x.").Inc()
	srv := httptest.NewServer(r)
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if ct := resp.Header.Get("Content-Type"); ct != ContentType {
		t.Errorf("content type %q", ct)
	}
	if !strings.Contains(string(body), "x_total 1\n") {
		t.Errorf("body %q", body)
	}
	resp, err = http.Post(srv.URL, "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %s", resp.Status)
	}
}

// TestBadNames: a name Prometheus would refuse, or the same name twice, panics at registration.
func TestBadNames(t *testing.T) {
	for _, f := range []func(r *Registry){
		func(r *Registry) { r.Counter("9lives", "") },
		func(r *Registry) { r.Gauge("with-dash", "") },
		func(r *Registry) { r.Counter("twice", ""); r.Gauge("twice", "") },
		func(r *Registry) { r.CounterVec("ok_total", "", "__reserved") },
		func(r *Registry) { r.Histogram("h", "", []float64{2, 1}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f(NewRegistry())
		}()
	}
}

// TestConcurrent: updates from many goroutines while the registry is written (run with -race).
func TestConcurrent(t *testing.T) {
	r := NewRegistry()
	c := r.Counter("c_total", "")
	g := r.Gauge("g", "")
	h := r.Histogram("h_seconds", "", ExponentialBuckets(0.001, 2, 10))
	v := r.CounterVec("v_total", "", "k")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 1000 {
				c.Inc()
				g.Add(1)
				h.Observe(float64(j) / 1000)
				v.With([]string{"a", "b"}[i%2]).Inc()
			}
		}()
	}
	for range 10 {
		_, _ = r.WriteTo(io.Discard)
	}
	wg.Wait()
	if c.Value() != 8000 || g.Value() != 8000 || h.Count() != 8000 {
		t.Errorf("counter %d, gauge %g, histogram %d; want 8000 each", c.Value(), g.Value(), h.Count())
	}
}

// TestProcess: the process metrics are there and plausible, and the runtime's counters count.
func TestProcess(t *testing.T) {
	r := NewRegistry()
	RegisterProcess(r)
	read := func() map[string]float64 {
		t.Helper()
		var b strings.Builder
		if _, err := r.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		m := map[string]float64{}
		for line := range strings.SplitSeq(b.String(), "\n") {
			name, val, ok := strings.Cut(line, " ")
			if !ok || strings.HasPrefix(line, "#") {
				continue
			}
			v, err := strconv.ParseFloat(val, 64)
			if err != nil {
				t.Fatalf("line %q: %v", line, err)
			}
			m[name] = v
		}
		return m
	}
	before := read()
	for _, name := range []string{"go_goroutines", "go_heap_bytes", "go_stack_bytes", "process_start_time_seconds", "go_goroutines_created_total"} {
		if before[name] <= 0 {
			t.Errorf("%s = %g; want more than 0", name, before[name])
		}
	}
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {})
	}
	wg.Wait()
	runtime.GC()
	after := read()
	if d := after["go_goroutines_created_total"] - before["go_goroutines_created_total"]; d < 10 {
		t.Errorf("go_goroutines_created_total went up by %g after 10 goroutines", d)
	}
	if d := after["go_gc_cycles_total"] - before["go_gc_cycles_total"]; d < 1 {
		t.Errorf("go_gc_cycles_total went up by %g after a collection", d)
	}
	if gc, assist := after["go_gc_cpu_seconds_total"], after["go_gc_assist_cpu_seconds_total"]; gc <= 0 || assist < 0 || assist > gc {
		t.Errorf("go_gc_cpu_seconds_total %g, go_gc_assist_cpu_seconds_total %g; want 0 <= assists <= total, total > 0", gc, assist)
	}
}
