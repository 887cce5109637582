package stonetowers

import (
	"slices"
	"strings"
	"testing"
)

// The seed's 3 x 3 diagrams, squares A B C / D E F / G H I, i.e. a1 b1 c1 / a2 b2 c2 / a3 b3 c3.
const (
	seedExample1 = `
B1 R1 R1
b  r  R1
B1 B2 b`
	seedExample2 = `
B1 R1 R1
B1 R1 R1
B1 B2 b`
)

// embed puts a 3 x 3 picture in the middle of an empty size x size picture.
func embed(pic string, size int) string {
	small := strings.Split(strings.TrimSpace(pic), "\n")
	var sb strings.Builder
	off := (size - 3) / 2
	for r := range size {
		row := make([]string, size)
		for c := range row {
			row[c] = "."
		}
		if r >= off && r < off+3 {
			copy(row[off:], strings.Fields(small[r-off]))
		}
		sb.WriteString(strings.Join(row, " ") + "\n")
	}
	return sb.String()
}

// TestSeedExamples checks both worked examples of the seed, numbers included, on the seed's own
// 3 x 3 board and in the middle of a settled 12 x 12 board.
func TestSeedExamples(t *testing.T) {
	for _, tc := range []struct {
		name      string
		pic       string
		before    [2]int // influence on E, Red then Blue
		move      string // Blue's move, squares of the 3 x 3 diagram
		after     [2]int // influence on E after the move
		wantKind  ChangeKind
		wantFrom  Cell // what E was
		changes   int  // squares changed in all, the action included
		scoreDiff [2]int
	}{
		{"1: build on D", seedExample1, [2]int{2, 2}, "b a2", [2]int{2, 3}, FlagTaken, Cell{Red, 0}, 2, [2]int{-1, +1}},
		{"1: fortify H", seedExample1, [2]int{2, 2}, "f b3", [2]int{2, 3}, FlagTaken, Cell{Red, 0}, 2, [2]int{-1, +1}},
		{"2: fortify D", seedExample2, [2]int{3, 3}, "f a2", [2]int{2, 4}, CastleDestroyed, Cell{Red, 1}, 2, [2]int{-1, +1}},
		{"2: fortify H", seedExample2, [2]int{3, 3}, "f b3", [2]int{2, 4}, CastleDestroyed, Cell{Red, 1}, 2, [2]int{-1, +1}},
	} {
		for _, size := range []int{3, 12} {
			t.Run(tc.name+"/"+map[int]string{3: "3x3", 12: "12x12"}[size], func(t *testing.T) {
				off := 0
				pic := tc.pic
				if size != 3 {
					off = (size - 3) / 2
					pic = embed(pic, size)
				}
				at := func(sq string) Square {
					s, err := ParseSquare(sq)
					if err != nil {
						t.Fatal(err)
					}
					return Square{Col: s.Col + off, Row: s.Row + off}
				}
				s := picture(t, pic, Blue, 10, true)
				E := at("b2")
				if size == 3 {
					// The seed's position is already settled: nothing moves before Blue plays.
					raw := picture(t, pic, Blue, 10, false)
					if draw(raw) != draw(s) {
						t.Fatalf("the seed's position is not settled:\n%s", draw(s))
					}
				}
				// Equal influence: E stays Red's.
				if got := s.Influence(E); got != tc.before {
					t.Fatalf("influence on E = %v, want Red %d, Blue %d", got, tc.before[0], tc.before[1])
				}
				if got := s.At(E); got != tc.wantFrom {
					t.Fatalf("E = %+v, want %+v", got, tc.wantFrom)
				}
				// Blue's move gains E.
				mv, err := ParseMove(tc.move)
				if err != nil {
					t.Fatal(err)
				}
				mv.Square = at(mv.Square.String())
				before := s.Scores()
				ns, err := s.Play(Blue, mv)
				if err != nil {
					t.Fatal(err)
				}
				if got := ns.At(E); got != (Cell{Blue, 0}) {
					t.Errorf("after %v E = %+v, want a Blue flag", mv, got)
				}
				if got := ns.Influence(E); got != tc.after {
					t.Errorf("after %v influence on E = %v, want %v", mv, got, tc.after)
				}
				after := ns.Scores()
				if d := [2]int{after[0] - before[0], after[1] - before[1]}; size == 3 && d != tc.scoreDiff {
					t.Errorf("score change %v, want %v", d, tc.scoreDiff)
				}
				want := []Change{
					{Square: mv.Square, Wave: 0, Before: s.At(mv.Square), After: ns.At(mv.Square),
						Kind: map[Action]ChangeKind{Build: CastleBuilt, Fortify: CastleFortified}[mv.Action]},
					{Square: E, Wave: 1, Before: tc.wantFrom, After: Cell{Blue, 0}, Kind: tc.wantKind},
				}
				// On the big board a build on D also claims the open square beyond it: only the
				// diagram's squares are compared.
				got := slices.DeleteFunc(slices.Clone(ns.Changes()), func(c Change) bool {
					return c.Square.Col < off || c.Square.Row < off || c.Square.Col >= off+3 || c.Square.Row >= off+3
				})
				if !slices.Equal(got, want) || len(got) != tc.changes {
					t.Errorf("changes = %+v, want %+v", got, want)
				}
				// The receiver is unchanged.
				if s.At(E) != tc.wantFrom || s.Influence(E) != tc.before {
					t.Errorf("Play modified its receiver")
				}
			})
		}
	}
}

