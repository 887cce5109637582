package discon

import (
	"slices"
	"strings"
	"testing"

	"github.com/arcade/arcade/rules"
)

func TestTurnIsTwoMoves(t *testing.T) {
	s := bare(t, Premium, 2).put(0, 1, "e5", "").lay("g6", "P").lay("h8", "P").lay("j1", "V")
	refuse(t, s, 0, "end", "you have a legal move, so you may not pass", nil)
	s = play(t, s, "1 g6")
	if s.turn != 0 || s.MovesLeft() != 1 || s.ViewOf(0).FirstPiece != 1 {
		t.Fatalf("after one move: turn %d, %d moves left", s.turn, s.MovesLeft())
	}
	refuse(t, s, 0, "end", "a turn is two moves", nil)
	s = play(t, s, "1 e5") // the same piece again
	if s.turn != 1 || s.MovesLeft() != 2 || !slices.Equal(s.ToMove(), []rules.Seat{1}) {
		t.Fatalf("after two moves: turn %d, %d moves left", s.turn, s.MovesLeft())
	}
	if got := s.Scores(); !slices.Equal(got, []int{4, 0}) {
		t.Errorf("scores %v", got)
	}
	if o := s.Outcome(); o.Over || o.Ranks != nil {
		t.Errorf("outcome %+v while playing", o)
	}
}

func TestLeaveTowerBehind(t *testing.T) {
	s := bare(t, Premium, 2).put(0, 1, "e5", "PP").put(1, 1, "c4", "P").lay("g6", "I").lay("j1", "V")
	s = play(t, s, "1 e5-g6*")
	if letters(s.floor[sq("e5")]) != "PP" || letters(s.pieces[0][0].tower) != "I" {
		t.Fatalf("after leaving: e5 holds %s, the piece %s", letters(s.floor[sq("e5")]),
			letters(s.pieces[0][0].tower))
	}
	if s.loose != 3 {
		t.Errorf("%d discs on the floor, want 3", s.loose)
	}
	if s.Scores()[0] != 8 {
		t.Errorf("Red scores %d: an ownerless stack is worth nothing", s.Scores()[0])
	}
	s = play(t, s, "2 a1-b3")
	// Green collects the ownerless stack onto its own tower.
	s = play(t, s, "1 c4-e5")
	if letters(s.pieces[1][0].tower) != "PPP" || s.floor[sq("e5")] != "" {
		t.Errorf("Green's tower %s", letters(s.pieces[1][0].tower))
	}
	if s.Scores()[1] != 12 {
		t.Errorf("Green scores %d", s.Scores()[1])
	}
	v := s.ViewOf(rules.Spectator)
	if got := v.Squares[sq("e5")].Pieces; !slices.Equal(got, []PieceID{{1, 1}}) {
		t.Errorf("e5 shows %v", got)
	}
}

func TestHomeZones(t *testing.T) {
	s := bare(t, Premium, 2).put(0, 1, "f7", "").lay("h8", "I").lay("a5", "V")
	in := play(t, s, "1 f7-h8") // into Green's zone with the first move
	const msg = "piece 1 may not end the turn in Green's home zone"
	refuse(t, in, 0, "2 a1-b3", msg, nil)
	refuse(t, in, 0, "end", msg, nil)
	refuse(t, in, 0, "pass", msg, nil)
	refuse(t, in, 0, "1 h8-j9", msg, nil)
	for _, m := range in.Legal(0) {
		if !strings.HasPrefix(m, "1 h8-") {
			t.Errorf("legal second move %s leaves piece 1 in the zone", m)
		}
	}
	out := play(t, in, "1 h8-f7") // and out with the second: fine
	if out.turn != 1 || letters(out.pieces[0][0].tower) != "I" {
		t.Errorf("after in and out: turn %d, tower %s", out.turn, letters(out.pieces[0][0].tower))
	}
	// Into the zone with the second move: refused.
	refuse(t, play(t, s, "2 a1-b3"), 0, "1 f7-h8", msg, nil)
	// Own zone: fine.
	play(t, s, "2 a1-b3", "3 a1-c2")
	// An unused corner's zone is open: with 3 players a10 is nobody's home.
	s3 := bare(t, Premium, 3).put(0, 1, "c7", "").lay("b9", "V").lay("e5", "V")
	s3 = play(t, s3, "1 c7-b9", "2 a1-b3")
	if s3.turn != 1 || s3.pieces[0][0].sq != sq("b9") {
		t.Errorf("unused zone: turn %d, piece on %s", s3.turn, s3.pieces[0][0].sq)
	}
	// With 3 players Green's home is j1.
	s3 = bare(t, Premium, 3).put(0, 1, "g4", "").lay("h2", "V").lay("e5", "V")
	refuse(t, play(t, s3, "2 a1-b3"), 0, "1 g4-h2", "may not end the turn in Green's home zone", nil)
}

