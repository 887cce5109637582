package main

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
)

// results is everything a run measured.
type results struct {
	Started    time.Time
	Options    string
	Game       string // the game of the play phase
	CPUs       int
	LoadBefore string
	LoadAfter  string
	Floor      *idleResult  `json:",omitempty"`
	Idle       *idleResult  `json:",omitempty"`
	Play       *playResult  `json:",omitempty"`
	Churn      *churnResult `json:",omitempty"`
	Errors     int
	ErrorKinds map[string]int `json:",omitempty"`
	ServerLog  string         `json:",omitempty"`
	errs       *errorLog
}

func (o options) summary() string {
	s := fmt.Sprintf("phases=%s game=%s sessions=%d idle=%d interval=%v duration=%v window=%v",
		o.phases, o.game, o.sessions, o.idle, o.interval, o.duration, o.window)
	if takesOption(o.game, "size") {
		s += fmt.Sprintf(" size=%d turns=%d", o.size, o.turns)
	}
	if o.roomOpts != "" {
		s += fmt.Sprintf(" room-options=%q", o.roomOpts)
	}
	if o.addr != "" {
		s += " addr=" + o.addr
		if len(o.addrs()) > 1 {
			s += " pairing=" + o.pairing
		}
	}
	if o.dataDir != "" {
		s += " data-dir=" + o.dataDir
	}
	if o.diskFloor > 0 && o.addr == "" {
		s += fmt.Sprintf(" disk-floor=%v", o.diskFloor)
	}
	if o.diskWatch { // refused with --addr, as is --gc-watch
		s += " disk-watch"
	}
	if o.gcWatch {
		s += " gc-watch"
	}
	if len(o.serverArgs) > 0 {
		s += " server-args=" + strings.Join(o.serverArgs, " ")
	}
	if len(o.serverEnv) > 0 {
		s += " server-env=" + strings.Join(o.serverEnv, " ")
	}
	if o.guests {
		s += " guests"
	}
	if o.has("churn") {
		s += fmt.Sprintf(" churn-clients=%d churn-duration=%v churn-settle=%v", o.churnClients, o.churnDuration, o.churnSettle)
	}
	return s
}

func (r *results) print(w io.Writer) {
	fmt.Fprintf(w, "\narcade-load %s\n", r.Started.Format(time.RFC3339))
	fmt.Fprintf(w, "  %s\n", r.Options)
	fmt.Fprintf(w, "  %d CPUs; load average before %s, after %s\n", r.CPUs, r.LoadBefore, r.LoadAfter)
	for _, ir := range []*idleResult{r.Floor, r.Idle} {
		if ir == nil {
			continue
		}
		title := "arcade, idle in the lobby"
		if ir.Server == "floor" {
			title = "floor (bare wish + Bubble Tea, one-line view), idle"
		}
		fmt.Fprintf(w, "\n%s\n", title)
		fmt.Fprintf(w, "  sessions             %d (connected at %.0f/s)\n", ir.Sessions, ir.SessionsPerSec)
		fmt.Fprintf(w, "  CPU                  %s of one core; %.3f%% per session", pct(ir.CPUShare), ir.CPUPerSession*100)
		if ir.CPURatio > 0 {
			fmt.Fprintf(w, " (%.2f x floor)", ir.CPURatio)
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "  RSS                  %s (%s before the sessions); %s per session", mib(ir.RSS), mib(ir.RSSBase), kib(ir.RSSPerSession))
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
		fmt.Fprintf(w, "\narcade, playing %s\n", gameName(r.Game))
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
		fmt.Fprintf(w, "  server CPU           %s of one core; %.3f%% per session\n", pct(p.CPUShare), p.CPUPerSession*100)
		fmt.Fprintf(w, "  server RSS           %s (%s before the sessions); %s per session\n", mib(p.RSS), mib(p.RSSBase), kib(p.RSSPerSession))
		fmt.Fprintf(w, "  server threads       %d\n", p.Threads)
		fmt.Fprintf(w, "  load tool CPU        %s of one core; %d collections of its own\n", pct(p.ClientCPUShare), p.ClientCollections)
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
				r    *diskFloorResult
			}{{"before", p.DiskBefore}, {"after", p.DiskAfter}} {
				if d.r != nil {
					fmt.Fprintf(w, "    %-6s             %s\n", d.when, d.r)
				}
			}
		}
		if d := p.DiskWatch; d != nil {
			fmt.Fprintf(w, "  disk watch           a flush every %s in the data folder while the moves were measured:\n    %s\n", ms(diskWatchEvery), d)
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
		c.print(w, gameName(r.Game))
	}
	fmt.Fprintf(w, "\nerrors                 %d", r.Errors)
	if r.errs != nil && r.Errors > 0 {
		fmt.Fprint(w, r.errs.String())
	}
	fmt.Fprintln(w)
	if r.ServerLog != "" {
		fmt.Fprintf(w, "server log             %s\n", r.ServerLog)
	}
}

