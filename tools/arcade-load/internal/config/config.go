// Package config is the load tool's run: the options of its command line, their bounds and the
// checks that they go together.
package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arcade/arcade/tools/arcade-load/internal/drivers"
	"github.com/arcade/arcade/tools/arcade-load/internal/server"
)

// Bounds of a run.
const (
	MaxSessions = 5000
	MaxPhase    = 10 * time.Minute
	MaxChurn    = 30 * time.Minute // the churn phase is a soak: it is asked to run for 15 minutes
)

// Config is a run of the tool: its command line, each field the flag of the same name (the tool's
// main has their help).
type Config struct {
	Addr       string
	Sessions   int
	Idle       int
	Interval   time.Duration
	Duration   time.Duration
	Window     time.Duration
	Settle     time.Duration
	Phases     string
	Dialers    int
	Game       string
	DataDir    string
	Size       int
	Turns      int
	RoomOpts   string // more room options, after the game's command (--room-options)
	ServerArgs []string
	ServerEnv  []string
	ArcadeBin  string
	FloorBin   string
	Guests     bool
	Validate   bool
	JSONPath   string
	ProfileDir string
	Probes     int
	Quiet      bool
	CPUProfile string
	Keepalive  time.Duration
	Timeline   bool
	ServerPID  PIDList // with --addr: the servers' process IDs, one per address
	Pairing    string  // with several --addr: "same" or "cross"
	DiskFloor  time.Duration
	DiskWatch  bool
	GCWatch    bool

	ChurnClients  int
	ChurnDuration time.Duration
	ChurnSettle   time.Duration

	// The hostile phases' (PhaseRooms, PhaseSessions, PhaseReplay, PhaseLeaderboard).
	HostileRooms        int
	HostileSessions     int
	ReplayViewers       int
	ReplayMoves         int
	LeaderboardPlayers  int
	LeaderboardSessions int
	LeaderboardRequests int
	WebViewers          int
	WebPlayers          int
	WebRequests         int
	WebWindow           time.Duration
}

// The hostile phases: what one hostile player can take from an arcade. Each starts arcades of its
// own (package phase says how).
const (
	PhaseRooms       = "rooms-one-key"
	PhaseSessions    = "sessions-one-addr"
	PhaseReplay      = "replay-viewers"
	PhaseLeaderboard = "leaderboard"
	PhaseWeb         = "web"
)

// Bounds of the hostile phases.
const (
	MaxHostileRooms    = 20000
	MaxReplayViewers   = MaxSessions
	MaxReplayMoves     = 20000
	MaxLeaderboard     = 1_000_000
	MaxLeaderboardReqs = 1000
)

// hostilePhases are the hostile phases, in the order a run runs them.
var hostilePhases = []string{PhaseRooms, PhaseSessions, PhaseReplay, PhaseLeaderboard, PhaseWeb}

// HasHostile reports whether --phases names a hostile phase.
func (o Config) HasHostile() bool {
	for _, p := range hostilePhases {
		if o.Has(p) {
			return true
		}
	}
	return false
}

// StringList is a flag that may be repeated: each value is added.
type StringList []string

// String lists the values, space separated.
func (l *StringList) String() string { return strings.Join(*l, " ") }

// Set adds v.
func (l *StringList) Set(v string) error { *l = append(*l, v); return nil }

