package drivers

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arcade/arcade/games"
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

// TestEveryGameHasADriver: every game of the arcade's catalogue has a driver, which opens a room of
// its game and follows a match to its end, with a marker after every move.
func TestEveryGameHasADriver(t *testing.T) {
	for _, e := range games.All() {
		g := e.Game
		if !Valid(g.ID) {
			t.Errorf("%s has no driver", g.ID)
			continue
		}
		d, err := For(g.ID, 12, 60, "")
		if err != nil {
			t.Fatal(err)
		}
		if cmd := d.Command(); !strings.HasPrefix(cmd+" ", "new "+g.ID+" ") {
			t.Errorf("%s: the driver opens rooms with %q", g.ID, cmd)
		}
		state, err := d.Engine("ABCDE", 1)
		if err != nil {
			t.Fatalf("%s: the driver's engine: %v", g.ID, err)
		}
		if state.Game() != g.ID || d.StartMarker(state) == "" {
			t.Errorf("%s: the driver builds a match of %s with start marker %q", g.ID, state.Game(), d.StartMarker(state))
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for !state.Outcome().Over {
			seat := state.ToMove()[0]
			if state, err = state.Apply(seat, d.PickMove(state, seat, rng)); err != nil {
				t.Fatalf("%s: the driver picks a move the engine refuses: %v", g.ID, err)
			}
			if d.Marker(state, "ann") == "" {
				t.Fatalf("%s: no marker after a move", g.ID)
			}
		}
	}
	for id := range byGame {
		if _, ok := games.Find(id); !ok {
			t.Errorf("a driver for %s, which the catalogue does not have", id)
		}
	}
	if _, err := For("chess", 12, 60, ""); err == nil {
		t.Error("a driver for chess")
	}
}
