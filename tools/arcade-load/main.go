// Command arcade-load loads an arcade server with real SSH clients on PTYs and reports what it
// costs and how fast it answers. It is a module of its own (tools/arcade-load), not part of the
// arcade's; from the repository's root:
//
//	go -C tools/arcade-load run .                    a small run: floor, idle lobby, play
//	go -C tools/arcade-load run . --sessions 2000 --idle 1000 --duration 60s
//	go -C tools/arcade-load run . --addr 127.0.0.1:2222 --phases play   against a running server
//	go -C tools/arcade-load run . --addr A,B,C --server-pid P,Q,R --pairing cross --phases play
//	                                                 the nodes of a cluster, players across them
//	go -C tools/arcade-load run . --phases churn --churn-duration 2m     hostile clients come and go
//	go -C tools/arcade-load run . --phases rooms-one-key,sessions-one-addr,replay-viewers,leaderboard
//	                                                 what one hostile player can take
//	go -C tools/arcade-load run . --phases web       the web companion: browsers against SSH spectators, page views
//
// go -C runs in tools/arcade-load: relative paths given as flags (--json, --profile,
// --arcade-bin, --data-dir...) are from there.
//
// By default it builds the arcade (./cmd/arcade) and a bare wish + Bubble Tea server (the floor,
// tools/arcade-load/internal/floor) into a temporary folder and runs each as a subprocess on
// 127.0.0.1, so that their CPU time and memory can be read from /proc alone. Four phases, each
// optional (churn only when named in --phases), and the hostile phases:
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
//   - the hostile phases, each only when named in --phases, each on arcades of its own that the
//     tool starts (some on databases it seeds first): rooms-one-key (one key, then one guest,
//     opens rooms until refused), sessions-one-addr (one key from one address holds sessions until
//     refused), replay-viewers (--replay-viewers sessions step through the replay of a long
//     match; the arcade's RSS before, at peak and after) and leaderboard (the arcade's CPU time
//     per "leaderboard" request with --leaderboard-players rated players). A fill ends at any
//     refusal, whose message is reported.
//   - web: the web companion (--http) on a database of --web-players rated players and a long
//     match: a room of two bots watched by --web-viewers browsers (event streams), then another by
//     as many SSH spectators, each for --web-window (the arcade's CPU a move, RSS, goroutines,
//     room subscribers); then --web-requests page views of each kind (the leaderboard's first and
//     hundredth page, the replay at a random move, the leaderboard's JSON): CPU a request, answer.
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
//
// This file reads the command line; the rest is in internal/: config (the options and their
// checks), run (a run: servers, then phases), phase (idle, play, churn and the hostile clients, and the
// hostile phases),
// client and screen (the SSH clients and the screens they follow), drivers (what the tool knows of
// each game), server (the servers it starts or is pointed at), watch (/proc, the disk, the
// collections), stats and report; floor is the floor server.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/arcade/arcade/tools/arcade-load/internal/config"
	"github.com/arcade/arcade/tools/arcade-load/internal/drivers"
	"github.com/arcade/arcade/tools/arcade-load/internal/run"
)

