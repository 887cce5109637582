package rules

import "time"

// TurnTimer is implemented by engines whose rules give a turn a time limit (Lhex-i'-con's
// competition timer). The engine reads no clock: it says whose time runs now, how long that seat
// has, and which move the rules play for it when the time runs out. The room keeps the time and,
// when it runs out, plays that move for the seat; the move is recorded like any other, so a replay
// or a resume reproduces it.
type TurnTimer interface {
	// TurnLimit returns the seat whose turn is timed now, the time the turn may take, and the move
	// (in notation, legal now for that seat) played for it when that time runs out. ok is false
	// when no turn is timed: an untimed match, or one that is over.
	TurnLimit() (seat Seat, limit time.Duration, timeout string, ok bool)
}
