package lhexicon

import "context"

// HintBudget bounds a hint's search (View.Hint): a tenth of a bot's (SearchBudget), some tens of
// milliseconds in the middle game, so that a hint answers a key at once. It is bounded in steps
// only, not in time, so that a hint is the same on every machine, however busy: what it costs a
// core is bounded all the same.
const HintBudget = 300_000

// Hint suggests a play to a learner: the highest-scoring play of the viewer's rack on the view's
// board that a search of HintBudget steps finds (Greedy's finder, cut short: the first found among
// equals), or false when it finds none (or the viewer is a spectator). It sees only what the
// viewer sees, their own rack and the board: a state is rebuilt from the view with no other rack
// and no bank, so the hint knows nothing the player does not. It does not check whose turn it
// is; the room offers it only in matches that count for nothing (the arcade's rule, not the
// game's). ctx also stops the search: the best play found by then is returned.
func (v *View) Hint(ctx context.Context) (Candidate, bool) {
	seat := v.Viewer
	if seat < 0 || int(seat) >= v.Seats || int(seat) >= MaxSeats || len(v.Rack) == 0 {
		return Candidate{}, false
	}
	s := &State{seats: v.Seats, check: v.Check, timer: v.Timer, board: v.Board, turn: seat}
	for _, t := range v.Board {
		if t != NoTile {
			s.placed++
		}
	}
	s.nrack[seat] = copy(s.racks[seat][:], v.Rack)
	c, ok := s.bestPlay(ctx, seat, HintBudget, nil)
	if !ok {
		return Candidate{}, false
	}
	if _, err := v.Preview(c.Move); err != nil { // (the finder plays dictionary words only)
		return Candidate{}, false
	}
	return c, true
}
