package stonetowers

import "github.com/arcade/arcade/rules"

var _ rules.Winnable = (*State)(nil)

// winLookahead is the number of actions left below which CanWin tries every way to play them:
// the last two actions of a 16 x 16 board are at most 256 x 256 boards to settle.
const winLookahead = 2

// CanWin implements rules.Winnable. A match ends after a fixed number of turns, and equal squares
// draw. When at most the last two actions remain, CanWin plays them every legal way and reports
// whether seat ends with more squares than its opponent in any; with more to come, one castle's
// domino effect can turn much of the board over, so it answers true. Once the match is over it
// reports whether seat won.
func (s *State) CanWin(seat rules.Seat) bool {
	if seat != Red && seat != Blue {
		return false
	}
	left := 2*s.turns - s.played[0] - s.played[1]
	if left > winLookahead {
		return true
	}
	return s.b.canWin(int(seat), int(s.Next()), max(left, 0))
}

// canWin reports whether, on the settled board b with left actions to come and mover acting
// first (the players alternate), some sequence of legal actions leaves player p with more
// squares than the other.
func (b *board) canWin(p, mover, left int) bool {
	if left == 0 {
		return b.margin(p) > 0
	}
	var buf [maxCells]ply
	for _, m := range b.plies(mover, buf[:0]) {
		nb := b.play(mover, m)
		if nb.canWin(p, 1-mover, left-1) {
			return true
		}
	}
	return false
}
