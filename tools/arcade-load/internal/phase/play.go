package phase

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arcade/arcade/tools/arcade-load/internal/client"
	"github.com/arcade/arcade/tools/arcade-load/internal/config"
	"github.com/arcade/arcade/tools/arcade-load/internal/drivers"
	"github.com/arcade/arcade/tools/arcade-load/internal/server"
	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
	"github.com/arcade/arcade/tools/arcade-load/internal/watch"
)

// PlayResult is what the play phase measured.
type PlayResult struct {
	Sessions       int
	Rooms          int
	SessionsHeld   int
	SessionsPerSec float64
	SetupSeconds   float64
	Seconds        float64
	MovesSent      int64
	MovesSeen      int64
	MovesPerSec    float64
	Late           int64
	Rematches      int64
	MoveLatency    stats.Summary
	KeyLatency     stats.Summary
	BytesToOpp     float64 // per move, to the opponent (the move drawn)
	BytesToMover   float64 // per move, to the mover (prompt, typing echo, the move drawn)
	CPUShare       float64
	CPUPerSession  float64
	RSSBase        uint64
	RSS            uint64
	RSSPerSession  float64
	// HeapPerSession is the live heap per session (after a collection the tool asks for once the
	// moves have been measured) above the server's before the sessions, and StacksPerSession the
	// goroutines' stacks per session likewise; 0 when the server's metrics could not say.
	HeapPerSession, StacksPerSession float64 `json:",omitempty"`
	Threads                          int
	ClientCPUShare                   float64
	// ClientCollections counts the load tool's own collections that ended while the moves were
	// measured: its clients' delays in one show up as the server's latency (see quietCollector).
	ClientCollections uint64
	GC                *GCFigures         `json:",omitempty"`
	Metrics           map[string]float64 `json:",omitempty"`
	// MovesOver50 is the share of moves that took over 50 ms (the target's bound) to reach the
	// opponent's screen, 0 to 1.
	MovesOver50 float64
	// DiskBefore and DiskAfter are the disk floor right before and right after the phase
	// (--disk-floor), if measured.
	DiskBefore, DiskAfter *watch.DiskFloorResult `json:",omitempty"`
	// DiskWatch is what the disk watch saw while the phase was measured (--disk-watch); GCWatch,
	// the server's collections then (--gc-watch); SlowMoves, what the moves over 50 ms were under
	// way during, by those two.
	DiskWatch *watch.DiskWatchResult `json:",omitempty"`
	GCWatch   *watch.GCWatchResult   `json:",omitempty"`
	SlowMoves *watch.SlowMoves       `json:",omitempty"`

	// Frames are the frames the server sent (that sent bytes) while the moves were measured, and
	// Views the screens it computed (arcade_frames_total and arcade_views_total); per session and
	// second, over the same window. A clock on screen adds its ticks to the moves' frames.
	Frames, Views                           float64 `json:",omitempty"`
	FramesPerSessionSec, ViewsPerSessionSec float64 `json:",omitempty"`
}

