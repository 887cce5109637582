package stonetowers

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arcade/arcade/rules"
)

// TestIllegal checks that illegal moves are refused with plain words and leave the state alone.
func TestIllegal(t *testing.T) {
	// Red to move on 12 x 12; Blue owns e5 (a castle) and its neighbours.
	s, err := NewState(12, 25)
	if err != nil {
		t.Fatal(err)
	}
	s = mustPlay(t, s, "b a1")
	s = mustPlay(t, s, "b e5")
	s = mustPlay(t, s, "f a1")
	s = mustPlay(t, s, "b l12")
	s = mustPlay(t, s, "f a1") // Red's a1 is now at level 3
	s = mustPlay(t, s, "b j2")
	if s.Next() != Red {
		t.Fatal("Red should be to move")
	}
	for _, tc := range []struct {
		seat   rules.Seat
		move   string
		want   string
		target error
	}{
		{Red, "b e5", "you cannot build on e5: it is Blue's castle", nil},
		{Red, "e5", "you cannot build on e5: it is Blue's castle", nil},
		{Red, "b e4", "you cannot build on e4: it is Blue's land", nil},
		{Red, "e4", "you cannot build on e4: it is Blue's land", nil},
		{Red, "f e5", "you can only fortify your own castles: e5 is Blue's castle", nil},
		{Red, "f a1", "that castle is already at level 3", nil},
		{Red, "a1", "that castle is already at level 3", nil},
		{Red, "b a1", "your castle on a1 is already at level 3", nil},
		{Red, "f a2", "there is no castle of yours on a2 to fortify", nil},
		{Red, "f c7", "there is no castle of yours on c7 to fortify", nil},
		{Red, "pass", "you may only pass when you cannot build or fortify", nil},
		{Red, "b e17", "there is no square e17 on the 12 x 12 board", nil},
		{Red, "m1", "there is no square m1 on the 12 x 12 board", nil},
		// As the board writes squares, whatever the case typed: the screen capitalises an
		// error's first letter, so no error begins with a square.
		{Red, "B Z9", "there is no square z9 on the 12 x 12 board", nil},
		{Red, "F E5", "you can only fortify your own castles: e5 is Blue's castle", nil},
		{Red, "F F4", "there is no castle of yours on f4 to fortify", nil},
		{Red, "E4", "you cannot build on e4: it is Blue's land", nil},
		{Blue, "b c3", "it is not your turn: Red is to move", rules.ErrNotYourTurn},
		{rules.Spectator, "b c3", "it is not your turn: Red is to move", rules.ErrNotYourTurn},
		{Red, "build", "not a move", rules.ErrBadNotation},
		{Red, "", "not a move", rules.ErrBadNotation},
		{Red, "hello world", "not a move", rules.ErrBadNotation},
	} {
		before := draw(s)
		e, err := s.Apply(tc.seat, tc.move)
		if err == nil {
			t.Errorf("%s %q accepted", SeatName(tc.seat), tc.move)
			continue
		}
		if !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s %q: error %q, want %q", SeatName(tc.seat), tc.move, err, tc.want)
		}
		if f := strings.Fields(err.Error()); len(f) > 0 {
			if _, ok := parseSquare(strings.TrimRight(f[0], ":,")); ok {
				t.Errorf("%s %q: error %q begins with a square, which the screen capitalises", SeatName(tc.seat), tc.move, err)
			}
		}
		if tc.target != nil && !errors.Is(err, tc.target) {
			t.Errorf("%s %q: error %q does not wrap %q", SeatName(tc.seat), tc.move, err, tc.target)
		}
		if tc.target == nil && (errors.Is(err, rules.ErrBadNotation) || errors.Is(err, rules.ErrNotYourTurn)) {
			t.Errorf("%s %q: error %q wraps a sentinel it should not", SeatName(tc.seat), tc.move, err)
		}
		if e != rules.Engine(s) || draw(s) != before || s.Next() != Red {
			t.Errorf("%s %q changed the state", SeatName(tc.seat), tc.move)
		}
	}
}

// TestGameOver plays a whole game and checks the end.
func TestGameOver(t *testing.T) {
	s, _ := NewState(8, 10)
	for k := 0; !s.Over(); k++ {
		ms := s.LegalMoves(s.Next())
		s = mustPlay(t, s, ms[(k*7)%len(ms)].String())
		if k >= 20 {
			t.Fatal("the game did not end after 20 actions")
		}
	}
	if s.TurnsLeft(Red) != 0 || s.TurnsLeft(Blue) != 0 || s.Next() != Nobody || s.ToMove() != nil {
		t.Errorf("after the end: turns left %d %d, next %d", s.TurnsLeft(Red), s.TurnsLeft(Blue), s.Next())
	}
	for _, seat := range []rules.Seat{Red, Blue} {
		if l := s.Legal(seat); l != nil {
			t.Errorf("Legal(%d) = %v after the end", seat, l)
		}
		_, err := s.Apply(seat, "pass")
		if !errors.Is(err, rules.ErrGameOver) {
			t.Errorf("Apply after the end: %v, want ErrGameOver", err)
		}
	}
	o := s.Outcome()
	sc := s.Scores()
	if !o.Over || o.Reason != "all turns played" || !slices.Equal(o.Scores, sc[:]) ||
		!slices.Equal(o.Ranks, rules.RankByScore(sc[:])) {
		t.Errorf("outcome %+v, scores %v", o, sc)
	}
}

