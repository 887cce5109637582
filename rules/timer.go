package rules

import "time"

// TurnTimer is implemented by engines whose rules give a turn a time limit (Lhex-i'-con's
// competition timer). The engine reads no clock: it says whose time runs now, how long that seat
// has, and which move the rules play for it when the time runs out. The room keeps the time and,
// when it runs out, plays that move for the seat; the move is recorded like any other, so a replay
// or a resume reproduces it.
type TurnTimer interface {
	// TurnLimit returns the turn timed now; ok is false when no turn is timed: an untimed match,
	// or one that is over.
	TurnLimit() (t TurnLimit, ok bool)
}

// TurnLimit is a timed turn.
type TurnLimit struct {
	// Seat is the seat whose time runs.
	Seat Seat
	// Turn tells turns apart: while Seat and Turn stay the same from one move to the next (a turn
	// of several moves, or another seat's answer during the turn), the time runs on; when either
	// changes, the new turn has its whole Limit.
	Turn int
	// Limit is the time the turn may take.
	Limit time.Duration
	// Timeout is the move, in notation and legal now for Seat, that is played for it when its
	// time runs out.
	Timeout string
}

// Winnable is implemented by engines that can tell, for certain and cheaply, that a seat can no
// longer win the match. A room asks it when a player's time runs out in a two-seat match: when
// the opponent cannot win, the match is a draw rather than a win on time (as at chess, where a
// player out of time against a lone king draws). So only an engine whose rules allow a draw
// (equal scores draw, or ties share the win) implements it.
type Winnable interface {
	// CanWin reports whether seat could still win the match alone (ranked first with no other
	// seat beside it) by some sequence of legal moves of every seat from this position, however
	// unlikely the play. It returns false only when that is certain; when the engine cannot tell
	// cheaply (in well under a second), it returns true. Once the match is over it reports
	// whether seat won alone.
	CanWin(seat Seat) bool
}
