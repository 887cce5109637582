// Package metrics keeps an operator's figures (counters, gauges, histograms) and writes them in the
// Prometheus text exposition format, version 0.0.4.
//
// It is written by hand on the standard library rather than with the Prometheus client library:
// the arcade needs a dozen figures, and the text format is small and stable
// (https://prometheus.io/docs/instrumenting/exposition_formats/), while the client library would
// bring its own dependencies (protobuf among them) into the module.
//
// A Registry holds metrics in the order they were added and writes them in that order. Every
// metric is safe for concurrent use; updating one never takes a lock (atomics only), so hot paths
// may update them freely. Names must match [a-zA-Z_:][a-zA-Z0-9_:]*; registering a bad or
// duplicate name panics, as it is a programming error.
package metrics

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ContentType is the media type of the text exposition format.
const ContentType = "text/plain; version=0.0.4; charset=utf-8"

var nameRe = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*$`)

// metric is anything a Registry can write.
type metric interface {
	// write writes the metric's samples (not its HELP and TYPE lines).
	write(w *bufio.Writer, name string)
}

type entry struct {
	name, help, typ string
	m               metric
}

// Registry is a set of metrics. The zero value is ready to use.
type Registry struct {
	mu      sync.Mutex
	entries []entry
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{} }

func (r *Registry) add(name, help, typ string, m metric) {
	if !nameRe.MatchString(name) {
		panic(fmt.Sprintf("metrics: bad name %q", name))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if slices.ContainsFunc(r.entries, func(e entry) bool { return e.name == name }) {
		panic(fmt.Sprintf("metrics: %q registered twice", name))
	}
	r.entries = append(r.entries, entry{name: name, help: help, typ: typ, m: m})
}

// Counter registers and returns a counter: a value that only goes up.
func (r *Registry) Counter(name, help string) *Counter {
	c := &Counter{}
	r.add(name, help, "counter", c)
	return c
}

// CounterFunc registers a counter whose value f reads when the registry is written, e.g. from a
// counter kept elsewhere. f must be safe for concurrent use.
func (r *Registry) CounterFunc(name, help string, f func() float64) {
	r.add(name, help, "counter", funcMetric(f))
}

// Gauge registers and returns a gauge: a value that goes up and down.
func (r *Registry) Gauge(name, help string) *Gauge {
	g := &Gauge{}
	r.add(name, help, "gauge", g)
	return g
}

// GaugeFunc registers a gauge whose value f reads when the registry is written. f must be safe for
// concurrent use.
func (r *Registry) GaugeFunc(name, help string, f func() float64) {
	r.add(name, help, "gauge", funcMetric(f))
}

// CounterVec registers and returns a family of counters told apart by the value of one label.
func (r *Registry) CounterVec(name, help, label string) *CounterVec {
	if !nameRe.MatchString(label) || strings.HasPrefix(label, "__") {
		panic(fmt.Sprintf("metrics: bad label name %q", label))
	}
	v := &CounterVec{label: label}
	r.add(name, help, "counter", v)
	return v
}

// Histogram registers and returns a histogram with the given bucket upper bounds (sorted
// ascending; +Inf is implied).
func (r *Registry) Histogram(name, help string, buckets []float64) *Histogram {
	b := slices.Clone(buckets)
	if !slices.IsSorted(b) || slices.Contains(b, math.Inf(1)) {
		panic(fmt.Sprintf("metrics: %q: buckets must be sorted and finite", name))
	}
	h := &Histogram{upper: b, counts: make([]atomic.Uint64, len(b)+1)}
	r.add(name, help, "histogram", h)
	return h
}

// WriteTo writes every metric in the text exposition format.
func (r *Registry) WriteTo(w io.Writer) (int64, error) {
	r.mu.Lock()
	entries := slices.Clone(r.entries)
	r.mu.Unlock()
	cw := &countingWriter{w: w}
	bw := bufio.NewWriter(cw)
	for _, e := range entries {
		bw.WriteString("# HELP " + e.name + " " + escapeHelp(e.help) + "\n")
		bw.WriteString("# TYPE " + e.name + " " + e.typ + "\n")
		e.m.write(bw, e.name)
	}
	err := bw.Flush()
	return cw.n, err
}

// ServeHTTP writes the registry: a Registry is the handler of a /metrics endpoint.
func (r *Registry) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Content-Type", ContentType)
	if req.Method == http.MethodHead {
		return
	}
	_, _ = r.WriteTo(w)
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Counter is a value that only goes up.
type Counter struct{ v atomic.Uint64 }

// Inc adds one.
func (c *Counter) Inc() { c.v.Add(1) }

// Add adds n.
func (c *Counter) Add(n uint64) { c.v.Add(n) }

// Value returns the count.
func (c *Counter) Value() uint64 { return c.v.Load() }

func (c *Counter) write(w *bufio.Writer, name string) {
	w.WriteString(name + " " + strconv.FormatUint(c.v.Load(), 10) + "\n")
}

// Gauge is a value that goes up and down.
type Gauge struct{ bits atomic.Uint64 }

// Set sets the value.
func (g *Gauge) Set(v float64) { g.bits.Store(math.Float64bits(v)) }

// Add adds d (which may be negative).
func (g *Gauge) Add(d float64) {
	for {
		old := g.bits.Load()
		if g.bits.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+d)) {
			return
		}
	}
}

// Value returns the value.
func (g *Gauge) Value() float64 { return math.Float64frombits(g.bits.Load()) }

func (g *Gauge) write(w *bufio.Writer, name string) {
	w.WriteString(name + " " + formatFloat(g.Value()) + "\n")
}

type funcMetric func() float64

func (f funcMetric) write(w *bufio.Writer, name string) {
	w.WriteString(name + " " + formatFloat(f()) + "\n")
}

// CounterVec is a family of counters, one per value of its label, written in the order the values
// were first used.
type CounterVec struct {
	label  string
	mu     sync.Mutex
	values []string
	byVal  map[string]*Counter
}

// With returns the counter for the label value v, creating it at zero.
func (v *CounterVec) With(value string) *Counter {
	v.mu.Lock()
	defer v.mu.Unlock()
	if c, ok := v.byVal[value]; ok {
		return c
	}
	if v.byVal == nil {
		v.byVal = map[string]*Counter{}
	}
	c := &Counter{}
	v.byVal[value] = c
	v.values = append(v.values, value)
	return c
}

func (v *CounterVec) write(w *bufio.Writer, name string) {
	v.mu.Lock()
	values := slices.Clone(v.values)
	v.mu.Unlock()
	for _, val := range values {
		c := v.With(val)
		w.WriteString(name + "{" + v.label + `="` + escapeLabel(val) + `"} ` + strconv.FormatUint(c.Value(), 10) + "\n")
	}
}

// Histogram counts observations in buckets, Prometheus style: each bucket counts the observations
// less than or equal to its upper bound, and the +Inf bucket counts them all.
type Histogram struct {
	upper  []float64
	counts []atomic.Uint64 // per bucket, not cumulative; the last is above every bound
	sum    atomic.Uint64   // float64 bits
	count  atomic.Uint64
}

// Observe records v.
func (h *Histogram) Observe(v float64) {
	i, _ := slices.BinarySearch(h.upper, v) // first bound >= v
	h.counts[i].Add(1)
	for {
		old := h.sum.Load()
		if h.sum.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+v)) {
			break
		}
	}
	h.count.Add(1)
}

// ObserveDuration records d in seconds.
func (h *Histogram) ObserveDuration(d time.Duration) { h.Observe(d.Seconds()) }

// Count returns the number of observations.
func (h *Histogram) Count() uint64 { return h.count.Load() }

func (h *Histogram) write(w *bufio.Writer, name string) {
	var cum uint64
	for i, ub := range h.upper {
		cum += h.counts[i].Load()
		w.WriteString(name + `_bucket{le="` + formatFloat(ub) + `"} ` + strconv.FormatUint(cum, 10) + "\n")
	}
	cum += h.counts[len(h.upper)].Load()
	// Read count after the buckets, and never report fewer than the buckets hold, so that a scrape
	// racing an observation stays consistent (+Inf bucket == count).
	w.WriteString(name + `_bucket{le="+Inf"} ` + strconv.FormatUint(cum, 10) + "\n")
	w.WriteString(name + "_sum " + formatFloat(math.Float64frombits(h.sum.Load())) + "\n")
	w.WriteString(name + "_count " + strconv.FormatUint(cum, 10) + "\n")
}

// ExponentialBuckets returns n bucket bounds from start, each factor times the one before.
func ExponentialBuckets(start, factor float64, n int) []float64 {
	b := make([]float64, n)
	for i := range b {
		b[i] = start
		start *= factor
	}
	return b
}

func formatFloat(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

var (
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
)

func escapeHelp(s string) string  { return helpEscaper.Replace(s) }
func escapeLabel(s string) string { return labelEscaper.Replace(s) }
