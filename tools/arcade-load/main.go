// Command arcade-load loads an arcade server with real SSH clients on PTYs and reports what it
// costs and how fast it answers.
//
//	go run ./cmd/arcade-load                         a small run: floor, idle lobby, play
//	go run ./cmd/arcade-load --sessions 2000 --idle 1000 --duration 60s
//	go run ./cmd/arcade-load --addr 127.0.0.1:2222 --phases play   against a running server
//	go run ./cmd/arcade-load --addr A,B,C --server-pid P,Q,R --pairing cross --phases play
//	                                                 the nodes of a cluster, players across them
//	go run ./cmd/arcade-load --phases churn --churn-duration 2m     hostile clients come and go
//
// By default it builds the arcade (./cmd/arcade) and a bare wish + Bubble Tea server (the floor,
// ./cmd/arcade-load/floor) into a temporary folder and runs each as a subprocess on 127.0.0.1, so
// that their CPU time and memory can be read from /proc alone. Four phases, each optional (churn
// only when named in --phases):
//
//   - floor: --idle sessions sit on the floor server; its CPU and memory per session are the
//     reference the arcade is compared with, in the same run.
//   - idle: --idle sessions sit in the arcade's lobby; CPU and memory, total and per session, and
//     the ratio to the floor; a few probe key presses time keystroke-to-redraw.
//   - play: --sessions sessions pair up in rooms by code (one creates "new stonetowers", the other
//     joins by the code its screen shows) and play --game (Stone Towers, DISCON or Coloretta),
//     each player moving once every --interval, for --duration. The tool chooses legal moves with
//     the game's own engine, built as the room builds it; DISCON's discs and Coloretta's cards are
//     shuffled from the match's seed, so for those the arcade runs with --load-test-seeds (seeds
//     that follow from room codes). Reported: sessions held, new sessions per second, the latency
//     from a move being sent to the opponent's screen showing it (p50, p99, max), keystroke to
//     redraw, bytes sent to each client per move, the frames the server sent per session a
//     second, server CPU and memory, errors. --room-options opens the rooms with a clock
//     ("clock=60s"), whose ticks then count in the frames and bytes. Right before
//     and right after it, the disk floor (--disk-floor): a bare group commit of moves at the same
//     rate in the arcade's data folder, alone, which tells how much of the latency the disk under
//     the database would cost any server that writes a move down before showing it. With
//     --disk-watch, a small flush every 20 ms in the same folder while the moves are measured
//     tells when the disk stalled; with --gc-watch, the arcade's gctrace tells when it collected;
//     the report then sorts the moves over 50 ms by which of the two they were under way in.
//   - churn: --churn-clients clients, in pairs, for --churn-duration (15 minutes), loop: a room
//     created with a key and joined with a key or as a guest, a few moves, disturbances between
//     them (window changes to ordinary and huge sizes and storms of them, a client that stops
//     reading, a 256 KiB paste into the move prompt, a keyed player that drops or quits and joins
//     again), and an ending (quit, drop, garbage, a raw paste, huge windows, a stalled reader
//     dropped); now and then a plain command, a 64 KiB command line, a handshake dropped, garbage
//     in the lobby. Before, after a warm-up, and after, once settled (--churn-settle), the arcade's
//     sessions, players in rooms, goroutines, open files and live heap are read and judged against
//     each other, rooms opened meanwhile allowed for (they live on, empty, for 30 minutes); then
//     the arcade is stopped and its database must hold every move a screen acknowledged. The
//     tool starts the arcade for it.
//
// The client side is cheap: each client follows its screen with a grid of runes that understands
// only cursor movement and editing (no colours, no modes), and a move counts as seen when the
// opponent's side panel shows the line the move changed (Stone Towers' turn counts, "Turns left:
// R 24 · B 25"; DISCON's turn, "Red: 1 move left"; Coloretta's "Last: NAME ..."), at the moment
// the bytes that complete it arrive. --validate also runs a full emulator (vt10x) per client and
// reports any difference; use it with small runs.
//
// The tool only connects to loopback addresses, refuses more than 5,000 sessions or phases longer
// than 10 minutes (30 for the churn, a soak), and stops by itself.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Bounds of a run.
const (
	maxSessions = 5000
	maxPhase    = 10 * time.Minute
	maxChurn    = 30 * time.Minute // the churn phase is a soak: it is asked to run for 15 minutes
)

// options are the command line.
type options struct {
	addr       string
	sessions   int
	idle       int
	interval   time.Duration
	duration   time.Duration
	window     time.Duration
	settle     time.Duration
	phases     string
	dialers    int
	game       string
	dataDir    string
	size       int
	turns      int
	roomOpts   string // more room options, after the game's command (--room-options)
	serverArgs []string
	serverEnv  []string
	arcadeBin  string
	floorBin   string
	guests     bool
	validate   bool
	jsonPath   string
	profileDir string
	probes     int
	quiet      bool
	cpuProfile string
	keepalive  time.Duration
	timeline   bool
	serverPID  pidList // with --addr: the servers' process IDs, one per address
	pairing    string  // with several --addr: "same" or "cross"
	diskFloor  time.Duration
	diskWatch  bool
	gcWatch    bool

	churnClients  int
	churnDuration time.Duration
	churnSettle   time.Duration
}

