package phase

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arcade/arcade/tools/arcade-load/internal/client"
	"github.com/arcade/arcade/tools/arcade-load/internal/config"
	"github.com/arcade/arcade/tools/arcade-load/internal/screen"
	"github.com/arcade/arcade/tools/arcade-load/internal/server"
	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
	"github.com/arcade/arcade/tools/arcade-load/internal/watch"
)

// dialAll connects n clients to the lobby and waits for each to show ready. It returns those that
// made it and the rate at which they did.
func dialAll(ctx context.Context, o client.DialOpts, n, dialers int, ready string, errs *stats.ErrorLog) ([]*client.Client, float64) {
	out := make([]*client.Client, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range min(dialers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n || ctx.Err() != nil {
					return
				}
				c, err := client.Dial(ctx, o, 100000+i, "")
				if err != nil {
					errs.Add("dial", err)
					continue
				}
				if err := c.WaitText(ctx, ready, setupTimeout); err != nil {
					errs.Add("setup", err)
					c.Close()
					continue
				}
				out[i] = c
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	var ok []*client.Client
	for _, c := range out {
		if c != nil {
			ok = append(ok, c)
		}
	}
	return ok, float64(len(ok)) / elapsed.Seconds()
}

// IdleResult is what an idle phase measured.
type IdleResult struct {
	Server         string
	Sessions       int
	SessionsPerSec float64
	CPUShare       float64 // of one core, while idle
	CPUPerSession  float64 // share of one core per session
	RSSBase        uint64  // before any session
	RSS            uint64  // with the sessions, at the end of the window
	RSSPerSession  float64 // bytes
	Threads        int
	Keystroke      stats.Summary
	// KeepalivesPerSec are the SSH keep-alives answered per second during the window (--keepalive).
	KeepalivesPerSec float64            `json:",omitempty"`
	CPURatio         float64            `json:",omitempty"` // arcade per session / floor per session
	RSSRatio         float64            `json:",omitempty"`
	Metrics          map[string]float64 `json:",omitempty"`
}

// Idle connects --idle sessions to srv, lets them sit, and measures the server.
func Idle(ctx context.Context, o config.Config, srv *server.Server, logf func(string, ...any), errs *stats.ErrorLog, ready string) (*IdleResult, error) {
	res := &IdleResult{Server: srv.Name}
	base, _ := srv.Sample()
	res.RSSBase = base.RSS
	logf("%s: connecting %d idle sessions", srv.Name, o.Idle)
	dopts := client.DialOpts{Addr: srv.Addr, Guest: o.Guests, Validate: o.Validate, Timeout: 30 * time.Second}
	cs, rate := dialAll(ctx, dopts, o.Idle, o.Dialers, ready, errs)
	defer func() {
		for _, c := range cs {
			c.Close()
		}
		checkMismatches(cs, errs)
	}()
	res.Sessions, res.SessionsPerSec = len(cs), rate
	logf("%s: %d sessions at %.0f/s; settling %v, then measuring for %v", srv.Name, len(cs), rate, o.Settle, o.Window)
	for end := time.Now().Add(o.Settle); time.Until(end) > 0; {
		if err := sleep(ctx, min(time.Until(end), 20*time.Second)); err != nil {
			return res, err
		}
		if s, err := srv.Sample(); err == nil {
			logf("%s: settling: RSS %s", srv.Name, stats.MiB(s.RSS))
		}
	}
	stopProfile := server.Profile(ctx, o.ProfileDir, srv, "idle-"+srv.Name, o.Window, logf)
	stopPings := keepalives(ctx, o.Keepalive, cs, errs)
	s0, _ := srv.Sample()
	if err := sleep(ctx, o.Window); err != nil {
		return res, err
	}
	s1, err := srv.Sample()
	res.KeepalivesPerSec = float64(stopPings()) / o.Window.Seconds()
	stopProfile()
	if err == nil {
		res.CPUShare = watch.CPUShare(s0, s1)
		res.RSS, res.Threads = s1.RSS, s1.Threads
		if len(cs) > 0 {
			res.CPUPerSession = res.CPUShare / float64(len(cs))
			res.RSSPerSession = float64(s1.RSS-min(base.RSS, s1.RSS)) / float64(len(cs))
		}
	}
	res.Metrics = server.Scrape(srv)
	// Key presses, one at a time, each waited for: the screen must change.
	var key stats.Latencies
	keys := []string{"j", "k"}
	for i := range min(o.Probes, len(cs)) {
		c := cs[i*len(cs)/max(1, min(o.Probes, len(cs)))]
		w := c.ExpectFunc(func(s *screen.Screen) bool { return s.AnyDirty() })
		t0 := time.Now()
		if err := c.Send(keys[i%2]); err != nil {
			errs.Add("send", err)
			continue
		}
		at, err := c.Wait(ctx, w, moveTimeout, c.Name+" waiting for a redraw")
		if err != nil {
			errs.Add("keystroke", err)
			continue
		}
		key.Add(at.Sub(t0))
		if err := sleep(ctx, 50*time.Millisecond); err != nil {
			return res, err
		}
	}
	res.Keystroke = key.Summary()
	alive := 0
	for _, c := range cs {
		if c.Alive() {
			alive++
		}
	}
	if alive < len(cs) {
		errs.Add("disconnected", fmt.Errorf("%s: %d of %d idle sessions ended on their own", srv.Name, len(cs)-alive, len(cs)))
	}
	logf("%s: idle CPU %s of one core, RSS %s (%s per session)", srv.Name, stats.Pct(res.CPUShare), stats.MiB(res.RSS), stats.KiB(res.RSSPerSession))
	return res, nil
}

// keepalives sends SSH keep-alive requests (keepalive@openssh.com, wanting a reply, as OpenSSH's
// ServerAliveInterval does) from every client once per every, spread evenly, until the returned
// function is called; it returns how many were answered.
func keepalives(ctx context.Context, every time.Duration, cs []*client.Client, errs *stats.ErrorLog) func() int64 {
	if every <= 0 || len(cs) == 0 {
		return func() int64 { return 0 }
	}
	ctx, cancel := context.WithCancel(ctx)
	var answered atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(max(every/time.Duration(len(cs)), 50*time.Microsecond))
		defer t.Stop()
		for i := 0; ; i++ {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			c := cs[i%len(cs)]
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := c.Keepalive(); err != nil {
					errs.Add("keepalive", err)
					return
				}
				answered.Add(1)
			}()
		}
	}()
	return func() int64 {
		cancel()
		wg.Wait()
		return answered.Load()
	}
}