// Check returns what is wrong with the run o describes, or nil: the bounds of a run, loopback
// addresses only, the options that go together.
func (o Config) Check() error {
	switch {
	case o.Sessions < 2 || o.Sessions%2 != 0 || o.Sessions > MaxSessions:
		return fmt.Errorf("--sessions must be even, from 2 to %d", MaxSessions)
	case o.Idle < 1 || o.Idle > MaxSessions:
		return fmt.Errorf("--idle must be from 1 to %d", MaxSessions)
	case o.Duration <= 0 || o.Duration > MaxPhase || o.Window <= 0 || o.Window > MaxPhase || o.Settle < 0 || o.Settle > MaxPhase:
		return fmt.Errorf("--duration, --window and --settle must be positive and at most %v", MaxPhase)
	case o.DiskFloor < 0 || o.DiskFloor > MaxPhase:
		return fmt.Errorf("--disk-floor must be from 0 to %v", MaxPhase)
	case o.Addr != "" && (o.DiskWatch || o.GCWatch):
		return errors.New("--disk-watch and --gc-watch need an arcade the tool starts: not with --addr")
	case !drivers.Valid(o.Game):
		return fmt.Errorf("--game %q: use %s", o.Game, drivers.List())
	case o.Interval < 20*time.Millisecond || o.Interval > time.Minute:
		return errors.New("--interval must be from 20ms to 1m")
	case o.Keepalive < 0 || (o.Keepalive > 0 && o.Keepalive < 100*time.Millisecond):
		return errors.New("--keepalive must be 0 or at least 100ms")
	case o.Dialers < 1 || o.Dialers > 256:
		return errors.New("--dialers must be from 1 to 256")
	case o.Validate && (o.Sessions > 100 || o.Idle > 100 || (o.Has("churn") && o.ChurnClients > 100)):
		return errors.New("--validate is for small runs: at most 100 sessions")
	case o.ChurnClients < 2 || o.ChurnClients%2 != 0 || o.ChurnClients > MaxSessions:
		return fmt.Errorf("--churn-clients must be even, from 2 to %d", MaxSessions)
	case o.ChurnDuration <= 0 || o.ChurnDuration > MaxChurn:
		return fmt.Errorf("--churn-duration must be positive and at most %v", MaxChurn)
	case o.ChurnSettle < 0 || o.ChurnSettle > MaxPhase:
		return fmt.Errorf("--churn-settle must be from 0 to %v", MaxPhase)
	case o.Addr != "" && o.Has("churn"):
		return errors.New("--phases churn needs an arcade the tool starts (it reads the arcade's metrics and, once it has stopped it, its database): not with --addr")
	case o.Addr != "" && o.HasHostile():
		return errors.New("the hostile phases start arcades of their own (with their limits, some on seeded databases): not with --addr")
	case o.HostileRooms < 1 || o.HostileRooms > MaxHostileRooms:
		return fmt.Errorf("--hostile-rooms must be from 1 to %d", MaxHostileRooms)
	case o.HostileSessions < 1 || o.HostileSessions > MaxSessions:
		return fmt.Errorf("--hostile-sessions must be from 1 to %d", MaxSessions)
	case o.ReplayViewers < 1 || o.ReplayViewers > MaxReplayViewers:
		return fmt.Errorf("--replay-viewers must be from 1 to %d", MaxReplayViewers)
	case o.ReplayMoves < 10 || o.ReplayMoves > MaxReplayMoves:
		return fmt.Errorf("--replay-moves must be from 10 to %d", MaxReplayMoves)
	case o.LeaderboardPlayers < 2 || o.LeaderboardPlayers > MaxLeaderboard:
		return fmt.Errorf("--leaderboard-players must be from 2 to %d", MaxLeaderboard)
	case o.LeaderboardSessions < 1 || o.LeaderboardSessions > 256:
		return errors.New("--leaderboard-sessions must be from 1 to 256")
	case o.LeaderboardRequests < 1 || o.LeaderboardRequests > MaxLeaderboardReqs:
		return fmt.Errorf("--leaderboard-requests must be from 1 to %d", MaxLeaderboardReqs)
	case o.WebViewers < 1 || o.WebViewers > MaxSessions || o.WebPlayers < 2 || o.WebPlayers > MaxLeaderboard ||
		o.WebRequests < 1 || o.WebRequests > 100_000 || o.WebWindow <= 0 || o.WebWindow > MaxPhase:
		return fmt.Errorf("--web-viewers (1 to %d), --web-players (2 to %d), --web-requests (1 to 100000) and --web-window (up to %v) are out of bounds", MaxSessions, MaxLeaderboard, MaxPhase)
	}
	if err := drivers.CheckRoomOptions(o.RoomOpts); err != nil {
		return err
	}
	for _, p := range strings.Split(o.Phases, ",") {
		switch p = strings.TrimSpace(p); {
		case p == "floor", p == "idle", p == "play", p == "churn", slices.Contains(hostilePhases, p):
		default:
			return fmt.Errorf("unknown phase %q: use floor, idle, play, churn, %s", p, strings.Join(hostilePhases, ", "))
		}
	}
	addrs := o.Addrs()
	for _, a := range addrs {
		if err := server.CheckLoopback(a); err != nil {
			return err
		}
	}
	switch {
	case o.Pairing != "same" && o.Pairing != "cross":
		return fmt.Errorf("--pairing %q: use same or cross", o.Pairing)
	case len(o.ServerPID) > 0 && len(o.ServerPID) != max(1, len(addrs)):
		return fmt.Errorf("--server-pid: %d process IDs for %d addresses", len(o.ServerPID), len(addrs))
	case len(addrs) > 1 && (o.Has("idle") || o.Has("churn")):
		return errors.New("several --addr: only the play phase (--phases play, or floor,play)")
	case len(addrs) < 2 && o.Pairing != "same":
		return errors.New("--pairing cross needs several --addr")
	}
	return nil
}

// Addrs returns the addresses of --addr, nil when the tool starts the arcade.
func (o Config) Addrs() []string {
	if o.Addr == "" {
		return nil
	}
	var out []string
	for a := range strings.SplitSeq(o.Addr, ",") {
		out = append(out, strings.TrimSpace(a))
	}
	return out
}

// PIDList is --server-pid: process IDs, comma separated.
type PIDList []int

// String lists the IDs as the flag takes them.
func (l *PIDList) String() string {
	var s []string
	for _, p := range *l {
		s = append(s, fmt.Sprint(p))
	}
	return strings.Join(s, ",")
}

