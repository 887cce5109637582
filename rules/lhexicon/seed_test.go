package lhexicon

import (
	"strings"
	"testing"
)

// The seed's diagrams 3 to 7 as positions. CODED lies on h6 to h10 (the centre is h8), axial
// (-2, 0) to (2, 0); rows grow downwards.

// coded returns a 2-player game after Player 1 played CODED through the centre, Player 2 to move
// holding rack.
func coded(t *testing.T, rack string) *State {
	t.Helper()
	s := emptyGame(t, 2, Auto, "codedxx")
	s = mustPlay(t, s, 0, "h6 coded e,e,e,e")
	if got := s.scores[0]; got != 3+1+2+1+2 {
		t.Fatalf("CODED scored %d, want 9", got)
	}
	setRack(t, s, 1, rack)
	return s
}

// Diagram 3: R, U, E and L added to the C of CODED make CRUEL: correct.
func TestDiagram3Cruel(t *testing.T) {
	s := coded(t, "ruelzzz")
	play := "h6 cruel sw,se,e,e"
	s = mustPlay(t, s, 1, play)
	if s.scores[1] != 3+1+1+1+1 {
		t.Errorf("CRUEL scored %d, want 7 (C3 R1 U1 E1 L1)", s.scores[1])
	}
	if s.last.Bonus != 0 || s.last.Word != "cruel" {
		t.Errorf("last = %+v", s.last)
	}
	if got := s.Rack(1); len(got) != 7 {
		t.Errorf("the rack was not refilled: %v", got)
	}
}

// Diagram 4: the L of CRUEL placed where it touches the C and the O, without the O in the word:
// refused by the rule of contact, and nothing changes.
func TestDiagram4Contact(t *testing.T) {
	s := coded(t, "ruelzzz")
	err := refuse(t, s, 1, "h6 cruel sw,se,e,nw", ErrContact)
	if !strings.Contains(err.Error(), "the O on h7") {
		t.Errorf("the error does not name the O: %v", err)
	}
}

// cruel returns the position of diagram 3 with Player 1 to move holding rack.
func cruel(t *testing.T, rack string) *State {
	t.Helper()
	s := mustPlay(t, coded(t, "ruelzzz"), 1, "h6 cruel sw,se,e,e")
	setRack(t, s, 0, rack)
	return s
}

// Diagram 5: LEVELED from the L of CRUEL round to the last D of CODED closes a trap of 4 hexes:
// 3 points for each.
func TestDiagram5Leveled(t *testing.T) {
	s := cruel(t, "evelezz")
	l := ax(t, -1, 2)
	s = mustPlay(t, s, 0, l.String()+" leveled e,e,ne,ne,nw,sw")
	if s.last.Bonus != 12 {
		t.Errorf("trap bonus %d, want 12 (4 hexes)", s.last.Bonus)
	}
	if want := 1 + 1 + 4 + 1 + 1 + 1 + 2 + 12; s.last.Score != want {
		t.Errorf("LEVELED scored %d, want %d", s.last.Score, want)
	}
	traps := s.Traps()
	if len(traps) != 1 || len(traps[0]) != 4 {
		t.Fatalf("traps %v, want one of 4 hexes", traps)
	}
	for _, h := range traps[0] {
		if hexR[h] != 1 || hexQ[h] < -2 || hexQ[h] > 1 {
			t.Errorf("trap hex %s is not one of (-2..1, 1)", h)
		}
	}
}

// leveled returns the position of diagram 5 with Player 2 to move holding rack.
func leveled(t *testing.T, rack string) *State {
	t.Helper()
	s := cruel(t, "evelezz")
	s = mustPlay(t, s, 0, ax(t, -1, 2).String()+" leveled e,e,ne,ne,nw,sw")
	setRack(t, s, 1, rack)
	return s
}

