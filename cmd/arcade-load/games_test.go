package main

import (
	"math/rand/v2"
	"testing"

	"github.com/arcade/arcade/rules/stonetowers"
)

// TestPickMoveAsLegal: the tool's shortcut for Stone Towers picks the move that a pick from
// Legal with the same random numbers would, through a whole match.
func TestPickMoveAsLegal(t *testing.T) {
	d := stoneDriver{size: 12, turns: 60}
	state, err := d.engine("ABCDE", 1)
	if err != nil {
		t.Fatal(err)
	}
	fast, slow := rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(1, 2))
	plies := 0
	for !state.Outcome().Over {
		seat := state.ToMove()[0]
		legal := state.Legal(seat)
		got, want := pickMove(state, seat, fast), legal[slow.IntN(len(legal))]
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
