package phase

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
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

// churnKeys is the first key number of the churn phase's clients (the play phase uses 0 up, the
// idle phases 100000 up). Each episode plays with new keys: a key whose player typed garbage may
// have entered wrong room codes, and the server then refuses its joins for a minute (as it should).
const churnKeys = 300000

// stuckAfter bounds anything the churn phase sends (a paste, a storm of window changes): a write
// that has not gone through by then means the server stopped reading the connection, and the
// client is dropped.
const stuckAfter = 30 * time.Second

// ChurnResult is what the churn phase saw.
type ChurnResult struct {
	Clients  int
	Seconds  float64
	Sessions int64 // SSH sessions opened, plain commands included
	Rooms    int64 // rooms opened and played in
	Matches  int64
	// MovesSent and MovesAcked: moves sent, and moves a screen showed after they were sent.
	MovesSent  int64
	MovesAcked int64
	// Acts counts what the clients did, by kind (see the phase's description in the docs).
	Acts     map[string]int64
	CPUShare float64
	// Before is the baseline (after a warm-up, every session closed); Peak the highest of each
	// figure during the phase; After the figures once the server settled, SettleSeconds later.
	Before, Peak, After server.State
	SettleSeconds       float64
	Checks              []server.ReturnCheck
	Returned            bool
	Moves               *AckCheck `json:",omitempty"`
}

// counts counts things by name; safe for concurrent use.
type counts struct {
	mu sync.Mutex
	m  map[string]int64
}

func (c *counts) add(what string, n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]int64{}
	}
	c.m[what] += n
}

func (c *counts) snapshot() map[string]int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int64, len(c.m))
	for k, v := range c.m {
		out[k] = v
	}
	return out
}

// churner is the churn phase's shared state.
type churner struct {
	o        config.Config
	dopts    client.DialOpts
	game     drivers.Driver
	errs     *stats.ErrorLog
	acks     *ackLog
	ps       *playStats // moves sent and seen
	acts     counts
	sessions atomic.Int64
	rooms    atomic.Int64
	matches  atomic.Int64
	end      time.Time
	logf     func(string, ...any)
	logged   atomic.Int64

	keyMu sync.Mutex
	keys  []int // every key used, the warm-up's first
}

// newKey returns a key number not used before in the phase.
func (ch *churner) newKey() int {
	ch.keyMu.Lock()
	defer ch.keyMu.Unlock()
	k := churnKeys + len(ch.keys)
	ch.keys = append(ch.keys, k)
	return k
}

// maxLogged bounds the errors the churn phase logs in full (with the screen, where there is one).
const maxLogged = 20

// fail counts err under kind and logs it in full, the first maxLogged times.
func (ch *churner) fail(kind string, err error) {
	ch.errs.Add(kind, err)
	if ch.logged.Add(1) <= maxLogged {
		ch.logf("churn: %s: %v", kind, err)
	}
}

