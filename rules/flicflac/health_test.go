package flicflac

import (
	"errors"
	"testing"
)

// pair is two touching pieces of the seed's tables and examples, with their expected health.
type pair struct {
	name   string
	a, b   spec
	ha, hb int
}

// checkPairs stands each pair, apart from the others, on one board (together) or each on a
// board of its own, and checks every health. It returns the last board.
func checkPairs(t *testing.T, together bool, pairs []pair) *State {
	t.Helper()
	s := testState(t)
	var ids [][]int
	for _, p := range pairs {
		if !together {
			s = testState(t)
		}
		ids = append(ids, cluster(t, s, []spec{p.a, p.b}, [][2]int{{0, 1}}))
		if !together {
			checkHealth(t, s, p, ids[len(ids)-1])
		}
	}
	if together {
		for i, p := range pairs {
			checkHealth(t, s, p, ids[i])
		}
	}
	return s
}

func checkHealth(t *testing.T, s *State, p pair, ids []int) {
	t.Helper()
	h := s.Health()
	if h[ids[0]] != p.ha || h[ids[1]] != p.hb {
		t.Errorf("%s: health %d and %d, want %d and %d", p.name, h[ids[0]], h[ids[1]], p.ha, p.hb)
	}
}

// TestSupporterTable: a friend flying my colour gives +2 when empowered, +1 when not, 0 when it
// does not fly my colour. Blue (upright: green, yellow) supports green; green upright flies
// yellow and orange, not blue.
func TestSupporterTable(t *testing.T) {
	checkPairs(t, false, []pair{
		{"empowered supporter", spec{Block, Blue, false, true}, spec{Block, Green, false, false}, 0, 2},
		{"supporter", spec{Block, Blue, false, false}, spec{Block, Green, false, false}, 0, 1},
		{"not flying my colour", spec{Cylinder, Blue, true, true}, spec{Cylinder, Green, false, true}, 0, 0},
	})
}

// TestDefenderTable: flying the attacker's colour adds +2 empowered, +1 not; not flying it adds
// nothing (and leaves the defender defenceless: -20). Each defender here is hit by an
// attacker, not empowered, flying its colour (-1).
func TestDefenderTable(t *testing.T) {
	checkPairs(t, false, []pair{
		// Yellow block upright flies orange and red; the red cylinder flipped flies yellow.
		{"flying, empowered", spec{Block, Yellow, false, true}, spec{Cylinder, Red, true, false}, 2 - 1, 1 - 2},
		{"flying, not empowered", spec{Block, Yellow, false, false}, spec{Cylinder, Red, true, false}, 1 - 1, 1 - 1},
		// The yellow block flipped flies blue and green, not red: defenceless.
		{"not flying", spec{Block, Yellow, true, true}, spec{Cylinder, Red, true, false}, -1 - 20, 1},
	})
}

// TestAttackerTable: a defender attacked by a piece flying its body colour loses 22 (attacker
// empowered) or 21 when it does not fly the attacker's colour, 2 or 1 when it does; 0 when the
// attacker does not fly its colour. The attacked piece is a purple block; the attacker a blue
// cylinder, flipped (red, purple).
func TestAttackerTable(t *testing.T) {
	checkPairs(t, false, []pair{
		// Purple block upright flies blue and green: it defends (and hits back: blue +k').
		{"defenceless, empowered attacker", spec{Cylinder, Blue, true, true}, spec{Block, Purple, true, false}, 2, -22},
		{"defenceless, attacker not empowered", spec{Cylinder, Blue, true, false}, spec{Block, Purple, true, false}, 1, -21},
		{"defending, empowered attacker", spec{Cylinder, Blue, true, true}, spec{Block, Purple, false, false}, 2 - 1, -2 + 1},
		{"defending, attacker not empowered", spec{Cylinder, Blue, true, false}, spec{Block, Purple, false, false}, 1 - 1, -1 + 1},
		// A blue cylinder upright flies green and yellow, not purple: no attack.
		{"attacker not flying my colour", spec{Cylinder, Blue, false, false}, spec{Block, Purple, true, false}, 0, 0},
	})
}