// gcFigures are what the server's garbage collector did while the play phase was measured, from
// its metrics endpoint. The CPU times are the Go runtime's estimates, brought up to date at the
// end of each collection: they cover the collections that ended in the window.
type gcFigures struct {
	Cycles            float64
	CPUSeconds        float64 // the collector's CPU time, all of it
	AssistSeconds     float64 // of which goroutines spent marking because they allocated during a mark
	GoroutinesPerMove float64 // goroutines the server created per move
}

// gcDuring returns the collector's figures between two scrapes of the server's metrics, or nil if
// either lacks them.
func gcDuring(before, after map[string]float64, moves int) *gcFigures {
	names := []string{"go_gc_cycles_total", "go_gc_cpu_seconds_total", "go_gc_assist_cpu_seconds_total", "go_goroutines_created_total"}
	var d [4]float64
	for i, n := range names {
		b, okb := before[n]
		a, oka := after[n]
		if !okb || !oka {
			return nil
		}
		d[i] = a - b
	}
	g := &gcFigures{Cycles: d[0], CPUSeconds: d[1], AssistSeconds: d[2]}
	if moves > 0 {
		g.GoroutinesPerMove = d[3] / float64(moves)
	}
	return g
}

func (g gcFigures) String() string {
	s := fmt.Sprintf("%.0f collections", g.Cycles)
	if g.Cycles > 0 {
		s += fmt.Sprintf(", %.0f ms of CPU each", g.CPUSeconds/g.Cycles*1000)
		if g.CPUSeconds > 0 {
			s += fmt.Sprintf(" (%.0f%% by assists)", 100*g.AssistSeconds/g.CPUSeconds)
		}
	}
	return s + fmt.Sprintf("; %.1f goroutines created per move", g.GoroutinesPerMove)
}

// printMetrics prints the arcade's own figures from its metrics endpoint.
func printMetrics(w io.Writer, m map[string]float64) {
	if len(m) == 0 {
		return
	}
	var keys []string
	for k := range m {
		if (strings.HasPrefix(k, "arcade_") || k == "go_goroutines") && !strings.HasPrefix(k, commitBuckets) {
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
		le, ok := strings.CutPrefix(k, commitBuckets+`le="`)
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

func (c *churnResult) print(w io.Writer, game string) {
	fmt.Fprintf(w, "\narcade, churn (%s)\n", game)
	fmt.Fprintf(w, "  clients              %d, in pairs, for %.0f s\n", c.Clients, c.Seconds)
	fmt.Fprintf(w, "  sessions opened      %d; %d rooms, %d matches\n", c.Sessions, c.Rooms, c.Matches)
	fmt.Fprintf(w, "  moves                %d sent, %d acknowledged (a screen showed them)\n", c.MovesSent, c.MovesAcked)
	fmt.Fprintf(w, "  done                 %s\n", sortedActs(c.Acts))
	fmt.Fprintf(w, "  server CPU           %s of one core\n", pct(c.CPUShare))
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
