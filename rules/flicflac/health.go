package flicflac

// Health returns every piece's health now, by id (seat*6 + colour); 0 for a piece at home.
// For each pair of adjacent pieces where A flies D's body colour, with k = 2 when A is
// empowered, else 1: same shape, D gains k; different shapes, D loses k and A gains k, and D
// loses 20 more when it does not fly A's body colour.
func (s *State) Health() [Pieces]int {
	var h [Pieces]int
	for a := range Pieces {
		pa := &s.pieces[a]
		if pa.hex == NoHex {
			continue
		}
		ca := Colour(a % Colours)
		k := 1
		if s.colours[pa.hex] == ca {
			k = 2
		}
		for _, nb := range s.geo.nbr[pa.hex] {
			if nb == NoHex || s.occ[nb] == 0 {
				continue
			}
			d := int(s.occ[nb]) - 1
			cd := Colour(d % Colours)
			if !flies(ca, pa.flipped, cd) {
				continue
			}
			if a/Colours == d/Colours {
				h[d] += k
				continue
			}
			h[d] -= k
			h[a] += k
			if !flies(cd, s.pieces[d].flipped, ca) {
				h[d] -= 20
			}
		}
	}
	return h
}

// doomed returns the pieces on the board whose health is negative: due to be captured.
func (s *State) doomed() uint16 {
	h := s.Health()
	var d uint16
	for id := range Pieces {
		if s.pieces[id].hex != NoHex && h[id] < 0 {
			d |= 1 << id
		}
	}
	return d
}
