package watch

import (
	"fmt"
	"strings"

	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
)

// SlowMoves is what was going on while the moves over 50 ms (the target's bound) were under way,
// from sent to seen: a stall of the disk (--disk-watch), a collection or the GCBacklog after it
// (--gc-watch), both, or neither. What was not watched counts as not going on.
type SlowMoves struct {
	Over50                 int
	Stall, Collection      int // under way during a disk stall only, or a collection only
	Both, Neither          int
	DiskWatched, GCWatched bool // which watches ran
}

// attributeSlow sorts the moves over 50 ms in lat by what was going on while they were under way:
// the disk's stalls, or the collections, when watched (nil when not).
func attributeSlow(lat *stats.Latencies, stalls, collections []stats.Span, diskWatched, gcWatched bool) *SlowMoves {
	r := &SlowMoves{DiskWatched: diskWatched, GCWatched: gcWatched}
	for _, m := range lat.OverSpans(stats.TargetBound) {
		r.Over50++
		stall, gc := m.OverlapsAny(stalls), m.OverlapsAny(collections)
		switch {
		case stall && gc:
			r.Both++
		case stall:
			r.Stall++
		case gc:
			r.Collection++
		default:
			r.Neither++
		}
	}
	return r
}

// SortSlow sorts the moves over 50 ms in lat by what the watches saw, disk (--disk-watch) and
// gc (--gc-watch), nil when not run; it returns nil when neither ran.
func SortSlow(lat *stats.Latencies, disk *DiskWatchResult, gc *GCWatchResult) *SlowMoves {
	if disk == nil && gc == nil {
		return nil
	}
	var stalls, collections []stats.Span
	if disk != nil {
		stalls = disk.stalls
	}
	if gc != nil {
		collections = gc.spans
	}
	return attributeSlow(lat, stalls, collections, disk != nil, gc != nil)
}

// String is the sort as the report prints it.
func (r *SlowMoves) String() string {
	share := func(n int) string {
		return fmt.Sprintf("%d (%.0f%%)", n, 100*float64(n)/float64(max(r.Over50, 1)))
	}
	var parts []string
	if r.DiskWatched {
		parts = append(parts, "a disk stall "+share(r.Stall))
	}
	if r.GCWatched {
		parts = append(parts, fmt.Sprintf("a collection (or the %d ms after it) %s", GCBacklog.Milliseconds(), share(r.Collection)))
	}
	if r.DiskWatched && r.GCWatched {
		parts = append(parts, "both "+share(r.Both))
	}
	parts = append(parts, "neither "+share(r.Neither))
	return fmt.Sprintf("%d, under way during %s", r.Over50, strings.Join(parts, ", "))
}