// TestOutcomeRanks checks win, loss and draw.
func TestOutcomeRanks(t *testing.T) {
	for _, tc := range []struct {
		pic   string
		ranks []int
	}{
		{"r r .\nb . .\n. . .", []int{1, 2}},
		{"r b .\nb . .\n. . .", []int{2, 1}},
		{"r b .\n. . .\n. . .", []int{1, 1}},
	} {
		s := picture(t, tc.pic, Red, 0, true)
		s.played = [2]int{s.turns, s.turns}
		o := s.Outcome()
		if !o.Over || !slices.Equal(o.Ranks, tc.ranks) {
			t.Errorf("%q: outcome %+v, want ranks %v", tc.pic, o, tc.ranks)
		}
	}
	s, _ := NewState(8, 10)
	if o := s.Outcome(); o.Over || o.Ranks != nil || o.Reason != "" || !slices.Equal(o.Scores, []int{0, 0}) {
		t.Errorf("outcome of a new game: %+v", o)
	}
}

// TestPass checks that pass is the only move, and is accepted, when a player can do nothing else.
func TestPass(t *testing.T) {
	for _, pic := range []string{
		// All land is Blue's.
		"b b b\nb b b\nb b b",
		// All land is Red's castles at level 3.
		"R3 R3 R3\nR3 R3 R3\nR3 R3 R3",
	} {
		s := picture(t, pic, Red, 3, false)
		if draw(s) != draw(picture(t, pic, Red, 3, true)) {
			t.Fatalf("%q is not settled", pic)
		}
		if got := s.Legal(Red); !slices.Equal(got, []string{"pass"}) {
			t.Fatalf("%q: Legal = %v, want [pass]", pic, got)
		}
		for _, bad := range []string{"b b1", "f a1", "a1", "c3", "b c3"} {
			if _, err := s.Apply(Red, bad); err == nil {
				t.Errorf("%q: %q accepted", pic, bad)
			}
		}
		ns := mustPlay(t, s, "PASS")
		if ns.Next() != Blue || ns.TurnsLeft(Red) != 2 || draw(ns) != draw(s) || len(ns.Changes()) != 0 {
			t.Errorf("%q: after pass: next %d, Red's turns left %d, changes %v", pic, ns.Next(), ns.TurnsLeft(Red), ns.Changes())
		}
		if l := ns.Last(); l == nil || l.Notation != "pass" || l.Seat != Red {
			t.Errorf("%q: last move %+v", pic, l)
		}
	}
}

// TestBareSquare checks that "e5" builds on free land and fortifies one's own castle.
func TestBareSquare(t *testing.T) {
	s, _ := NewState(12, 25)
	s = mustPlay(t, s, "E5") // Red builds
	if l := s.Last(); l.Move != (Move{Build, Square{4, 4}}) || l.Notation != "b e5" {
		t.Errorf("e5 played as %+v", l)
	}
	s = mustPlay(t, s, "a1")
	s = mustPlay(t, s, "e5") // Red fortifies
	if l := s.Last(); l.Notation != "f e5" || s.At(Square{4, 4}) != (Cell{Red, 2}) {
		t.Errorf("e5 played as %+v; e5 is %+v", l, s.At(Square{4, 4}))
	}
	s = mustPlay(t, s, "a1")
	s = mustPlay(t, s, "e4") // Red's flag: build
	if l := s.Last(); l.Notation != "b e4" {
		t.Errorf("e4 played as %+v", l)
	}
}

// TestImmutable checks that Apply leaves the receiver alone and that the view is a copy.
func TestImmutable(t *testing.T) {
	s, _ := NewState(8, 10)
	s1 := mustPlay(t, s, "b d4")
	s2 := mustPlay(t, s1, "b d6")
	if draw(s) != draw(&State{b: board{n: 8}}) || s.Next() != Red || s.Last() != nil || s.Changes() != nil {
		t.Errorf("the first state changed")
	}
	if s1.At(Square{3, 4}) != (Cell{Red, 0}) || s2.At(Square{3, 4}) != (Cell{Red, 0}) || s1.Last().Notation != "b d4" || len(s1.Changes()) != 5 {
		t.Errorf("the second state changed: %+v", s1.Changes())
	}
	v := s2.Snapshot()
	v.Grid[0][0].Owner = Blue
	v.Changes[0].Wave = 99
	v.LastMove.Notation = "x"
	if s2.At(Square{0, 0}).Owner != Nobody || s2.Changes()[0].Wave != 0 || s2.Last().Notation != "b d6" {
		t.Errorf("changing the view changed the state")
	}
}

