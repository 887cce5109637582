package phase

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arcade/arcade/tools/arcade-load/internal/client"
	"github.com/arcade/arcade/tools/arcade-load/internal/screen"
	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
)

// SessionsResult is what the sessions-one-addr phase measured.
type SessionsResult struct {
	MaxSessions int     // the arcade's --max-sessions
	Opened      int     // sessions that showed the lobby
	Held        int     // of those, still open once one was refused
	Seconds     float64 // from the first session to the refusal
	Refusal     string  // what the refused session showed; empty when none was refused
	RSSBase     uint64  // the arcade's, before the sessions
	RSS         uint64  // with the sessions held
}

// Figures is the phase's figures in one line.
func (r *SessionsResult) Figures() string {
	refusal := "not refused"
	if r.Refusal != "" {
		refusal = fmt.Sprintf("refused with %q", r.Refusal)
	}
	return fmt.Sprintf("sessions-one-addr (--max-sessions %d): one key from one address held %d sessions (%d opened) after %.2f s, then %s; server RSS %s before, %s with them",
		r.MaxSessions, r.Held, r.Opened, r.Seconds, refusal, stats.MiB(r.RSSBase), stats.MiB(r.RSS))
}

// SessionsOneAddr has one key, from one address, open lobby sessions and keep them, dialers at a
// time, until the arcade refuses one. The arcade has maxSessions places, which ends a fill that no
// other limit does.
func SessionsOneAddr(ctx context.Context, arcades Arcades, maxSessions, dialers int, logf func(string, ...any), errs *stats.ErrorLog) (*SessionsResult, error) {
	res := &SessionsResult{MaxSessions: maxSessions}
	dir, _, err := arcades.NewData()
	if err != nil {
		return res, err
	}
	srv, err := arcades.Start(ctx, dir, nil, "--max-sessions", fmt.Sprint(maxSessions))
	if err != nil {
		return res, err
	}
	defer srv.Stop()
	if s, err := srv.Sample(); err == nil {
		res.RSSBase = s.RSS
	}
	logf("sessions-one-addr: one key opens sessions on %s (at most %d places)", srv.Addr, maxSessions)
	o := client.DialOpts{Addr: srv.Addr, Timeout: refusalTimeout}
	var (
		mu      sync.Mutex
		held    []*client.Client
		opened  atomic.Int64
		tries   atomic.Int64
		refused = make(chan struct{})
		once    sync.Once
		end     time.Time
		wg      sync.WaitGroup
	)
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	start := time.Now()
	for range dialers {
		wg.Go(func() {
			for ctx.Err() == nil && tries.Add(1) <= int64(maxSessions+dialers) {
				select {
				case <-refused:
					return
				default:
				}
				c, msg, err := openOneSession(ctx, o)
				switch {
				case err != nil:
					errs.Add("sessions-one-addr", err)
				case c != nil:
					opened.Add(1)
					mu.Lock()
					held = append(held, c)
					mu.Unlock()
				default:
					once.Do(func() {
						mu.Lock()
						res.Refusal, end = msg, time.Now()
						mu.Unlock()
						close(refused)
					})
					return
				}
			}
		})
	}
	wg.Wait()
	if end.IsZero() {
		end = time.Now()
	}
	res.Opened, res.Seconds = int(opened.Load()), end.Sub(start).Seconds()
	for _, c := range held {
		if c.Alive() {
			res.Held++
		}
	}
	if s, err := srv.Sample(); err == nil {
		res.RSS = s.RSS
	}
	logf("%s", res.Figures())
	return res, ctx.Err()
}

// openOneSession opens a lobby session as client 0 and returns it once it shows the lobby, or
// else what it showed instead, once the arcade ended it.
func openOneSession(ctx context.Context, o client.DialOpts) (*client.Client, string, error) {
	c, err := client.Dial(ctx, o, 0, "")
	if err != nil {
		return nil, "", err
	}
	w := c.ExpectFunc(func(s *screen.Screen) bool { return strings.HasPrefix(strings.TrimSpace(s.Row(0)), lobbyHeader) })
	if _, err := c.Wait(ctx, w, refusalTimeout, "the lobby or a refusal"); err != nil {
		defer c.Close()
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		// The arcade ended the session, or showed something else than the lobby.
		return nil, screenText(c.Text()), nil
	}
	return c, "", nil
}
