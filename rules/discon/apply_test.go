package discon

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/arcade/arcade/rules"
)

func TestNewGame(t *testing.T) {
	for seats := 2; seats <= 4; seats++ {
		s, err := NewState(Premium, seats, 42)
		if err != nil {
			t.Fatal(err)
		}
		var n [4]int
		for q, f := range s.floor {
			corner := slices.Contains(corners[:], Square(q))
			if corner != (f == "") || len(f) > 1 {
				t.Fatalf("%s holds %q", Square(q), letters(f))
			}
			if f != "" {
				n[f[0]]++
			}
		}
		if n != discCount || s.loose != 96 {
			t.Errorf("discs %v (%d loose), want %v", n, s.loose, discCount)
		}
		for seat := range rules.Seat(seats) {
			home := homeCorner(seats, seat)
			for i := range Pieces {
				if p := s.pieces[seat][i]; p.sq != home || p.tower != "" {
					t.Errorf("%s piece %d on %s with %q", SeatName(seat), i+1, p.sq, p.tower)
				}
			}
		}
		if s.turn != 0 || s.movesLeft != 2 {
			t.Errorf("turn %d, %d moves left", s.turn, s.movesLeft)
		}
		// Six pieces, two ways out of the corner each.
		want := []string{}
		for i := 1; i <= Pieces; i++ {
			want = append(want, strings.ReplaceAll("N a1-c2", "N", string(rune('0'+i))),
				strings.ReplaceAll("N a1-b3", "N", string(rune('0'+i))))
		}
		got := s.Legal(0)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("first moves %v, want %v", got, want)
		}
		if len(s.Legal(1)) != 0 {
			t.Errorf("Green has moves before Red")
		}
	}
	a, _ := NewState(Premium, 2, 7)
	b, _ := NewState(Premium, 2, 7)
	c, _ := NewState(Premium, 2, 8)
	if *a != *b {
		t.Error("the same seed gave two boards")
	}
	if a.floor == c.floor {
		t.Error("two seeds gave the same board")
	}
	if _, err := NewState(Premium, 5, 1); err == nil {
		t.Error("five players accepted")
	}
}

func TestHomeCorners(t *testing.T) {
	for _, tc := range []struct {
		seats int
		homes string
	}{{2, "a1 j10"}, {3, "a1 j1 j10"}, {4, "a1 j1 j10 a10"}} {
		var got []string
		for seat := range rules.Seat(tc.seats) {
			got = append(got, homeCorner(tc.seats, seat).String())
		}
		if strings.Join(got, " ") != tc.homes {
			t.Errorf("%d seats: homes %v, want %s", tc.seats, got, tc.homes)
		}
	}
}

func TestKnightAndOccupancy(t *testing.T) {
	s := bare(t, Premium, 2).put(0, 1, "e5", "").put(1, 1, "f7", "").put(0, 2, "g6", "").lay("c4", "V")
	refuse(t, s, 0, "1 e5-e6", "that is not a knight's move", nil)
	refuse(t, s, 0, "1 e5-g5", "that is not a knight's move", nil)
	refuse(t, s, 0, "1 e5-f7", "f7 is occupied by piece 1 of Green", nil)
	refuse(t, s, 0, "1 e5-g6", "g6 is occupied by your piece 2", nil)
	refuse(t, s, 0, "1 d6-c4", "piece 1 stands on e5, not on d6", nil)
	refuse(t, s, 0, "7 e5-c4", "there is no piece 7", nil)
	refuse(t, s, 0, "3 b3*", "piece 3 carries no tower to leave behind", nil)
	refuse(t, s, 1, "1 f7-d6", "not your turn", rules.ErrNotYourTurn)
	refuse(t, s, 0, "1 e5-k4", "not a move", rules.ErrBadNotation)
	refuse(t, s, 0, "hello", "not a move", rules.ErrBadNotation)
	// Every jump shape works, in long and short form.
	for _, m := range []string{"1 e5-c4", "1 e5-c6", "1 d3", "1 d7", "1 f3", "1e5g4", "1 C4"} {
		play(t, s, m)
	}
	s2 := play(t, s, "1 c4")
	if p := s2.pieces[0][0]; p.sq != sq("c4") || letters(p.tower) != "V" || s2.floor[sq("c4")] != "" {
		t.Errorf("after 1 c4: piece on %s with %s", p.sq, letters(p.tower))
	}
}

func TestCollectKeepsOrder(t *testing.T) {
	s := bare(t, Basic, 2).put(0, 1, "e5", "PI").lay("c4", "VBV").lay("j1", "I")
	s = play(t, s, "1 c4")
	if got := letters(s.pieces[0][0].tower); got != "PIVBV" {
		t.Errorf("tower %s, want PIVBV (the stack on top, its order kept)", got)
	}
	if s.loose != 1 {
		t.Errorf("%d discs on the floor, want 1", s.loose)
	}
}

func TestColourLimit(t *testing.T) {
	for _, tc := range []struct {
		v      Variant
		tower  string
		disc   string
		refuse string
	}{
		{Premium, "PB", "V", "the tower would hold a third colour"},
		{Premium, "PB", "P", ""},
		{Premium, "PP", "VB", "the tower would hold a third colour"},
		{Advanced, "VI", "B", "the tower would hold a third colour"},
		{Variation1, "VVV", "IP", "the tower would hold a third colour"},
		{Penalty, "II", "PV", "the tower would hold a third colour"},
		{Variation2, "PP", "B", "the tower would hold a second colour"},
		{Variation2, "PP", "P", ""},
		{Basic, "PBV", "I", ""},
		{Elementary, "PBV", "I", ""},
	} {
		s := bare(t, tc.v, 2).put(0, 1, "e5", tc.tower).lay("c4", tc.disc).lay("j1", "I")
		if tc.refuse != "" {
			refuse(t, s, 0, "1 c4", tc.refuse, nil)
			// Leaving the tower behind starts a new one: always within the limits.
			play(t, s, "1 c4*")
		} else {
			play(t, s, "1 c4")
		}
	}
}

func TestHeightLimit(t *testing.T) {
	for seats, limit := range map[int]int{2: 12, 3: 10, 4: 8} {
		full := strings.Repeat("P", limit-1)
		s := bare(t, Premium, seats).put(0, 1, "e5", full).lay("c4", "P").lay("c6", "PP").lay("j5", "I")
		s1 := play(t, s, "1 c4")
		if len(s1.pieces[0][0].tower) != limit {
			t.Errorf("%d players: tower of %d", seats, len(s1.pieces[0][0].tower))
		}
		want := fmt.Sprintf("the tower would be %d storeys high: the limit is %d", limit+1, limit)
		refuse(t, s, 0, "1 c6", want, nil)
		// The penalty game lets it grow.
		p := bare(t, Penalty, seats).put(0, 1, "e5", full).lay("c6", "PP").lay("j5", "I")
		p = play(t, p, "1 c6")
		if n := len(p.pieces[0][0].tower); n != limit+1 {
			t.Errorf("penalty, %d players: tower of %d", seats, n)
		}
		if got, want := p.Scores()[0], premiumSingle[Pink][limit-2]; got != want {
			t.Errorf("penalty, %d players: %d storeys score %d, want %d", seats, limit+1, got, want)
		}
	}
}