type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, " ") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

func parseOptions(args []string, errOut io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("arcade-load", flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.StringVar(&o.addr, "addr", "", "load the arcade already running at this loopback address instead of starting one; several addresses, comma separated, are the nodes of one cluster (--pairing, only --phases play)")
	fs.IntVar(&o.sessions, "sessions", 200, "sessions in the play phase, two per room")
	fs.IntVar(&o.idle, "idle", 200, "sessions in the idle phases (floor and lobby)")
	fs.DurationVar(&o.interval, "interval", 2*time.Second, "each player makes a move this often")
	fs.DurationVar(&o.duration, "duration", 30*time.Second, "length of the play phase, once every room has started")
	fs.DurationVar(&o.window, "window", 10*time.Second, "how long idle sessions are measured")
	fs.DurationVar(&o.settle, "settle", 30*time.Second, "wait after connecting before measuring (idle sessions drop their screen buffers after 5 s, and the memory goes back 10 s later)")
	fs.StringVar(&o.phases, "phases", "floor,idle,play", "phases to run, in order: floor, idle, play, churn")
	fs.IntVar(&o.churnClients, "churn-clients", 32, "clients in the churn phase, in pairs that open rooms, play, misbehave and leave in a loop")
	fs.DurationVar(&o.churnDuration, "churn-duration", 15*time.Minute, "length of the churn phase")
	fs.DurationVar(&o.churnSettle, "churn-settle", 60*time.Second, "after the churn, wait at most this long for the arcade's sessions, goroutines and open files to come back to the baseline")
	fs.IntVar(&o.dialers, "dialers", 32, "connections set up at once")
	fs.StringVar(&o.game, "game", "stonetowers", "game the play phase plays: "+gameList()+" (a game whose set-up follows from the seed needs an arcade run with --load-test-seeds, which the tool passes to the arcade it starts)")
	fs.StringVar(&o.dataDir, "data-dir", "", "keep the started arcade's data (its database) in a new folder under this one, e.g. /dev/shm to take the disk's fsync out of the figures (default: the temporary folder)")
	fs.IntVar(&o.size, "size", 12, "Stone Towers board size")
	fs.IntVar(&o.turns, "turns", 60, "Stone Towers turns per player (a match lasts turns x interval)")
	fs.StringVar(&o.roomOpts, "room-options", "", `more options for the rooms the play phase and the churn open, after the game's command: the room's clock, e.g. "clock=off", "clock=60s" (a limit a move) or "clock=10m+5s" (a game clock); without it a match of two keyed players has the arcade's default move limit (2m), and guests' matches are untimed`)
	fs.Var((*stringList)(&o.serverArgs), "server-arg", "an extra flag for the arcade the tool starts (repeat it)")
	fs.Var((*stringList)(&o.serverEnv), "server-env", "an extra KEY=VALUE in the environment of the servers the tool starts, e.g. GOGC=200 (repeat it); the arcade gets GODEBUG=gcshrinkstackoff=1, as deploy/arcade.service sets it, unless a GODEBUG here (or the tool's own) names gcshrinkstackoff")
	fs.StringVar(&o.arcadeBin, "arcade-bin", "", "arcade binary to start (default: go build ./cmd/arcade)")
	fs.StringVar(&o.floorBin, "floor-bin", "", "floor binary to start (default: go build ./cmd/arcade-load/floor)")
	fs.BoolVar(&o.guests, "guests", false, "connect as guests (no key) instead of with one key per client")
	fs.BoolVar(&o.validate, "validate", false, "also run a full terminal emulator per client and compare screens (small runs)")
	fs.StringVar(&o.jsonPath, "json", "", "also write the results to this file as JSON")
	fs.StringVar(&o.profileDir, "profile", "", "save the arcade's CPU and heap profiles of each phase here (needs its metrics endpoint)")
	fs.IntVar(&o.probes, "probes", 40, "key presses timed in each idle phase")
	fs.BoolVar(&o.quiet, "quiet", false, "print only the report")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write the load tool's own CPU profile here")
	fs.Var(&o.serverPID, "server-pid", "with --addr: the server's process ID, to read its CPU and memory from /proc; with several addresses, one ID per address, comma separated (CPU and memory are summed)")
	fs.StringVar(&o.pairing, "pairing", "same", "with several --addr: same (both players of a room on one node, the rooms spread round robin over the nodes) or cross (the creator on node i, the joiner on node i+1)")
	fs.BoolVar(&o.timeline, "timeline", false, "log the move latency of every second of the play phase")
	fs.DurationVar(&o.diskFloor, "disk-floor", 10*time.Second, "measure the disk floor (a bare group commit like the arcade's into bbolt, in the started arcade's data folder, at the play phase's rate of moves) for this long right before and right after the play phase; 0: not at all")
	fs.BoolVar(&o.diskWatch, "disk-watch", false, "while the play phase is measured, flush a small write in the started arcade's data folder every 20 ms, and report the disk's stalls and the moves over 50 ms under way in one (adds 50 flushes a second to the disk)")
	fs.BoolVar(&o.gcWatch, "gc-watch", false, "start the arcade with gctrace=1 in its GODEBUG, and report its collections while the moves were measured, and the moves over 50 ms under way in one or in the 100 ms after it")
	fs.DurationVar(&o.keepalive, "keepalive", 0, "idle sessions send an SSH keep-alive this often, as OpenSSH's ServerAliveInterval does (0: none)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	switch {
	case fs.NArg() > 0:
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case o.sessions < 2 || o.sessions%2 != 0 || o.sessions > maxSessions:
		return o, fmt.Errorf("--sessions must be even, from 2 to %d", maxSessions)
	case o.idle < 1 || o.idle > maxSessions:
		return o, fmt.Errorf("--idle must be from 1 to %d", maxSessions)
	case o.duration <= 0 || o.duration > maxPhase || o.window <= 0 || o.window > maxPhase || o.settle < 0 || o.settle > maxPhase:
		return o, fmt.Errorf("--duration, --window and --settle must be positive and at most %v", maxPhase)
	case o.diskFloor < 0 || o.diskFloor > maxPhase:
		return o, fmt.Errorf("--disk-floor must be from 0 to %v", maxPhase)
	case o.addr != "" && (o.diskWatch || o.gcWatch):
		return o, errors.New("--disk-watch and --gc-watch need an arcade the tool starts: not with --addr")
	case !validGame(o.game):
		return o, fmt.Errorf("--game %q: use %s", o.game, gameList())
	case o.interval < 20*time.Millisecond || o.interval > time.Minute:
		return o, errors.New("--interval must be from 20ms to 1m")
	case o.keepalive < 0 || (o.keepalive > 0 && o.keepalive < 100*time.Millisecond):
		return o, errors.New("--keepalive must be 0 or at least 100ms")
	case o.dialers < 1 || o.dialers > 256:
		return o, errors.New("--dialers must be from 1 to 256")
	case o.validate && (o.sessions > 100 || o.idle > 100 || (o.has("churn") && o.churnClients > 100)):
		return o, errors.New("--validate is for small runs: at most 100 sessions")
	case o.churnClients < 2 || o.churnClients%2 != 0 || o.churnClients > maxSessions:
		return o, fmt.Errorf("--churn-clients must be even, from 2 to %d", maxSessions)
	case o.churnDuration <= 0 || o.churnDuration > maxChurn:
		return o, fmt.Errorf("--churn-duration must be positive and at most %v", maxChurn)
	case o.churnSettle < 0 || o.churnSettle > maxPhase:
		return o, fmt.Errorf("--churn-settle must be from 0 to %v", maxPhase)
	case o.addr != "" && o.has("churn"):
		return o, errors.New("--phases churn needs an arcade the tool starts (it reads the arcade's metrics and, once it has stopped it, its database): not with --addr")
	}
	if err := checkRoomOptions(o.roomOpts); err != nil {
		return o, err
	}
	for _, p := range strings.Split(o.phases, ",") {
		switch strings.TrimSpace(p) {
		case "floor", "idle", "play", "churn":
		default:
			return o, fmt.Errorf("unknown phase %q: use floor, idle, play, churn", p)
		}
	}
	addrs := o.addrs()
	for _, a := range addrs {
		if err := checkLoopback(a); err != nil {
			return o, err
		}
	}
	switch {
	case o.pairing != "same" && o.pairing != "cross":
		return o, fmt.Errorf("--pairing %q: use same or cross", o.pairing)
	case len(o.serverPID) > 0 && len(o.serverPID) != max(1, len(addrs)):
		return o, fmt.Errorf("--server-pid: %d process IDs for %d addresses", len(o.serverPID), len(addrs))
	case len(addrs) > 1 && (o.has("idle") || o.has("churn")):
		return o, errors.New("several --addr: only the play phase (--phases play, or floor,play)")
	case len(addrs) < 2 && o.pairing != "same":
		return o, errors.New("--pairing cross needs several --addr")
	}
	return o, nil
}

// addrs returns the addresses of --addr, nil when the tool starts the arcade.
func (o options) addrs() []string {
	if o.addr == "" {
		return nil
	}
	var out []string
	for a := range strings.SplitSeq(o.addr, ",") {
		out = append(out, strings.TrimSpace(a))
	}
	return out
}

// pidList is --server-pid: process IDs, comma separated.
type pidList []int

func (l *pidList) String() string {
	var s []string
	for _, p := range *l {
		s = append(s, fmt.Sprint(p))
	}
	return strings.Join(s, ",")
}

func (l *pidList) Set(v string) error {
	*l = nil
	for f := range strings.SplitSeq(v, ",") {
		var p int
		if _, err := fmt.Sscan(strings.TrimSpace(f), &p); err != nil || p <= 0 {
			return fmt.Errorf("process ID %q", f)
		}
		*l = append(*l, p)
	}
	return nil
}

func (o options) has(phase string) bool {
	for _, p := range strings.Split(o.phases, ",") {
		if strings.TrimSpace(p) == phase {
			return true
		}
	}
	return false
}

// bound is the longest a run may take; the tool gives up after it.
func (o options) bound() time.Duration {
	setup := time.Duration(o.sessions+2*o.idle)*20*time.Millisecond + 3*time.Minute
	d := setup + o.duration + 2*(o.window+o.settle) + 2*o.diskFloor + 2*time.Minute
	if o.has("churn") {
		d += o.churnDuration + 2*o.churnSettle + 3*time.Minute // its last episodes, the warm-up, the check
	}
	return d
}

func main() {
	quietCollector()
	os.Exit(realMain())
}

// toolGCPercent is the tool's own GOGC, unless the environment sets one.
const toolGCPercent = 1000

// quietCollector makes the tool's garbage collections rare. A collection takes CPU from the
// tool's clients (and, on a machine shared with the server, from the server), and the clients'
// delays show up as the server's latency: at 2,000 playing sessions with Go's default GOGC the
// tool's collections added spikes of 20 to 100 ms every few seconds to the measured p99. A run is
// short and bounded, so the tool keeps more garbage instead. GOGC in the environment still
// decides; the servers the tool starts keep their own settings (GOGC is not passed to them
// unless through --server-env or the tool's own environment).
func quietCollector() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(toolGCPercent)
	}
}

