package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/arcade/arcade/tools/arcade-load/internal/drivers"
)

// TestSeveralNodes checks --addr with several nodes, --server-pid and --pairing (which node each
// player of a room connects to is the play phase's TestPairOpts).
func TestSeveralNodes(t *testing.T) {
	o, err := parseOptions([]string{"--addr", "127.0.0.1:2221,127.0.0.1:2222,127.0.0.1:2223",
		"--server-pid", "11,12,13", "--pairing", "cross", "--phases", "play"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.ServerPID) != 3 || o.ServerPID[2] != 13 {
		t.Errorf("--server-pid: %v", o.ServerPID)
	}
	if a := o.Addrs(); len(a) != 3 || a[1] != "127.0.0.1:2222" || o.Pairing != "cross" {
		t.Errorf("--addr: %v, --pairing %s", a, o.Pairing)
	}
	for _, bad := range [][]string{
		{"--addr", "127.0.0.1:1,127.0.0.1:2", "--server-pid", "1", "--phases", "play"},
		{"--addr", "127.0.0.1:1,10.0.0.1:2", "--phases", "play"},
		{"--addr", "127.0.0.1:1,127.0.0.1:2"}, // the idle phase
		{"--addr", "127.0.0.1:1", "--pairing", "cross", "--phases", "play"},
		{"--addr", "127.0.0.1:1,127.0.0.1:2", "--pairing", "mixed", "--phases", "play"},
	} {
		if _, err := parseOptions(bad, io.Discard); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
	if o, err := parseOptions([]string{"--addr", "127.0.0.1:1", "--server-pid", "42"}, io.Discard); err != nil || len(o.ServerPID) != 1 {
		t.Errorf("one address and one PID: %v %v", o.ServerPID, err)
	}
}

// TestOptions: the tool refuses what it must not do.
func TestOptions(t *testing.T) {
	for _, args := range [][]string{
		{"--addr", "10.0.0.1:22"},
		{"--addr", "example.com:22"},
		{"--sessions", "6000"},
		{"--sessions", "3"},
		{"--duration", "11m"},
		{"--phases", "idle,dance"},
		{"--validate", "--sessions", "2000"},
		{"--game", "chess"},
		{"--disk-floor", "-1s"},
		{"--disk-floor", "11m"},
		{"--room-options", "clock=soon"},
		{"--addr", "127.0.0.1:2222", "--disk-watch"},      // no data folder to watch
		{"--addr", "127.0.0.1:2222", "--gc-watch"},        // no log to read
		{"--addr", "127.0.0.1:2222", "--phases", "churn"}, // no database to read
		{"--phases", "churn", "--churn-clients", "3"},
		{"--phases", "churn", "--churn-duration", "31m"},
		{"--phases", "churn", "--churn-settle", "-1s"},
		{"--addr", "127.0.0.1:2222", "--phases", "leaderboard"}, // it starts arcades of its own
		{"--phases", "rooms-one-key", "--hostile-rooms", "0"},
		{"--phases", "sessions-one-addr", "--hostile-sessions", "6000"},
		{"--phases", "replay-viewers", "--replay-viewers", "0"},
		{"--phases", "replay-viewers", "--replay-moves", "5"},
		{"--phases", "leaderboard", "--leaderboard-players", "1"},
		{"--phases", "leaderboard", "--leaderboard-requests", "0"},
	} {
		if _, err := parseOptions(args, &bytes.Buffer{}); err == nil {
			t.Errorf("%q accepted", args)
		}
	}
	if _, err := parseOptions([]string{"--addr", "127.0.0.1:2222", "--phases", "play"}, &bytes.Buffer{}); err != nil {
		t.Errorf("loopback refused: %v", err)
	}
}

// TestRoomOptionsFlag: --room-options reaches the driver the play phase uses and the run's
// summary, and a room option the tool refuses is refused on the command line.
func TestRoomOptionsFlag(t *testing.T) {
	o, err := parseOptions([]string{"--room-options", "clock=60s", "--size", "8"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	d, err := drivers.For(o.Game, o.Size, o.Turns, o.RoomOpts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.Command(), "new stonetowers size=8 turns=60 clock=60s"; got != want {
		t.Errorf("--room-options clock=60s --size 8: command %q, want %q", got, want)
	}
	if !strings.Contains(o.Summary(), `room-options="clock=60s"`) {
		t.Errorf("the summary does not name the room options: %s", o.Summary())
	}
	for _, bad := range []string{"clock=fast", "size=8", "timer=20s"} {
		if _, err := parseOptions([]string{"--room-options", bad}, io.Discard); err == nil {
			t.Errorf("parseOptions took --room-options %q", bad)
		}
	}
}
