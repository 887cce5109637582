package drivers

import (
	"math/rand/v2"
	"testing"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
)

// TestPickMoveAsLegal: the driver's shortcut picks the move that RandomMove with the same
// random numbers would, through a whole match.
func TestPickMoveAsLegal(t *testing.T) {
	d := newStonetowers(rules.Options{"size": "12", "turns": "60"})
	state, err := d.Engine("ABCDE", 1)
	if err != nil {
		t.Fatal(err)
	}
	fast, slow := rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(1, 2))
	plies := 0
	for !state.Outcome().Over {
		seat := state.ToMove()[0]
		got, want := d.PickMove(state, seat, fast), RandomMove(state, seat, slow)
		if got != want {
			t.Fatalf("ply %d: picked %q, want %q", plies, got, want)
		}
		if state, err = state.Apply(seat, got); err != nil {
			t.Fatal(err)
		}
		plies++
	}
	if _, ok := state.(*stonetowers.State); !ok || plies != 120 {
		t.Fatalf("%d plies of %T", plies, state)
	}
}