// Set reads the IDs, comma separated, in place of any before.
func (l *PIDList) Set(v string) error {
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

// Has reports whether --phases names phase.
func (o Config) Has(phase string) bool {
	for _, p := range strings.Split(o.Phases, ",") {
		if strings.TrimSpace(p) == phase {
			return true
		}
	}
	return false
}

// Bound is the longest a run may take; the tool gives up after it.
func (o Config) Bound() time.Duration {
	setup := time.Duration(o.Sessions+2*o.Idle)*20*time.Millisecond + 3*time.Minute
	d := setup + o.Duration + 2*(o.Window+o.Settle) + 2*o.DiskFloor + 2*time.Minute
	if o.Has("churn") {
		d += o.ChurnDuration + 2*o.ChurnSettle + 3*time.Minute // its last episodes, the warm-up, the check
	}
	if o.HasHostile() {
		// A phase each, and a generous 10 ms for each player seeded and each viewer.
		d += time.Duration(len(hostilePhases))*MaxPhase + o.Settle +
			time.Duration(o.LeaderboardPlayers+o.ReplayViewers+o.WebPlayers+o.WebViewers)*10*time.Millisecond
	}
	return d
}

// hostileSummary is the options of the hostile phases o names, each after a space; with the
// options those phases share with others (--dialers, and for the arcades they start, --data-dir
// and the server's flags and environment).
func (o Config) hostileSummary() string {
	if !o.HasHostile() {
		return ""
	}
	s := fmt.Sprintf(" dialers=%d", o.Dialers)
	if o.Has(PhaseRooms) {
		s += fmt.Sprintf(" hostile-rooms=%d", o.HostileRooms)
	}
	if o.Has(PhaseSessions) {
		s += fmt.Sprintf(" hostile-sessions=%d", o.HostileSessions)
	}
	if o.Has(PhaseReplay) {
		s += fmt.Sprintf(" replay-viewers=%d replay-moves=%d settle=%v", o.ReplayViewers, o.ReplayMoves, o.Settle)
	}
	if o.Has(PhaseLeaderboard) {
		s += fmt.Sprintf(" leaderboard-players=%d leaderboard-sessions=%d leaderboard-requests=%d", o.LeaderboardPlayers, o.LeaderboardSessions, o.LeaderboardRequests)
	}
	if o.Has(PhaseWeb) {
		s += fmt.Sprintf(" web-viewers=%d web-players=%d web-requests=%d web-window=%v", o.WebViewers, o.WebPlayers, o.WebRequests, o.WebWindow)
	}
	if o.Has("floor") || o.Has("idle") || o.Has("play") || o.Has("churn") {
		return s // the rest is in the summary already
	}
	if o.DataDir != "" {
		s += " data-dir=" + o.DataDir
	}
	if len(o.ServerArgs) > 0 {
		s += " server-args=" + strings.Join(o.ServerArgs, " ")
	}
	if len(o.ServerEnv) > 0 {
		s += " server-env=" + strings.Join(o.ServerEnv, " ")
	}
	return s
}

// Summary is the run's options as the report prints them.
func (o Config) Summary() string {
	s := "phases=" + o.Phases
	if !o.Has("floor") && !o.Has("idle") && !o.Has("play") && !o.Has("churn") {
		return s + o.hostileSummary()
	}
	s += fmt.Sprintf(" game=%s sessions=%d idle=%d interval=%v duration=%v window=%v",
		o.Game, o.Sessions, o.Idle, o.Interval, o.Duration, o.Window)
	if drivers.TakesOption(o.Game, "size") {
		s += fmt.Sprintf(" size=%d turns=%d", o.Size, o.Turns)
	}
	if o.RoomOpts != "" {
		s += fmt.Sprintf(" room-options=%q", o.RoomOpts)
	}
	if o.Addr != "" {
		s += " addr=" + o.Addr
		if len(o.Addrs()) > 1 {
			s += " pairing=" + o.Pairing
		}
	}
	if o.DataDir != "" {
		s += " data-dir=" + o.DataDir
	}
	if o.DiskFloor > 0 && o.Addr == "" {
		s += fmt.Sprintf(" disk-floor=%v", o.DiskFloor)
	}
	if o.DiskWatch { // refused with --addr, as is --gc-watch
		s += " disk-watch"
	}
	if o.GCWatch {
		s += " gc-watch"
	}
	if len(o.ServerArgs) > 0 {
		s += " server-args=" + strings.Join(o.ServerArgs, " ")
	}
	if len(o.ServerEnv) > 0 {
		s += " server-env=" + strings.Join(o.ServerEnv, " ")
	}
	if o.Guests {
		s += " guests"
	}
	s += o.hostileSummary()
	if o.Has("churn") {
		s += fmt.Sprintf(" churn-clients=%d churn-duration=%v churn-settle=%v", o.ChurnClients, o.ChurnDuration, o.ChurnSettle)
	}
	return s
}
