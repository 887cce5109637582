// Package report is the load tool's report of a run: everything its phases measured, printed for
// a reader (and written as JSON with --json).
package report

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/arcade/arcade/tools/arcade-load/internal/drivers"
	"github.com/arcade/arcade/tools/arcade-load/internal/phase"
	"github.com/arcade/arcade/tools/arcade-load/internal/server"
	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
	"github.com/arcade/arcade/tools/arcade-load/internal/watch"
)

// Results is everything a run measured.
type Results struct {
	Started    time.Time
	Options    string
	Game       string // the game of the play phase
	CPUs       int
	LoadBefore string
	LoadAfter  string
	Floor      *phase.IdleResult  `json:",omitempty"`
	Idle       *phase.IdleResult  `json:",omitempty"`
	Play       *phase.PlayResult  `json:",omitempty"`
	Churn      *phase.ChurnResult `json:",omitempty"`
	// The hostile phases'.
	Rooms       *phase.RoomsResult       `json:",omitempty"`
	Sessions    *phase.SessionsResult    `json:",omitempty"`
	Replay      *phase.ReplayResult      `json:",omitempty"`
	Leaderboard *phase.LeaderboardResult `json:",omitempty"`
	Web         *phase.WebResult         `json:",omitempty"`
	Errors      int
	ErrorKinds  map[string]int `json:",omitempty"`
	ServerLog   string         `json:",omitempty"`
	// Errs is the run's errors, whose first examples the report prints.
	Errs *stats.ErrorLog `json:"-"`
}

