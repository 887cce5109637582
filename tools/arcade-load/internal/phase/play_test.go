package phase

import (
	"testing"

	"github.com/arcade/arcade/tools/arcade-load/internal/client"
	"github.com/arcade/arcade/tools/arcade-load/internal/server"
)

// TestGCDuring: the collector's figures are the differences between two scrapes, per collection
// and per move; without the counters there are none.
func TestGCDuring(t *testing.T) {
	before := map[string]float64{"go_gc_cycles_total": 4, "go_gc_cpu_seconds_total": 1.0,
		"go_gc_assist_cpu_seconds_total": 0.4, "go_goroutines_created_total": 1000}
	after := map[string]float64{"go_gc_cycles_total": 7, "go_gc_cpu_seconds_total": 2.2,
		"go_gc_assist_cpu_seconds_total": 1.0, "go_goroutines_created_total": 31000}
	g := GCDuring(before, after, 10000)
	if g == nil {
		t.Fatal("no figures")
	}
	want := "3 collections, 400 ms of CPU each (50% by assists); 3.0 goroutines created per move"
	if got := g.String(); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	delete(before, "go_gc_cycles_total")
	if GCDuring(before, after, 10000) != nil {
		t.Error("figures from a scrape without the cycle counter")
	}
	if GCDuring(nil, after, 10000) != nil {
		t.Error("figures without a first scrape")
	}
}

// TestPairOpts: which node each player of a room connects to, with several --addr and each
// --pairing, and with one address.
func TestPairOpts(t *testing.T) {
	nodes := []string{"127.0.0.1:2221", "127.0.0.1:2222", "127.0.0.1:2223"}
	srv := &server.Server{Addr: nodes[0], Nodes: nodes, PIDs: []int{11, 12, 13}}
	for i, want := range [][2]string{{"127.0.0.1:2221", "127.0.0.1:2222"}, {"127.0.0.1:2222", "127.0.0.1:2223"}, {"127.0.0.1:2223", "127.0.0.1:2221"}} {
		if p := pairOpts(srv, client.DialOpts{}, i, "cross"); p[0].Addr != want[0] || p[1].Addr != want[1] {
			t.Errorf("cross, room %d: %s and %s, want %v", i, p[0].Addr, p[1].Addr, want)
		}
		if p := pairOpts(srv, client.DialOpts{}, i, "same"); p[0].Addr != want[0] || p[1].Addr != want[0] {
			t.Errorf("same, room %d: %s and %s, want %s", i, p[0].Addr, p[1].Addr, want[0])
		}
	}
	one := &server.Server{Addr: "127.0.0.1:2221", Nodes: []string{"127.0.0.1:2221"}}
	if p := pairOpts(one, client.DialOpts{Addr: "127.0.0.1:2221"}, 5, "same"); p[0].Addr != "127.0.0.1:2221" || p[1].Addr != "127.0.0.1:2221" {
		t.Errorf("one address: %v", p)
	}
}