func TestNoSecondMoveEndsTurn(t *testing.T) {
	// Red's pieces all on a1; Green's block every square they could reach after 1 a1-b3.
	s := bare(t, Premium, 2).lay("e5", "V")
	for i, q := range []string{"c2", "c1", "d2", "d4", "c5", "a5"} {
		s.put(1, i+1, q, "")
	}
	s = play(t, s, "1 a1-b3")
	if s.turn != 1 || s.MovesLeft() != 2 {
		t.Fatalf("turn %d, %d moves left", s.turn, s.MovesLeft())
	}
	if v := s.ViewOf(0); v.Note != "Red had no legal second move." {
		t.Errorf("note %q", v.Note)
	}
}

func TestNoMovePassesOver(t *testing.T) {
	// Four players: Green's pieces are all on j1 and Yellow's stand on both ways out.
	s := bare(t, Premium, 4).put(2, 1, "h2", "").put(2, 2, "i3", "").lay("e5", "V")
	s = play(t, s, "1 a1-b3", "1 b3-d4")
	if s.turn != 2 {
		t.Fatalf("turn %d, want Yellow", s.turn)
	}
	v := s.ViewOf(rules.Spectator)
	if v.Note != "Green had no legal move and passed." || v.QuietTurns != 2 {
		t.Errorf("note %q, quiet turns %d", v.Note, v.QuietTurns)
	}
	refuse(t, s, 1, "pass", "not your turn", rules.ErrNotYourTurn)
}

func TestEndWhenAllCollected(t *testing.T) {
	s := bare(t, Premium, 2).lay("b3", "I")
	s = play(t, s, "1 a1-b3")
	o := s.Outcome()
	if !o.Over || o.Reason != "every disc is in a tower" || !slices.Equal(o.Scores, []int{8, 0}) ||
		!slices.Equal(o.Ranks, []int{1, 2}) {
		t.Fatalf("outcome %+v", o)
	}
	if len(s.ToMove()) != 0 || len(s.Legal(0)) != 0 || s.MovesLeft() != 0 || s.Turn() != -1 {
		t.Error("moves after the end")
	}
	refuse(t, s, 0, "1 b3-d4", "the game is over", rules.ErrGameOver)
	// Not while a piece stands in an opponent's zone: the turn goes on.
	s = bare(t, Premium, 2).put(0, 1, "f7", "").lay("h8", "I")
	s = play(t, s, "1 f7-h8")
	if s.over {
		t.Fatal("over with Red's piece in Green's zone")
	}
	if s = play(t, s, "1 h8-f7"); !s.over {
		t.Error("not over when every disc is carried")
	}
}