// Diagram 6: a word through the trap splits it into two traps (of 1 and 2 hexes): 3 points for
// each of their hexes. The seed's CODDLE needs letters its figure does not show; DOWEL puts one
// W in the trap, touching D, O, E and L, all in the word.
func TestDiagram6Split(t *testing.T) {
	s := leveled(t, "wzzzzzz")
	s = mustPlay(t, s, 1, "h8 dowel w,se,sw,e")
	if s.last.Bonus != 9 {
		t.Errorf("split bonus %d, want 9 (traps of 1 and 2)", s.last.Bonus)
	}
	if want := 2 + 1 + 4 + 1 + 1 + 9; s.last.Score != want {
		t.Errorf("DOWEL scored %d, want %d", s.last.Score, want)
	}
	if n := len(s.Traps()); n != 2 {
		t.Errorf("%d traps, want 2", n)
	}
}

// Diagram 7: filling part of a trap without splitting it earns no bonus. A trap of 2 hexes
// (T1 = the centre, T2 east of it) is enclosed by tiles; PLEAD lies round T2; an S on T2 makes
// PLEADS and leaves T1 alone, still one trap.
func TestDiagram7NoSplit(t *testing.T) {
	s := emptyGame(t, 2, Auto, "szzzzzz")
	putAt(t, s, "plead", ax(t, 1, -1), ax(t, 2, -1), ax(t, 2, 0), ax(t, 1, 1), ax(t, 0, 1))
	putAt(t, s, "zzz", ax(t, -1, 0), ax(t, 0, -1), ax(t, -1, 1))
	if tr := s.Traps(); len(tr) != 1 || len(tr[0]) != 2 {
		t.Fatalf("traps %v, want one of 2 hexes", tr)
	}
	s = mustPlay(t, s, 0, ax(t, 1, -1).String()+" pleads e,se,sw,w,ne")
	if s.last.Bonus != 0 {
		t.Errorf("bonus %d for filling part of a trap", s.last.Bonus)
	}
	if s.last.Score != 3+1+1+1+2+1 {
		t.Errorf("PLEADS scored %d, want 9", s.last.Score)
	}
	if tr := s.Traps(); len(tr) != 1 || len(tr[0]) != 1 {
		t.Errorf("traps %v, want one of 1 hex", tr)
	}
}

// A region enclosed against the board's edge is no trap: no bonus, and Traps does not list it.
func TestEdgeIsNoTrap(t *testing.T) {
	var b0, b1 [NumHexes]Tile
	a4 := At(0, 3)
	for _, nb := range a4.Neighbours() {
		if nb != NoHex {
			b1[nb] = LetterTile('e')
		}
	}
	var r0, r1 regions
	r0.label(&b0)
	r1.label(&b1)
	if got := trapBonus(&r0, &r1); got != 0 {
		t.Errorf("enclosing the edge hex a4 earns %d", got)
	}
	// The same ring round an inner hex is a trap.
	var b2 [NumHexes]Tile
	for _, nb := range Centre.Neighbours() {
		b2[nb] = LetterTile('e')
	}
	var r2 regions
	r2.label(&b2)
	if got := trapBonus(&r0, &r2); got != 3 {
		t.Errorf("enclosing the centre earns %d, want 3", got)
	}
	// A wall cutting off a corner region of several hexes: open to the edge, no trap.
	var b3 [NumHexes]Tile
	for c := range RowLen(2) {
		b3[At(2, c)] = LetterTile('e')
	}
	var r3 regions
	r3.label(&b3)
	if got := trapBonus(&r0, &r3); got != 0 {
		t.Errorf("cutting off the top rows earns %d", got)
	}
	s := emptyGame(t, 1, Auto, "")
	s.board = b3
	if tr := s.Traps(); len(tr) != 0 {
		t.Errorf("traps %v on the edge", tr)
	}
}

// The first word may curl round a hex and enclose it: a trap of 1 on the first play.
func TestFirstPlayTrap(t *testing.T) {
	s := emptyGame(t, 2, Auto, "strange")
	s = mustPlay(t, s, 0, "h8 strange ne,e,se,sw,w,sw")
	if s.last.Bonus != 3 || s.last.Score != 8+3 {
		t.Errorf("STRANGE curled: score %d bonus %d, want 11 and 3", s.last.Score, s.last.Bonus)
	}
}
