package discon

import (
	"slices"

	"github.com/arcade/arcade/rules"
)

// View is what a viewer sees of a match: in DISCON everything is public, so every viewer, seated or
// spectator, gets the same View apart from the Viewer field. It is a plain value the terminal UI can
// draw without knowing the rules.
type View struct {
	// Variant is the variant being played.
	Variant Variant
	// Seats is the number of players.
	Seats int
	// Viewer is the seat the view was made for, or rules.Spectator. A room shares one view,
	// made for rules.Spectator, among all its viewers (see State.PublicView).
	Viewer rules.Seat

	// Turn is the seat to move, or -1 when the match is over.
	Turn rules.Seat
	// MovesLeft is how many moves Turn has left this turn: 2 or 1; 0 when the match is over.
	MovesLeft int
	// FirstPiece is the number of the piece Turn moved first this turn, 0 before the first move.
	FirstPiece int
	// Legal holds the legal moves of Turn (From filled in); empty when the match is over.
	Legal []Move
	// LastMove is the last move played (Kind Jump, From filled in); LastSeat played it, -1 before
	// the first move.
	LastMove Move
	LastSeat rules.Seat
	// LastTurn holds the moves of the latest turn of LastSeat, in order: the turn in progress when
	// LastSeat is still to move, else the turn before (one move or two). LastMove is its last.
	LastTurn []Move
	// Note tells what the engine did by itself after the last move, e.g. "Green had no legal move
	// and passed."; empty when nothing.
	Note string

	// Squares holds every square, indexed by Square (row*10 + column, a1 first, j10 last).
	Squares [Size * Size]SquareView
	// Pieces holds every piece, seat by seat, numbers 1 to 6: Pieces[seat*6 + num-1].
	Pieces []PieceView
	// Homes holds each seat's home corner; its home zone is the 3 x 3 block in that corner.
	Homes []Square

	// Scores holds each seat's current score under the variant.
	Scores []int
	// HeightLimit is the tower height limit for this number of players (12, 10 or 8).
	HeightLimit int
	// HeightEnforced is false in the Penalty variant: towers may then exceed HeightLimit.
	HeightEnforced bool
	// ColourLimit is the most colours a tower may hold (4: no limit).
	ColourLimit int
	// GoalTowers and GoalStoreys are the Elementary goal (own GoalTowers towers of at least
	// GoalStoreys storeys); both 0 in other variants.
	GoalTowers, GoalStoreys int

	// DiscsOnBoard counts the discs not carried by any piece: single discs and ownerless stacks.
	DiscsOnBoard int
	// QuietTurns counts the turns in a row in which no new disc was collected, one that had never
	// been in a tower (see the package doc);
	// the match ends when it reaches QuietLimit (3 full rounds). QuietRounds is QuietTurns in full
	// rounds.
	QuietTurns, QuietLimit, QuietRounds int

	// Outcome is the result: scores always, ranks and reason once over.
	Outcome rules.Outcome
}

// SquareView is one square of the board.
type SquareView struct {
	// Stack is what lies on the square, not carried by a piece, bottom first: empty, one disc, or
	// an ownerless stack (a tower left behind; it scores nothing).
	Stack []Colour
	// Pieces lists the pieces standing on the square: at most one, except on a home corner at the
	// start, where a seat's unmoved pieces stand together. A piece's tower is in its PieceView.
	Pieces []PieceID
	// Zone is the seat whose home zone holds the square, or -1 (also for an unused corner's zone).
	Zone rules.Seat
	// Home is the seat whose home corner this is, or -1.
	Home rules.Seat
}

// PieceView is one piece.
type PieceView struct {
	// ID is the piece's owner and number.
	ID PieceID
	// Square is where it stands.
	Square Square
	// Tower holds the colours of the storeys under the piece, bottom first.
	Tower []Colour
	// Value is the tower's score under the variant (ScoreTower).
	Value int
}