func TestAntiStall(t *testing.T) {
	s := bare(t, Premium, 2).lay("e5", "V")
	red := [][2]string{{"1 a1-b3", "1 b3-d4"}, {"1 d4-b3", "1 b3-d4"}}
	green := [][2]string{{"1 j10-h9", "1 h9-f8"}, {"1 f8-h9", "1 h9-f8"}}
	for turn := range 6 {
		if s.over {
			t.Fatalf("over after %d turns", turn)
		}
		ms := red[min(turn/2, 1)]
		if turn%2 == 1 {
			ms = green[min(turn/2, 1)]
		}
		s = play(t, s, ms[0], ms[1])
		if v := s.ViewOf(0); v.QuietTurns != turn+1 || v.QuietLimit != 6 {
			t.Errorf("turn %d: %d quiet turns of %d", turn, v.QuietTurns, v.QuietLimit)
		}
	}
	if !s.over || s.reason != StallReason {
		t.Fatalf("over %v, %q", s.over, s.reason)
	}
	if o := s.Outcome(); !slices.Equal(o.Ranks, []int{1, 1}) {
		t.Errorf("ranks %v: a tie shares the win", o.Ranks)
	}
}

func TestLeaveAndCollectAgainIsNotProgress(t *testing.T) {
	s := bare(t, Premium, 2).put(0, 1, "d4", "VV").put(1, 1, "g6", "").lay("e5", "V").lay("a10", "B")
	s = play(t, s, "1 d4-b3*", "1 b3-d4")
	if letters(s.pieces[0][0].tower) != "VV" || s.quiet != 1 {
		t.Fatalf("tower %s, quiet %d", letters(s.pieces[0][0].tower), s.quiet)
	}
	s = play(t, s, "1 g6-e5", "1 e5-g6") // a new disc: progress
	if s.quiet != 0 {
		t.Errorf("quiet %d after a disc was collected", s.quiet)
	}
}

// TestCollectingAfterLeavingIsProgress: once a tower has been left behind, more discs lie loose
// than ever before, yet a turn that collects a disc never in a tower is progress (RULES.md: the
// game ends after 3 full rounds in which nobody collected a disc).
func TestCollectingAfterLeavingIsProgress(t *testing.T) {
	s := bare(t, Premium, 2).put(0, 1, "e5", "VVVVV").put(1, 1, "e8", "")
	// Single discs along the pieces' ways, so that every turn collects one.
	for _, q := range []string{"c6", "a5", "b7", "d8", "b9", "c2", "c7", "d5", "f4", "h3", "g5", "f7"} {
		s.lay(q, "V")
	}
	s = play(t, s, "1 e5-c6*", "1 c6-a5") // leaves VVVVV behind: 5 more discs loose
	turns := [][2]string{
		{"1 e8-c7", "1 c7-d5"},
		{"1 a5-b7", "1 b7-d8"},
		{"1 d5-f4", "1 f4-h3"},
		{"1 d8-b9", "2 a1-c2"},
		{"1 h3-g5", "1 g5-f7"},
	}
	for i, turn := range turns {
		s = play(t, s, turn[0], turn[1])
		if s.over || s.quiet != 0 {
			t.Fatalf("turn %d collected new discs, yet quiet %d, over %v (%q)", i+2, s.quiet, s.over, s.reason)
		}
	}
}

func TestElementaryWin(t *testing.T) {
	s := bare(t, Elementary, 2).
		put(0, 1, "e5", strings.Repeat("V", 12)).
		put(0, 2, "e7", strings.Repeat("VPBI", 3)).
		put(0, 3, "g5", strings.Repeat("P", 12)).
		put(0, 4, "c3", strings.Repeat("B", 11)).
		put(1, 1, "h5", strings.Repeat("I", 12)).
		lay("e4", "I").lay("j1", "V")
	if got := s.Scores(); !slices.Equal(got, []int{3, 1}) {
		t.Errorf("scores %v", got)
	}
	s = play(t, s, "4 e4")
	o := s.Outcome()
	if !o.Over || o.Reason != "Red has 4 towers of 12 storeys" || !slices.Equal(o.Ranks, []int{1, 2}) {
		t.Errorf("outcome %+v", o)
	}
}
