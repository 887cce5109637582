package drivers

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/arcade/arcade/games/flicflacview"
	"github.com/arcade/arcade/games/gametest"
	"github.com/arcade/arcade/rules/flicflac"
	"github.com/arcade/arcade/session/draw"
)

// TestMarkerChanges: the Flic Flac driver's marker, one of the board view's panel lines, is on the
// panel the board view draws, and changes with every move the driver picks.
func TestMarkerChanges(t *testing.T) {
	const panelWidth = 28 // the room's side panel at 80 x 24
	var d flicflacDriver
	state, err := d.Engine("FL1CF", 1)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	prev := d.StartMarker(state)
	b := flicflacview.NewBoard()
	for i := 0; i < 300 && !state.Outcome().Over; i++ {
		seat := state.ToMove()[0]
		mv := d.PickMove(state, seat, rng)
		if state, err = state.Apply(seat, mv); err != nil {
			t.Fatal(err)
		}
		m := d.Marker(state, "bob")
		if m == prev && m != GameOver {
			t.Fatalf("move %d %q left the marker %q", i, mv, m)
		}
		snap := gametest.Snapshot("FL1CF", flicflac.Game, state, nil, []string{"ann", "bob"}, nil)
		var panel []string
		for _, l := range b.Status(&snap, *draw.NewStyles(true, false), panelWidth) {
			panel = append(panel, strings.TrimRight(ansi.Strip(l), " "))
		}
		if m != GameOver && !strings.Contains(strings.Join(panel, "\n"), m) {
			t.Fatalf("the marker %q is not on the panel:\n%s", m, strings.Join(panel, "\n"))
		}
		prev = m
	}
}