// View returns the match as viewer sees it: a *View (everything in DISCON is public). A room shows
// the same view to every player and spectator, so whoever gets it only reads it. It is a pointer
// because a View is about 7 KB, and a value would be copied into the interface, and out of it by
// every frame that draws it.
func (s *State) View(viewer rules.Seat) any {
	v := s.ViewOf(viewer)
	return &v
}

var _ rules.PublicViewer = (*State)(nil)

// PublicView marks DISCON's view as the same for every viewer (rules.PublicViewer): a room makes
// one per move, for rules.Spectator, and shows it to everybody.
func (s *State) PublicView() {}

// ViewOf is View with a typed result.
func (s *State) ViewOf(viewer rules.Seat) View {
	v := View{
		Variant:        s.variant,
		Seats:          s.seats,
		Viewer:         viewer,
		Turn:           s.Turn(),
		MovesLeft:      s.MovesLeft(),
		LastMove:       s.last,
		LastSeat:       s.lastSeat,
		Note:           s.note,
		Scores:         s.Scores(),
		HeightLimit:    s.limit,
		HeightEnforced: s.variant != Penalty,
		ColourLimit:    s.colours,
		DiscsOnBoard:   s.loose,
		QuietTurns:     s.quiet,
		QuietLimit:     s.quietLimit(),
		QuietRounds:    s.quiet / s.seats,
		Outcome:        s.Outcome(),
	}
	if s.turnLen > 0 {
		v.LastTurn = slices.Clone(s.turnMoves[:s.turnLen])
	}
	if s.first >= 0 && !s.over {
		v.FirstPiece = int(s.first) + 1
	}
	if !s.over {
		v.Legal = s.LegalMoves(s.turn)
	}
	if s.variant == Elementary {
		v.GoalTowers, v.GoalStoreys = ElementaryGoal(s.seats)
	}
	// The towers, stacks and lists of pieces are cut from three arrays, each sized once: a view
	// is made at every move.
	discs := s.loose
	for seat := range s.seats {
		for i := range Pieces {
			discs += len(s.pieces[seat][i].tower)
		}
	}
	cs := make([]Colour, 0, discs)
	ids := make([]PieceID, s.seats*Pieces)
	for q := range v.Squares {
		sq := &v.Squares[q]
		sq.Stack, cs = cut(cs, s.floor[q])
		sq.Zone = rules.Seat(s.zone[q])
		sq.Home = -1
		if n := int(s.count[q]); n > 0 {
			sq.Pieces, ids = ids[:0:n], ids[n:]
		}
	}
	v.Homes = make([]Square, 0, s.seats)
	v.Pieces = make([]PieceView, 0, s.seats*Pieces)
	for seat := range rules.Seat(s.seats) {
		home := homeCorner(s.seats, seat)
		v.Homes = append(v.Homes, home)
		v.Squares[home].Home = seat
		for i := range Pieces {
			p := s.pieces[seat][i]
			id := PieceID{Seat: seat, Num: i + 1}
			pv := PieceView{ID: id, Square: p.sq, Value: scoreStack(s.variant, s.seats, p.tower)}
			pv.Tower, cs = cut(cs, p.tower)
			v.Pieces = append(v.Pieces, pv)
			v.Squares[p.sq].Pieces = append(v.Squares[p.sq].Pieces, id)
		}
	}
	return v
}

// Piece returns the view of seat's piece num (1 to 6).
func (v View) Piece(seat rules.Seat, num int) PieceView {
	return v.Pieces[int(seat)*Pieces+num-1]
}

// cut appends the colours of t (the engine's tower representation, bottom first) to cs, and
// returns them as a slice of their own (nil when t is empty; full, so that an append copies) and
// cs with them.
func cut(cs []Colour, t string) (tower, rest []Colour) {
	if t == "" {
		return nil, cs
	}
	n := len(cs)
	for i := range len(t) {
		cs = append(cs, Colour(t[i]))
	}
	return cs[n:len(cs):len(cs)], cs
}