// ownCollections returns how many collections the tool's own runtime has finished.
func ownCollections() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// realMain runs the tool and returns its exit status: 0, 1 when the run failed or counted
// errors, 2 for a bad command line.
func realMain() int {
	o, err := parseOptions(os.Args[1:], os.Stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "arcade-load:", err)
		}
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.bound())
	defer cancel()
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	logw := io.Writer(os.Stderr)
	if o.quiet {
		logw = io.Discard
	}
	res, err := run(ctx, o, logw)
	if res != nil {
		res.print(os.Stdout)
		if o.jsonPath != "" {
			if b, jerr := json.MarshalIndent(res, "", "  "); jerr == nil {
				_ = os.WriteFile(o.jsonPath, b, 0o644)
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "arcade-load:", err)
		return 1
	}
	if res != nil && res.Errors > 0 {
		return 1
	}
	return 0
}

// run runs the phases and returns what they measured.
func run(ctx context.Context, o options, logw io.Writer) (*results, error) {
	logf := func(format string, args ...any) {
		fmt.Fprintf(logw, "%s  "+format+"\n", append([]any{time.Now().Format("15:04:05.000")}, args...)...)
	}
	res := &results{Started: time.Now(), LoadBefore: loadAverage(), CPUs: runtime.NumCPU(), Options: o.summary(), Game: o.game}
	defer func() { res.LoadAfter = loadAverage() }()
	tmp, err := os.MkdirTemp("", "arcade-load-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if o.profileDir != "" {
		if err := os.MkdirAll(o.profileDir, 0o755); err != nil {
			return nil, err
		}
	}
	needArcade := o.addr == "" && (o.has("idle") || o.has("play") || o.has("churn"))
	needFloor := o.has("floor") // the floor is always the tool's own subprocess
	if (needArcade && o.arcadeBin == "") || (needFloor && o.floorBin == "") {
		root, err := moduleRoot()
		if err != nil {
			return nil, err
		}
		logf("building the arcade and the floor in %s", tmp)
		a, f, err := build(ctx, root, tmp)
		if err != nil {
			return nil, err
		}
		if o.arcadeBin == "" {
			o.arcadeBin = a
		}
		if o.floorBin == "" {
			o.floorBin = f
		}
	}
	errs := newErrorLog()
	res.errs = errs
	defer func() { res.Errors = errs.total(); res.ErrorKinds = errs.snapshot() }()

	if needFloor {
		srv, err := startServer(ctx, "floor", o.floorBin, []string{"--addr", "127.0.0.1:0"}, o.serverEnv, filepath.Join(tmp, "floor.log"))
		if err != nil {
			return res, err
		}
		res.Floor, err = idlePhase(ctx, o, srv, logf, errs, "floor: 0 keys")
		srv.stop()
		if err != nil {
			return res, err
		}
	}
	var arcade *server
	var data string // the started arcade's data folder
	if needArcade {
		data = filepath.Join(tmp, "data")
		if o.dataDir != "" {
			d, err := os.MkdirTemp(o.dataDir, "arcade-load-data-")
			if err != nil {
				return res, err
			}
			defer os.RemoveAll(d)
			data = d
		}
		maxSess, maxRooms := max(o.sessions, o.idle)+100, o.sessions/2+100
		if o.has("churn") {
			// Rooms stay open 30 minutes after their last player left, and a churn opens
			// a room every few seconds per pair.
			maxSess, maxRooms = max(maxSess, 4*o.churnClients+1000), maxRooms+20000
		}
		args := []string{"--addr", "127.0.0.1:0", "--data", data,
			"--max-sessions", fmt.Sprint(maxSess), "--max-rooms", fmt.Sprint(maxRooms),
			"--conn-rate", "100000", "--conn-burst", "100000", "--max-startups", "100000", "--max-startups-per-addr", "100000",
			"--log-level", "warn", "--metrics", "127.0.0.1:0"}
		if g, _ := gameDriver(o.game, o.size, o.turns, o.roomOpts); g != nil && g.Seeded() && (o.has("play") || o.has("churn")) {
			args = append(args, "--load-test-seeds")
		}
		args = append(args, o.serverArgs...)
		env := arcadeEnv(o.serverEnv, os.Getenv("GODEBUG"), o.gcWatch)
		res.Options += " arcade-" + env[len(env)-1]
		arcade, err = startServer(ctx, "arcade", o.arcadeBin, args, env, filepath.Join(tmp, "arcade.log"))
		if err != nil {
			return res, err
		}
		arcade.data = data
		defer func() {
			arcade.stop()
			res.ServerLog = serverLogSummary(arcade.logPath)
		}()
		logf("arcade listening on %s (metrics %s)", arcade.addr, arcade.metrics)
	} else if o.addr != "" {
		arcade = &server{name: "arcade", addr: o.addrs()[0], nodes: o.addrs(), pids: o.serverPID}
	}
	if o.has("idle") && arcade != nil {
		res.Idle, err = idlePhase(ctx, o, arcade, logf, errs, "Welcome")
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
	if o.has("play") && arcade != nil {
		floor := func(when string) *diskFloorResult {
			if o.diskFloor == 0 || data == "" {
				return nil
			}
			logf("disk floor %s the play phase: %v in %s", when, o.diskFloor, data)
			df, err := diskFloor(ctx, data, float64(o.sessions)/o.interval.Seconds(), o.diskFloor)
			if err != nil {
				errs.add("disk-floor", err)
			}
			return df
		}
		before := floor("before")
		res.Play, err = playPhase(ctx, o, arcade, logf, errs)
		if res.Play != nil {
			res.Play.DiskBefore, res.Play.DiskAfter = before, floor("after")
		}
		if err != nil {
			return res, err
		}
	}
	if o.has("churn") && arcade != nil {
		res.Churn, err = churnPhase(ctx, o, arcade, logf, errs)
		if err != nil {
			return res, err
		}
	}
	return res, nil
}

// dialAll connects n clients to the lobby and waits for each to show ready. It returns those that
// made it and the rate at which they did.
func dialAll(ctx context.Context, o dialOpts, n, dialers int, ready string, errs *errorLog) ([]*client, float64) {
	out := make([]*client, n)
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
				c, err := dial(ctx, o, 100000+i, "")
				if err != nil {
					errs.add("dial", err)
					continue
				}
				if err := c.waitText(ctx, ready, setupTimeout); err != nil {
					errs.add("setup", err)
					c.close()
					continue
				}
				out[i] = c
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	var ok []*client
	for _, c := range out {
		if c != nil {
			ok = append(ok, c)
		}
	}
	return ok, float64(len(ok)) / elapsed.Seconds()
}

// idleResult is what an idle phase measured.
type idleResult struct {
	Server         string
	Sessions       int
	SessionsPerSec float64
	CPUShare       float64 // of one core, while idle
	CPUPerSession  float64 // share of one core per session
	RSSBase        uint64  // before any session
	RSS            uint64  // with the sessions, at the end of the window
	RSSPerSession  float64 // bytes
	Threads        int
	Keystroke      summary
	// KeepalivesPerSec are the SSH keep-alives answered per second during the window (--keepalive).
	KeepalivesPerSec float64            `json:",omitempty"`
	CPURatio         float64            `json:",omitempty"` // arcade per session / floor per session
	RSSRatio         float64            `json:",omitempty"`
	Metrics          map[string]float64 `json:",omitempty"`
}

// idlePhase connects --idle sessions to srv, lets them sit, and measures the server.
func idlePhase(ctx context.Context, o options, srv *server, logf func(string, ...any), errs *errorLog, ready string) (*idleResult, error) {
	res := &idleResult{Server: srv.name}
	base, _ := srv.sample()
	res.RSSBase = base.rss
	logf("%s: connecting %d idle sessions", srv.name, o.idle)
	dopts := dialOpts{addr: srv.addr, guest: o.guests, validate: o.validate, timeout: 30 * time.Second}
	cs, rate := dialAll(ctx, dopts, o.idle, o.dialers, ready, errs)
	defer func() {
		for _, c := range cs {
			c.close()
		}
		checkMismatches(cs, errs)
	}()
	res.Sessions, res.SessionsPerSec = len(cs), rate
	logf("%s: %d sessions at %.0f/s; settling %v, then measuring for %v", srv.name, len(cs), rate, o.settle, o.window)
	for end := time.Now().Add(o.settle); time.Until(end) > 0; {
		if err := sleep(ctx, min(time.Until(end), 20*time.Second)); err != nil {
			return res, err
		}
		if s, err := srv.sample(); err == nil {
			logf("%s: settling: RSS %s", srv.name, mib(s.rss))
		}
	}
	stopProfile := profile(ctx, o, srv, "idle-"+srv.name, o.window, logf)
	stopPings := keepalives(ctx, o.keepalive, cs, errs)
	s0, _ := srv.sample()
	if err := sleep(ctx, o.window); err != nil {
		return res, err
	}
	s1, err := srv.sample()
	res.KeepalivesPerSec = float64(stopPings()) / o.window.Seconds()
	stopProfile()
	if err == nil {
		res.CPUShare = cpuShare(s0, s1)
		res.RSS, res.Threads = s1.rss, s1.threads
		if len(cs) > 0 {
			res.CPUPerSession = res.CPUShare / float64(len(cs))
			res.RSSPerSession = float64(s1.rss-min(base.rss, s1.rss)) / float64(len(cs))
		}
	}
	res.Metrics = scrape(srv)
	// Key presses, one at a time, each waited for: the screen must change.
	var key latencies
	keys := []string{"j", "k"}
	for i := range min(o.probes, len(cs)) {
		c := cs[i*len(cs)/max(1, min(o.probes, len(cs)))]
		w := c.expectFunc(func(s *screen) bool { return anyDirty(s) })
		t0 := time.Now()
		if err := c.send(keys[i%2]); err != nil {
			errs.add("send", err)
			continue
		}
		at, err := c.wait(ctx, w, moveTimeout, c.name+" waiting for a redraw")
		if err != nil {
			errs.add("keystroke", err)
			continue
		}
		key.add(at.Sub(t0))
		if err := sleep(ctx, 50*time.Millisecond); err != nil {
			return res, err
		}
	}
	res.Keystroke = key.summary()
	alive := 0
	for _, c := range cs {
		if c.alive() {
			alive++
		}
	}
	if alive < len(cs) {
		errs.add("disconnected", fmt.Errorf("%s: %d of %d idle sessions ended on their own", srv.name, len(cs)-alive, len(cs)))
	}
	logf("%s: idle CPU %s of one core, RSS %s (%s per session)", srv.name, pct(res.CPUShare), mib(res.RSS), kib(res.RSSPerSession))
	return res, nil
}

// keepalives sends SSH keep-alive requests (keepalive@openssh.com, wanting a reply, as OpenSSH's
// ServerAliveInterval does) from every client once per every, spread evenly, until the returned
// function is called; it returns how many were answered.
func keepalives(ctx context.Context, every time.Duration, cs []*client, errs *errorLog) func() int64 {
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
				if _, _, err := c.conn.SendRequest("keepalive@openssh.com", true, nil); err != nil {
					errs.add("keepalive", err)
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

func anyDirty(s *screen) bool {
	for _, d := range s.dirty {
		if d {
			return true
		}
	}
	return false
}

// playResult is what the play phase measured.
type playResult struct {
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
	MoveLatency    summary
	KeyLatency     summary
	BytesToOpp     float64 // per move, to the opponent (the move drawn)
	BytesToMover   float64 // per move, to the mover (prompt, typing echo, the move drawn)
	CPUShare       float64
	CPUPerSession  float64
	RSSBase        uint64
	RSS            uint64
	RSSPerSession  float64
	Threads        int
	ClientCPUShare float64
	// ClientCollections counts the load tool's own collections that ended while the moves were
	// measured: its clients' delays in one show up as the server's latency (see quietCollector).
	ClientCollections uint64
	GC                *gcFigures         `json:",omitempty"`
	Metrics           map[string]float64 `json:",omitempty"`
	// MovesOver50 is the share of moves that took over 50 ms (the target's bound) to reach the
	// opponent's screen, 0 to 1.
	MovesOver50 float64
	// DiskBefore and DiskAfter are the disk floor right before and right after the phase
	// (--disk-floor), if measured.
	DiskBefore, DiskAfter *diskFloorResult `json:",omitempty"`
	// DiskWatch is what the disk watch saw while the phase was measured (--disk-watch); GCWatch,
	// the server's collections then (--gc-watch); SlowMoves, what the moves over 50 ms were under
	// way during, by those two.
	DiskWatch *diskWatchResult `json:",omitempty"`
	GCWatch   *gcWatchResult   `json:",omitempty"`
	SlowMoves *slowMoves       `json:",omitempty"`

	// Frames are the frames the server sent (that sent bytes) while the moves were measured, and
	// Views the screens it computed (arcade_frames_total and arcade_views_total); per session and
	// second, over the same window. A clock on screen adds its ticks to the moves' frames.
	Frames, Views                           float64 `json:",omitempty"`
	FramesPerSessionSec, ViewsPerSessionSec float64 `json:",omitempty"`
}

func playPhase(ctx context.Context, o options, srv *server, logf func(string, ...any), errs *errorLog) (*playResult, error) {
	res := &playResult{Sessions: o.sessions, Rooms: o.sessions / 2}
	base, _ := srv.sample()
	res.RSSBase = base.rss
	dopts := dialOpts{addr: srv.addr, guest: o.guests, validate: o.validate, timeout: 30 * time.Second}
	game, err := gameDriver(o.game, o.size, o.turns, o.roomOpts)
	if err != nil {
		return res, err
	}
	logf("play: setting up %d rooms (%d sessions)", res.Rooms, o.sessions)
	rs := make([]*room, res.Rooms)
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range min(o.dialers, res.Rooms) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(rs) || ctx.Err() != nil {
					return
				}
				r, err := openRoom(ctx, srv.pair(dopts, i, o.pairing), [2]int{2 * i, 2*i + 1}, i, game)
				if err != nil {
					errs.add("setup", err)
					continue
				}
				rs[i] = r
			}
		}()
	}
	wg.Wait()
	res.SetupSeconds = time.Since(start).Seconds()
	var rooms []*room
	var clients []*client
	for _, r := range rs {
		if r != nil {
			rooms = append(rooms, r)
			clients = append(clients, r.players[:]...)
		}
	}
	defer func() {
		for _, c := range clients {
			c.close()
		}
	}()
	res.SessionsPerSec = float64(len(clients)) / res.SetupSeconds
	logf("play: %d rooms ready in %.1f s (%.0f sessions/s); playing for %v, a move per player every %v",
		len(rooms), res.SetupSeconds, res.SessionsPerSec, o.duration, o.interval)
	if len(rooms) == 0 {
		return res, errors.New("no room could be set up")
	}
	ps := &playStats{errs: errs}
	begin := time.Now().Add(200 * time.Millisecond)
	from := begin.Add(o.interval) // the first interval staggers the rooms in: not measured
	end := begin.Add(o.duration)
	if !from.Before(end) {
		from = begin
	}
	var s0, c0 procSample
	var gc0 uint64
	var bytes0 [2]uint64
	var metrics0 map[string]float64
	var stopProfile func()
	var watched <-chan *diskWatchResult
	if o.diskWatch {
		watched = startDiskWatch(ctx, srv.data, span{from, end}, errs)
	}
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		if sleep(ctx, time.Until(from)) != nil {
			return
		}
		s0, _ = srv.sample()
		c0, _ = sampleProc(os.Getpid())
		gc0 = ownCollections()
		bytes0 = sumBytes(clients)
		metrics0 = scrape(srv)
		stopProfile = profile(ctx, o, srv, "play", end.Sub(from), logf)
	}()
	runRooms(ctx, rooms, ps, begin, from, end, o.interval)
	s1, err := srv.sample()
	metrics1 := scrape(srv) // at once: the screens' clocks tick on after the moves
	c1, _ := sampleProc(os.Getpid())
	gc1 := ownCollections()
	<-sampled
	if stopProfile != nil {
		stopProfile()
	}
	bytes1 := sumBytes(clients)
	if err == nil {
		res.CPUShare = cpuShare(s0, s1)
		res.CPUPerSession = res.CPUShare / float64(len(clients))
		res.RSS, res.Threads = s1.rss, s1.threads
		res.RSSPerSession = float64(s1.rss-min(base.rss, s1.rss)) / float64(len(clients))
	}
	res.ClientCPUShare = cpuShare(c0, c1)
	res.ClientCollections = gc1 - min(gc0, gc1)
	res.Seconds = s1.at.Sub(s0.at).Seconds()
	res.framesDuring(metrics0, metrics1, len(clients))
	res.MovesSent, res.MovesSeen = ps.sent.Load(), ps.seen.Load()
	res.Late, res.Rematches = ps.late.Load(), ps.rematches.Load()
	res.MoveLatency, res.KeyLatency = ps.move.summary(), ps.key.summary()
	res.MovesOver50 = ps.move.over(targetBound)
	if watched != nil {
		res.DiskWatch = <-watched
	}
	if o.gcWatch {
		res.GCWatch = readGCWatch(srv, span{from, end}, errs)
	}
	res.sortSlowMoves(&ps.move)
	if o.timeline {
		for i, sm := range ps.move.timeline(from) {
			logf("play: second %3d: %s", i, sm)
		}
	}
	if n := res.MoveLatency.N; n > 0 {
		res.MovesPerSec = float64(n) / end.Sub(from).Seconds()
		res.BytesToOpp = float64(bytes1[roleWaiting]-bytes0[roleWaiting]) / float64(n)
		res.BytesToMover = float64(bytes1[roleMoving]-bytes0[roleMoving]) / float64(n)
	}
	for _, c := range clients {
		if c.alive() {
			res.SessionsHeld++
		}
	}
	if res.SessionsHeld < len(clients) {
		errs.add("disconnected", fmt.Errorf("%d of %d playing sessions ended on their own", len(clients)-res.SessionsHeld, len(clients)))
	}
	res.Metrics = scrape(srv)
	res.GC = gcDuring(metrics0, res.Metrics, res.MoveLatency.N)
	checkMismatches(clients, errs)
	if !srv.alive() {
		errs.add("server-exited", fmt.Errorf("the server exited during the run (log %s)", srv.logPath))
	}
	logf("play: moves %s; server CPU %s of one core, RSS %s", res.MoveLatency, pct(res.CPUShare), mib(res.RSS))
	return res, nil
}

