package flicflac

import "github.com/arcade/arcade/rules"

// View is what everybody sees of a match (Flic Flac hides nothing): a plain value the terminal
// UI can draw without knowing the rules.
type View struct {
	// Side is the board's side (5 to 8); Hexes holds its 3 Side (Side - 1) + 1 hexes.
	Side int
	// Target is the captures that win (with a lead of 2); Limit the turns in all.
	Target, Limit int
	// TurnSeconds and CaptorSeconds are the turn's and the captors' turn's time (0: untimed).
	// The room keeps the clock (rules.TurnTimer); the view only says how long a turn is.
	TurnSeconds, CaptorSeconds int
	// EventPercent is the chance of a random event at the end of a turn.
	EventPercent int

	// Turn is the seat to move, -1 when the match is over.
	Turn rules.Seat
	// TurnNumber is the number of the turn being played, from 1 (captors' turns are part of
	// their turn); after the last turn it is TurnsPlayed.
	TurnNumber, TurnsPlayed int
	// CaptorsTurn is true when the turn now is a captors' turn: only pieces whose CanMove is
	// true (the captors not yet moved) may move.
	CaptorsTurn bool
	// Shapes holds each seat's shape; the cylinders moved first.
	Shapes [2]Shape
	// Captures holds each seat's captures (its score).
	Captures [2]int

	// Hexes holds every hex, indexed by Hex.
	Hexes []HexView
	// Pieces holds every piece, indexed by seat*6 + colour (see View.Piece).
	Pieces [Pieces]PieceView
	// Reach holds, for the seat to move, where each of its pieces may go now, by colour (nil:
	// the piece may not move). The same as State.Reach.
	Reach [Colours][]Hex

	// Last is what the latest end of a turn (or of a captors' turn) did; Last.Seat is -1 before
	// the first. LastTurn is what the ends of the latest turn did together: the turn's end and
	// those of its captors' turns so far (Captured and Scored summed; Captors, Event, Pair and
	// Sent from the latest end); CaptorsTurn false. Between turns, the one that just passed.
	Last, LastTurn Report

	// Outcome is the result: captures always, ranks and reason once over.
	Outcome rules.Outcome
}

// HexView is one hex.
type HexView struct {
	// Name is the hex's name in the notation, e.g. "h8".
	Name string
	// Cube is its position: flat-topped, columns q from the left, r growing downwards.
	Cube Cube
	// Colour is its colour now (Black for black hexes; a Hex Slide turns the others).
	Colour Colour
	// Piece is the id of the piece on it (seat*6 + colour), -1 when free.
	Piece int
}

// PieceView is one piece.
type PieceView struct {
	// ID is its owner and body colour; Shape its owner's shape.
	ID    PieceID
	Shape Shape
	// Hex is where it stands, NoHex when at home.
	Hex Hex
	// Flipped is true when it shows its flipped face; Flies the two colours it flies.
	Flipped bool
	Flies   [2]Colour
	// Empowered is true when it stands on a hex of its own colour.
	Empowered bool
	// Health is its health now (0 at home); Doomed is true when it is negative: the piece is
	// captured if the turn ends now (drawn grey).
	Health int
	Doomed bool
	// Moved is true when it moved this turn; From is where it stood (NoHex: home) and goes
	// back to if taken back.
	Moved bool
	From  Hex
	// CanMove is true when it belongs to the seat to move and may move now (it may still have
	// no free hex to go to: see View.Reach).
	CanMove bool
	// Captor is true in a captors' turn for the captors, moved or not.
	Captor bool
}

// View returns the match's view, a *View, the same for every viewer.
func (s *State) View(viewer rules.Seat) any {
	v := s.ViewOf()
	return &v
}

var _ rules.PublicViewer = (*State)(nil)

// PublicView marks the view as the same for every viewer (rules.PublicViewer).
func (s *State) PublicView() {}

// ViewOf is View with a typed result.
func (s *State) ViewOf() View {
	v := View{
		Side:          s.cfg.Side,
		Target:        s.cfg.Target,
		Limit:         s.cfg.Limit,
		TurnSeconds:   s.cfg.TurnSeconds,
		CaptorSeconds: s.cfg.CaptorSeconds,
		EventPercent:  s.cfg.EventPercent,
		Turn:          s.Turn(),
		TurnNumber:    min(s.turns+1, s.cfg.Limit),
		TurnsPlayed:   s.turns,
		CaptorsTurn:   s.CaptorsTurn(),
		Shapes:        s.shape,
		Captures:      s.captures,
		Last:          s.last,
		LastTurn:      s.turnRep,
		Outcome:       s.Outcome(),
	}
	v.Hexes = make([]HexView, s.geo.NumHexes())
	for h := range v.Hexes {
		v.Hexes[h] = HexView{Name: s.geo.names[h], Cube: s.geo.Cubes[h], Colour: s.colours[h], Piece: int(s.occ[h]) - 1}
	}
	health := s.Health()
	for id := range Pieces {
		p := s.pieces[id]
		pid := pieceOf(id)
		pv := PieceView{ID: pid, Shape: s.shape[id/Colours], Hex: p.hex, Flipped: p.flipped,
			Flies: Flies(pid.Colour, p.flipped), Empowered: s.Empowered(pid), Moved: p.moved, From: NoHex,
			Captor: s.CaptorsTurn() && s.may&(1<<id) != 0}
		if p.hex != NoHex {
			pv.Health, pv.Doomed = health[id], health[id] < 0
		}
		if p.moved {
			pv.From = p.from
		}
		if !s.over && pid.Seat == s.turn && s.mayMove(id) {
			pv.CanMove = true
			v.Reach[pid.Colour] = s.Reach(pid)
		}
		v.Pieces[id] = pv
	}
	return v
}

// Piece returns the view of seat's piece of colour c.
func (v View) Piece(seat rules.Seat, c Colour) PieceView { return v.Pieces[int(seat)*Colours+int(c)] }

// PiecesIn lists the pieces of a set of a Report (bit seat*6 + colour), in id order.
func PiecesIn(set uint16) []PieceID {
	var out []PieceID
	for id := range Pieces {
		if set&(1<<id) != 0 {
			out = append(out, pieceOf(id))
		}
	}
	return out
}
