package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/arcade/arcade/metrics"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/sshd"
	"github.com/arcade/arcade/teaframe"
)

// serverMetrics are the figures of --metrics. Everything is observed from outside the packages it
// measures: the hub's and the SSH server's own counters are read when scraped, and moves are timed
// by wrapping the hub's Recorder.
type serverMetrics struct {
	reg        *metrics.Registry
	moveCommit *metrics.Histogram
	errs       *metrics.CounterVec
	refusals   *metrics.CounterVec
}

// limits are the names of the limits whose refusals arcade_refusals_total counts: the SSH
// server's (sshd.Config.Refused) and the rooms' (rooms.Config.Refused), each with its flag.
var limits = []string{
	"sessions",                // --max-sessions
	"sessions_per_key",        // --max-sessions-per-key
	"sessions_per_addr",       // --max-sessions-per-addr
	"startups",                // --max-startups
	"startups_per_addr",       // --max-startups-per-addr
	rooms.LimitRooms,          // --max-rooms
	rooms.LimitWaitingPerKey,  // --max-waiting-rooms
	rooms.LimitWaitingPerAddr, // --max-waiting-rooms-per-addr
	rooms.LimitUnfinished,     // --max-unfinished
	rooms.LimitSpectators,     // --max-spectators
}

func newServerMetrics() *serverMetrics {
	reg := metrics.NewRegistry()
	m := &serverMetrics{reg: reg}
	m.moveCommit = reg.Histogram("arcade_move_commit_seconds",
		"Time from a room handing an accepted move to storage until it is committed to the database on disk, after "+
			"which the room sends it to every screen. This is the only step of a move that waits; the rest "+
			"(judging, drawing) takes microseconds.",
		metrics.ExponentialBuckets(0.0005, 2, 14)) // 0.5 ms .. 4 s
	m.errs = reg.CounterVec("arcade_errors_total",
		`Errors by kind. "record": storage failed to commit a move (the player is told it was not saved) or a `+
			`match's start, end or bot takeover.`, "kind")
	m.errs.With("record")
	m.refusals = reg.CounterVec("arcade_refusals_total",
		"Connections, sessions, rooms and spectators refused by a limit, by limit (docs/operations.md, Limits, names each one's flag).", "limit")
	for _, l := range limits {
		m.refusals.With(l)
	}
	return m
}

// refused counts a refusal by the limit named (sshd.Config.Refused, rooms.Config.Refused).
func (m *serverMetrics) refused(limit string) { m.refusals.With(limit).Inc() }

// recorder wraps rec so that moves are timed and failures counted. A rec that is a
// rooms.EndRecorder stays one, so that rooms still show a match's result and its ID.
func (m *serverMetrics) recorder(rec rooms.Recorder) rooms.Recorder {
	t := timedRecorder{next: rec, m: m}
	if end, ok := rec.(rooms.EndRecorder); ok {
		return timedEndRecorder{timedRecorder: t, end: end}
	}
	return t
}

type timedRecorder struct {
	next rooms.Recorder
	m    *serverMetrics
}

// Record implements rooms.Recorder.
func (t timedRecorder) Record(code string, e rooms.Event) error {
	start := time.Now()
	err := t.next.Record(code, e)
	if e.Kind == rooms.EventMove {
		t.m.moveCommit.ObserveDuration(time.Since(start))
	}
	t.count(err)
	return err
}

// count counts a failure to record.
func (t timedRecorder) count(err error) {
	if err != nil {
		t.m.errs.With("record").Inc()
	}
}

// timedEndRecorder is a timedRecorder over a rooms.EndRecorder.
type timedEndRecorder struct {
	timedRecorder
	end rooms.EndRecorder
}

// RecordEnd implements rooms.EndRecorder.
func (t timedEndRecorder) RecordEnd(code string, e rooms.Event) (rooms.EndResult, error) {
	res, err := t.end.RecordEnd(code, e)
	t.count(err)
	return res, err
}

// serve registers the figures read from srv and hub, and serves /metrics (and Go's profiles under
// /debug/pprof/) on addr. It prints where, and returns the listener to close at the end.
func (m *serverMetrics) serve(addr string, srv *sshd.Server, hub *rooms.Hub, out io.Writer, logf func(string, ...any)) (io.Closer, error) {
	reg := m.reg
	reg.GaugeFunc("arcade_sessions", "SSH sessions open now.", func() float64 { return float64(srv.Sessions()) })
	reg.GaugeFunc("arcade_rooms", "Rooms open now.", func() float64 { return float64(hub.Stats().Rooms) })
	reg.GaugeFunc("arcade_room_subscribers", "Players and spectators connected to rooms now.", func() float64 {
		return float64(hub.Stats().Subscribers)
	})
	reg.CounterFunc("arcade_moves_total", "Moves accepted since the server started.", func() float64 {
		return float64(hub.Stats().Moves)
	})
	reg.CounterFunc("arcade_matches_total", "Matches started since the server started.", func() float64 {
		return float64(hub.Stats().Matches)
	})
	reg.CounterFunc("arcade_views_total", "Screens computed (calls of a session's View: one per frame asked for).", func() float64 {
		return float64(teaframe.ReadStats().Views)
	})
	reg.CounterFunc("arcade_frames_total", "Frames sent to terminals (only changed cells are sent).", func() float64 {
		return float64(teaframe.ReadStats().Frames)
	})
	reg.CounterFunc("arcade_frame_bytes_total", "Bytes of the frames sent to terminals, before SSH.", func() float64 {
		return float64(teaframe.ReadStats().Bytes)
	})
	metrics.RegisterProcess(reg)

	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", reg)
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logf("metrics: %v", err)
		}
	}()
	fmt.Fprintf(out, "metrics on http://%s/metrics\n", ln.Addr())
	return hs, nil
}