// TestCombatExample1: the seed's Combat Example 1, pair by pair, every figure as the seed
// gives it; the cylinders end their turn: the red and yellow blocks are captured, and the
// yellow and red cylinders are the captors.
func TestCombatExample1(t *testing.T) {
	s := checkPairs(t, true, []pair{
		// Purple block upright (blue, green); orange cylinder flipped (green, yellow).
		{"purple block, orange cylinder", spec{Block, Purple, false, false}, spec{Cylinder, Orange, true, false}, 0, 0},
		// Yellow cylinder upright (orange, red) attacks the red block, upright (purple, blue).
		{"yellow cylinder, red block", spec{Cylinder, Yellow, false, false}, spec{Block, Red, false, false}, 1, -21},
		// Blue block flipped (red, purple) and purple cylinder upright (blue, green), both
		// empowered.
		{"blue block, purple cylinder", spec{Block, Blue, true, true}, spec{Cylinder, Purple, false, true}, 0, 0},
		// Yellow block upright (orange, red); red cylinder flipped (yellow, orange), empowered.
		{"yellow block, red cylinder", spec{Block, Yellow, false, false}, spec{Cylinder, Red, true, true}, -1, 1},
		// Orange block flipped (green, yellow); green block upright (yellow, orange), empowered.
		{"orange block, green block", spec{Block, Orange, true, false}, spec{Block, Green, false, true}, 2, 1},
		// Green cylinder flipped (purple, blue) and blue cylinder upright (green, yellow), both
		// empowered.
		{"green cylinder, blue cylinder", spec{Cylinder, Green, true, true}, spec{Cylinder, Blue, false, true}, 2, 2},
	})
	cyl, blk := s.SeatOf(Cylinder), s.SeatOf(Block)
	n := mustPlay(t, s, cyl, "end")
	if n.captures[cyl] != 2 || n.captures[blk] != 0 {
		t.Errorf("captures %v, want the cylinders 2", n.captures)
	}
	want := uint16(1)<<(int(blk)*Colours+int(Red)) | 1<<(int(blk)*Colours+int(Yellow))
	if n.last.Captured != want {
		t.Errorf("captured %v, want the red and yellow blocks", PiecesIn(n.last.Captured))
	}
	captors := uint16(1)<<(int(cyl)*Colours+int(Yellow)) | 1<<(int(cyl)*Colours+int(Red))
	if !n.CaptorsTurn() || n.Turn() != cyl || n.may != captors {
		t.Errorf("captors' turn %v for %d, captors %v; want the yellow and red cylinders", n.CaptorsTurn(),
			n.Turn(), PiecesIn(n.may))
	}
	for _, c := range []Colour{Red, Yellow} {
		if p := n.pieces[int(blk)*Colours+int(c)]; p.hex != NoHex || p.flipped {
			t.Errorf("the captured %s block is not at home upright", c)
		}
	}
}

// section11 stands the seed's section 11: a yellow cylinder, flipped (blue, green) and
// empowered, between a blue block upright (green, yellow) and an orange block flipped (green,
// yellow). Yellow cylinder: +2 on the blue block, -1 from it, -1 and -20 from the orange block
// (it does not fly orange) = -20. Blue block: -2 + 1 = -1. Orange block: +1.
func section11(t *testing.T) (*State, []int) {
	s := testState(t)
	ids := cluster(t, s, []spec{{Cylinder, Yellow, true, true}, {Block, Blue, false, false}, {Block, Orange, true, false}},
		[][2]int{{0, 1}, {0, 2}})
	h := s.Health()
	if h[ids[0]] != -20 || h[ids[1]] != -1 || h[ids[2]] != 1 {
		t.Fatalf("health %d %d %d, want -20 -1 1", h[ids[0]], h[ids[1]], h[ids[2]])
	}
	return s, ids
}

