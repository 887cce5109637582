package lhexicon

import (
	"context"
	"testing"

	"github.com/arcade/arcade/rules"
)

// hintOf is the hint of seat's view of s.
func hintOf(s *State, seat rules.Seat) (Candidate, bool) {
	v := s.ViewOf(seat)
	return v.Hint(context.Background())
}

// TestHintIsLegal: a hint from the viewer's view is a legal play of their rack on the board and
// scores what it says, from the first play (on an empty board) to the middle game; a spectator's
// view, which has no rack, gets none.
func TestHintIsLegal(t *testing.T) {
	for i, plies := range []int{0, 4, 12, 20} {
		s := position(t, uint64(500+i), plies)
		seat := s.Turn()
		v := s.ViewOf(seat)
		c, ok := v.Hint(context.Background())
		if !ok {
			t.Fatalf("%d plies: no hint for rack %v", plies, v.Rack)
		}
		p, err := s.checkPlay(seat, c.Move)
		if err != nil || !p.valid || p.score != c.Score {
			t.Fatalf("%d plies: hint %v (score %d) is not a play: %v %+v", plies, c.Move, c.Score, err, p)
		}
		if _, err := s.ApplyMove(seat, c.Move); err != nil {
			t.Fatalf("%d plies: hint %v refused: %v", plies, c.Move, err)
		}
	}
	s := position(t, 500, 4)
	if _, ok := hintOf(s, -1); ok {
		t.Error("a spectator got a hint")
	}
}

// TestHintSeesOnlyTheViewer: the hint is made from what the viewer sees, their rack and the
// board: another player's rack and the bank's order change nothing.
func TestHintSeesOnlyTheViewer(t *testing.T) {
	s := position(t, 510, 8)
	seat := s.Turn()
	want, ok := hintOf(s, seat)
	if !ok {
		t.Fatal("no hint")
	}
	o := *s
	other := 1 - seat
	setRack(t, &o, other, "zzqu??e")
	for i, j := 0, o.nbag-1; i < j; i, j = i+1, j-1 {
		o.bag[i], o.bag[j] = o.bag[j], o.bag[i]
	}
	got, ok := hintOf(&o, seat)
	if !ok || got.Move.String() != want.Move.String() || got.Score != want.Score {
		t.Errorf("the hint changed with what the viewer cannot see: %v (%d), was %v (%d)", got.Move, got.Score,
			want.Move, want.Score)
	}
}

// TestHintIsBestOfASmallSearch: on a small rack the hint's search finishes within its budget, and
// the hint is then the best play there is (Greedy's).
func TestHintIsBestOfASmallSearch(t *testing.T) {
	s := position(t, 520, 6)
	seat := s.Turn()
	setRack(t, s, seat, "eas")
	best, ok := s.BestPlay(context.Background(), seat, nil)
	hint, hok := hintOf(s, seat)
	if !ok || !hok || hint.Score != best.Score {
		t.Errorf("hint %v (%d, %v), best %v (%d, %v)", hint.Move, hint.Score, hok, best.Move, best.Score, ok)
	}
}
