package main

import (
	"fmt"
	"strings"
	"time"
)

// span is a stretch of time.
type span struct{ from, to time.Time }

// overlaps reports whether s and t share some time.
func (s span) overlaps(t span) bool { return s.from.Before(t.to) && t.from.Before(s.to) }

// overlapsAny reports whether s shares some time with one of spans.
func (s span) overlapsAny(spans []span) bool {
	for _, t := range spans {
		if s.overlaps(t) {
			return true
		}
	}
	return false
}

// slowMoves is what was going on while the moves over 50 ms (the target's bound) were under way,
// from sent to seen: a stall of the disk (--disk-watch), a collection or the gcBacklog after it
// (--gc-watch), both, or neither. What was not watched counts as not going on.
type slowMoves struct {
	Over50                 int
	Stall, Collection      int // under way during a disk stall only, or a collection only
	Both, Neither          int
	DiskWatched, GCWatched bool // which watches ran
}

// attributeSlow sorts the moves over 50 ms in lat by what was going on while they were under way:
// the disk's stalls, or the collections, when watched (nil when not).
func attributeSlow(lat *latencies, stalls, collections []span, diskWatched, gcWatched bool) *slowMoves {
	r := &slowMoves{DiskWatched: diskWatched, GCWatched: gcWatched}
	for _, m := range lat.overSpans(targetBound) {
		r.Over50++
		stall, gc := m.overlapsAny(stalls), m.overlapsAny(collections)
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

// sortSlowMoves sorts the phase's moves over 50 ms, lat, by what its watches saw, when any ran.
func (p *playResult) sortSlowMoves(lat *latencies) {
	if p.DiskWatch == nil && p.GCWatch == nil {
		return
	}
	var stalls, collections []span
	if p.DiskWatch != nil {
		stalls = p.DiskWatch.stalls
	}
	if p.GCWatch != nil {
		collections = p.GCWatch.spans
	}
	p.SlowMoves = attributeSlow(lat, stalls, collections, p.DiskWatch != nil, p.GCWatch != nil)
}

func (r *slowMoves) String() string {
	share := func(n int) string {
		return fmt.Sprintf("%d (%.0f%%)", n, 100*float64(n)/float64(max(r.Over50, 1)))
	}
	var parts []string
	if r.DiskWatched {
		parts = append(parts, "a disk stall "+share(r.Stall))
	}
	if r.GCWatched {
		parts = append(parts, fmt.Sprintf("a collection (or the %d ms after it) %s", gcBacklog.Milliseconds(), share(r.Collection)))
	}
	if r.DiskWatched && r.GCWatched {
		parts = append(parts, "both "+share(r.Both))
	}
	parts = append(parts, "neither "+share(r.Neither))
	return fmt.Sprintf("%d, under way during %s", r.Over50, strings.Join(parts, ", "))
}
