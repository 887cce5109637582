package watch

import (
	"strings"
	"testing"
	"time"

	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
)

// TestAttributeSlow: a move over 50 ms counts as under way during a stall or a collection when it
// was under way, from sent to seen, while one went on; one that began as it ended, or ended
// before it began, does not, nor does a move of 50 ms or less. A watch that did not run is left
// out of the report.
func TestAttributeSlow(t *testing.T) {
	t0 := time.Now()
	at := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	var lat stats.Latencies
	move := func(sent, seen int) {
		lat.AddAt(at(seen).Sub(at(sent)), at(seen))
	}
	stalls := []stats.Span{{From: at(90), To: at(150)}, {From: at(500), To: at(530)}}
	collections := []stats.Span{{From: at(180), To: at(400)}}
	move(0, 100)    // stall
	move(140, 200)  // sent before the stall ended, seen during the collection: both
	move(150, 220)  // sent as the stall ended: the collection only
	move(10, 80)    // seen before the stall began: neither
	move(100, 140)  // in the stall, but not over 50 ms
	move(300, 1000) // under way through the end of the collection and the second stall: both
	move(400, 480)  // sent as the collection ended: neither

	r := attributeSlow(&lat, stalls, collections, true, true)
	want := SlowMoves{Over50: 6, Stall: 1, Collection: 1, Both: 2, Neither: 2, DiskWatched: true, GCWatched: true}
	if *r != want {
		t.Errorf("got %+v, want %+v", *r, want)
	}
	if got := r.String(); got != "6, under way during a disk stall 1 (17%), a collection (or the 100 ms after it) 1 (17%), both 2 (33%), neither 2 (33%)" {
		t.Errorf("report: %q", got)
	}

	r = attributeSlow(&lat, stalls, nil, true, false)
	if r.Stall != 3 || r.Neither != 3 || r.Both != 0 || r.Collection != 0 {
		t.Errorf("disk watch only: %+v", *r)
	}
	if got := r.String(); strings.Contains(got, "collection") || strings.Contains(got, "both") {
		t.Errorf("disk watch only, the report names what was not watched: %q", got)
	}
}