// Churn runs --churn-clients clients in pairs against srv for --churn-duration, each pair
// opening rooms, playing, misbehaving and leaving in a loop; then it waits for the server to
// settle and compares its figures with the baseline taken before, stops it, and checks that the
// database holds every move a screen acknowledged.
func Churn(ctx context.Context, o config.Config, srv *server.Server, logf func(string, ...any), errs *stats.ErrorLog) (*ChurnResult, error) {
	res := &ChurnResult{Clients: o.ChurnClients}
	game, err := drivers.For(o.Game, o.Size, o.Turns, o.RoomOpts)
	if err != nil {
		return res, err
	}
	ch := &churner{o: o, dopts: client.DialOpts{Addr: srv.Addr, Validate: o.Validate, Timeout: 30 * time.Second}, game: game,
		errs: errs, acks: newAckLog(), ps: &playStats{errs: errs}, logf: logf}

	// A warm-up room, so that what the server allocates once (key tables, pools) is in the baseline.
	logf("churn: warming up")
	warm, err := openRoom(ctx, [2]client.DialOpts{ch.dopts, ch.dopts}, [2]int{ch.newKey(), ch.newKey()}, -1, game)
	if err != nil {
		return res, fmt.Errorf("churn warm-up: %w", err)
	}
	warm.acks = ch.acks
	for range 2 {
		if _, err := warm.ply(ctx, ch.ps, false); err != nil {
			warm.close()
			return res, fmt.Errorf("churn warm-up: %w", err)
		}
	}
	warm.close()
	ch.rooms.Add(1)
	ch.matches.Add(1)
	ch.sessions.Add(2)
	if _, err := waitSettled(ctx, srv, server.State{Sessions: 0, Subscribers: 0, Rooms: -1, Goroutines: -1, FDs: -1, Heap: -1}, o.ChurnSettle); err != nil {
		return res, err
	}
	if res.Before, err = server.ReadState(srv, true); err != nil {
		return res, err
	}
	logf("churn: baseline: %s", res.Before)

	pairs := o.ChurnClients / 2
	logf("churn: %d clients in %d pairs for %v", o.ChurnClients, pairs, o.ChurnDuration)
	start := time.Now()
	ch.end = start.Add(o.ChurnDuration)
	cpu0, _ := srv.Sample()
	stopWatch := ch.watch(ctx, srv, &res.Peak)
	var wg sync.WaitGroup
	for p := range pairs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pr := &pair{ch: ch, id: p, rng: rand.New(rand.NewPCG(uint64(p), 19))}
			pr.run(ctx)
		}()
	}
	wg.Wait()
	stopWatch()
	cpu1, _ := srv.Sample()
	res.Seconds = time.Since(start).Seconds()
	res.CPUShare = watch.CPUShare(cpu0, cpu1)
	res.Sessions, res.Rooms, res.Matches = ch.sessions.Load(), ch.rooms.Load(), ch.matches.Load()
	res.MovesSent, res.MovesAcked = ch.ps.sent.Load(), int64(ch.acks.len())
	res.Acts = ch.acts.snapshot()
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	if !srv.Alive() {
		return res, fmt.Errorf("the server exited during the churn (log %s)", srv.LogPath)
	}

	logf("churn: done: %d sessions, %d rooms, %d moves acknowledged; waiting up to %v for the server to settle", res.Sessions, res.Rooms, res.MovesAcked, o.ChurnSettle)
	t0 := time.Now()
	if _, err := waitSettled(ctx, srv, res.Before, o.ChurnSettle); err != nil && ctx.Err() != nil {
		return res, err
	}
	res.SettleSeconds = time.Since(t0).Seconds()
	if res.After, err = server.ReadState(srv, true); err != nil {
		return res, err
	}
	res.Checks = server.CompareStates(res.Before, res.After, server.ChurnTolerances)
	res.Returned = server.AllOK(res.Checks)
	for _, c := range res.Checks {
		if !c.OK {
			errs.Add("churn-baseline", errors.New(c.String()))
		}
	}
	logf("churn: after %.0f s: %s", res.SettleSeconds, res.After)
	server.SaveSettled(o.ProfileDir, srv, logf)

	// The moves: stop the server (it commits what is pending), then read its database.
	logf("churn: stopping the arcade to read its database")
	srv.Stop()
	var players []string
	for _, k := range ch.keys {
		players = append(players, client.PlayerID(k))
	}
	stored, err := storedMatches(filepath.Join(srv.Data, "arcade.db"), players)
	if err != nil {
		return res, fmt.Errorf("churn: reading the database: %w", err)
	}
	mc := ch.acks.verify(stored)
	res.Moves = &mc
	if mc.Missing > 0 {
		errs.Add("churn-missing-move", fmt.Errorf("%s; first: %s", mc, strings.Join(mc.Examples, "; ")))
	}
	logf("churn: %s", mc)
	return res, nil
}

// waitSettled polls srv every second until its figures are back at base (server.CompareStates,
// the heap aside) or bound has passed; it returns the last figures read.
func waitSettled(ctx context.Context, srv *server.Server, base server.State, bound time.Duration) (server.State, error) {
	deadline := time.Now().Add(bound)
	for {
		st, err := server.ReadState(srv, false)
		if err == nil && server.AllOK(server.CompareStates(base, st, server.ChurnTolerances)) {
			return st, nil
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = fmt.Errorf("not settled within %v: %s", bound, st)
			}
			return st, err
		}
		if err := sleep(ctx, time.Second); err != nil {
			return st, err
		}
	}
}

// watch reads the server's figures every 5 s until the returned function is called, keeping the
// highest of each in peak and logging them every 30 s.
func (ch *churner) watch(ctx context.Context, srv *server.Server, peak *server.State) func() {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	*peak = server.State{Heap: -1}
	go func() {
		defer close(done)
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		for i := 1; ; i++ {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			st, err := server.ReadState(srv, false)
			if err != nil {
				continue
			}
			peak.Sessions, peak.Subscribers, peak.Rooms = max(peak.Sessions, st.Sessions), max(peak.Subscribers, st.Subscribers), max(peak.Rooms, st.Rooms)
			peak.Goroutines, peak.FDs, peak.Threads, peak.RSS = max(peak.Goroutines, st.Goroutines), max(peak.FDs, st.FDs), max(peak.Threads, st.Threads), max(peak.RSS, st.RSS)
			if i%6 == 0 {
				ch.logf("churn: %s; %d moves acknowledged, %d errors", st, ch.acks.len(), ch.errs.Total())
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}
