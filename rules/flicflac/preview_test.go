package flicflac

import (
	"reflect"
	"testing"
)

// previewSetup stands the rules' worked example one step from happening: the red cylinder,
// flipped, next to a red hex that touches the upright yellow block, but not touching the block
// yet. It returns the state and the red hex.
func previewSetup(t *testing.T) (*State, Hex) {
	t.Helper()
	s := testState(t)
	for r := range Hex(s.geo.NumHexes()) {
		if s.colours[r] != Red {
			continue
		}
		for _, y := range s.geo.nbr[r] {
			for _, x := range s.geo.nbr[r] {
				if x == NoHex || y == NoHex || x == y || s.geo.Adjacent(x, y) {
					continue
				}
				put(s, 1, Yellow, y, false)
				put(s, 0, Red, x, true)
				return s, r
			}
		}
	}
	t.Fatal("no red hex with two neighbours apart")
	return nil, NoHex
}

// TestPreviewSeedExample: the rules' example "(Rc)(Yb)": moving the flipped red cylinder onto a
// red hex beside the yellow block would leave red at +1 and yellow at -1, due to be captured.
// The preview says so before the move, from the state and from its view alike, and changes
// neither.
func TestPreviewSeedExample(t *testing.T) {
	s, r := previewSetup(t)
	before := *s
	got, ok := s.Preview(Red, r)
	want := []HealthChange{
		{Piece: PieceID{0, Red}, Before: 0, After: 1},
		{Piece: PieceID{1, Yellow}, Before: 0, After: -1, Doomed: true},
	}
	if !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("Preview(R, %s) = %+v, %v; want %+v", s.geo.Name(r), got, ok, want)
	}
	if *s != before {
		t.Fatal("Preview changed the state")
	}
	v := s.ViewOf()
	if vg, ok := v.Preview(Red, r); !ok || !reflect.DeepEqual(vg, want) {
		t.Fatalf("View.Preview = %+v, %v; want %+v", vg, ok, want)
	}
	// The move itself gives what the preview said.
	n := mustPlay(t, s, 0, "R "+s.geo.Name(r))
	if h := n.Health(); h[PieceID{0, Red}.id()] != 1 || h[PieceID{1, Yellow}.id()] != -1 {
		t.Fatalf("after the move: red %+d, yellow %+d", h[PieceID{0, Red}.id()], h[PieceID{1, Yellow}.id()])
	}
}

// TestPreviewEntering: a piece entering from home is previewed as entering; a move that is not
// legal (a hex out of reach, the other player's piece, a moved piece) has no preview.
func TestPreviewEntering(t *testing.T) {
	s := testState(t)
	v := s.ViewOf()
	to := v.Reach[Blue][0]
	got, ok := v.Preview(Blue, to)
	if !ok || len(got) != 1 || !got[0].Entering || got[0].Piece != (PieceID{0, Blue}) || got[0].After != 0 {
		t.Fatalf("entering preview = %+v, %v", got, ok)
	}
	if _, ok := v.Preview(Blue, hex(t, s, "h8")); ok {
		t.Error("a preview of a hex out of reach")
	}
	n := mustPlay(t, s, 0, "B "+s.geo.Name(to))
	nv := n.ViewOf()
	if _, ok := nv.Preview(Blue, nv.Reach[Green][0]); ok {
		t.Error("a preview of a piece that has moved")
	}
}
