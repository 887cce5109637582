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
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/storage"
	"github.com/arcade/arcade/tools/arcade-load/internal/client"
	"github.com/arcade/arcade/tools/arcade-load/internal/drivers"
	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
)

// LeaderboardResult is what the leaderboard phase measured.
type LeaderboardResult struct {
	Players  int     // rated players asked for
	Rated    int     // rated players the seeded database's leaderboard holds
	SeedSecs float64 // writing them
	Sessions int
	Requests int // answered, after the first
	// The first request, alone.
	AloneCPU  time.Duration // the arcade's CPU time during it
	AloneTook time.Duration
	// The other requests, from Sessions sessions at once.
	CPUPerRequest time.Duration
	Answer        stats.Summary
	RSSBase       uint64
	RSSPeak       uint64
}

// Figures is the phase's figures in one line.
func (r *LeaderboardResult) Figures() string {
	return fmt.Sprintf("leaderboard: %d rated Stone Towers players (%d asked, written in %.1f s); one request alone: %s answer, %s of server CPU; %d requests from %d sessions at once: %s of server CPU a request, answer %s; server RSS %s before, %s at peak",
		r.Rated, r.Players, r.SeedSecs, stats.MS(r.AloneTook), stats.MS(r.AloneCPU), r.Requests, r.Sessions,
		stats.MS(r.CPUPerRequest), r.Answer, stats.MiB(r.RSSBase), stats.MiB(r.RSSPeak))
}

// Leaderboard seeds a new database with players rated players of Stone Towers (seedRatings,
// through the storage package before the arcade starts), starts the arcade on it, asks for "leaderboard stonetowers" once alone, then
// requests times from sessions sessions at once (each request a connection of its own, each
// session with a key of its own), and reads the arcade's CPU time from /proc around them.
func Leaderboard(ctx context.Context, arcades Arcades, players, sessions, requests int, logf func(string, ...any), errs *stats.ErrorLog) (*LeaderboardResult, error) {
	res := &LeaderboardResult{Players: players, Sessions: sessions}
	dir, db, err := arcades.NewData()
	if err != nil {
		return res, err
	}
	t0 := time.Now()
	if res.Rated, err = seedRatings(ctx, db, players); err != nil {
		return res, fmt.Errorf("seed the ratings: %w", err)
	}
	res.SeedSecs = time.Since(t0).Seconds()
	logf("leaderboard: %d rated players written in %.1f s", res.Rated, res.SeedSecs)
	if res.Rated == 0 {
		return res, fmt.Errorf("none of the %d players seeded is rated: the arcade's rating rules refuse the seeded matches", players)
	}
	srv, err := arcades.Start(ctx, dir, nil)
	if err != nil {
		return res, err
	}
	defer srv.Stop()
	o := client.DialOpts{Addr: srv.Addr, Timeout: 5 * time.Minute}
	const command = "leaderboard stonetowers"
	before, err := srv.Sample()
	if err != nil {
		return res, err
	}
	res.RSSBase = before.RSS
	if _, res.AloneTook, err = plainCommand(ctx, o, 300000, command); err != nil {
		return res, err
	}
	after, err := srv.Sample()
	if err != nil {
		return res, err
	}
	res.AloneCPU = after.CPU - before.CPU
	logf("leaderboard: one request alone: %s, %s of CPU; now %d from %d sessions", stats.MS(res.AloneTook), stats.MS(res.AloneCPU), requests, sessions)

	peakRSS := watchPeakRSS(srv, max(before.RSS, after.RSS))
	var (
		answer stats.Latencies
		done   atomic.Int64
		next   atomic.Int64
		wg     sync.WaitGroup
	)
	before, err = srv.Sample()
	if err != nil {
		return res, err
	}
	for s := range sessions {
		wg.Go(func() {
			for ctx.Err() == nil && next.Add(1) <= int64(requests) {
				_, took, err := plainCommand(ctx, o, 300001+s, command)
				if err != nil {
					errs.Add("leaderboard", err)
					continue
				}
				answer.Add(took)
				done.Add(1)
			}
		})
	}
	wg.Wait()
	after, err = srv.Sample()
	if err != nil {
		return res, err
	}
	res.Requests, res.Answer, res.RSSPeak = int(done.Load()), answer.Summary(), peakRSS()
	if res.Requests > 0 {
		res.CPUPerRequest = (after.CPU - before.CPU) / time.Duration(res.Requests)
	}
	logf("%s", res.Figures())
	return res, ctx.Err()
}