// Play runs the play phase against srv: --sessions clients pair up in rooms of --game and play,
// each player moving every --interval, for --duration; it returns what was measured, counting
// what went wrong in errs. Its error is one that ended the phase (no room could be set up, ctx).
func Play(ctx context.Context, o config.Config, srv *server.Server, logf func(string, ...any), errs *stats.ErrorLog) (*PlayResult, error) {
	res := &PlayResult{Sessions: o.Sessions, Rooms: o.Sessions / 2}
	base, _ := srv.Sample()
	res.RSSBase = base.RSS
	baseState, baseErr := server.ReadState(srv, true)
	dopts := client.DialOpts{Addr: srv.Addr, Guest: o.Guests, Validate: o.Validate, Timeout: 30 * time.Second}
	game, err := drivers.For(o.Game, o.Size, o.Turns, o.RoomOpts)
	if err != nil {
		return res, err
	}
	logf("play: setting up %d rooms (%d sessions)", res.Rooms, o.Sessions)
	rs := make([]*room, res.Rooms)
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range min(o.Dialers, res.Rooms) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(rs) || ctx.Err() != nil {
					return
				}
				r, err := openRoom(ctx, pairOpts(srv, dopts, i, o.Pairing), [2]int{2 * i, 2*i + 1}, i, game)
				if err != nil {
					errs.Add("setup", err)
					continue
				}
				rs[i] = r
			}
		}()
	}
	wg.Wait()
	res.SetupSeconds = time.Since(start).Seconds()
	var rooms []*room
	var clients []*client.Client
	for _, r := range rs {
		if r != nil {
			rooms = append(rooms, r)
			clients = append(clients, r.players[:]...)
		}
	}
	defer func() {
		for _, c := range clients {
			c.Close()
		}
	}()
	res.SessionsPerSec = float64(len(clients)) / res.SetupSeconds
	logf("play: %d rooms ready in %.1f s (%.0f sessions/s); playing for %v, a move per player every %v",
		len(rooms), res.SetupSeconds, res.SessionsPerSec, o.Duration, o.Interval)
	if len(rooms) == 0 {
		return res, errors.New("no room could be set up")
	}
	ps := &playStats{errs: errs}
	begin := time.Now().Add(200 * time.Millisecond)
	from := begin.Add(o.Interval) // the first interval staggers the rooms in: not measured
	end := begin.Add(o.Duration)
	if !from.Before(end) {
		from = begin
	}
	var s0, c0 watch.Sample
	var gc0 uint64
	var bytes0 [2]uint64
	var metrics0 map[string]float64
	var stopProfile func()
	var watched <-chan *watch.DiskWatchResult
	if o.DiskWatch {
		watched = watch.StartDiskWatch(ctx, srv.Data, stats.Span{From: from, To: end}, errs)
	}
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		if sleep(ctx, time.Until(from)) != nil {
			return
		}
		s0, _ = srv.Sample()
		c0, _ = watch.SampleProc(os.Getpid())
		gc0 = watch.OwnCollections()
		bytes0 = sumBytes(clients)
		metrics0 = server.Scrape(srv)
		stopProfile = server.Profile(ctx, o.ProfileDir, srv, "play", end.Sub(from), logf)
	}()
	runRooms(ctx, rooms, ps, begin, from, end, o.Interval)
	s1, err := srv.Sample()
	metrics1 := server.Scrape(srv) // at once: the screens' clocks tick on after the moves
	c1, _ := watch.SampleProc(os.Getpid())
	gc1 := watch.OwnCollections()
	<-sampled
	if stopProfile != nil {
		stopProfile()
	}
	bytes1 := sumBytes(clients)
	if err == nil {
		res.CPUShare = watch.CPUShare(s0, s1)
		res.CPUPerSession = res.CPUShare / float64(len(clients))
		res.RSS, res.Threads = s1.RSS, s1.Threads
		res.RSSPerSession = float64(s1.RSS-min(base.RSS, s1.RSS)) / float64(len(clients))
	}
	res.ClientCPUShare = watch.CPUShare(c0, c1)
	res.ClientCollections = gc1 - min(gc0, gc1)
	res.Seconds = s1.At.Sub(s0.At).Seconds()
	res.framesDuring(metrics0, metrics1, len(clients))
	res.MovesSent, res.MovesSeen = ps.sent.Load(), ps.seen.Load()
	res.Late, res.Rematches = ps.late.Load(), ps.rematches.Load()
	res.MoveLatency, res.KeyLatency = ps.move.Summary(), ps.key.Summary()
	res.MovesOver50 = ps.move.Over(stats.TargetBound)
	if watched != nil {
		res.DiskWatch = <-watched
	}
	if o.GCWatch {
		res.GCWatch = watch.ReadGCWatch(srv.LogPath, srv.Started, stats.Span{From: from, To: end}, errs)
	}
	res.SlowMoves = watch.SortSlow(&ps.move, res.DiskWatch, res.GCWatch)
	if o.Timeline {
		for i, sm := range ps.move.Timeline(from) {
			logf("play: second %3d: %s", i, sm)
		}
	}
	if n := res.MoveLatency.N; n > 0 {
		res.MovesPerSec = float64(n) / end.Sub(from).Seconds()
		res.BytesToOpp = float64(bytes1[client.RoleWaiting]-bytes0[client.RoleWaiting]) / float64(n)
		res.BytesToMover = float64(bytes1[client.RoleMoving]-bytes0[client.RoleMoving]) / float64(n)
	}
	for _, c := range clients {
		if c.Alive() {
			res.SessionsHeld++
		}
	}
	if res.SessionsHeld < len(clients) {
		errs.Add("disconnected", fmt.Errorf("%d of %d playing sessions ended on their own", len(clients)-res.SessionsHeld, len(clients)))
	}
	res.Metrics = server.Scrape(srv)
	res.GC = GCDuring(metrics0, res.Metrics, res.MoveLatency.N)
	if st, err := server.ReadState(srv, true); err == nil && baseErr == nil && len(clients) > 0 {
		// After the collection the tool asks for (the moves' figures are read already).
		if st.Heap >= 0 && baseState.Heap >= 0 {
			res.HeapPerSession = float64(st.Heap-min(baseState.Heap, st.Heap)) / float64(len(clients))
		}
		if st.Stacks >= 0 && baseState.Stacks >= 0 {
			res.StacksPerSession = float64(st.Stacks-min(baseState.Stacks, st.Stacks)) / float64(len(clients))
		}
	}
	checkMismatches(clients, errs)
	if !srv.Alive() {
		errs.Add("server-exited", fmt.Errorf("the server exited during the run (log %s)", srv.LogPath))
	}
	logf("play: moves %s; server CPU %s of one core, RSS %s", res.MoveLatency, stats.Pct(res.CPUShare), stats.MiB(res.RSS))
	return res, nil
}

