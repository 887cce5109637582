package lhexicon

import "github.com/arcade/arcade/rules"

// View is what a viewer sees of a match. Racks are private: Rack holds the viewer's own tiles and
// is empty for a spectator; everyone sees how many tiles each seat holds. Everything else is
// public. It is a plain value the terminal UI can draw without knowing the rules.
type View struct {
	// Viewer is the seat the view was made for, or rules.Spectator.
	Viewer rules.Seat
	// Seats is the number of players; 1 is the solo game.
	Seats int
	// Check and Timer are the room's options; TurnSeconds is the time a turn may take (0: no
	// limit).
	Check       Check
	Timer       Timer
	TurnSeconds int

	// Board holds every hex's tile (NoTile when empty), indexed by Hex; Centre is the centre hex.
	Board  [NumHexes]Tile
	Centre Hex
	// Traps lists the traps on the board: regions of empty hexes that do not touch the edge.
	Traps [][]Hex

	// Rack is the viewer's rack, in the order drawn; nil for a spectator.
	Rack []Tile
	// RackSizes holds how many tiles each seat holds.
	RackSizes []int
	// Bank is the number of tiles left in the bank.
	Bank int
	// Scores holds each seat's score.
	Scores []int

	// Turn is the seat whose turn it is, -1 when the match is over or the last word, which ends
	// it, awaits challenges. ToMove lists every seat that may act (see State.ToMove).
	Turn   rules.Seat
	ToMove []rules.Seat
	// Skips holds the seats that lose their next turn.
	Skips []bool
	// Pending is the word that may be challenged now, "" when none; PendingSeat played it and
	// Accepted marks the opponents who let it stand.
	Pending     string
	PendingSeat rules.Seat
	Accepted    []bool

	// Last is what the last move did (Last.Seat -1 before the first).
	Last Last
	// Stall counts the passes and exchanges in a row; the match ends when it reaches StallLimit.
	Stall, StallLimit int

	// Outcome is the result: scores always, ranks and reason once over.
	Outcome rules.Outcome
}

// View returns the match as viewer sees it: a *View.
func (s *State) View(viewer rules.Seat) any {
	v := s.ViewOf(viewer)
	return &v
}

// ViewOf is View with a typed result.
func (s *State) ViewOf(viewer rules.Seat) View {
	v := View{
		Viewer:      viewer,
		Seats:       s.seats,
		Check:       s.check,
		Timer:       s.timer,
		Board:       s.board,
		Centre:      Centre,
		Traps:       s.Traps(),
		Rack:        s.Rack(viewer),
		Bank:        s.nbag,
		Scores:      s.Scores(),
		Turn:        s.Turn(),
		ToMove:      s.ToMove(),
		Skips:       append([]bool(nil), s.skip[:s.seats]...),
		PendingSeat: -1,
		Last:        s.last,
		Stall:       s.stall,
		StallLimit:  s.StallLimit(),
		Outcome:     s.Outcome(),
	}
	if s.timer == Competition {
		v.TurnSeconds = CompetitionSeconds
	}
	v.Last.Path = append([]Hex(nil), s.last.Path...)
	for seat := range s.seats {
		v.RackSizes = append(v.RackSizes, s.nrack[seat])
	}
	if p := s.pending; p != nil {
		v.Pending, v.PendingSeat = p.word, p.seat
		v.Accepted = append([]bool(nil), p.accepted[:s.seats]...)
	}
	return v
}
