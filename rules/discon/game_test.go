package discon

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/arcade/arcade/rules"
)

func TestGameDescription(t *testing.T) {
	g := Game
	if g.ID != "discon" || g.Name != "DISCON" || g.MinSeats != 2 || g.MaxSeats != 4 || g.New == nil {
		t.Fatalf("game %+v", g)
	}
	for i, line := range strings.Split(g.Rules+"\n"+g.Notation, "\n") {
		if n := utf8.RuneCountInString(line); n > 76 {
			t.Errorf("rules line %d has %d columns: %q", i+1, n, line)
		}
	}
	var names []string
	for _, b := range g.Bots {
		names = append(names, b.Name)
	}
	if !slices.Equal(names, []string{"easy", "greedy", "hard"}) {
		t.Errorf("bots %v", names)
	}
	opts, err := g.Resolve(nil)
	if err != nil || opts["variant"] != "premium" {
		t.Fatalf("default options %v, %v", opts, err)
	}
	for _, v := range variantNames {
		opts, err := g.Resolve(rules.Options{"variant": v})
		if err != nil {
			t.Fatal(err)
		}
		e, err := g.New(opts, 3, 5)
		if err != nil {
			t.Fatal(err)
		}
		if e.Game() != "discon" || e.Seats() != 3 || e.(*State).Variant().String() != v {
			t.Errorf("New(%s) = %s, %d seats", v, e.Game(), e.Seats())
		}
	}
	if _, err := g.Resolve(rules.Options{"variant": "chess"}); err == nil {
		t.Error("variant chess accepted")
	}
	if _, err := g.New(rules.Options{"variant": "chess"}, 2, 1); err == nil {
		t.Error("New accepted variant chess")
	}
	if _, err := g.New(nil, 1, 1); err == nil {
		t.Error("New accepted one player")
	}
}

func TestView(t *testing.T) {
	s, _ := NewState(Elementary, 3, 11)
	v0 := *s.View(rules.Spectator).(*View)
	if v0.Viewer != rules.Spectator || v0.Turn != 0 || v0.MovesLeft != 2 || v0.FirstPiece != 0 ||
		v0.LastSeat != -1 || v0.DiscsOnBoard != 96 || v0.HeightLimit != 10 || !v0.HeightEnforced ||
		v0.ColourLimit != 4 || v0.GoalTowers != 4 || v0.GoalStoreys != 8 || v0.QuietLimit != 9 {
		t.Errorf("view %+v", v0)
	}
	if !slices.Equal(v0.Homes, []Square{sq("a1"), sq("j1"), sq("j10")}) || len(v0.Pieces) != 18 {
		t.Errorf("homes %v, %d pieces", v0.Homes, len(v0.Pieces))
	}
	if got := v0.Squares[sq("j1")]; got.Home != 1 || got.Zone != 1 || len(got.Pieces) != 6 ||
		got.Stack != nil {
		t.Errorf("j1 %+v", got)
	}
	if got := v0.Squares[sq("b9")]; got.Zone != -1 || got.Home != -1 || len(got.Stack) != 1 {
		t.Errorf("b9 (in the unused corner's zone) %+v", got)
	}
	if got := v0.Squares[sq("a10")]; got.Home != -1 || got.Stack != nil {
		t.Errorf("a10 (the unused corner) %+v", got)
	}
	if len(v0.Legal) != 12 {
		t.Errorf("%d legal moves", len(v0.Legal))
	}
	s = play(t, s, "2 a1-c2")
	v := s.ViewOf(0)
	disc := v0.Squares[sq("c2")].Stack
	if p := v.Piece(0, 2); p.Square != sq("c2") || !slices.Equal(p.Tower, disc) ||
		p.ID != (PieceID{0, 2}) || p.ID.String() != "R2" {
		t.Errorf("piece %+v", p)
	}
	if v.FirstPiece != 2 || v.MovesLeft != 1 || v.LastMove.String() != "2 a1-c2" || v.LastSeat != 0 ||
		v.DiscsOnBoard != 95 || len(v.Squares[sq("a1")].Pieces) != 5 {
		t.Errorf("view after a move %+v", v)
	}
	pv, _ := NewState(Penalty, 4, 1)
	v = pv.ViewOf(2)
	if v.HeightEnforced || v.HeightLimit != 8 || v.GoalTowers != 0 || v.ColourLimit != 2 {
		t.Errorf("penalty view %+v", v)
	}
	for _, c := range Colours {
		if c.String() == "" || !strings.ContainsRune("VPBI", rune(c.Letter())) {
			t.Errorf("colour %d", c)
		}
	}
}

// TestViewSlicesStandAlone: a view's stacks, towers and lists of pieces are cut from shared
// arrays; appending to one must not write into another.
func TestViewSlicesStandAlone(t *testing.T) {
	s, _ := NewState(Premium, 4, 5)
	s = play(t, s, "2 a1-c2")
	v := s.ViewOf(rules.Spectator)
	want := s.ViewOf(rules.Spectator)
	for q := range v.Squares {
		_ = append(v.Squares[q].Stack, Colour(9))
		_ = append(v.Squares[q].Pieces, PieceID{Seat: 3, Num: 9})
	}
	for i := range v.Pieces {
		_ = append(v.Pieces[i].Tower, Colour(9))
	}
	if !reflect.DeepEqual(v, want) {
		t.Error("appending to one slice of a view changed another")
	}
}