// parseOptions reads the command line into a run's configuration and checks it.
func parseOptions(args []string, errOut io.Writer) (config.Config, error) {
	var o config.Config
	fs := flag.NewFlagSet("arcade-load", flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.StringVar(&o.Addr, "addr", "", "load the arcade already running at this loopback address instead of starting one; several addresses, comma separated, are the nodes of one cluster (--pairing, only --phases play)")
	fs.IntVar(&o.Sessions, "sessions", 200, "sessions in the play phase, two per room")
	fs.IntVar(&o.Idle, "idle", 200, "sessions in the idle phases (floor and lobby)")
	fs.DurationVar(&o.Interval, "interval", 2*time.Second, "each player makes a move this often")
	fs.DurationVar(&o.Duration, "duration", 30*time.Second, "length of the play phase, once every room has started")
	fs.DurationVar(&o.Window, "window", 10*time.Second, "how long idle sessions are measured")
	fs.DurationVar(&o.Settle, "settle", 30*time.Second, "wait after connecting before measuring (idle sessions drop their screen buffers after 5 s, and the memory goes back 10 s later)")
	fs.StringVar(&o.Phases, "phases", "floor,idle,play", "phases to run, in order: floor, idle, play, churn, and the hostile phases rooms-one-key, sessions-one-addr, replay-viewers, leaderboard, web")
	fs.IntVar(&o.ChurnClients, "churn-clients", 32, "clients in the churn phase, in pairs that open rooms, play, misbehave and leave in a loop")
	fs.DurationVar(&o.ChurnDuration, "churn-duration", 15*time.Minute, "length of the churn phase")
	fs.DurationVar(&o.ChurnSettle, "churn-settle", 60*time.Second, "after the churn, wait at most this long for the arcade's sessions, goroutines and open files to come back to the baseline")
	fs.IntVar(&o.Dialers, "dialers", 32, "connections set up at once")
	fs.StringVar(&o.Game, "game", "stonetowers", "game the play phase plays: "+drivers.List()+" (a game whose set-up follows from the seed needs an arcade run with --load-test-seeds, which the tool passes to the arcade it starts)")
	fs.StringVar(&o.DataDir, "data-dir", "", "keep the started arcade's data (its database) in a new folder under this one, e.g. /dev/shm to take the disk's fsync out of the figures (default: the temporary folder)")
	fs.IntVar(&o.Size, "size", 12, "Stone Towers board size")
	fs.IntVar(&o.Turns, "turns", 60, "Stone Towers turns per player (a match lasts turns x interval)")
	fs.StringVar(&o.RoomOpts, "room-options", "", `more options for the rooms the play phase and the churn open, after the game's command: the room's clock, e.g. "clock=off", "clock=60s" (a limit a move) or "clock=10m+5s" (a game clock); without it a match of two keyed players has the arcade's default move limit (2m), and guests' matches are untimed`)
	fs.Var((*config.StringList)(&o.ServerArgs), "server-arg", "an extra flag for the arcade the tool starts (repeat it)")
	fs.Var((*config.StringList)(&o.ServerEnv), "server-env", "an extra KEY=VALUE in the environment of the servers the tool starts, e.g. GOGC=200 (repeat it); the arcade gets GODEBUG=gcshrinkstackoff=1, as deploy/arcade.service sets it, unless a GODEBUG here (or the tool's own) names gcshrinkstackoff")
	fs.StringVar(&o.ArcadeBin, "arcade-bin", "", "arcade binary to start (default: go build ./cmd/arcade in the repository)")
	fs.StringVar(&o.FloorBin, "floor-bin", "", "floor binary to start (default: go build ./internal/floor in tools/arcade-load)")
	fs.BoolVar(&o.Guests, "guests", false, "connect as guests (no key) instead of with one key per client")
	fs.BoolVar(&o.Validate, "validate", false, "also run a full terminal emulator per client and compare screens (small runs)")
	fs.StringVar(&o.JSONPath, "json", "", "also write the results to this file as JSON")
	fs.StringVar(&o.ProfileDir, "profile", "", "save the arcade's CPU and heap profiles of each phase here (needs its metrics endpoint)")
	fs.IntVar(&o.Probes, "probes", 40, "key presses timed in each idle phase")
	fs.BoolVar(&o.Quiet, "quiet", false, "print only the report")
	fs.StringVar(&o.CPUProfile, "cpuprofile", "", "write the load tool's own CPU profile here")
	fs.Var(&o.ServerPID, "server-pid", "with --addr: the server's process ID, to read its CPU and memory from /proc; with several addresses, one ID per address, comma separated (CPU and memory are summed)")
	fs.StringVar(&o.Pairing, "pairing", "same", "with several --addr: same (both players of a room on one node, the rooms spread round robin over the nodes) or cross (the creator on node i, the joiner on node i+1)")
	fs.BoolVar(&o.Timeline, "timeline", false, "log the move latency of every second of the play phase")
	fs.DurationVar(&o.DiskFloor, "disk-floor", 10*time.Second, "measure the disk floor (a bare group commit like the arcade's into bbolt, in the started arcade's data folder, at the play phase's rate of moves) for this long right before and right after the play phase; 0: not at all")
	fs.BoolVar(&o.DiskWatch, "disk-watch", false, "while the play phase is measured, flush a small write in the started arcade's data folder every 20 ms, and report the disk's stalls and the moves over 50 ms under way in one (adds 50 flushes a second to the disk)")
	fs.BoolVar(&o.GCWatch, "gc-watch", false, "start the arcade with gctrace=1 in its GODEBUG, and report its collections while the moves were measured, and the moves over 50 ms under way in one or in the 100 ms after it")
	fs.IntVar(&o.HostileRooms, "hostile-rooms", 2000, "rooms-one-key: the --max-rooms of the arcades it starts, which ends a fill no other limit does")
	fs.IntVar(&o.HostileSessions, "hostile-sessions", 4000, "sessions-one-addr: the --max-sessions of the arcade it starts, which ends a fill no other limit does")
	fs.IntVar(&o.ReplayViewers, "replay-viewers", 400, "replay-viewers: sessions that open the replay of the long match")
	fs.IntVar(&o.ReplayMoves, "replay-moves", 6000, "replay-viewers: the long match's moves at most (a Flic Flac match with limit=2000, which may end before)")
	fs.IntVar(&o.LeaderboardPlayers, "leaderboard-players", 200000, "leaderboard: rated Stone Towers players seeded in the database")
	fs.IntVar(&o.LeaderboardSessions, "leaderboard-sessions", 4, "leaderboard: sessions asking at once")
	fs.IntVar(&o.LeaderboardRequests, "leaderboard-requests", 20, "leaderboard: requests in all, after one alone")
	fs.IntVar(&o.WebViewers, "web-viewers", 1000, "web: browsers watching a room, then SSH spectators of another")
	fs.IntVar(&o.WebPlayers, "web-players", 20000, "web: rated Stone Towers players seeded for the leaderboard's pages")
	fs.IntVar(&o.WebRequests, "web-requests", 500, "web: requests of each kind of page view")
	fs.DurationVar(&o.WebWindow, "web-window", 20*time.Second, "web: how long each room's viewers are measured")
	fs.DurationVar(&o.Keepalive, "keepalive", 0, "idle sessions send an SSH keep-alive this often, as OpenSSH's ServerAliveInterval does (0: none)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return o, o.Check()
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
	ctx, cancel := context.WithTimeout(ctx, o.Bound())
	defer cancel()
	if o.CPUProfile != "" {
		f, err := os.Create(o.CPUProfile)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	logw := io.Writer(os.Stderr)
	if o.Quiet {
		logw = io.Discard
	}
	res, err := run.Run(ctx, o, logw)
	if res != nil {
		res.Print(os.Stdout)
		if o.JSONPath != "" {
			if b, jerr := json.MarshalIndent(res, "", "  "); jerr == nil {
				_ = os.WriteFile(o.JSONPath, b, 0o644)
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