// Print writes the report of the run to w.
func (r *Results) Print(w io.Writer) {
	fmt.Fprintf(w, "\narcade-load %s\n", r.Started.Format(time.RFC3339))
	fmt.Fprintf(w, "  %s\n", r.Options)
	fmt.Fprintf(w, "  %d CPUs; load average before %s, after %s\n", r.CPUs, r.LoadBefore, r.LoadAfter)
	for _, ir := range []*phase.IdleResult{r.Floor, r.Idle} {
		if ir == nil {
			continue
		}
		title := "arcade, idle in the lobby"
		if ir.Server == "floor" {
			title = "floor (bare wish + Bubble Tea, one-line view), idle"
		}
		fmt.Fprintf(w, "\n%s\n", title)
		fmt.Fprintf(w, "  sessions             %d (connected at %.0f/s)\n", ir.Sessions, ir.SessionsPerSec)
		fmt.Fprintf(w, "  CPU                  %s of one core; %.3f%% per session", stats.Pct(ir.CPUShare), ir.CPUPerSession*100)
		if ir.CPURatio > 0 {
			fmt.Fprintf(w, " (%.2f x floor)", ir.CPURatio)
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "  RSS                  %s (%s before the sessions); %s per session", stats.MiB(ir.RSS), stats.MiB(ir.RSSBase), stats.KiB(ir.RSSPerSession))
		if ir.RSSRatio > 0 {
			fmt.Fprintf(w, " (%.2f x floor)", ir.RSSRatio)
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "  threads              %d\n", ir.Threads)
		if ir.KeepalivesPerSec > 0 {
			fmt.Fprintf(w, "  keep-alives          %.0f/s answered\n", ir.KeepalivesPerSec)
		}
		fmt.Fprintf(w, "  keystroke to redraw  %s\n", ir.Keystroke)
		printMetrics(w, ir.Metrics)
	}
	if p := r.Play; p != nil {
		fmt.Fprintf(w, "\narcade, playing %s\n", drivers.Name(r.Game))
		fmt.Fprintf(w, "  sessions held        %d of %d, in %d rooms\n", p.SessionsHeld, p.Sessions, p.Rooms)
		fmt.Fprintf(w, "  new sessions         %.0f/s (every room created and joined in %.1f s)\n", p.SessionsPerSec, p.SetupSeconds)
		fmt.Fprintf(w, "  moves                %d sent, %d seen; %.0f/s measured over %.0f s; %d late, %d rematches\n",
			p.MovesSent, p.MovesSeen, p.MovesPerSec, p.Seconds, p.Late, p.Rematches)
		fmt.Fprintf(w, "  move to opponent     %s; %.2f%% over 50 ms\n", p.MoveLatency, 100*p.MovesOver50)
		fmt.Fprintf(w, "  keystroke to redraw  %s\n", p.KeyLatency)
		fmt.Fprintf(w, "  bytes per move       %.0f to the opponent, %.0f to the mover\n", p.BytesToOpp, p.BytesToMover)
		if p.Frames > 0 {
			fmt.Fprintf(w, "  frames               %.0f sent, %.2f per session a second; %.0f views, %.2f per session a second\n",
				p.Frames, p.FramesPerSessionSec, p.Views, p.ViewsPerSessionSec)
		}
		fmt.Fprintf(w, "  server CPU           %s of one core; %.3f%% per session\n", stats.Pct(p.CPUShare), p.CPUPerSession*100)
		fmt.Fprintf(w, "  server RSS           %s (%s before the sessions); %s per session\n", stats.MiB(p.RSS), stats.MiB(p.RSSBase), stats.KiB(p.RSSPerSession))
		if p.HeapPerSession > 0 {
			fmt.Fprintf(w, "  server memory        live heap %s per session (after a collection), goroutine stacks %s per session\n",
				stats.KiB(p.HeapPerSession), stats.KiB(p.StacksPerSession))
		}
		fmt.Fprintf(w, "  server threads       %d\n", p.Threads)
		fmt.Fprintf(w, "  load tool CPU        %s of one core; %d collections of its own\n", stats.Pct(p.ClientCPUShare), p.ClientCollections)
		if q := commitQuantiles(p.Metrics); q != "" {
			fmt.Fprintf(w, "  move commit          %s (server's histogram: bucket bounds)\n", q)
		}
		if g := p.GC; g != nil {
			fmt.Fprintf(w, "  server collector     %s\n", g)
		}
		if p.DiskBefore != nil || p.DiskAfter != nil {
			fmt.Fprintf(w, "  disk floor           a bare group commit of the same moves in the data folder, alone:\n")
			for _, d := range []struct {
				when string
				r    *watch.DiskFloorResult
			}{{"before", p.DiskBefore}, {"after", p.DiskAfter}} {
				if d.r != nil {
					fmt.Fprintf(w, "    %-6s             %s\n", d.when, d.r)
				}
			}
		}
		if d := p.DiskWatch; d != nil {
			fmt.Fprintf(w, "  disk watch           a flush every %s in the data folder while the moves were measured:\n    %s\n", stats.MS(watch.DiskWatchEvery), d)
		}
		if g := p.GCWatch; g != nil {
			fmt.Fprintf(w, "  collections          %s\n", g)
		}
		if sm := p.SlowMoves; sm != nil {
			fmt.Fprintf(w, "  moves over 50 ms     %s\n", sm)
		}
		printMetrics(w, p.Metrics)
	}
	if c := r.Churn; c != nil {
		printChurn(w, c, drivers.Name(r.Game))
	}
	if h := r.Hostile(); len(h) > 0 {
		fmt.Fprintf(w, "\narcade, one hostile player\n")
		for _, f := range h {
			fmt.Fprintf(w, "  figures: %s\n", f)
		}
	}
	fmt.Fprintf(w, "\nerrors                 %d", r.Errors)
	if r.Errs != nil && r.Errors > 0 {
		fmt.Fprint(w, r.Errs.String())
	}
	fmt.Fprintln(w)
	if r.ServerLog != "" {
		fmt.Fprintf(w, "server log             %s\n", r.ServerLog)
	}
}

// Hostile returns the figures of the hostile phases that ran, one line each, in their order.
func (r *Results) Hostile() []string {
	var out []string
	if r.Rooms != nil {
		out = append(out, r.Rooms.Figures())
	}
	if r.Sessions != nil {
		out = append(out, r.Sessions.Figures())
	}
	if r.Replay != nil {
		out = append(out, r.Replay.Figures())
	}
	if r.Leaderboard != nil {
		out = append(out, r.Leaderboard.Figures())
	}
	if r.Web != nil {
		out = append(out, r.Web.Figures())
	}
	return out
}

