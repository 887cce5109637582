package flicflac

// HealthChange is what a move would do to one piece: its health before and after (0 for a piece
// at home), and whether it would then be due to be captured.
type HealthChange struct {
	Piece PieceID
	// Before and After are its health before and after the move; Entering is true for the
	// moved piece when it comes from home (Before is then 0 and means nothing).
	Before, After int
	Entering      bool
	// Doomed is true when After is negative: the piece is captured if the turn ends then.
	Doomed bool
}

// Preview says what moving the mover's piece of colour c to hex to would do to health, before
// the move is made: every piece whose health would change, the moved one first, then the others
// in id order (a learner's hint: the line under the board shows it while the cursor is on a hex
// the picked piece may reach). The engine plays the move (ApplyMove) on a copy of the position v
// shows and counts health (Health) before and after; nothing of v changes. It is nil, with
// ok false, when the move is not legal now. The view holds the whole position (Flic Flac hides
// nothing), so the preview is the same as the state's own: see State.Preview.
func (v *View) Preview(c Colour, to Hex) (changes []HealthChange, ok bool) {
	return v.state().Preview(c, to)
}

// Preview is View.Preview on the state itself.
func (s *State) Preview(c Colour, to Hex) (changes []HealthChange, ok bool) {
	if s.over || c < 0 || c >= Colours || to < 0 || int(to) >= s.geo.NumHexes() {
		return nil, false
	}
	n, err := s.ApplyMove(s.turn, Move{Kind: Place, Colour: c, To: s.geo.Name(to)})
	if err != nil {
		return nil, false
	}
	before, after := s.Health(), n.Health()
	moved := int(s.turn)*Colours + int(c)
	add := func(id int) {
		hc := HealthChange{Piece: pieceOf(id), Before: before[id], After: after[id], Doomed: after[id] < 0}
		if s.pieces[id].hex == NoHex {
			hc.Before, hc.Entering = 0, true
		}
		changes = append(changes, hc)
	}
	add(moved)
	for id := range Pieces {
		if id != moved && n.pieces[id].hex != NoHex && before[id] != after[id] {
			add(id)
		}
	}
	return changes, true
}

// state rebuilds the position v shows, as far as a move and health need it: the board's
// colours, the pieces (where, flipped, moved this turn and from where), the seat to move and a
// captors' turn's captors. What only the end of a turn reads (the seed, the flips a take-back
// restores) is not in a view and is left out: a state rebuilt from a view is for previews, never
// for ending a turn.
func (v *View) state() *State {
	cfg := Config{Side: v.Side, Target: v.Target, TurnSeconds: v.TurnSeconds, CaptorSeconds: v.CaptorSeconds,
		EventPercent: v.EventPercent, Limit: v.Limit, Shape: v.Shapes[0]}
	s := &State{geo: GeometryOf(v.Side), cfg: cfg, shape: v.Shapes, turn: v.Turn, captorsTurn: v.CaptorsTurn,
		turns: v.TurnsPlayed, captures: v.Captures, last: v.Last, turnRep: v.LastTurn, over: v.Outcome.Over,
		winner: -1}
	if v.Turn < 0 {
		s.over, s.turn = true, 0
	}
	for h, hv := range v.Hexes {
		s.colours[h] = hv.Colour
		s.occ[h] = int8(hv.Piece + 1)
	}
	for id, pv := range v.Pieces {
		s.pieces[id] = piece{hex: pv.Hex, flipped: pv.Flipped, moved: pv.Moved, from: pv.From, fromFlip: pv.Flipped}
		if pv.Captor {
			s.may |= 1 << id
		}
	}
	return s
}
