package main

import (
	"io"
	"strings"
	"testing"
)

// TestRoomOptions checks the command line the play phase opens its rooms with, --room-options
// after the game's own, and which options the tool refuses.
func TestRoomOptions(t *testing.T) {
	for _, c := range []struct{ game, opts, want string }{
		{"stonetowers", "", "new stonetowers size=12 turns=60"},
		{"stonetowers", "clock=60s", "new stonetowers size=12 turns=60 clock=60s"},
		{"stonetowers", "  clock=10m+5s ", "new stonetowers size=12 turns=60 clock=10m+5s"},
		{"stonetowers", "clock=off", "new stonetowers size=12 turns=60 clock=off"},
	} {
		d, err := gameDriver(c.game, 12, 60, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Command(); got != c.want {
			t.Errorf("%s with %q: command %q, want %q", c.game, c.opts, got, c.want)
		}
		if err := checkRoomOptions(c.opts); err != nil {
			t.Errorf("%s with %q: %v", c.game, c.opts, err)
		}
	}
	// The flag reaches the driver the play phase uses, and the run's summary.
	o, err := parseOptions([]string{"--room-options", "clock=60s", "--size", "8"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	d, err := gameDriver(o.game, o.size, o.turns, o.roomOpts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.Command(), "new stonetowers size=8 turns=60 clock=60s"; got != want {
		t.Errorf("--room-options clock=60s --size 8: command %q, want %q", got, want)
	}
	if !strings.Contains(o.summary(), `room-options="clock=60s"`) {
		t.Errorf("the summary does not name the room options: %s", o.summary())
	}
	for _, bad := range []string{
		"clock=fast",   // not a clock
		"clock=1s",     // under the least
		"clock",        // no value
		"size=8",       // the game's option: --size
		"bots=1",       // a bot would take a seat
		"timer=20s",    // Flic Flac's rules: the tool's engine would not follow
		"clock=60s x=", // one bad word spoils the line
	} {
		if err := checkRoomOptions(bad); err == nil {
			t.Errorf("--room-options %q accepted", bad)
		}
		if _, err := parseOptions([]string{"--room-options", bad}, io.Discard); err == nil {
			t.Errorf("parseOptions took --room-options %q", bad)
		}
	}
}
