package drivers

import (
	"testing"
)

// TestRoomOptions checks the command line the play phase opens its rooms with, --room-options
// after the game's own, and which room options the tool refuses.
func TestRoomOptions(t *testing.T) {
	for _, c := range []struct{ game, opts, want string }{
		{"stonetowers", "", "new stonetowers size=12 turns=60"},
		{"stonetowers", "clock=60s", "new stonetowers size=12 turns=60 clock=60s"},
		{"stonetowers", "  clock=10m+5s ", "new stonetowers size=12 turns=60 clock=10m+5s"},
		{"stonetowers", "clock=off", "new stonetowers size=12 turns=60 clock=off"},
	} {
		d, err := For(c.game, 12, 60, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Command(); got != c.want {
			t.Errorf("%s with %q: command %q, want %q", c.game, c.opts, got, c.want)
		}
		if err := CheckRoomOptions(c.opts); err != nil {
			t.Errorf("%s with %q: %v", c.game, c.opts, err)
		}
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
		if err := CheckRoomOptions(bad); err == nil {
			t.Errorf("--room-options %q accepted", bad)
		}
	}
}
