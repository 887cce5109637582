package flicflac

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arcade/arcade/rules"
)

// TestParseMove: the canonical forms and the looser ones decode to the same moves; junk is bad
// notation.
func TestParseMove(t *testing.T) {
	blueH8 := Move{Kind: Place, Colour: Blue, To: "h8"}
	for text, want := range map[string]Move{
		"B h8": blueH8, "b h8": blueH8, "Bh8": blueH8, "b>h8": blueH8, "B-h8": blueH8, "b: h8": blueH8,
		"blue h8": blueH8, "Blue to h8": blueH8, " B  H8 ": blueH8, "b h08": blueH8,
		"P o1":      {Kind: Place, Colour: Purple, To: "o1"},
		"orange a1": {Kind: Place, Colour: Orange, To: "a1"},
		"ob3":       {Kind: Place, Colour: Orange, To: "b3"},
		"R h15":     {Kind: Place, Colour: Red, To: "h15"},
		// Off every board, but hex names: the board refuses them by name (TestOffBoardHex).
		"B z9": {Kind: Place, Colour: Blue, To: "z9"}, "B p3": {Kind: Place, Colour: Blue, To: "p3"},
		"b h16": {Kind: Place, Colour: Blue, To: "h16"},
		"u B":   {Kind: TakeBack, Colour: Blue}, "ub": {Kind: TakeBack, Colour: Blue},
		"undo blue": {Kind: TakeBack, Colour: Blue}, "back y": {Kind: TakeBack, Colour: Yellow},
		"U G": {Kind: TakeBack, Colour: Green}, "take back p": {Kind: TakeBack, Colour: Purple},
		"end": {Kind: End}, "END": {Kind: End}, "e": {Kind: End}, "done": {Kind: End}, "pass": {Kind: End},
	} {
		m, err := ParseMove(text)
		if err != nil || m != want {
			t.Errorf("%q: %+v, %v; want %+v", text, m, err, want)
		}
	}
	for _, text := range []string{"", "x", "B", "B h", "B h0", "B 9z", "K h8", "B h8 x", "u", "u x",
		"ub3", "B h-1", "B h+8", "B h123", "blue", "u blue h8", "hello"} {
		if m, err := ParseMove(text); !errors.Is(err, rules.ErrBadNotation) {
			t.Errorf("%q: %+v, %v; want bad notation", text, m, err)
		}
	}
	for _, m := range []Move{blueH8, {Kind: TakeBack, Colour: Red}, {Kind: End}} {
		if again, err := ParseMove(m.String()); err != nil || again != m {
			t.Errorf("%+v written %q reads %+v, %v", m, m, again, err)
		}
	}
	if (Move{Kind: TakeBack, Colour: Blue}).String() != "u B" || blueH8.String() != "B h8" {
		t.Error("canonical forms")
	}
}

// TestCanonicalAndTell: what the room records and tells.
func TestCanonicalAndTell(t *testing.T) {
	s := testState(t)
	cyl := s.SeatOf(Cylinder)
	e := s.geo.Entry(Cylinder, Blue)
	var black, coloured Hex = NoHex, NoHex
	for _, h := range e {
		if s.colours[h] == Black {
			black = h
		} else {
			coloured = h
		}
	}
	if c, ok := s.Canonical(cyl, "blue>"+strings.ToUpper(s.geo.Name(black))); !ok || c != "B "+s.geo.Name(black) {
		t.Errorf("canonical %q %v", c, ok)
	}
	if _, ok := s.Canonical(1-cyl, "B "+s.geo.Name(black)); ok {
		t.Error("the other seat's move is canonical")
	}
	if _, ok := s.Canonical(cyl, "B h8"); ok {
		t.Error("an illegal move is canonical")
	}
	tell := s.Tell(cyl, "b "+s.geo.Name(black))
	if tell != "moves the blue cylinder from home to "+s.geo.Name(black)+" (it flips)" {
		t.Errorf("tell %q", tell)
	}
	if tell := s.Tell(cyl, "B "+s.geo.Name(coloured)); strings.Contains(tell, "flips") {
		t.Errorf("tell %q", tell)
	}
	n := mustPlay(t, s, cyl, "B "+s.geo.Name(black))
	if tell := n.Tell(cyl, "u b"); tell != "takes the blue cylinder back home" {
		t.Errorf("tell %q", tell)
	}
	if tell := s.Tell(cyl, "zzz"); tell != "zzz" {
		t.Errorf("a refused move is told %q", tell)
	}
	if tell := s.Tell(cyl, "end"); tell != "ends the turn" {
		t.Errorf("tell %q", tell)
	}
	// An end with captures and a captors' turn.
	capturePair(t, s)
	tell = s.Tell(cyl, "end")
	for _, w := range []string{"captures the red block", "cylinders 1, blocks 0", "a captors' turn for the yellow cylinder"} {
		if !strings.Contains(tell, w) {
			t.Errorf("tell %q lacks %q", tell, w)
		}
	}
	if a := s.Annotate(cyl, "end"); a != "captures Rb; 1-0" {
		t.Errorf("annotate %q", a)
	}
	if a := s.Annotate(cyl, "B "+s.geo.Name(black)); a != "" {
		t.Errorf("annotate a piece move %q", a)
	}
	// An event is told.
	u := *s
	u.cfg.EventPercent = 100
	n = mustPlay(t, &u, cyl, "end")
	n = mustPlay(t, n, cyl, "end")
	if tell := n.Tell(n.turn, "end"); !strings.Contains(tell, "ends the turn: ") {
		t.Errorf("tell %q", tell)
	}
}

// TestLegalAll: every listed move is accepted, and Canonical keeps it as written.
func TestLegalAll(t *testing.T) {
	s := testState(t)
	rng := rand.New(rand.NewPCG(3, 3))
	for range 60 {
		if s.over {
			break
		}
		seat := s.turn
		for _, m := range s.Legal(seat) {
			if _, err := s.Apply(seat, m); err != nil {
				t.Fatalf("legal %q refused: %v", m, err)
			}
			if c, ok := s.Canonical(seat, m); !ok || c != m {
				t.Fatalf("legal %q is canonical %q %v", m, c, ok)
			}
		}
		if s.Legal(seat)[0] != "end" {
			t.Fatalf("the first legal move is %q, not end", s.Legal(seat)[0])
		}
		if len(s.Legal(1-seat)) != 0 {
			t.Fatal("the other seat has legal moves")
		}
		e, _ := s.Apply(seat, Easy{}.Move(context.Background(), s, seat, rng))
		s = e.(*State)
	}
}
