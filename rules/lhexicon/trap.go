package lhexicon

// regions labels the empty hexes of a board by connected region: comp[h] is the region of empty
// hex h (from 1), 0 for an occupied hex; size[i] and open[i] give region i's number of hexes and
// whether it touches the board's edge (then it is no trap). Regions are numbered in hex order.
type regions struct {
	comp [NumHexes]uint8
	size [NumHexes + 1]uint8
	open [NumHexes + 1]bool
	n    int
}

// label fills r from board.
func (r *regions) label(board *[NumHexes]Tile) {
	r.comp = [NumHexes]uint8{}
	r.n = 0
	var stack [NumHexes]Hex
	for h := range Hex(NumHexes) {
		if board[h] != NoTile || r.comp[h] != 0 {
			continue
		}
		r.n++
		id := uint8(r.n)
		r.size[id], r.open[id] = 0, false
		sp := 0
		stack[sp] = h
		sp++
		r.comp[h] = id
		for sp > 0 {
			sp--
			x := stack[sp]
			r.size[id]++
			if onEdge[x] {
				r.open[id] = true
			}
			for _, nb := range neighbour[x] {
				if nb != NoHex && board[nb] == NoTile && r.comp[nb] == 0 {
					r.comp[nb] = id
					stack[sp] = nb
					sp++
				}
			}
		}
	}
}

// trapBonus returns the trap bonus of a play that turned board before into after (after holds the
// same tiles and more): 3 points for every hex of each trap the play creates. A trap of after is
// created when its hexes were not enclosed before, or when it is one of two or more traps that the
// play cut out of one trap of before. Filling part of a trap without splitting it earns nothing.
func trapBonus(before, after *regions) int {
	// For each trap of after: the region of before it lay in. Then count, per region of before,
	// the traps of after within it.
	var inBefore [NumHexes + 1]uint8
	var parts [NumHexes + 1]uint8
	for h := range Hex(NumHexes) {
		a := after.comp[h]
		if a == 0 || after.open[a] || inBefore[a] != 0 {
			continue
		}
		b := before.comp[h]
		inBefore[a] = b
		parts[b]++
	}
	bonus := 0
	for a := 1; a <= after.n; a++ {
		b := inBefore[a]
		if b == 0 {
			continue
		}
		if before.open[b] || parts[b] >= 2 {
			bonus += 3 * int(after.size[a])
		}
	}
	return bonus
}

// Traps returns the traps on the board now: every region of empty hexes that does not touch the
// edge, each as its hexes in order.
func (s *State) Traps() [][]Hex {
	var r regions
	r.label(&s.board)
	var out [][]Hex
	idx := map[uint8]int{}
	for h := range Hex(NumHexes) {
		c := r.comp[h]
		if c == 0 || r.open[c] {
			continue
		}
		i, ok := idx[c]
		if !ok {
			i = len(out)
			idx[c] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], h)
	}
	return out
}
