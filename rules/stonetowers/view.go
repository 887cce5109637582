package stonetowers

import "github.com/arcade/arcade/rules"

// Nobody is the Owner of an unowned square.
const Nobody rules.Seat = -1

// Red and Blue are the two seats. Red moves first.
const (
	Red  rules.Seat = 0
	Blue rules.Seat = 1
)

// SeatName returns "Red" or "Blue" ("nobody" for any other seat).
func SeatName(s rules.Seat) string {
	switch s {
	case Red:
		return "Red"
	case Blue:
		return "Blue"
	}
	return "nobody"
}

// Cell is the content of a square: Owner is Red, Blue or Nobody; Level is 1 to 3 for a castle and 0
// for a flag or an unowned square.
type Cell struct {
	Owner rules.Seat
	Level int
}

// IsCastle reports whether the square holds a castle.
func (c Cell) IsCastle() bool { return c.Level > 0 }

// ChangeKind says what happened to a square.
type ChangeKind uint8

// The kinds of change. CastleBuilt and CastleFortified are the action itself (wave 0); the others
// come from the resolution.
const (
	// CastleBuilt: the mover built a level-1 castle.
	CastleBuilt ChangeKind = iota
	// CastleFortified: the mover raised one of its castles by a level.
	CastleFortified
	// LandClaimed: an unowned square became a flag.
	LandClaimed
	// FlagTaken: a flag of one player became the other's.
	FlagTaken
	// CastleDestroyed: a castle fell and its square became the other player's flag.
	CastleDestroyed
)

// String returns the change in words: "castle built", "castle fortified", "land claimed",
// "flag taken", "castle destroyed".
func (k ChangeKind) String() string {
	switch k {
	case CastleBuilt:
		return "castle built"
	case CastleFortified:
		return "castle fortified"
	case LandClaimed:
		return "land claimed"
	case FlagTaken:
		return "flag taken"
	case CastleDestroyed:
		return "castle destroyed"
	}
	return "changed"
}

// Change is one square changed by the last action. Wave 0 is the action itself (the castle built or
// fortified); wave 1, 2, ... are the waves of the resolution that followed (the domino effect). A
// square may change in more than one wave.
type Change struct {
	Square        Square
	Wave          int
	Before, After Cell
	Kind          ChangeKind
}

// LastMove is the last action played.
type LastMove struct {
	Seat rules.Seat
	// Move is the move as played, with a bare square resolved to Build or Fortify.
	Move Move
	// Notation is Move in canonical notation, "b e5".
	Notation string
}

// SquareView is one square as shown: its content and both players' influence on it, indexed by
// seat.
type SquareView struct {
	Cell
	Influence [2]int
}

// View is what every viewer sees (Stone Towers has no private information). Engine.View returns a
// View.
type View struct {
	// Size is the board's width and height.
	Size int
	// Grid holds the squares by row, then column: Grid[sq.Row][sq.Col]. Row 0 is the top row.
	Grid [][]SquareView
	// Turns is the number of turns each player has in the whole game.
	Turns int
	// TurnsLeft holds each seat's remaining turns.
	TurnsLeft [2]int
	// Scores holds each seat's squares owned.
	Scores [2]int
	// ToMove is the seat to act, or Nobody when the game is over.
	ToMove rules.Seat
	// Over reports whether the game has ended.
	Over bool
	// LastMove is the last action, nil before the first.
	LastMove *LastMove
	// Changes lists the squares changed by the last action, in wave order (see Change).
	Changes []Change
	// Waves is the number of the last wave in Changes (0 when the action took no square).
	Waves int
}

// At returns the square sq. It panics when sq is off the board.
func (v View) At(sq Square) SquareView { return v.Grid[sq.Row][sq.Col] }

// Influence returns both players' influence on sq, indexed by seat.
func (v View) Influence(sq Square) [2]int { return v.At(sq).Influence }

// OnBoard reports whether sq is on the board.
func (v View) OnBoard(sq Square) bool {
	return sq.Col >= 0 && sq.Row >= 0 && sq.Col < v.Size && sq.Row < v.Size
}