// framesDuring sets the frames and views the server counted between two scrapes of its metrics
// (before and after the measured window, res.Seconds apart) for n sessions; it leaves them zero
// when either scrape lacks them.
func (res *playResult) framesDuring(before, after map[string]float64, n int) {
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

func sumBytes(cs []*client) (out [2]uint64) {
	for _, c := range cs {
		out[0] += c.bytes[0].Load()
		out[1] += c.bytes[1].Load()
	}
	return out
}

// checkMismatches reports clients whose screen differed from the full emulator's (--validate).
func checkMismatches(cs []*client, errs *errorLog) {
	for _, c := range cs {
		if c.vt == nil {
			continue
		}
		if m := c.firstMismatch(); m != "" {
			errs.add("screen-mismatch", fmt.Errorf("%s: %s", c.name, m))
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

// profile saves a CPU profile of d, then a heap profile, from the server's metrics endpoint
// (--profile). The returned function waits for them.
func profile(ctx context.Context, o options, srv *server, name string, d time.Duration, logf func(string, ...any)) func() {
	if o.profileDir == "" || srv.metrics == "" {
		return func() {}
	}
	secs := max(1, int(d.Seconds()))
	done := make(chan struct{})
	go func() {
		defer close(done)
		get := func(path, file string) {
			req, _ := http.NewRequestWithContext(ctx, "GET", srv.metrics+path, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				logf("profile %s: %v", file, err)
				return
			}
			defer resp.Body.Close()
			f, err := os.Create(filepath.Join(o.profileDir, file))
			if err != nil {
				return
			}
			defer f.Close()
			_, _ = io.Copy(f, resp.Body)
		}
		get(fmt.Sprintf("/debug/pprof/profile?seconds=%d", secs), name+"-cpu.pprof")
		get("/debug/pprof/heap", name+"-heap.pprof")
		get("/debug/pprof/goroutine", name+"-goroutine.pprof")
	}()
	return func() { <-done }
}

// commitBuckets begins the names of the buckets of the server's histogram of move commits, the
// only buckets scrape keeps.
const commitBuckets = "arcade_move_commit_seconds_bucket{"

// scrape reads the arcade_ and process_ figures of the server's metrics endpoint, if it has one.
func scrape(srv *server) map[string]float64 {
	if srv.metrics == "" {
		return nil
	}
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(srv.metrics + "/metrics")
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil
	}
	return parseMetrics(string(b))
}

// parseMetrics reads Prometheus text format: each sample's name (with its labels) and value;
// of the histograms' buckets it keeps only those of move commits.
func parseMetrics(text string) map[string]float64 {
	out := map[string]float64{}
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		name, val, ok := strings.Cut(line, " ")
		if !ok || strings.Contains(name, "_bucket{") && !strings.HasPrefix(name, commitBuckets) {
			continue
		}
		var v float64
		if _, err := fmt.Sscan(val, &v); err == nil {
			out[name] = v
		}
	}
	return out
}

// serverLogSummary counts the warnings and errors in a server's log.
func serverLogSummary(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	var warn, errs int
	var first string
	for line := range strings.SplitSeq(string(b), "\n") {
		switch {
		case strings.Contains(line, "ERRO"), strings.Contains(line, "panic"):
			errs++
			if first == "" {
				first = firstLine(line, 200)
			}
		case strings.Contains(line, "WARN"):
			warn++ // the rooms log every room they create at this level
		}
	}
	s := fmt.Sprintf("%d errors, %d warnings", errs, warn)
	if first != "" {
		s += "; first error: " + first
	}
	return s
}
