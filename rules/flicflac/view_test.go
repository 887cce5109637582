package flicflac

import (
	"slices"
	"testing"
)

// TestView: the view shows the board, every piece with its face, colours flown, empowerment,
// health and doom, where the mover's pieces may go, and what the last end did.
func TestView(t *testing.T) {
	s := testState(t)
	ids := cluster(t, s, []spec{{Cylinder, Yellow, false, false}, {Block, Red, false, false}}, [][2]int{{0, 1}})
	cyl, blk := s.SeatOf(Cylinder), s.SeatOf(Block)
	v := s.View(5).(*View)
	if len(v.Hexes) != 169 || v.Side != 8 || v.Target != 11 || v.Limit != 200 || v.TurnSeconds != 20 ||
		v.CaptorSeconds != 10 || v.Turn != cyl || v.TurnNumber != 1 || v.CaptorsTurn || v.Last.Seat != -1 {
		t.Fatalf("view %+v", *v)
	}
	for h, hv := range v.Hexes {
		if hv.Name != s.geo.Name(Hex(h)) || hv.Colour != s.colours[h] || hv.Piece != int(s.occ[h])-1 {
			t.Fatalf("hex %d: %+v", h, hv)
		}
	}
	y, r := v.Pieces[ids[0]], v.Pieces[ids[1]]
	if y.ID != (PieceID{cyl, Yellow}) || y.Shape != Cylinder || y.Flies != [2]Colour{Orange, Red} || y.Health != 1 ||
		y.Doomed || !y.CanMove {
		t.Errorf("yellow cylinder %+v", y)
	}
	if r.ID != (PieceID{blk, Red}) || r.Health != -21 || !r.Doomed || r.CanMove || r.Hex == NoHex {
		t.Errorf("red block %+v", r)
	}
	if p := v.Piece(blk, Blue); p.Hex != NoHex || p.Health != 0 || p.CanMove {
		t.Errorf("blue block at home %+v", p)
	}
	for c := range Colours {
		if !slices.Equal(v.Reach[c], s.Reach(PieceID{cyl, Colour(c)})) || len(v.Reach[c]) == 0 {
			t.Errorf("%s reach %v", Colour(c), v.Reach[c])
		}
	}
	n := mustPlay(t, s, cyl, "end")
	v = n.View(cyl).(*View)
	if !v.CaptorsTurn || v.Last.Captured != 1<<ids[1] || v.Last.Scored[cyl] != 1 || v.Captures[cyl] != 1 {
		t.Fatalf("after the end: %+v", v.Last)
	}
	for c := range Colours {
		p := v.Piece(cyl, Colour(c))
		if p.CanMove != (Colour(c) == Yellow) || p.Captor != (Colour(c) == Yellow) || (len(v.Reach[c]) > 0) != p.CanMove {
			t.Errorf("captors' turn: %s %+v reach %v", Colour(c), p, v.Reach[c])
		}
	}
	// A moved piece shows where it came from.
	to := v.Reach[Yellow][0]
	n = mustPlay(t, n, cyl, "Y "+n.geo.Name(to))
	p := n.ViewOf().Piece(cyl, Yellow)
	if !p.Moved || p.From != s.pieces[ids[0]].hex || p.Hex != to || p.CanMove {
		t.Errorf("moved yellow %+v", p)
	}
	// The captors' turn ends: the turn's report still holds the turn's capture.
	n = mustPlay(t, n, cyl, "end")
	v = n.View(cyl).(*View)
	if v.LastTurn.Captured&(1<<ids[1]) == 0 || v.LastTurn.Scored[cyl] < 1 || !v.Last.CaptorsTurn ||
		v.LastTurn.CaptorsTurn || v.LastTurn.Seat != cyl {
		t.Errorf("the turn's report %+v, the last end's %+v", v.LastTurn, v.Last)
	}
	if got := PiecesIn(1<<ids[1] | 1<<ids[0]); len(got) != 2 || got[0] != (PieceID{cyl, Yellow}) {
		t.Errorf("PiecesIn %v", got)
	}
}
