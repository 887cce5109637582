package flicflac

import (
	"errors"
	"strings"
	"testing"
)

// TestTakeBackRestoresFlippedFace: a flipped piece that steps onto black turns upright; taking
// it back puts it on its start hex flipped again, and it may then move again. A flipped piece
// stepping onto a coloured hex stays flipped.
func TestTakeBackRestoresFlippedFace(t *testing.T) {
	s := testState(t)
	g := s.geo
	mid, black, coloured := middleHexes(t, s)
	put(s, 0, Blue, mid, true)
	n := mustPlay(t, s, 0, "B "+g.Name(black))
	if n.pieces[Blue].flipped {
		t.Fatal("a flipped piece stepping onto black is still flipped")
	}
	n = mustPlay(t, n, 0, "u B")
	if p := n.pieces[Blue]; !p.flipped || p.hex != mid || p.moved || n.occ[black] != 0 || n.occ[mid] != int8(Blue)+1 {
		t.Fatalf("after the take-back: %+v", p)
	}
	n = mustPlay(t, n, 0, "B "+g.Name(coloured))
	if !n.pieces[Blue].flipped {
		t.Fatal("a step onto a coloured hex turned the piece upright")
	}
	// Each piece once a turn: moved again, refused, whatever the hex.
	if err := refused(t, n, 0, "B "+g.Name(mid)); !errors.Is(err, ErrMoved) {
		t.Fatalf("a second move: %v", err)
	}
	// The next turn it may move again.
	n = mustPlay(t, n, 0, "end")
	n = mustPlay(t, n, 1, "end")
	mustPlay(t, n, 0, "B "+g.Name(mid))
}

// TestWinCheckedAtEachResolution: the win (target and a lead of 2) is checked at the end of a
// captors' turn as at the end of a turn, and a capture of the mover's own piece can make the
// other side win in the mover's turn.
func TestWinCheckedAtEachResolution(t *testing.T) {
	s := testState(t)
	cyl, blk := s.SeatOf(Cylinder), s.SeatOf(Block)
	capturePair(t, s)
	yc := int(cyl)*Colours + int(Yellow)
	rb := int(blk)*Colours + int(Red)
	s.captures[cyl], s.captures[blk] = 10, 10
	n := mustPlay(t, s, cyl, "end") // 11 - 10: no lead of 2; the yellow cylinder's captors' turn
	if n.over || !n.CaptorsTurn() || n.captures[cyl] != 11 {
		t.Fatalf("11-10: over %v, captors' turn %v, captures %v", n.over, n.CaptorsTurn(), n.captures)
	}
	// The red block comes back beside the yellow cylinder (on a hex touching no other piece);
	// the captors' turn ends with it captured: 12 - 10 wins.
	var at Hex = NoHex
	for _, nb := range n.geo.nbr[n.pieces[yc].hex] {
		if nb == NoHex || n.occ[nb] != 0 || at != NoHex {
			continue
		}
		alone := true
		for _, nb2 := range n.geo.nbr[nb] {
			if nb2 != NoHex && n.occ[nb2] != 0 && int(n.occ[nb2])-1 != yc {
				alone = false
			}
		}
		if alone {
			at = nb
		}
	}
	if at == NoHex {
		t.Fatal("no hex beside the yellow cylinder")
	}
	put(n, blk, Red, at, false)
	if n.Health()[rb] >= 0 {
		t.Fatalf("the red block's health %d", n.Health()[rb])
	}
	w := mustPlay(t, n, cyl, "end")
	if !w.over || w.winner != cyl || w.captures[cyl] != 12 {
		t.Fatalf("12-10 in a captors' turn: over %v, winner %d, captures %v", w.over, w.winner, w.captures)
	}
	// The blocks end their turn with their own red block due: the cylinders score their 11th
	// capture, 11 - 8, and win in the blocks' turn.
	s = testState(t)
	capturePair(t, s)
	s.turn = blk
	s.captures[cyl], s.captures[blk] = 10, 8
	w = mustPlay(t, s, blk, "end")
	if !w.over || w.winner != cyl || w.Outcome().Ranks[cyl] != 1 {
		t.Fatalf("11-8 in the blocks' turn: over %v, winner %d, captures %v", w.over, w.winner, w.captures)
	}
	// The target of the options, not 11: target=3 wins at 3 - 1.
	s = testState(t)
	capturePair(t, s)
	s.cfg.Target = 3
	s.captures[cyl], s.captures[blk] = 2, 1
	if w = mustPlay(t, s, cyl, "end"); !w.over || w.winner != cyl {
		t.Fatalf("3-1 with target 3: over %v, winner %d", w.over, w.winner)
	}
}

// TestEventsAreTold: each random event drawn at the end of a turn is named in the room's log
// (Tell) and in the move list (Annotate), with the colours of its pair where it has one.
func TestEventsAreTold(t *testing.T) {
	told := map[Event]string{TumblingWind: "Tumbling Wind flips every piece", Recall: "Recall sends every ",
		SinkHoles: "Sink Holes send home the pieces on ", HexSlide: "Hex Slide turns the board's colours"}
	seen := map[Event]bool{}
	for seed := range uint64(40) {
		s := testState(t)
		s.seed, s.cfg.EventPercent = seed, 100
		n := mustPlay(t, s, s.turn, "end")
		e := n.last.Event
		seen[e] = true
		tell := s.Tell(s.turn, "end")
		if !strings.Contains(tell, told[e]) {
			t.Errorf("seed %d: %s told as %q", seed, e, tell)
		}
		if e == Recall || e == SinkHoles {
			if p := n.last.Pair; !strings.Contains(tell, p.String()) || !strings.Contains(tell, p.Opposite().String()) {
				t.Errorf("seed %d: %q does not name %s and %s", seed, tell, p, p.Opposite())
			}
		}
		if a := s.Annotate(s.turn, "end"); a != e.String() {
			t.Errorf("seed %d: annotated %q, want %q", seed, a, e)
		}
	}
	if len(seen) != 4 {
		t.Errorf("events drawn: %v", seen)
	}
}