// TestCaptorsSection11: both the blue block and the yellow cylinder are captured whoever ends
// the turn; the cylinders' captor is the yellow cylinder (from home), the blocks' the blue block
// (from home) and the orange block (where it stands).
func TestCaptorsSection11(t *testing.T) {
	s, ids := section11(t)
	cyl, blk := s.SeatOf(Cylinder), s.SeatOf(Block)
	n := mustPlay(t, s, cyl, "end")
	if n.last.Captured != 1<<ids[0]|1<<ids[1] || n.captures[cyl] != 1 || n.captures[blk] != 1 {
		t.Fatalf("captured %v, captures %v", PiecesIn(n.last.Captured), n.captures)
	}
	if n.may != 1<<ids[0] || !n.CaptorsTurn() {
		t.Fatalf("the cylinders' captors %v, want the yellow cylinder", PiecesIn(n.may))
	}
	// The yellow cylinder moves from home, onto its edge; nothing else moves.
	v := n.ViewOf()
	if len(v.Reach[Yellow]) == 0 || !v.Piece(cyl, Yellow).CanMove || v.Piece(cyl, Yellow).Hex != NoHex {
		t.Fatalf("the yellow cylinder cannot move from home: %+v", v.Piece(cyl, Yellow))
	}
	if err := refused(t, n, cyl, "B a8"); !errors.Is(err, ErrNotCaptor) {
		t.Fatalf("a non-captor's move: %v", err)
	}
	n = mustPlay(t, n, cyl, "Y "+n.geo.Name(v.Reach[Yellow][0]))
	n = mustPlay(t, n, cyl, "end")
	if n.CaptorsTurn() || n.Turn() != blk {
		t.Fatalf("after the captors' turn: captors' turn %v, turn %d", n.CaptorsTurn(), n.Turn())
	}

	// The blocks ending it: the captors are the blue block (at home now) and the orange block.
	s.turn = blk
	n = mustPlay(t, s, blk, "end")
	if n.may != 1<<ids[1]|1<<ids[2] || n.Turn() != blk {
		t.Fatalf("the blocks' captors %v, want the blue and orange blocks", PiecesIn(n.may))
	}
	orange := n.geo.Name(n.pieces[ids[2]].hex)
	if r := n.Reach(PieceID{blk, Orange}); len(r) == 0 {
		t.Fatalf("the orange block on %s cannot move", orange)
	}
}

// TestCombatExample2: the seed's Combat Example 2 as reconstructed from its text, with the
// algorithm's figures. The seed's own text has the blue block +2 and the red cylinder 0; it
// leaves out the green cylinder's hit on the blue block (-1), and the red cylinder's support
// of the purple cylinder and its hit back on the purple block (the red cylinder, not
// defenceless, must fly purple, or it would lose 20): so the algorithm gives the blue block
// +1, the purple cylinder +2, the red cylinder +1 and the purple block 0 (seed: +2, +1, 0, 1).
// The captures and captors are the seed's: the orange and green cylinders; the green, yellow
// and blue blocks.
func TestCombatExample2(t *testing.T) {
	s := testState(t)
	// Blue cylinder flipped (red, purple): flies nothing it touches. Yellow block upright
	// (orange, red), empowered; green block upright (yellow, orange); orange cylinder flipped
	// (green, yellow).
	a := cluster(t, s, []spec{{Cylinder, Blue, true, false}, {Block, Yellow, false, true},
		{Block, Green, false, false}, {Cylinder, Orange, true, false}},
		[][2]int{{0, 1}, {1, 3}, {2, 3}, {1, 2}})
	// Blue block upright (green, yellow), empowered; green cylinder flipped (purple, blue);
	// purple cylinder flipped (orange, red); red cylinder upright (purple, blue); purple block
	// flipped (orange, red).
	b := cluster(t, s, []spec{{Block, Blue, false, true}, {Cylinder, Green, true, false},
		{Cylinder, Purple, true, false}, {Cylinder, Red, false, false}, {Block, Purple, true, false}},
		[][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}})
	h := s.Health()
	got := []int{h[a[0]], h[a[1]], h[a[2]], h[a[3]], h[b[0]], h[b[1]], h[b[2]], h[b[3]], h[b[4]]}
	want := []int{0, 2, 0, -1, 1, -1, 2, 1, 0}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("health %v, want %v", got, want)
		}
	}
	blk := s.SeatOf(Block)
	s.turn = blk
	n := mustPlay(t, s, blk, "end")
	if n.last.Captured != 1<<a[3]|1<<b[1] {
		t.Errorf("captured %v, want the orange and green cylinders", PiecesIn(n.last.Captured))
	}
	if n.may != 1<<a[1]|1<<a[2]|1<<b[0] {
		t.Errorf("captors %v, want the yellow, green and blue blocks", PiecesIn(n.may))
	}
}