// TestSeedNoBlueMove checks the other half of the seed's first example: a Blue move elsewhere does
// not take E, which stays Red's on equal influence.
func TestSeedNoBlueMove(t *testing.T) {
	s := picture(t, seedExample1, Blue, 10, false)
	ns := mustPlay(t, s, "f a1") // A is not next to E
	if got := ns.At(Square{1, 1}); got != (Cell{Red, 0}) {
		t.Errorf("E = %+v, want Red's flag", got)
	}
	if got := ns.Influence(Square{1, 1}); got != [2]int{2, 2} {
		t.Errorf("influence on E = %v, want [2 2]", got)
	}
}

// TestDomino checks a chain: Blue's one action topples four Red castles, one per wave.
func TestDomino(t *testing.T) {
	s := picture(t, `
b  B1 B2 B2 B1 b
r  R1 R1 R1 R1 r
b  B1 B1 B1 B1 b
.  b  b  b  b  .
.  .  .  .  .  .
.  .  .  .  .  .`, Blue, 10, false)
	settled := *s
	if settled.b.resolve(nil) != 0 {
		t.Fatalf("the position is not settled:\n%s", draw(&settled))
	}
	ns := mustPlay(t, s, "f b1")
	want := []Change{
		{Square{1, 0}, 0, Cell{Blue, 1}, Cell{Blue, 2}, CastleFortified},
		{Square{1, 1}, 1, Cell{Red, 1}, Cell{Blue, 0}, CastleDestroyed},
		{Square{2, 1}, 2, Cell{Red, 1}, Cell{Blue, 0}, CastleDestroyed},
		{Square{3, 1}, 3, Cell{Red, 1}, Cell{Blue, 0}, CastleDestroyed},
		{Square{4, 1}, 4, Cell{Red, 1}, Cell{Blue, 0}, CastleDestroyed},
	}
	if got := ns.Changes(); !slices.Equal(got, want) {
		t.Errorf("changes:\n got %+v\nwant %+v", got, want)
	}
	const after = `b B2 B2 B2 B1 b
r b b b b r
b B1 B1 B1 B1 b
. b b b b .
. . . . . .
. . . . . .
`
	if got := draw(ns); got != after {
		t.Errorf("board after:\n%s\nwant:\n%s", got, after)
	}
	v := ns.Snapshot()
	if v.Waves != 4 || len(v.Changes) != 5 || v.LastMove == nil || v.LastMove.Notation != "f b1" || v.LastMove.Seat != Blue {
		t.Errorf("view: waves %d, %d changes, last move %+v", v.Waves, len(v.Changes), v.LastMove)
	}
	if sc := ns.Scores(); sc != [2]int{2, 20} {
		t.Errorf("scores %v, want [2 20]", sc)
	}
	// The bots' local resolution agrees.
	if b := s.b.play(1, mkPly(Fortify, 1)); b != ns.b {
		t.Errorf("settle disagrees with resolve")
	}
}
