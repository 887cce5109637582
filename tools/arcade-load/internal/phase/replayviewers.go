package phase

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/flicflac"
	"github.com/arcade/arcade/storage"
	"github.com/arcade/arcade/tools/arcade-load/internal/client"
	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
)

// ReplayResult is what the replay-viewers phase measured.
type ReplayResult struct {
	MatchID   string
	Moves     int // the match's
	Viewers   int // asked for
	Opened    int // viewers that showed the match's start
	Stepped   int // viewers that went to its end and back to its start
	Refusal   string
	RSSBase   uint64 // the arcade's, before the viewers
	RSSPeak   uint64 // the most while they watched
	RSSAfter  uint64 // once they had left and the settle had passed
	ToEnd     stats.Summary
	SeedSecs  float64 // writing the match into the database
	LeftAfter float64 // seconds between the viewers' leaving and RSSAfter
}

// Figures is the phase's figures in one line.
func (r *ReplayResult) Figures() string {
	s := fmt.Sprintf("replay-viewers: a %d-move Flic Flac match, %d viewers asked, %d opened, %d stepped to the end and back; server RSS %s before, %s at peak, %s %.0f s after they left; end key to the last move %s",
		r.Moves, r.Viewers, r.Opened, r.Stepped, stats.MiB(r.RSSBase), stats.MiB(r.RSSPeak), stats.MiB(r.RSSAfter), r.LeftAfter, r.ToEnd)
	if r.Refusal != "" {
		s += fmt.Sprintf("; a viewer refused with %q", r.Refusal)
	}
	return s
}

// ReplayViewers seeds a new database with one long Flic Flac match (seedLongMatch), starts the arcade on it, and
// has viewers sessions, each with a key of its own, open its replay ("replay ID") dialers at a
// time, go to its end, back three moves and to its start, and stay until all have; then they
// leave. The arcade's RSS is read before, every 100 ms while they watch (the peak), and once
// settle has passed after they left.
func ReplayViewers(ctx context.Context, arcades Arcades, viewers, moves, dialers int, settle time.Duration, logf func(string, ...any), errs *stats.ErrorLog) (*ReplayResult, error) {
	res := &ReplayResult{Viewers: viewers}
	dir, db, err := arcades.NewData()
	if err != nil {
		return res, err
	}
	t0 := time.Now()
	if res.MatchID, res.Moves, err = seedLongMatch(db, moves); err != nil {
		return res, fmt.Errorf("seed the match: %w", err)
	}
	res.SeedSecs = time.Since(t0).Seconds()
	logf("replay-viewers: match %s of %d moves written in %.1f s", res.MatchID, res.Moves, res.SeedSecs)
	// What is measured is what a viewer costs, not the shares: the viewers' address gets places
	// for them all (in the environment, which an arcade without that share ignores).
	places := fmt.Sprint(viewers + 100)
	srv, err := arcades.Start(ctx, dir, []string{"ARCADE_MAX_SESSIONS_PER_ADDR=" + places}, "--max-sessions", places)
	if err != nil {
		return res, err
	}
	defer srv.Stop()
	if s, err := srv.Sample(); err == nil {
		res.RSSBase = s.RSS
	}
	peakRSS := watchPeakRSS(srv, res.RSSBase)
	logf("replay-viewers: %d viewers open the replay on %s", viewers, srv.Addr)
	o := client.DialOpts{Addr: srv.Addr, Timeout: refusalTimeout}
	var (
		mu      sync.Mutex
		open    []*client.Client
		opened  atomic.Int64
		stepped atomic.Int64
		next    atomic.Int64
		toEnd   stats.Latencies
		wg      sync.WaitGroup
	)
	for range min(dialers, viewers) {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= viewers {
					return
				}
				c, msg, err := watchReplay(ctx, o, 200000+i, res.MatchID, res.Moves, &toEnd)
				if c != nil {
					mu.Lock()
					open = append(open, c)
					mu.Unlock()
					opened.Add(1)
				}
				switch {
				case err != nil:
					errs.Add("replay-viewers", err)
				case msg != "":
					mu.Lock()
					if res.Refusal == "" {
						res.Refusal = msg
					}
					mu.Unlock()
				default:
					stepped.Add(1)
				}
			}
		})
	}
	wg.Wait()
	res.Opened, res.Stepped, res.RSSPeak, res.ToEnd = int(opened.Load()), int(stepped.Load()), peakRSS(), toEnd.Summary()
	for _, c := range open {
		c.Close()
	}
	left := time.Now()
	select {
	case <-time.After(settle):
	case <-ctx.Done():
		return res, ctx.Err()
	}
	if s, err := srv.Sample(); err == nil {
		res.RSSAfter = s.RSS
	}
	res.LeftAfter = time.Since(left).Seconds()
	logf("%s", res.Figures())
	return res, nil
}

