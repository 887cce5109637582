package phase

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/arcade/arcade/tools/arcade-load/internal/client"
	"github.com/arcade/arcade/tools/arcade-load/internal/screen"
	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
)

// SessionsFill is sessions opened and kept from one address until the arcade refused one.
type SessionsFill struct {
	Who     string  // "one key" or "a key a session"
	Opened  int     // sessions that showed the lobby
	Held    int     // of those, still open once one was refused
	Seconds float64 // from the first session to the refusal
	Refusal string  // what the refused session showed; empty when none was refused
	RSSBase uint64  // the arcade's, before the sessions
	RSS     uint64  // with the sessions held
}

// String is the fill in one line.
func (f SessionsFill) String() string {
	refusal := "not refused"
	if f.Refusal != "" {
		refusal = fmt.Sprintf("refused with %q", f.Refusal)
	}
	return fmt.Sprintf("%s held %d sessions (%d opened) after %.2f s, then %s; server RSS %s before, %s with them",
		f.Who, f.Held, f.Opened, f.Seconds, refusal, stats.MiB(f.RSSBase), stats.MiB(f.RSS))
}

// SessionsResult is what the sessions-one-addr phase measured.
type SessionsResult struct {
	MaxSessions int // the arcade's --max-sessions
	OneKey      SessionsFill
	ManyKeys    SessionsFill
}

// Figures is the phase's figures in one line.
func (r *SessionsResult) Figures() string {
	return fmt.Sprintf("sessions-one-addr (--max-sessions %d): from one address, %s; %s", r.MaxSessions, r.OneKey, r.ManyKeys)
}

// SessionsOneAddr has one key, from one address, open lobby sessions and keep them, dialers at a
// time, until the arcade refuses one; then, on a new arcade, the same address with a key of its
// own for each session. The arcades have maxSessions places, which ends a fill that no other
// limit does.
func SessionsOneAddr(ctx context.Context, arcades Arcades, maxSessions, dialers int, logf func(string, ...any), errs *stats.ErrorLog) (*SessionsResult, error) {
	res := &SessionsResult{MaxSessions: maxSessions}
	for _, oneKey := range []bool{true, false} {
		who, key := "one key", func(int) int { return 0 }
		if !oneKey {
			who, key = "a key a session", func(i int) int { return 400000 + i }
		}
		fill, err := fillSessions(ctx, arcades, maxSessions, dialers, key, logf, errs)
		fill.Who = who
		if oneKey {
			res.OneKey = fill
		} else {
			res.ManyKeys = fill
		}
		if err != nil {
			return res, err
		}
		logf("sessions-one-addr: %s", fill)
	}
	return res, nil
}

// fillSessions starts an arcade of maxSessions places and opens lobby sessions on it, the i-th as
// client key(i), dialers at a time, until one is refused (or maxSessions+dialers were tried).
func fillSessions(ctx context.Context, arcades Arcades, maxSessions, dialers int, key func(int) int, logf func(string, ...any), errs *stats.ErrorLog) (SessionsFill, error) {
	var fill SessionsFill
	dir, _, err := arcades.NewData()
	if err != nil {
		return fill, err
	}
	srv, err := arcades.Start(ctx, dir, nil, "--max-sessions", fmt.Sprint(maxSessions))
	if err != nil {
		return fill, err
	}
	defer srv.Stop()
	if s, err := srv.Sample(); err == nil {
		fill.RSSBase = s.RSS
	}
	logf("sessions-one-addr: sessions from one address on %s (at most %d places)", srv.Addr, maxSessions)
	o := client.DialOpts{Addr: srv.Addr, Timeout: refusalTimeout}
	var (
		mu   sync.Mutex
		held []*client.Client
	)
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	f := fillUntilRefused(ctx, "sessions-one-addr", dialers, maxSessions+dialers, errs, func(i int) (bool, string, error) {
		c, msg, err := openOneSession(ctx, o, key(i))
		if c != nil {
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
		return c != nil, msg, err
	})
	fill.Opened, fill.Refusal, fill.Seconds = f.opened, f.refusal, f.took.Seconds()
	for _, c := range held {
		if c.Alive() {
			fill.Held++
		}
	}
	if s, err := srv.Sample(); err == nil {
		fill.RSS = s.RSS
	}
	return fill, ctx.Err()
}

// openOneSession opens a lobby session as client key and returns it once it shows the lobby, or
// else what it showed instead, once the arcade ended it.
func openOneSession(ctx context.Context, o client.DialOpts, key int) (*client.Client, string, error) {
	c, err := client.Dial(ctx, o, key, "")
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
