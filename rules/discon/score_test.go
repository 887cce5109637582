package discon

import (
	"strings"
	"testing"
)

// seedTable is the seed's "Full Scoring Table", transcribed row by row: the row's name as the seed
// writes it, then the values for 1 to 12 storeys.
var seedTable = []struct {
	row    string
	values [12]int
}{
	{"Violet&Pink", [12]int{0, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16, 20}},
	{"Violet&Blue", [12]int{0, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16, 20}},
	{"Pink&Blue", [12]int{0, 2, 4, 6, 8, 10, 12, 16, 20, 24, 28, 32}},
	{"Violet&Ivory", [12]int{0, 4, 6, 8, 10, 12, 16, 18, 22, 26, 30, 34}},
	{"Pink&Ivory", [12]int{0, 4, 6, 8, 11, 14, 18, 22, 28, 34, 40, 48}},
	{"Blue&Ivory", [12]int{0, 4, 6, 8, 11, 14, 18, 22, 28, 34, 40, 48}},
	{"Violet", [12]int{2, 4, 6, 8, 11, 14, 18, 24, 34, 40, 50, 60}},
	{"Pink", [12]int{4, 8, 12, 18, 24, 32, 42, 54, 68, 84, 100, 120}},
	{"Blue", [12]int{4, 8, 12, 18, 24, 32, 42, 54, 68, 84, 100, 120}},
	{"Ivory", [12]int{8, 16, 24, 36, 52, 72, 96, 120, 148, 176, 208, 240}},
}

func colourNamed(t *testing.T, name string) Colour {
	t.Helper()
	for _, c := range Colours {
		if strings.EqualFold(c.String(), name) {
			return c
		}
	}
	t.Fatalf("no colour %q", name)
	return 0
}

// tower builds a tower from colour letters, bottom first: tower("VVP").
func tower(letters string) []Colour {
	out := make([]Colour, len(letters))
	for i := range len(letters) {
		out[i] = Colour(strings.IndexByte("VPBI", letters[i]))
	}
	return out
}

// TestPremiumTable checks every cell of the seed's table: single-colour rows with towers of that
// colour, two-colour rows with towers of both colours in two different orders (order does not matter
// in Premium). A one-storey tower cannot hold two colours; its cell (0) is checked in the table.
func TestPremiumTable(t *testing.T) {
	for _, row := range seedTable {
		names := strings.Split(row.row, "&")
		a := colourNamed(t, names[0])
		for h := 1; h <= 12; h++ {
			want := row.values[h-1]
			if len(names) == 1 {
				storeys := make([]Colour, h)
				for i := range storeys {
					storeys[i] = a
				}
				if got := ScoreTower(Premium, storeys, 2); got != want {
					t.Errorf("%s x %d = %d, want %d", row.row, h, got, want)
				}
				continue
			}
			b := colourNamed(t, names[1])
			if got := mixedRows[1<<a|1<<b][h-1]; got != want {
				t.Errorf("table %s at %d = %d, want %d", row.row, h, got, want)
			}
			if h == 1 {
				continue
			}
			// a, then b on top; and b at the bottom, the rest a.
			one, two := make([]Colour, h), make([]Colour, h)
			for i := range h {
				one[i], two[i] = b, a
			}
			one[0], two[0] = a, b
			for _, storeys := range [][]Colour{one, two} {
				if got := ScoreTower(Premium, storeys, 2); got != want {
					t.Errorf("%s %v = %d, want %d", row.row, storeys, got, want)
				}
			}
		}
	}
}

func TestScoreTowerVariants(t *testing.T) {
	for _, tc := range []struct {
		v       Variant
		players int
		tower   string
		want    int
	}{
		{Premium, 2, "", 0},
		{Premium, 2, "VPB", 0}, // three colours: no row in the table
		{Premium, 2, "PBPB", 6},
		{Premium, 4, "IIIIIIII", 120},
		// Basic: 2 per violet, 4 per pink or blue, 8 per ivory, any colours.
		{Basic, 2, "V", 2},
		{Basic, 2, "P", 4},
		{Basic, 2, "B", 4},
		{Basic, 2, "I", 8},
		{Basic, 2, "VPBI", 18},
		{Basic, 2, "VVVVVVVVVVVV", 24},
		{Variation1, 3, "PPII", 24},
		{Variation2, 4, "BBB", 12},
		// Advanced: strictly alternating two-colour towers score 3x the mixed value.
		{Advanced, 2, "PB", 6},
		{Advanced, 2, "PBPB", 18},
		{Advanced, 2, "BPBPB", 24},
		{Advanced, 2, "PBBP", 6},  // not alternating
		{Advanced, 2, "PPPP", 18}, // single colour: the table
		{Advanced, 2, "IVIVIVIVIVIV", 102},
		{Advanced, 2, "IVIVIVIVIVII", 34},
		// Penalty: above the limit, a tower scores as 2 x limit - height storeys.
		{Penalty, 4, "PPPPPPPP", 54},  // 8 of 8
		{Penalty, 4, "PPPPPPPPP", 42}, // 9 scores as 7
		{Penalty, 4, "PPPPPPPPPP", 32},
		{Penalty, 4, strings.Repeat("P", 15), 4},
		{Penalty, 4, strings.Repeat("P", 16), 0},
		{Penalty, 4, strings.Repeat("P", 20), 0},
		{Penalty, 3, strings.Repeat("I", 11), 148}, // limit 10: 11 scores as 9
		{Penalty, 2, strings.Repeat("V", 13), 50},  // limit 12: 13 scores as 11
		{Penalty, 2, "VVIIIIIIIIIII", 30},          // mixed 13 scores as 11
		// Elementary: 1 for a tower tall enough for the goal.
		{Elementary, 2, strings.Repeat("V", 11) + "P", 1},
		{Elementary, 2, strings.Repeat("V", 11), 0},
		{Elementary, 3, "VPBIVPBI", 1},
		{Elementary, 4, "VPBIVPB", 0},
	} {
		if got := ScoreTower(tc.v, tower(tc.tower), tc.players); got != tc.want {
			t.Errorf("ScoreTower(%s, %s, %d) = %d, want %d", tc.v, tc.tower, tc.players, got, tc.want)
		}
	}
}

func TestLimits(t *testing.T) {
	for players, want := range map[int]int{2: 12, 3: 10, 4: 8} {
		if got := HeightLimit(players); got != want {
			t.Errorf("HeightLimit(%d) = %d, want %d", players, got, want)
		}
	}
	for _, tc := range []struct{ players, towers, storeys int }{{2, 4, 12}, {3, 4, 8}, {4, 3, 8}} {
		if n, h := ElementaryGoal(tc.players); n != tc.towers || h != tc.storeys {
			t.Errorf("ElementaryGoal(%d) = %d, %d", tc.players, n, h)
		}
	}
	for v, want := range map[Variant]int{Premium: 2, Advanced: 2, Basic: 4, Variation1: 2,
		Variation2: 1, Penalty: 2, Elementary: 4} {
		if got := ColourLimit(v); got != want {
			t.Errorf("ColourLimit(%s) = %d, want %d", v, got, want)
		}
	}
}
