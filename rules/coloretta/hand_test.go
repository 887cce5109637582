package coloretta

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func hand(colours ...int) Hand {
	var h Hand
	copy(h.Colours[:], colours)
	return h
}

func TestSetPoints(t *testing.T) {
	want := []int{0, 1, 3, 6, 10, 15, 21, 21, 21, 21}
	for n, w := range want {
		if got := SetPoints(n); got != w {
			t.Errorf("SetPoints(%d) = %d, want %d", n, got, w)
		}
		h := hand(n)
		if got := ScoreHand(h).Total; got != w {
			t.Errorf("one colour of %d cards scores %d, want %d", n, got, w)
		}
	}
}

func TestScoreHand(t *testing.T) {
	for _, tc := range []struct {
		name  string
		h     Hand
		total int
		wilds []Colour
	}{
		{"empty", Hand{}, 0, nil},
		{"three best add, the rest subtract", hand(4, 3, 2, 1, 1), 10 + 6 + 3 - 1 - 1, nil},
		{"best three are the largest, not the first", hand(1, 2, 5, 1, 4), 15 + 10 + 3 - 1 - 1, nil},
		{"plus two cards", Hand{Colours: [NumColours]int{1}, Plus2: 2}, 1 + 4, nil},
		{"only plus two cards", Hand{Plus2: 3}, 6, nil},
		{"negative", hand(2, 2, 2, 2, 2, 2, 2), 9 - 12, nil},
		{"more negative", hand(3, 3, 3, 3, 3, 3, 3), 18 - 24, nil},
		{"wild joins the colour worth most", Hand{Colours: [NumColours]int{6, 2, 1}, Wilds: 1},
			21 + 6 + 1, []Colour{Yellow}},
		{"wild next to a colour of six starts a new one", Hand{Colours: [NumColours]int{0, 6}, Wilds: 1},
			21 + 1, []Colour{Red}},
		{"wild beside three full colours is wasted, never penalised",
			Hand{Colours: [NumColours]int{6, 6, 6, 2}, Wilds: 1}, 63 - 3, []Colour{Red}},
		{"two wilds split", Hand{Colours: [NumColours]int{5, 4, 1}, Wilds: 2}, 21 + 15 + 1, []Colour{Red, Yellow}},
		{"one wild", Hand{Wilds: 1}, 1, []Colour{Red}},
		{"only wilds", Hand{Wilds: 3}, 6, []Colour{Red, Red, Red}},
		{"wilds and plus two", Hand{Wilds: 2, Plus2: 1}, 3 + 2, []Colour{Red, Red}},
		{"wild to a fourth colour would be penalised", Hand{Colours: [NumColours]int{3, 3, 3, 3}, Wilds: 1},
			10 + 6 + 6 - 6, []Colour{Red}},
	} {
		s := ScoreHand(tc.h)
		if s.Total != tc.total {
			t.Errorf("%s: %+v scores %d, want %d (%+v)", tc.name, tc.h, s.Total, tc.total, s)
		}
		if !slices.Equal(s.Wilds, tc.wilds) {
			t.Errorf("%s: wilds went to %v, want %v", tc.name, s.Wilds, tc.wilds)
		}
		if p := points(&tc.h); p != tc.total {
			t.Errorf("%s: points = %d, want %d", tc.name, p, tc.total)
		}
	}
}

func TestScoreHandBreakdown(t *testing.T) {
	s := ScoreHand(Hand{Colours: [NumColours]int{1, 0, 4, 2, 0, 1, 3}, Wilds: 1, Plus2: 2})
	// Green 4, orange 3, blue 2 are best; the wild joins orange (3->4: +4) or green (4->5: +5): green.
	want := HandScore{
		Total:     15 + 6 + 3 - 1 - 1 + 4,
		Best:      []ColourScore{{Green, 4, 1, 15}, {Orange, 3, 0, 6}, {Blue, 2, 0, 3}},
		Penalised: []ColourScore{{Red, 1, 0, -1}, {Cyan, 1, 0, -1}},
		Wilds:     []Colour{Green},
		Plus2:     2, Bonus: 4,
	}
	if !equalScore(s, want) {
		t.Fatalf("got %+v\nwant %+v", s, want)
	}
}

func equalScore(a, b HandScore) bool {
	return a.Total == b.Total && slices.Equal(a.Best, b.Best) && slices.Equal(a.Penalised, b.Penalised) &&
		slices.Equal(a.Wilds, b.Wilds) && a.Plus2 == b.Plus2 && a.Bonus == b.Bonus
}

// bruteForce scores h by trying every colour for every wild.
func bruteForce(h Hand) int {
	if h.Wilds == 0 {
		c := h.Colours
		slices.Sort(c[:])
		slices.Reverse(c[:])
		s := 2 * h.Plus2
		for i, n := range c {
			if i < 3 {
				s += SetPoints(n)
			} else {
				s -= SetPoints(n)
			}
		}
		return s
	}
	best := -1 << 30
	for c := range NumColours {
		g := h
		g.Wilds--
		g.Colours[c]++
		best = max(best, bruteForce(g))
	}
	return best
}

func TestScoreHandMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for range 3000 {
		var h Hand
		for c := range NumColours {
			if r.IntN(2) == 0 {
				h.Colours[c] = r.IntN(8)
			}
		}
		h.Wilds, h.Plus2 = r.IntN(4), r.IntN(3)
		s := ScoreHand(h)
		if want := bruteForce(h); s.Total != want {
			t.Fatalf("%+v scores %d, brute force %d", h, s.Total, want)
		}
		if p := points(&h); p != s.Total {
			t.Fatalf("%+v: points %d, ScoreHand %d", h, p, s.Total)
		}
		sum, wilds := s.Bonus, 0
		for _, c := range s.Best {
			sum += c.Points
			wilds += c.Wilds
			if c.Points <= 0 || c.Cards != h.Colours[c.Colour] {
				t.Fatalf("%+v: best %+v", h, c)
			}
		}
		for _, c := range s.Penalised {
			sum += c.Points
			if c.Points >= 0 || c.Wilds != 0 {
				t.Fatalf("%+v: penalised %+v", h, c)
			}
		}
		if sum != s.Total || wilds != h.Wilds || len(s.Wilds) != h.Wilds || len(s.Best) > 3 {
			t.Fatalf("%+v: breakdown %+v does not add up", h, s)
		}
	}
}

func TestGroups(t *testing.T) {
	got := hand(1, 0, 3, 1, 0, 0, 3).Groups()
	want := []Group{{Green, 3}, {Orange, 3}, {Red, 1}, {Blue, 1}}
	if !slices.Equal(got, want) {
		t.Fatalf("Groups = %v, want %v", got, want)
	}
}

func TestColourLetters(t *testing.T) {
	seen := map[byte]bool{}
	for c := range Colour(NumColours) {
		l := c.Letter()
		if seen[l] || l == '?' || c.String() == "?" {
			t.Fatalf("colour %d: letter %c name %s", c, l, c)
		}
		seen[l] = true
		if cc, ok := ColourCard(c).Colour(); !ok || cc != c {
			t.Fatalf("ColourCard(%v).Colour() = %v, %v", c, cc, ok)
		}
	}
	for _, c := range []Card{Wild, Plus2, LastCycle} {
		if seen[c.Letter()] {
			t.Fatalf("%v shares a letter", c)
		}
		seen[c.Letter()] = true
		if _, ok := c.Colour(); ok {
			t.Fatalf("%v has a colour", c)
		}
	}
}
