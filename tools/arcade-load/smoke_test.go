package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/arcade/arcade/tools/arcade-load/internal/drivers"
	"github.com/arcade/arcade/tools/arcade-load/internal/phase"
	"github.com/arcade/arcade/tools/arcade-load/internal/report"
	"github.com/arcade/arcade/tools/arcade-load/internal/run"
	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
)

// The smoke tests run the whole tool small against servers it builds and starts. They assert
// that nothing failed and that something was measured, never how fast anything was: their figures
// are printed (t.Logf, lines that begin "figures:") for a reader, since on a machine busy with
// other work they say little.

// TestSmoke runs the whole tool small: it builds the arcade and the floor, sits 20 sessions on each,
// then plays 10 rooms for a few seconds, fast enough for rematches, with every client's screen
// checked against a full terminal emulator.
func TestSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs two servers")
	}
	res, _ := smokeRun(t, "--sessions", "20", "--idle", "20", "--duration", "3s", "--window", "1s",
		"--settle", "500ms", "--interval", "300ms", "--turns", "10", "--size", "8", "--probes", "5", "--validate",
		"--disk-floor", "300ms", "--disk-watch", "--gc-watch")
	if res.Errors > 0 {
		t.Errorf("%d errors", res.Errors)
	}
	for _, ir := range []*phase.IdleResult{res.Floor, res.Idle} {
		if ir == nil || ir.Sessions != 20 || ir.Keystroke.N == 0 {
			t.Errorf("idle phase: %+v", ir)
		}
	}
	p := res.Play
	switch {
	case p == nil:
		t.Fatal("no play phase")
	case p.SessionsHeld != 20:
		t.Errorf("%d sessions held, want 20", p.SessionsHeld)
	case p.MoveLatency.N == 0 || p.KeyLatency.N == 0:
		t.Errorf("no latencies measured: %+v", p)
	case p.MovesSeen != p.MovesSent:
		t.Errorf("%d moves sent, %d seen", p.MovesSent, p.MovesSeen)
	case p.BytesToOpp == 0:
		t.Error("no bytes counted")
	case p.DiskBefore == nil || p.DiskAfter == nil:
		t.Errorf("disk floor not measured: before %v, after %v", p.DiskBefore, p.DiskAfter)
	case p.DiskWatch == nil || p.DiskWatch.Flushes == 0:
		t.Errorf("disk not watched: %v", p.DiskWatch)
	case p.GCWatch == nil || p.SlowMoves == nil:
		t.Errorf("collections not watched (%v), or the slow moves not sorted (%v)", p.GCWatch, p.SlowMoves)
	}
	if p != nil && p.Metrics["arcade_moves_total"] < float64(p.MovesSent) {
		t.Errorf("the server's metrics count %g moves, the tool sent %d", p.Metrics["arcade_moves_total"], p.MovesSent)
	}
	if strings.Contains(res.ServerLog, "panic") {
		t.Errorf("server log: %s", res.ServerLog)
	}
	for _, ir := range []*phase.IdleResult{res.Floor, res.Idle} {
		if ir != nil {
			t.Logf("figures: %s idle: %d sessions, CPU %.3f%% of a core and RSS %s per session; keystroke %s",
				ir.Server, ir.Sessions, ir.CPUPerSession*100, stats.KiB(ir.RSSPerSession), ir.Keystroke)
		}
	}
	logPlay(t, res)
}

// logPlay logs the play phase's figures, if it ran.
func logPlay(t *testing.T, res *report.Results) {
	t.Helper()
	p := res.Play
	if p == nil {
		return
	}
	t.Logf("figures: %s, %d sessions: %.1f moves/s measured; move to opponent %s; keystroke %s; %.0f bytes a move to the opponent; %.2f frames a session a second; server CPU %s of a core",
		drivers.Name(res.Game), p.SessionsHeld, p.MovesPerSec, p.MoveLatency, p.KeyLatency, p.BytesToOpp, p.FramesPerSessionSec, stats.Pct(p.CPUShare))
}