// watchReplay opens the replay of match id (of moves moves) as client key, and steps it: to the
// end (timed into toEnd), back three moves, to the start. It returns the client once it showed
// the match's start, and the arcade's message when it showed something else instead.
func watchReplay(ctx context.Context, o client.DialOpts, key int, id string, moves int, toEnd *stats.Latencies) (*client.Client, string, error) {
	c, err := client.Dial(ctx, o, key, "replay "+id)
	if err != nil {
		return nil, "", err
	}
	if _, err := c.Wait(ctx, c.Expect("begins."), refusalTimeout, c.Name+" waiting for the replay's start"); err != nil {
		defer c.Close()
		switch {
		case lobbyShown(c):
			return nil, lobbyStatus(c), nil
		case !c.Alive() || isClosed(err):
			return nil, screenText(c.Text()), nil
		}
		return nil, "", err
	}
	steps := []struct {
		keys, want string
		timed      bool
	}{
		{"G", fmt.Sprintf("Move %d:", moves), true},
		{"hhh", fmt.Sprintf("Move %d:", moves-3), false},
		{"g", "begins.", false},
	}
	for _, s := range steps {
		w := c.ExpectNew(s.want)
		sent := time.Now()
		if err := c.Send(s.keys); err != nil {
			return c, "", err
		}
		at, err := c.Wait(ctx, w, refusalTimeout, fmt.Sprintf("%s waiting for %q", c.Name, s.want))
		if err != nil {
			return c, "", err
		}
		if s.timed {
			toEnd.Add(at.Sub(sent))
		}
	}
	return c, "", nil
}

// seedLongMatch writes into the database at path (no server holds it) one finished Flic Flac
// match between a guest and the easy bot, played by the easy bot for both (it ends its turn one
// time in three, else moves a random piece to a random hex) with limit=2000 turns and target=99
// captures, so that no early win cuts it short: until it ends or has moves moves. It returns the
// match's ID and its number of moves.
func seedLongMatch(path string, moves int) (string, int, error) {
	g := flicflac.Game
	opts, err := g.Resolve(rules.Options{"limit": "2000", "target": "99"})
	if err != nil {
		return "", 0, err
	}
	const seed = 6000
	state, err := g.New(opts, 2, seed)
	if err != nil {
		return "", 0, err
	}
	bot := g.Bots[0]
	rng := rand.New(rand.NewPCG(seed, 1))
	started := time.Now().Add(-2 * time.Hour).UTC()
	var log []record.Move
	for len(log) < moves && !state.Outcome().Over {
		to := state.ToMove()
		if len(to) == 0 {
			break
		}
		mv := bot.Bot.Move(context.Background(), state, to[0], rng)
		next, err := state.Apply(to[0], mv)
		if err != nil {
			return "", 0, fmt.Errorf("move %d (%q): %w", len(log)+1, mv, err)
		}
		state = next
		log = append(log, record.Move{Seat: to[0], Move: mv, At: started.Add(time.Duration(len(log)) * time.Second)})
	}
	db, err := storage.Open(path, storage.Options{LockTimeout: 10 * time.Second})
	if err != nil {
		return "", 0, err
	}
	defer db.Close()
	const code = "LNG22"
	id, err := db.StartMatch(record.Match{Code: code, Game: g.ID, Options: opts, Seed: seed, Started: started,
		Seats: []record.Seat{{Name: "~load0", Guest: true}, {Name: "Ada (easy bot)", Bot: bot.Name}}})
	if err != nil {
		return "", 0, err
	}
	// The moves go in at once, many at a time: the storage's group commit writes them together.
	errc := make(chan error, len(log))
	sem := make(chan struct{}, 512)
	for i, mv := range log {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			errc <- db.AppendMove(code, i, mv)
		}()
	}
	for range log {
		if err := <-errc; err != nil {
			return "", 0, err
		}
	}
	out := state.Outcome()
	unrated := false
	if !out.Over { // stopped at moves: recorded as abandoned
		out.Over, out.Ranks, out.Reason, unrated = true, []int{1, 1}, "stopped by the load tool", true
	}
	if err := db.EndMatch(code, out, unrated); err != nil {
		return "", 0, err
	}
	return id, len(log), nil
}
