package discon

// premiumSingle is the seed's table for single-colour towers of 1 to 12 storeys.
var premiumSingle = [4][12]int{
	Violet: {2, 4, 6, 8, 11, 14, 18, 24, 34, 40, 50, 60},
	Pink:   {4, 8, 12, 18, 24, 32, 42, 54, 68, 84, 100, 120},
	Blue:   {4, 8, 12, 18, 24, 32, 42, 54, 68, 84, 100, 120},
	Ivory:  {8, 16, 24, 36, 52, 72, 96, 120, 148, 176, 208, 240},
}

// premiumMixed is the seed's table for two-colour towers of 1 to 12 storeys, indexed by the bit
// set of the two colours.
var premiumMixed = map[uint8][12]int{
	1<<Violet | 1<<Pink:  {0, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16, 20},
	1<<Violet | 1<<Blue:  {0, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16, 20},
	1<<Pink | 1<<Blue:    {0, 2, 4, 6, 8, 10, 12, 16, 20, 24, 28, 32},
	1<<Violet | 1<<Ivory: {0, 4, 6, 8, 10, 12, 16, 18, 22, 26, 30, 34},
	1<<Pink | 1<<Ivory:   {0, 4, 6, 8, 11, 14, 18, 22, 28, 34, 40, 48},
	1<<Blue | 1<<Ivory:   {0, 4, 6, 8, 11, 14, 18, 22, 28, 34, 40, 48},
}

// mixedRows holds premiumMixed as an array indexed by colour bit set, for speed.
var mixedRows [16]*[12]int

func init() {
	for k, v := range premiumMixed {
		row := v
		mixedRows[k] = &row
	}
}

// basicPoints is the Basic game's value of one disc of each colour.
var basicPoints = [4]int{Violet: 2, Pink: 4, Blue: 4, Ivory: 8}

// ScoreTower returns the value of a tower (storeys from bottom to top) carried by a piece in a game
// of variant v with the given number of players. An empty tower is worth 0. A tower the variant
// could not produce (three colours in Premium, say) scores what its rule gives where one applies,
// else 0: the Premium table has no row for three or four colours, and storeys above 12 count as 12.
// In Elementary a tower is worth 1 when it is tall enough for the goal (see ElementaryGoal), else 0,
// so a seat's score is the number of such towers it owns.
func ScoreTower(v Variant, storeys []Colour, players int) int {
	b := make([]byte, len(storeys))
	for i, c := range storeys {
		if c > Ivory {
			return 0
		}
		b[i] = byte(c)
	}
	return scoreStack(v, players, string(b))
}

// scoreStack is ScoreTower on the engine's tower representation: one byte per storey, holding the
// Colour, bottom first.
func scoreStack(v Variant, players int, t string) int {
	h := len(t)
	if h == 0 {
		return 0
	}
	switch v {
	case Basic, Variation1, Variation2:
		n := 0
		for i := 0; i < h; i++ {
			n += basicPoints[t[i]&3]
		}
		return n
	case Elementary:
		if _, need := ElementaryGoal(players); h >= need {
			return 1
		}
		return 0
	case Penalty:
		if lim := HeightLimit(players); h > lim {
			h = 2*lim - h
		}
		if h <= 0 {
			return 0
		}
	}
	set := colourSet(t)
	if h > 12 {
		h = 12
	}
	switch popcount(set) {
	case 1:
		return premiumSingle[t[0]&3][h-1]
	case 2:
		val := mixedRows[set][h-1]
		if v == Advanced && alternates(t) {
			val *= 3
		}
		return val
	}
	return 0
}

// colourSet returns the bit set of the colours in tower t.
func colourSet(t string) uint8 {
	var s uint8
	for i := 0; i < len(t); i++ {
		s |= 1 << (t[i] & 3)
	}
	return s
}

func popcount(s uint8) int {
	n := 0
	for ; s != 0; s &= s - 1 {
		n++
	}
	return n
}

// alternates reports whether no two neighbouring storeys of t share a colour.
func alternates(t string) bool {
	for i := 1; i < len(t); i++ {
		if t[i] == t[i-1] {
			return false
		}
	}
	return true
}