// TestSmokeOtherGames plays DISCON, Coloretta, Lhex-i'-con and Flic Flac the same way, small and
// short: the tool builds their engines from the room codes (the arcade runs with
// --load-test-seeds) and chooses legal moves in games with shuffled discs, cards and tiles.
func TestSmokeOtherGames(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a server")
	}
	for _, game := range []string{"discon", "coloretta", "lhexicon", "flicflac"} {
		t.Run(game, func(t *testing.T) {
			res, printed := smokeRun(t, "--phases", "play", "--game", game, "--sessions", "10", "--idle", "10",
				"--duration", "3s", "--interval", "300ms", "--validate", "--disk-floor", "0")
			p := res.Play
			switch {
			case res.Errors > 0:
				t.Errorf("%d errors", res.Errors)
			case p == nil:
				t.Fatal("no play phase")
			case p.SessionsHeld != 10 || p.MoveLatency.N == 0 || p.MovesSeen != p.MovesSent:
				t.Errorf("play phase: %+v", p)
			case !strings.Contains(printed, "playing "+drivers.Name(game)):
				t.Errorf("the report does not name %s", drivers.Name(game))
			}
			logPlay(t, res)
		})
	}
}

// TestSmokeClock plays rooms whose clock ticks between the moves and at them (a 5 s limit a
// move, a move every 1.5 s in each room), every screen checked against a full terminal
// emulator: the tool's markers must still tell the moves, and the frames are counted.
func TestSmokeClock(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a server")
	}
	res, printed := smokeRun(t, "--phases", "play", "--sessions", "10", "--idle", "10", "--duration", "5s",
		"--interval", "3s", "--validate", "--disk-floor", "0", "--room-options", "clock=5s")
	p := res.Play
	switch {
	case res.Errors > 0:
		t.Errorf("%d errors", res.Errors)
	case p == nil:
		t.Fatal("no play phase")
	case p.SessionsHeld != 10 || p.MoveLatency.N == 0 || p.MovesSeen != p.MovesSent:
		t.Errorf("play phase: %+v", p)
	case p.Frames == 0 || p.FramesPerSessionSec == 0:
		t.Errorf("no frames counted: %+v", p)
	case !strings.Contains(printed, `room-options="clock=5s"`):
		t.Errorf("the report does not name the room options")
	}
	logPlay(t, res)
}

// TestSmokeChurn runs the churn phase for a few seconds with seven pairs, so that each of the
// seven endings (quit, drop, garbage, a raw paste, huge windows, a stalled reader dropped after a
// storm of window changes or without one) happens at least once: every figure must have been
// compared with its baseline and come back to it (no session, room player, goroutine, descriptor
// or heap left behind), and the database must hold every move a screen acknowledged.
func TestSmokeChurn(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a server")
	}
	res, _ := smokeRun(t, "--phases", "churn", "--churn-clients", "14", "--churn-duration", "5s", "--churn-settle", "60s",
		"--interval", "300ms", "--size", "8", "--turns", "10")
	c := res.Churn
	switch {
	case c == nil:
		t.Fatal("no churn phase")
	case c.MovesAcked == 0 || c.Moves == nil:
		t.Fatalf("no move acknowledged, or none checked: %+v", c)
	case c.Moves.Missing > 0 || c.Moves.Moves != int(c.MovesAcked):
		t.Errorf("database: %s", c.Moves)
	}
	for _, e := range phase.Endings {
		if c.Acts["end-"+e] == 0 {
			t.Errorf("no episode ended with %s: %v", e, c.Acts)
		}
	}
	if len(c.Checks) != 5 {
		t.Errorf("%d figures compared with the baseline, want 5: %v", len(c.Checks), c.Checks)
	}
	if !c.Returned {
		t.Errorf("the server did not come back to its baseline: %v", c.Checks)
	}
	for kind, n := range res.ErrorKinds {
		t.Errorf("%d errors %s", n, kind)
	}
	t.Logf("figures: churn of %d clients for %.0f s: %d sessions, %d rooms, %d moves acknowledged; server CPU %s of a core; settled in %.0f s",
		c.Clients, c.Seconds, c.Sessions, c.Rooms, c.MovesAcked, stats.Pct(c.CPUShare), c.SettleSeconds)
}

// smokeRun runs the tool with args, failing the test if the run fails, and returns the results
// and the printed report.
func smokeRun(t *testing.T, args ...string) (*report.Results, string) {
	t.Helper()
	o, err := parseOptions(args, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var log, printed bytes.Buffer
	res, err := run.Run(ctx, o, &log)
	if res != nil {
		res.Print(&printed)
	}
	if err != nil {
		t.Fatalf("run: %v\n%s%s", err, log.String(), printed.String())
	}
	t.Log("\n" + printed.String())
	return res, printed.String()
}