// printMetrics prints the arcade's own figures from its metrics endpoint.
func printMetrics(w io.Writer, m map[string]float64) {
	if len(m) == 0 {
		return
	}
	var keys []string
	for k := range m {
		if (strings.HasPrefix(k, "arcade_") || k == "go_goroutines") && !strings.HasPrefix(k, server.CommitBuckets) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%g", k, m[k]))
	}
	fmt.Fprintf(w, "  server metrics       %s\n", strings.Join(parts, " "))
}

// commitQuantiles reads the p50, p99 and p99.9 of the time a move waited for storage from the
// buckets of the server's histogram: each is the bound of the first bucket holding that share
// of the moves, so at most that.
func commitQuantiles(m map[string]float64) string {
	type bucket struct{ le, n float64 }
	var bs []bucket
	for k, v := range m {
		le, ok := strings.CutPrefix(k, server.CommitBuckets+`le="`)
		if !ok {
			continue
		}
		bound, err := strconv.ParseFloat(strings.TrimSuffix(le, `"}`), 64)
		if err != nil {
			continue // +Inf
		}
		bs = append(bs, bucket{bound, v})
	}
	total := m["arcade_move_commit_seconds_count"]
	if len(bs) == 0 || total == 0 {
		return ""
	}
	sort.Slice(bs, func(i, j int) bool { return bs[i].le < bs[j].le })
	at := func(q float64) string {
		for _, b := range bs {
			if b.n >= q*total {
				return fmt.Sprintf("<= %g ms", b.le*1000)
			}
		}
		return fmt.Sprintf("> %g ms", bs[len(bs)-1].le*1000)
	}
	over := total
	for _, b := range bs {
		if b.le <= 0.032 {
			over = total - b.n
		}
	}
	return fmt.Sprintf("p50 %s · p99 %s · p99.9 %s; %.2f%% over 32 ms", at(0.5), at(0.99), at(0.999), 100*over/total)
}

// printChurn writes the report of the churn phase c, which played game (its name).
func printChurn(w io.Writer, c *phase.ChurnResult, game string) {
	fmt.Fprintf(w, "\narcade, churn (%s)\n", game)
	fmt.Fprintf(w, "  clients              %d, in pairs, for %.0f s\n", c.Clients, c.Seconds)
	fmt.Fprintf(w, "  sessions opened      %d; %d rooms, %d matches\n", c.Sessions, c.Rooms, c.Matches)
	fmt.Fprintf(w, "  moves                %d sent, %d acknowledged (a screen showed them)\n", c.MovesSent, c.MovesAcked)
	fmt.Fprintf(w, "  done                 %s\n", sortedActs(c.Acts))
	fmt.Fprintf(w, "  server CPU           %s of one core\n", stats.Pct(c.CPUShare))
	fmt.Fprintf(w, "  baseline             %s\n", c.Before)
	fmt.Fprintf(w, "  peak                 %s\n", c.Peak)
	fmt.Fprintf(w, "  after %3.0f s          %s\n", c.SettleSeconds, c.After)
	for _, ck := range c.Checks {
		fmt.Fprintf(w, "    %s\n", ck)
	}
	verdict := "back at the baseline"
	if !c.Returned {
		verdict = "NOT back at the baseline"
	}
	fmt.Fprintf(w, "  returned             %s\n", verdict)
	if c.Moves != nil {
		fmt.Fprintf(w, "  database             %s\n", c.Moves)
		for _, e := range c.Moves.Examples {
			fmt.Fprintf(w, "    %s\n", e)
		}
	}
}

// sortedActs lists acts as "name n" pairs in name order.
func sortedActs(acts map[string]int64) string {
	keys := make([]string, 0, len(acts))
	for k := range acts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, acts[k])
	}
	return strings.Join(parts, ", ")
}