// seedPlies is the moves of each seeded rated match: two for each player, so that the match
// counts under rules that leave shorter matches unrated.
const seedPlies = 4

// seasonPlies is the moves of the unrated match each pair of seeded players plays first: 22 for
// each, so that their rated match counts under rules that rate a key only once it has made 20
// moves in other matches.
const seasonPlies = 44

// seedRatings writes players rated players of Stone Towers into the database at path (no server
// holds it), through the storage package as a server would write them: pairs of keys that never
// met before, each pair an unrated match of seasonPlies legal moves (abandoned), then a rated one
// of seedPlies, won by one of them. Many pairs at a time, and each match's moves at once, so that
// the storage's group commit writes them together. It returns how many players the database's
// leaderboard then holds.
func seedRatings(ctx context.Context, path string, players int) (int, error) {
	g := stonetowers.Game
	opts, err := g.Resolve(rules.Options{})
	if err != nil {
		return 0, err
	}
	const seed = 200000
	state, err := g.New(opts, 2, seed)
	if err != nil {
		return 0, err
	}
	d, err := drivers.For(g.ID, 0, 0, "")
	if err != nil {
		return 0, err
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	var moves []record.Move
	for len(moves) < seasonPlies {
		to := state.ToMove()
		if len(to) == 0 {
			return 0, fmt.Errorf("a Stone Towers match of the default options ended after %d moves, before %d", len(moves), seasonPlies)
		}
		mv := d.PickMove(state, to[0], rng)
		if state, err = state.Apply(to[0], mv); err != nil {
			return 0, err
		}
		moves = append(moves, record.Move{Seat: to[0], Move: mv})
	}
	db, err := storage.Open(path, storage.Options{LockTimeout: 10 * time.Second})
	if err != nil {
		return 0, err
	}
	defer db.Close()
	start := time.Now().Add(-24 * time.Hour).UTC()
	// match writes one match of the pair's seats in room code, started at at, with the first
	// plies moves, and ends it.
	match := func(code string, seats []record.Seat, at time.Time, plies int, out rules.Outcome, unrated bool) error {
		if _, err := db.StartMatch(record.Match{Code: code, Game: g.ID, Options: opts, Seed: seed, Seats: seats, Started: at}); err != nil {
			return err
		}
		errc := make(chan error, plies)
		for ply, mv := range moves[:plies] {
			mv.At = at.Add(time.Duration(ply+1) * time.Second)
			go func() { errc <- db.AppendMove(code, ply, mv) }()
		}
		for range plies {
			if err := <-errc; err != nil {
				return err
			}
		}
		return db.EndMatch(code, out, unrated)
	}
	one := func(i int) error {
		seats := []record.Seat{
			{PlayerID: fmt.Sprintf("SHA256:seeded-%d", 2*i), Name: fmt.Sprintf("p%d", 2*i)},
			{PlayerID: fmt.Sprintf("SHA256:seeded-%d", 2*i+1), Name: fmt.Sprintf("p%d", 2*i+1)},
		}
		at := start.Add(time.Duration(i) * time.Millisecond)
		if err := match(fmt.Sprintf("W%07d", i), seats, at, seasonPlies,
			rules.Outcome{Over: true, Scores: []int{0, 0}, Ranks: []int{1, 1}, Reason: "abandoned"}, true); err != nil {
			return err
		}
		ranks := []int{1, 2}
		if i%3 == 0 {
			ranks = []int{2, 1}
		}
		return match(fmt.Sprintf("S%07d", i), seats, at.Add(time.Hour), seedPlies,
			rules.Outcome{Over: true, Scores: []int{0, 0}, Ranks: ranks, Reason: "seeded by the load tool"}, false)
	}
	var (
		next  atomic.Int64
		first atomic.Pointer[error]
		wg    sync.WaitGroup
	)
	for range 256 {
		wg.Go(func() {
			for ctx.Err() == nil && first.Load() == nil {
				i := int(next.Add(1)) - 1
				if i >= players/2 {
					return
				}
				if err := one(i); err != nil {
					first.CompareAndSwap(nil, &err)
				}
			}
		})
	}
	wg.Wait()
	if p := first.Load(); p != nil {
		return 0, *p
	}
	if ctx.Err() != nil {
		return 0, ctx.Err()
	}
	board, err := db.Leaderboard(g.ID, 0)
	return len(board), err
}
