package run

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/arcade/arcade/tools/arcade-load/internal/config"
	"github.com/arcade/arcade/tools/arcade-load/internal/phase"
	"github.com/arcade/arcade/tools/arcade-load/internal/report"
	"github.com/arcade/arcade/tools/arcade-load/internal/server"
	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
)

// arcades starts the arcades of the hostile phases (phase.Arcades): each on a data folder of its
// own under dir (or under --data-dir), with the tool's flags and the run's environment.
type arcades struct {
	o    config.Config
	dir  string
	n    atomic.Int64
	logf func(string, ...any)
	logs []string // the arcades' logs, summarised into the report
}

// NewData makes a new data folder.
func (a *arcades) NewData() (string, string, error) {
	parent := a.dir
	if a.o.DataDir != "" {
		parent = a.o.DataDir
	}
	d, err := os.MkdirTemp(parent, fmt.Sprintf("arcade-load-hostile-%d-", a.n.Add(1)))
	if err != nil {
		return "", "", err
	}
	return d, filepath.Join(d, "arcade.db"), nil
}

// Start starts an arcade on data.
func (a *arcades) Start(ctx context.Context, data string, env []string, args ...string) (*server.Server, error) {
	all := append(append(baseArgs(data), args...), a.o.ServerArgs...)
	env = append(env, server.ArcadeEnv(a.o.ServerEnv, os.Getenv("GODEBUG"), false)...)
	log := data + ".log"
	srv, err := server.Start(ctx, "arcade", a.o.ArcadeBin, all, env, log)
	if err != nil {
		return nil, err
	}
	srv.Data = data
	a.logs = append(a.logs, log)
	a.logf("arcade %s listening on %s", strings.Join(args, " "), srv.Addr)
	return srv, nil
}

// runHostile runs the hostile phases o names, in order, into res.
func runHostile(ctx context.Context, o config.Config, tmp string, res *report.Results, logf func(string, ...any), errs *stats.ErrorLog) (err error) {
	if !o.HasHostile() {
		return nil
	}
	a := &arcades{o: o, dir: tmp, logf: logf}
	defer func() {
		if o.DataDir != "" {
			// The data folders are the tool's own, under the operator's folder.
			for _, l := range a.logs {
				os.RemoveAll(strings.TrimSuffix(l, ".log"))
				os.Remove(l)
			}
		}
	}()
	defer func() {
		var sums []string
		for _, l := range a.logs {
			if s := server.LogSummary(l); s != "" {
				sums = append(sums, s)
			}
		}
		if len(sums) > 0 && res.ServerLog == "" {
			res.ServerLog = strings.Join(sums, "; ")
		}
	}()
	if o.Has(config.PhaseRooms) {
		if res.Rooms, err = phase.RoomsOneKey(ctx, a, o.HostileRooms, o.Dialers, logf, errs); err != nil {
			return err
		}
	}
	if o.Has(config.PhaseSessions) {
		if res.Sessions, err = phase.SessionsOneAddr(ctx, a, o.HostileSessions, o.Dialers, logf, errs); err != nil {
			return err
		}
	}
	if o.Has(config.PhaseReplay) {
		if res.Replay, err = phase.ReplayViewers(ctx, a, o.ReplayViewers, o.ReplayMoves, o.Dialers, o.Settle, logf, errs); err != nil {
			return err
		}
	}
	if o.Has(config.PhaseLeaderboard) {
		if res.Leaderboard, err = phase.Leaderboard(ctx, a, o.LeaderboardPlayers, o.LeaderboardSessions, o.LeaderboardRequests, logf, errs); err != nil {
			return err
		}
	}
	if o.Has(config.PhaseWeb) {
		if res.Web, err = phase.Web(ctx, a, o.WebViewers, o.WebPlayers, o.WebRequests, o.WebWindow, o.Dialers, logf, errs); err != nil {
			return err
		}
	}
	return nil
}
