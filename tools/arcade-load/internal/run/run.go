// Package run runs the load tool: it builds and starts the servers a run needs, runs its phases
// in order against them, and returns what they measured.
package run

import (
	"context"
	"fmt"
	"github.com/arcade/arcade/tools/arcade-load/internal/config"
	"github.com/arcade/arcade/tools/arcade-load/internal/drivers"
	"github.com/arcade/arcade/tools/arcade-load/internal/phase"
	"github.com/arcade/arcade/tools/arcade-load/internal/report"
	"github.com/arcade/arcade/tools/arcade-load/internal/server"
	"github.com/arcade/arcade/tools/arcade-load/internal/stats"
	"github.com/arcade/arcade/tools/arcade-load/internal/watch"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

// Run runs the phases of o, logging its progress to logw, and returns what they measured (with
// what it had measured when it fails).
func Run(ctx context.Context, o config.Config, logw io.Writer) (*report.Results, error) {
	logf := func(format string, args ...any) {
		fmt.Fprintf(logw, "%s  "+format+"\n", append([]any{time.Now().Format("15:04:05.000")}, args...)...)
	}
	res := &report.Results{Started: time.Now(), LoadBefore: watch.LoadAverage(), CPUs: runtime.NumCPU(), Options: o.Summary(), Game: o.Game}
	defer func() { res.LoadAfter = watch.LoadAverage() }()
	tmp, err := os.MkdirTemp("", "arcade-load-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if o.ProfileDir != "" {
		if err := os.MkdirAll(o.ProfileDir, 0o755); err != nil {
			return nil, err
		}
	}
	needArcade := o.Addr == "" && (o.Has("idle") || o.Has("play") || o.Has("churn"))
	needBuild := needArcade || o.HasHostile()
	needFloor := o.Has("floor") // the floor is always the tool's own subprocess
	if (needBuild && o.ArcadeBin == "") || (needFloor && o.FloorBin == "") {
		root, err := server.ModuleRoot()
		if err != nil {
			return nil, err
		}
		logf("building the arcade and the floor in %s", tmp)
		a, f, err := server.Build(ctx, root, tmp)
		if err != nil {
			return nil, err
		}
		if o.ArcadeBin == "" {
			o.ArcadeBin = a
		}
		if o.FloorBin == "" {
			o.FloorBin = f
		}
	}
	errs := stats.NewErrorLog()
	res.Errs = errs
	defer func() { res.Errors = errs.Total(); res.ErrorKinds = errs.Snapshot() }()

	if needFloor {
		srv, err := server.Start(ctx, "floor", o.FloorBin, []string{"--addr", "127.0.0.1:0"}, o.ServerEnv, filepath.Join(tmp, "floor.log"))
		if err != nil {
			return res, err
		}
		res.Floor, err = phase.Idle(ctx, o, srv, logf, errs, "floor: 0 keys")
		srv.Stop()
		if err != nil {
			return res, err
		}
	}
	var arcade *server.Server
	var data string // the started arcade's data folder
	if needArcade {
		data = filepath.Join(tmp, "data")
		if o.DataDir != "" {
			d, err := os.MkdirTemp(o.DataDir, "arcade-load-data-")
			if err != nil {
				return res, err
			}
			defer os.RemoveAll(d)
			data = d
		}
		maxSess, maxRooms := max(o.Sessions, o.Idle)+100, o.Sessions/2+100
		if o.Has("churn") {
			// Rooms stay open 30 minutes after their last player left, and a churn opens
			// a room every few seconds per pair.
			maxSess, maxRooms = max(maxSess, 4*o.ChurnClients+1000), maxRooms+20000
		}
		args := append(baseArgs(data), "--max-sessions", fmt.Sprint(maxSess), "--max-rooms", fmt.Sprint(maxRooms))
		if g, _ := drivers.For(o.Game, o.Size, o.Turns, o.RoomOpts); g != nil && g.Seeded() && (o.Has("play") || o.Has("churn")) {
			args = append(args, "--load-test-seeds")
		}
		args = append(args, o.ServerArgs...)
		env := server.ArcadeEnv(o.ServerEnv, os.Getenv("GODEBUG"), o.GCWatch)
		// Every client connects from this machine's address: its shares go as far as the rest;
		// guests' rooms count against their address, the same for every client. In the
		// environment, before the rest (which overrides them), so that a server without these
		// shares starts too.
		shares := []string{"ARCADE_MAX_SESSIONS_PER_ADDR=" + fmt.Sprint(maxSess),
			"ARCADE_MAX_WAITING_ROOMS_PER_ADDR=" + fmt.Sprint(maxRooms)}
		if o.Guests {
			shares = append(shares, "ARCADE_MAX_WAITING_ROOMS="+fmt.Sprint(maxRooms), "ARCADE_MAX_UNFINISHED="+fmt.Sprint(maxRooms))
		}
		env = append(shares, env...)
		res.Options += " arcade-" + env[len(env)-1]
		arcade, err = server.Start(ctx, "arcade", o.ArcadeBin, args, env, filepath.Join(tmp, "arcade.log"))
		if err != nil {
			return res, err
		}
		arcade.Data = data
		defer func() {
			arcade.Stop()
			res.ServerLog = server.LogSummary(arcade.LogPath)
		}()
		logf("arcade listening on %s (metrics %s)", arcade.Addr, arcade.Metrics)
	} else if o.Addr != "" {
		arcade = &server.Server{Name: "arcade", Addr: o.Addrs()[0], Nodes: o.Addrs(), PIDs: o.ServerPID}
	}
	if o.Has("idle") && arcade != nil {
		res.Idle, err = phase.Idle(ctx, o, arcade, logf, errs, "Welcome")
		if err != nil {
			return res, err
		}
		if res.Floor != nil && res.Floor.CPUPerSession > 0 {
			res.Idle.CPURatio = res.Idle.CPUPerSession / res.Floor.CPUPerSession
		}
		if res.Floor != nil && res.Floor.RSSPerSession > 0 {
			res.Idle.RSSRatio = res.Idle.RSSPerSession / res.Floor.RSSPerSession
		}
	}
	if o.Has("play") && arcade != nil {
		floor := func(when string) *watch.DiskFloorResult {
			if o.DiskFloor == 0 || data == "" {
				return nil
			}
			logf("disk floor %s the play phase: %v in %s", when, o.DiskFloor, data)
			df, err := watch.DiskFloor(ctx, data, float64(o.Sessions)/o.Interval.Seconds(), o.DiskFloor)
			if err != nil {
				errs.Add("disk-floor", err)
			}
			return df
		}
		before := floor("before")
		res.Play, err = phase.Play(ctx, o, arcade, logf, errs)
		if res.Play != nil {
			res.Play.DiskBefore, res.Play.DiskAfter = before, floor("after")
		}
		if err != nil {
			return res, err
		}
	}
	if o.Has("churn") && arcade != nil {
		res.Churn, err = phase.Churn(ctx, o, arcade, logf, errs)
		if err != nil {
			return res, err
		}
	}
	return res, runHostile(ctx, o, tmp, res, logf, errs)
}

// baseArgs are the flags of every arcade the tool starts, on the data folder data: a loopback
// address and metrics endpoint of the system's choosing, warnings only in the log, and the limits
// on connections being set up lifted (the tool's clients all come from one address, fast).
func baseArgs(data string) []string {
	return []string{"--addr", "127.0.0.1:0", "--data", data,
		"--conn-rate", "100000", "--conn-burst", "100000", "--max-startups", "100000", "--max-startups-per-addr", "100000",
		"--log-level", "warn", "--metrics", "127.0.0.1:0"}
}