// framesDuring sets the frames and views the server counted between two scrapes of its metrics
// (before and after the measured window, res.Seconds apart) for n sessions; it leaves them zero
// when either scrape lacks them.
func (res *PlayResult) framesDuring(before, after map[string]float64, n int) {
	const frames, views = "arcade_frames_total", "arcade_views_total"
	if _, ok := before[frames]; !ok {
		return
	}
	if _, ok := after[frames]; !ok {
		return
	}
	res.Frames, res.Views = after[frames]-before[frames], after[views]-before[views]
	if n > 0 && res.Seconds > 0 {
		res.FramesPerSessionSec = res.Frames / float64(n) / res.Seconds
		res.ViewsPerSessionSec = res.Views / float64(n) / res.Seconds
	}
}

func sumBytes(cs []*client.Client) (out [2]uint64) {
	for _, c := range cs {
		out[client.RoleWaiting] += c.Bytes(client.RoleWaiting)
		out[client.RoleMoving] += c.Bytes(client.RoleMoving)
	}
	return out
}

// checkMismatches reports clients whose screen differed from the full emulator's (--validate).
func checkMismatches(cs []*client.Client, errs *stats.ErrorLog) {
	for _, c := range cs {
		if !c.Validating() {
			continue
		}
		if m := c.FirstMismatch(); m != "" {
			errs.Add("screen-mismatch", fmt.Errorf("%s: %s", c.Name, m))
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// pairOpts returns how the two players of room i connect to s: to its address, or with several
// nodes (--addr a,b,c) to node i mod n for both (pairing "same") or to node i mod n for the
// creator and the next node for the joiner ("cross").
func pairOpts(s *server.Server, o client.DialOpts, i int, pairing string) [2]client.DialOpts {
	p := [2]client.DialOpts{o, o}
	if n := len(s.Nodes); n > 1 {
		p[0].Addr, p[1].Addr = s.Nodes[i%n], s.Nodes[i%n]
		if pairing == "cross" {
			p[1].Addr = s.Nodes[(i+1)%n]
		}
	}
	return p
}

// GCFigures are what the server's garbage collector did while the play phase was measured, from
// its metrics endpoint. The CPU times are the Go runtime's estimates, brought up to date at the
// end of each collection: they cover the collections that ended in the window.
type GCFigures struct {
	Cycles            float64
	CPUSeconds        float64 // the collector's CPU time, all of it
	AssistSeconds     float64 // of which goroutines spent marking because they allocated during a mark
	GoroutinesPerMove float64 // goroutines the server created per move
}

// GCDuring returns the collector's figures between two scrapes of the server's metrics, or nil if
// either lacks them.
func GCDuring(before, after map[string]float64, moves int) *GCFigures {
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
	g := &GCFigures{Cycles: d[0], CPUSeconds: d[1], AssistSeconds: d[2]}
	if moves > 0 {
		g.GoroutinesPerMove = d[3] / float64(moves)
	}
	return g
}

func (g GCFigures) String() string {
	s := fmt.Sprintf("%.0f collections", g.Cycles)
	if g.Cycles > 0 {
		s += fmt.Sprintf(", %.0f ms of CPU each", g.CPUSeconds/g.Cycles*1000)
		if g.CPUSeconds > 0 {
			s += fmt.Sprintf(" (%.0f%% by assists)", 100*g.AssistSeconds/g.CPUSeconds)
		}
	}
	return s + fmt.Sprintf("; %.1f goroutines created per move", g.GoroutinesPerMove)
}