// TestView checks the view's fields.
func TestView(t *testing.T) {
	s, _ := NewState(8, 10)
	v0 := s.View(rules.Spectator).(View)
	if v0.Size != 8 || len(v0.Grid) != 8 || len(v0.Grid[7]) != 8 || v0.ToMove != Red || v0.Over ||
		v0.LastMove != nil || v0.Changes != nil || v0.TurnsLeft != [2]int{10, 10} || v0.Turns != 10 {
		t.Errorf("new view %+v", v0)
	}
	s = mustPlay(t, s, "b b2")
	s = mustPlay(t, s, "b c4")
	v := s.View(Red).(View)
	if w := s.View(Blue).(View); w.Size != v.Size || w.Scores != v.Scores {
		t.Errorf("Red and Blue see different views")
	}
	if v.ToMove != Red || v.TurnsLeft != [2]int{9, 9} || v.Scores != s.Scores() || v.Scores != [2]int{5, 5} {
		t.Errorf("view %+v", v)
	}
	if v.LastMove == nil || *v.LastMove != (LastMove{Blue, Move{Build, Square{2, 3}}, "b c4"}) {
		t.Errorf("last move %+v", v.LastMove)
	}
	// b3 is next to Red's b2 only; c3 is next to Blue's c4 only.
	b3 := Square{1, 2}
	if got := v.Influence(b3); got != [2]int{1, 0} || got != s.Influence(b3) {
		t.Errorf("influence on b3 = %v", got)
	}
	c3 := Square{2, 2}
	if got := v.At(c3); got.Influence != [2]int{0, 1} || got.Cell != (Cell{Blue, 0}) {
		t.Errorf("c3 = %+v", got)
	}
	if !v.OnBoard(Square{7, 7}) || v.OnBoard(Square{8, 0}) || v.OnBoard(Square{0, -1}) {
		t.Errorf("OnBoard wrong")
	}
	for _, c := range v.Changes {
		if c.Wave > v.Waves || v.At(c.Square).Cell != c.After {
			t.Errorf("change %+v does not match the board", c)
		}
	}
	if v.Changes[0].Kind != CastleBuilt || v.Changes[0].Kind.String() != "castle built" {
		t.Errorf("first change %+v", v.Changes[0])
	}
}

// TestGame checks the description given to the arcade.
func TestGame(t *testing.T) {
	g := Game
	if g.ID != "stonetowers" || g.MinSeats != 2 || g.MaxSeats != 2 || g.New == nil || g.Notation == "" {
		t.Errorf("game %+v", g)
	}
	var names []string
	for _, b := range g.Bots {
		names = append(names, b.Name)
	}
	if !slices.Equal(names, []string{"easy", "greedy", "hard"}) {
		t.Errorf("bots %v", names)
	}
	for i, line := range strings.Split(g.Rules+"\n"+g.Notation, "\n") {
		if n := len([]rune(line)); n > 76 {
			t.Errorf("rules line %d is %d columns: %q", i+1, n, line)
		}
	}
	opts, err := g.Resolve(nil)
	if err != nil || opts["size"] != "12" || opts["turns"] != "25" {
		t.Fatalf("default options %v, %v", opts, err)
	}
	e, err := g.New(opts, 2, 42)
	if err != nil || e.Game() != "stonetowers" || e.Seats() != 2 || !slices.Equal(e.ToMove(), []rules.Seat{Red}) {
		t.Fatalf("New: %v, %v", e, err)
	}
	if s := e.(*State); s.Size() != 12 || s.Turns() != 25 || len(s.Legal(Red)) != 144 || s.Legal(Blue) != nil {
		t.Errorf("new state: size %d, turns %d", s.Size(), s.Turns())
	}
	opts, err = g.Resolve(rules.Options{"size": "16", "turns": "60"})
	if err != nil {
		t.Fatal(err)
	}
	if e, err := g.New(opts, 2, 0); err != nil || e.(*State).Size() != 16 || e.(*State).TurnsLeft(Blue) != 60 {
		t.Errorf("New(16, 60): %v", err)
	}
	for _, bad := range []rules.Options{{"size": "7"}, {"size": "17"}, {"turns": "9"}, {"turns": "61"}} {
		if _, err := g.Resolve(bad); err == nil {
			t.Errorf("Resolve(%v) accepted", bad)
		}
		if _, err := g.New(bad, 2, 0); err == nil {
			t.Errorf("New(%v) accepted", bad)
		}
	}
	if _, err := g.New(opts, 3, 0); err == nil {
		t.Errorf("New with 3 seats accepted")
	}
}
