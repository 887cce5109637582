package coloretta

// setPoints[n] is what a set of n cards of one colour is worth; 6 or more cards are worth 21.
var setPoints = [7]int{0, 1, 3, 6, 10, 15, 21}

// SetPoints returns what n cards of one colour are worth: 1, 3, 6, 10, 15, 21 for 1 to 6 cards, 21
// for more, 0 for none.
func SetPoints(n int) int {
	switch {
	case n <= 0:
		return 0
	case n >= 6:
		return 21
	}
	return setPoints[n]
}

// Hand is the cards a player holds, counted by kind. Hands are public.
type Hand struct {
	// Colours holds the number of cards of each colour, indexed by Colour.
	Colours [NumColours]int
	// Wilds is the number of wild cards.
	Wilds int
	// Plus2 is the number of "+2" cards.
	Plus2 int
}

// Size returns the number of cards in the hand.
func (h Hand) Size() int {
	n := h.Wilds + h.Plus2
	for _, c := range h.Colours {
		n += c
	}
	return n
}

// Count returns the number of cards of kind c in the hand (0 for LastCycle).
func (h Hand) Count(c Card) int {
	switch {
	case c < NumColours:
		return h.Colours[c]
	case c == Wild:
		return h.Wilds
	case c == Plus2:
		return h.Plus2
	}
	return 0
}

// Add returns the hand with cards added (LastCycle is ignored).
func (h Hand) Add(cards ...Card) Hand {
	for _, c := range cards {
		h.add(c)
	}
	return h
}

func (h *Hand) add(c Card) {
	switch {
	case c < NumColours:
		h.Colours[c]++
	case c == Wild:
		h.Wilds++
	case c == Plus2:
		h.Plus2++
	}
}

// Group is the cards of one colour in a hand.
type Group struct {
	// Colour is the group's colour.
	Colour Colour
	// Count is the number of cards of that colour.
	Count int
}

// Groups returns the colours held, most cards first (equal counts in colour order).
func (h Hand) Groups() []Group {
	var g []Group
	for _, c := range h.order() {
		if h.Colours[c] > 0 {
			g = append(g, Group{Colour(c), h.Colours[c]})
		}
	}
	return g
}

// order returns the colour indices by count, highest first, equal counts in colour order.
func (h Hand) order() [NumColours]int {
	var o [NumColours]int
	for i := range o {
		o[i] = i
	}
	for i := 1; i < NumColours; i++ { // insertion sort: stable
		for j := i; j > 0 && h.Colours[o[j]] > h.Colours[o[j-1]]; j-- {
			o[j], o[j-1] = o[j-1], o[j]
		}
	}
	return o
}

// ColourScore is what one colour of a hand scores.
type ColourScore struct {
	// Colour is the colour scored.
	Colour Colour
	// Cards is the number of cards of the colour in the hand.
	Cards int
	// Wilds is the number of wild cards that joined the colour.
	Wilds int
	// Points is what the colour scores: positive for one of the three best colours, negative for a
	// penalised one.
	Points int
}

// HandScore is a hand's score and how it comes about.
type HandScore struct {
	// Total is the hand's score: Best minus Penalised plus Bonus. It may be negative.
	Total int
	// Best holds the three best colours (fewer when the hand has fewer), highest points first,
	// wilds included.
	Best []ColourScore
	// Penalised holds every other colour held, most cards first; their Points are negative.
	Penalised []ColourScore
	// Wilds holds the colour each wild card joined, one entry per wild.
	Wilds []Colour
	// Plus2 is the number of "+2" cards and Bonus the points they add (2 each).
	Plus2, Bonus int
}

// bestSplit returns how to share w wilds among three sets of a, b and c cards (a >= b >= c) to make
// them worth most, and that worth.
func bestSplit(a, b, c, w int) (wa, wb, wc, pts int) {
	pts = -1
	for x := w; x >= 0; x-- {
		for y := w - x; y >= 0; y-- {
			z := w - x - y
			p := SetPoints(a+x) + SetPoints(b+y) + SetPoints(c+z)
			if p > pts {
				wa, wb, wc, pts = x, y, z, p
			}
		}
	}
	return
}

// ScoreHand scores a hand: for each colour 1, 3, 6, 10, 15, 21 points for 1, 2, 3, 4, 5, 6 or more
// cards; the three best colours add and every other colour subtracts; each wild joins the colour
// that makes the hand worth most (wilds may start a colour the hand lacks, and may join a colour
// that already has 6 cards when nothing better is left); each "+2" adds 2.
//
// The three best colours are the three with most cards (equal counts in colour order): giving the
// wilds to any other colour never scores more. When the hand holds fewer than three colours, the
// missing ones are the first colours it lacks, for wilds to start. Equal ways to place the wilds
// prefer the colour with most cards.
func ScoreHand(h Hand) HandScore {
	o := h.order()
	var s HandScore
	wa, wb, wc, _ := bestSplit(h.Colours[o[0]], h.Colours[o[1]], h.Colours[o[2]], h.Wilds)
	ws := [3]int{wa, wb, wc}
	for i := range 3 {
		col, n, w := Colour(o[i]), h.Colours[o[i]], ws[i]
		if n+w == 0 {
			continue
		}
		p := SetPoints(n + w)
		s.Best = append(s.Best, ColourScore{Colour: col, Cards: n, Wilds: w, Points: p})
		s.Total += p
		for range w {
			s.Wilds = append(s.Wilds, col)
		}
	}
	// Best sorted by points, highest first (stable: ties keep the count order).
	for i := 1; i < len(s.Best); i++ {
		for j := i; j > 0 && s.Best[j].Points > s.Best[j-1].Points; j-- {
			s.Best[j], s.Best[j-1] = s.Best[j-1], s.Best[j]
		}
	}
	for _, c := range o[3:] {
		if n := h.Colours[c]; n > 0 {
			p := SetPoints(n)
			s.Penalised = append(s.Penalised, ColourScore{Colour: Colour(c), Cards: n, Points: -p})
			s.Total -= p
		}
	}
	s.Plus2, s.Bonus = h.Plus2, 2*h.Plus2
	s.Total += s.Bonus
	return s
}

// points returns ScoreHand(h).Total without building the breakdown; the bots call it often.
func points(h *Hand) int {
	// The three largest counts, and the sum of the points of all colours.
	a, b, c := -1, -1, -1
	all := 0
	for _, n := range h.Colours {
		all += SetPoints(n)
		switch {
		case n > a:
			a, b, c = n, a, b
		case n > b:
			b, c = n, b
		case n > c:
			c = n
		}
	}
	top := SetPoints(a) + SetPoints(b) + SetPoints(c)
	best := top
	if h.Wilds > 0 {
		_, _, _, best = bestSplit(a, b, c, h.Wilds)
	}
	// all - top is what the other colours are worth; they subtract.
	return best - (all - top) + 2*h.Plus2
}
