package server

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
	"github.com/arcade/arcade/tools/arcade-load/internal/watch"
)

// State is what the churn phase compares before and after: the server's sessions, rooms,
// goroutines, open files and memory. A figure that could not be read is -1.
type State struct {
	Sessions    int // SSH sessions open (arcade_sessions)
	Subscribers int // players and spectators in rooms (arcade_room_subscribers)
	Rooms       int // rooms open (arcade_rooms)
	Goroutines  int // go_goroutines
	FDs         int // entries of /proc/PID/fd
	Threads     int
	RSS         int64
	// Heap is the live heap right after a collection the tool asked for (go_heap_bytes read after
	// the metrics endpoint's /debug/pprof/heap?gc=1); -1 when not asked for.
	Heap int64
	// Stacks is the memory of the goroutines' stacks (go_stack_bytes); -1 when the server has no
	// such figure.
	Stacks int64
}

// metricsClient reads the metrics endpoint without keeping connections open, so that the tool's
// own connection is no open file of the server's between two readings.
var metricsClient = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}

// ReadState reads srv's state from its metrics endpoint and /proc. With collect, the server first
// runs a full collection (its heap profile handler does, with gc=1), so that Heap is the live heap.
func ReadState(srv *Server, collect bool) (State, error) {
	st := State{Sessions: -1, Subscribers: -1, Rooms: -1, Goroutines: -1, FDs: -1, Threads: -1, RSS: -1, Heap: -1, Stacks: -1}
	if srv.Metrics == "" || srv.PID == 0 {
		return st, errors.New("the server's metrics endpoint and process are needed")
	}
	if collect {
		resp, err := metricsClient.Get(srv.Metrics + "/debug/pprof/heap?gc=1")
		if err != nil {
			return st, fmt.Errorf("collect: %w", err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	resp, err := metricsClient.Get(srv.Metrics + "/metrics")
	if err != nil {
		return st, fmt.Errorf("metrics: %w", err)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	if err != nil {
		return st, fmt.Errorf("metrics: %w", err)
	}
	m := ParseMetrics(string(b))
	get := func(name string) int64 {
		if v, ok := m[name]; ok {
			return int64(v)
		}
		return -1
	}
	st.Sessions, st.Subscribers, st.Rooms = int(get("arcade_sessions")), int(get("arcade_room_subscribers")), int(get("arcade_rooms"))
	st.Goroutines = int(get("go_goroutines"))
	st.Stacks = get("go_stack_bytes")
	if collect {
		st.Heap = get("go_heap_bytes")
	}
	if fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", srv.PID)); err == nil {
		st.FDs = len(fds)
	}
	if s, err := watch.SampleProc(srv.PID); err == nil {
		st.Threads, st.RSS = s.Threads, int64(s.RSS)
	}
	return st, nil
}

// Tolerances are how far above the baseline the churn phase's figures may end and still count as
// back at it. Rooms stay open, empty, until they expire (30 minutes after their last player left),
// so each room open at the end and not at the start is allowed its goroutine and its memory.
type Tolerances struct {
	Goroutines  int   // beyond one per room opened
	FDs         int   // any connection the server is still closing
	Heap        int64 // bytes, beyond HeapPerRoom per room opened
	HeapPerRoom int64
}

// ChurnTolerances are the churn phase's tolerances. A room's goroutine is its loop; its memory is
// its match, its chat and its last screens: about 10 KiB of live heap for a churn's Stone Towers
// room (docs/performance.md, Churn), allowed 24 KiB.
var ChurnTolerances = Tolerances{Goroutines: 3, FDs: 2, Heap: 4 << 20, HeapPerRoom: 24 << 10}

// ReturnCheck is one figure compared with its baseline.
type ReturnCheck struct {
	What    string
	Before  int64
	After   int64
	Allowed int64  // the most After may be
	Why     string // how Allowed is made up
	OK      bool
}

func (c ReturnCheck) String() string {
	f := func(v int64) string { return fmt.Sprint(v) }
	if strings.HasSuffix(c.What, "heap") {
		f = func(v int64) string { return stats.MiB(uint64(max(v, 0))) }
	}
	verdict := "back at the baseline"
	if !c.OK {
		verdict = "NOT back at the baseline"
	}
	return fmt.Sprintf("%-16s %s before, %s after; at most %s (%s): %s", c.What, f(c.Before), f(c.After), f(c.Allowed), c.Why, verdict)
}

// CompareStates compares after with the baseline before: sessions and room subscribers must be
// back exactly; goroutines, open files and (when both were read) the live heap within tol, with
// the rooms opened in between allowed their share. A figure missing on either side is not compared.
func CompareStates(before, after State, tol Tolerances) []ReturnCheck {
	rooms := int64(0)
	if before.Rooms >= 0 && after.Rooms >= 0 {
		rooms = int64(max(0, after.Rooms-before.Rooms))
	}
	var out []ReturnCheck
	add := func(what string, b, a, allowed int64, why string) {
		if b < 0 || a < 0 {
			return
		}
		out = append(out, ReturnCheck{What: what, Before: b, After: a, Allowed: allowed, Why: why, OK: a <= allowed})
	}
	add("sessions", int64(before.Sessions), int64(after.Sessions), int64(before.Sessions), "the baseline")
	add("room players", int64(before.Subscribers), int64(after.Subscribers), int64(before.Subscribers), "the baseline")
	add("goroutines", int64(before.Goroutines), int64(after.Goroutines), int64(before.Goroutines)+rooms+int64(tol.Goroutines),
		fmt.Sprintf("baseline + %d rooms opened + %d", rooms, tol.Goroutines))
	add("open files", int64(before.FDs), int64(after.FDs), int64(before.FDs)+int64(tol.FDs), fmt.Sprintf("baseline + %d", tol.FDs))
	add("live heap", before.Heap, after.Heap, before.Heap+rooms*tol.HeapPerRoom+tol.Heap,
		fmt.Sprintf("baseline + %d rooms opened x %s + %s", rooms, stats.KiB(float64(tol.HeapPerRoom)), stats.MiB(uint64(tol.Heap))))
	return out
}

// AllOK reports whether every check passed (and there was one).
func AllOK(cs []ReturnCheck) bool {
	for _, c := range cs {
		if !c.OK {
			return false
		}
	}
	return len(cs) > 0
}

// String is the state as the report prints it, "?" for a figure not read.
func (s State) String() string {
	f := func(v int) string {
		if v < 0 {
			return "?"
		}
		return fmt.Sprint(v)
	}
	out := fmt.Sprintf("%s sessions, %s in rooms, %s rooms, %s goroutines, %s open files, %s threads", f(s.Sessions), f(s.Subscribers), f(s.Rooms), f(s.Goroutines), f(s.FDs), f(s.Threads))
	if s.RSS >= 0 {
		out += ", RSS " + stats.MiB(uint64(s.RSS))
	}
	if s.Heap >= 0 {
		out += ", live heap " + stats.MiB(uint64(s.Heap))
	}
	return out
}
