package flicflac

import "github.com/arcade/arcade/rules"

var _ rules.Winnable = (*State)(nil)

// CanWin implements rules.Winnable. Captures only grow, and a match the turn limit ends is won
// by more captures (equal draws), so seat can win only by ending with more captures than its
// opponent. CanWin is certain seat cannot only in the last turn before the limit, played by the
// opponent: seat does not move again, and scores only for the opponent's pieces captured as the
// turn and its captors' turns end. Each of those ends captures at most the opponent's 6 pieces,
// and a captors' turn follows only an end that captured one of seat's pieces (which cannot
// come back in the opponent's turn) and scored the opponent 1: so at most 1 + (seat's pieces on
// the board) ends, the first scoring seat at most 6, each later one at most 5 more than the
// opponent. Anywhere else captures can swing either way for turns to come, and it answers true.
// Once the match is over it reports whether seat won.
func (s *State) CanWin(seat rules.Seat) bool {
	if seat != 0 && seat != 1 {
		return false
	}
	if s.over {
		return s.winner == seat
	}
	if s.turns != s.cfg.Limit-1 || s.turn == seat {
		return true
	}
	onBoard := 0
	for c := range Colours {
		if s.pieces[int(seat)*Colours+c].hex != NoHex {
			onBoard++
		}
	}
	return s.captures[seat]+6+5*onBoard > s.captures[1-seat]
}
