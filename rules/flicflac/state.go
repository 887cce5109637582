package flicflac

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/arcade/arcade/rules"
)

// Pieces is the number of pieces on the table: 6 a player. A piece's id is seat*6 + colour.
const Pieces = 2 * Colours

// PieceID names a piece: its owner's seat and its colour.
type PieceID struct {
	Seat   rules.Seat
	Colour Colour
}

func (p PieceID) id() int { return int(p.Seat)*Colours + int(p.Colour) }

func pieceOf(id int) PieceID {
	return PieceID{Seat: rules.Seat(id / Colours), Colour: Colour(id % Colours)}
}

// Config is a match's settings: the room options.
type Config struct {
	Side          int   // the board's side, 5 to 8 (option size)
	Target        int   // captures that win, with a lead of 2 (option target)
	TurnSeconds   int   // a turn's time; 0: untimed (option timer)
	CaptorSeconds int   // a captors' turn's time; 0: untimed (option captors)
	EventPercent  int   // the chance of a random event at the end of a turn (option events)
	Limit         int   // turns in all, both players' (option limit)
	Shape         Shape // seat 0's shape
	RandomShape   bool  // draw seat 0's shape from the seed instead
}

// DefaultConfig is what a room gets when its creator sets nothing.
var DefaultConfig = Config{Side: 8, Target: 11, TurnSeconds: 20, CaptorSeconds: 10, EventPercent: 1,
	Limit: 200, RandomShape: true}

// piece is one piece: where it stands and, when it moved this turn, where from.
type piece struct {
	hex      Hex // NoHex: at home
	flipped  bool
	moved    bool // moved this turn (and not taken back)
	from     Hex  // where it stood when the turn began (NoHex: home), when moved
	fromFlip bool // its flip then
}

// Event is a random event.
type Event int8

// The random events.
const (
	NoEvent      Event = iota
	TumblingWind       // every piece on the board flips
	Recall             // the four pieces of a pair of opposite colours go home
	SinkHoles          // pieces on hexes of a pair of opposite colours go home
	HexSlide           // the colours of the board turn 60 degrees about the centre
)

var eventNames = [...]string{"", "Tumbling Wind", "Recall", "Sink Holes", "Hex Slide"}

// String returns the event's name, "" for NoEvent.
func (e Event) String() string {
	if e < 0 || int(e) >= len(eventNames) {
		return "event"
	}
	return eventNames[e]
}

// Report is what the end of a turn (or of a captors' turn) did.
type Report struct {
	// Seat ended the turn; -1 before any end.
	Seat rules.Seat
	// CaptorsTurn is true when it was a captors' turn that ended.
	CaptorsTurn bool
	// Captured holds the pieces captured (bit id = seat*6 + colour), of either side.
	Captured uint16
	// Scored is what each seat scored.
	Scored [2]int
	// Captors holds Seat's pieces that move in the captors' turn that follows (0: none).
	Captors uint16
	// Event is the random event that followed, with Pair the first colour of its pair of
	// opposite colours (Recall, Sink Holes) and Sent the pieces it sent home.
	Event Event
	Pair  Colour
	Sent  uint16
}

// State is the state of one match. It implements rules.Engine, rules.Teller and
// rules.TurnTimer, and is immutable: a flat value (arrays, no slices) whose methods leave it
// unchanged; Apply returns a new State.
type State struct {
	geo  *Geometry
	cfg  Config
	seed uint64

	colours [MaxHexes]Colour // each hex's colour now (Hex Slides turn them)
	occ     [MaxHexes]int8   // the id+1 of the piece on each hex, 0 when free
	pieces  [Pieces]piece
	shape   [2]Shape // each seat's shape

	turn        rules.Seat
	captorsTurn bool   // the turn now is a captors' turn
	may         uint16 // the pieces that may move in a captors' turn
	turns       int    // full turns ended (captors' turns are part of theirs)
	timed       int    // turns and captors' turns begun: rules.TurnLimit.Turn
	captures    [2]int
	plies       int
	last        Report // the latest end
	turnRep     Report // the latest turn's ends, its captors' turns' added

	over   bool
	winner rules.Seat // -1: a draw
	reason string
}

// New sets up a match from room options (Game.Options). It is Game.New.
func New(opts rules.Options, seats int, seed uint64) (rules.Engine, error) {
	cfg, err := ParseConfig(opts)
	if err != nil {
		return nil, err
	}
	if seats != 2 {
		return nil, fmt.Errorf("Flic Flac is for 2 players, not %d", seats)
	}
	s, err := NewState(cfg, seed)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// ParseConfig reads the room options; a missing option takes its default.
func ParseConfig(opts rules.Options) (Config, error) {
	c := DefaultConfig
	c.Side = opts.Int("size", c.Side)
	c.Target = opts.Int("target", c.Target)
	c.TurnSeconds = opts.Int("timer", c.TurnSeconds)
	c.CaptorSeconds = opts.Int("captors", c.CaptorSeconds)
	c.EventPercent = opts.Int("events", c.EventPercent)
	c.Limit = opts.Int("limit", c.Limit)
	switch v := opts.String("shape", "random"); v {
	case "random":
	case "cylinders":
		c.Shape, c.RandomShape = Cylinder, false
	case "blocks":
		c.Shape, c.RandomShape = Block, false
	default:
		return c, fmt.Errorf("shape must be one of random, cylinders, blocks, not %q", v)
	}
	return c, c.check()
}

func (c Config) check() error {
	switch {
	case c.Side < MinSide || c.Side > MaxSide:
		return fmt.Errorf("size must be from %d to %d", MinSide, MaxSide)
	case c.Target < 1:
		return fmt.Errorf("target must be at least 1")
	case c.TurnSeconds < 0 || c.CaptorSeconds < 0:
		return fmt.Errorf("timers cannot be negative")
	case c.EventPercent < 0 || c.EventPercent > 100:
		return fmt.Errorf("events must be a percentage from 0 to 100")
	case c.Limit < 1:
		return fmt.Errorf("limit must be at least 1 turn")
	}
	return nil
}

// NewState sets up a match: all pieces at home, upright; cylinders to move.
func NewState(cfg Config, seed uint64) (*State, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	s := &State{geo: GeometryOf(cfg.Side), cfg: cfg, seed: seed, winner: -1, last: Report{Seat: -1},
		turnRep: Report{Seat: -1}}
	if cfg.RandomShape {
		cfg.Shape = Shape(rand.New(rand.NewPCG(seed, 0x5a17e)).IntN(2))
		s.cfg.Shape = cfg.Shape
	}
	s.shape = [2]Shape{cfg.Shape, 1 - cfg.Shape}
	copy(s.colours[:], s.geo.start)
	for i := range s.pieces {
		s.pieces[i] = piece{hex: NoHex, from: NoHex}
	}
	s.turn = s.SeatOf(Cylinder)
	return s, nil
}

// Game returns "flicflac".
func (s *State) Game() string { return "flicflac" }

// Seats returns 2.
func (s *State) Seats() int { return 2 }

// Config returns the match's settings (Shape is seat 0's, drawn when it was random).
func (s *State) Config() Config { return s.cfg }

// Geometry returns the board.
func (s *State) Geometry() *Geometry { return s.geo }

// Shape returns seat's shape.
func (s *State) Shape(seat rules.Seat) Shape { return s.shape[seat&1] }

// SeatOf returns the seat that plays shape sh.
func (s *State) SeatOf(sh Shape) rules.Seat {
	if s.shape[0] == sh {
		return 0
	}
	return 1
}

// Turn returns the seat to move, or -1 when the match is over.
func (s *State) Turn() rules.Seat {
	if s.over {
		return -1
	}
	return s.turn
}

// CaptorsTurn reports whether the turn now is a captors' turn.
func (s *State) CaptorsTurn() bool { return s.captorsTurn && !s.over }

// TurnsPlayed returns the number of turns ended (a turn's captors' turns are part of it).
func (s *State) TurnsPlayed() int { return s.turns }

// Captures returns each seat's captures.
func (s *State) Captures() [2]int { return s.captures }

// ToMove returns the seat to move, or nothing when the match is over.
func (s *State) ToMove() []rules.Seat {
	if s.over {
		return nil
	}
	return []rules.Seat{s.turn}
}

// Outcome returns the captures as scores, and once over the ranks and the reason.
func (s *State) Outcome() rules.Outcome {
	o := rules.Outcome{Over: s.over, Scores: []int{s.captures[0], s.captures[1]}, Reason: s.reason}
	if s.over {
		o.Ranks = []int{1, 1}
		if s.winner >= 0 {
			o.Ranks[1-s.winner] = 2
		}
	}
	return o
}

// TurnLimit implements rules.TurnTimer: the seat to move has the turn's time (the captors'
// time in a captors' turn), and "end" is played when it runs out. Every turn and every captors'
// turn is a turn of its own; the moves inside one keep its time running.
func (s *State) TurnLimit() (rules.TurnLimit, bool) {
	if s.over || s.cfg.TurnSeconds == 0 {
		return rules.TurnLimit{}, false
	}
	secs := s.cfg.TurnSeconds
	if s.captorsTurn {
		secs = s.cfg.CaptorSeconds
	}
	if secs == 0 {
		return rules.TurnLimit{}, false
	}
	return rules.TurnLimit{Seat: s.turn, Turn: s.timed, Limit: time.Duration(secs) * time.Second,
		Timeout: Move{Kind: End}.String()}, true
}

// PieceName names a piece in messages: "the blue cylinder".
func (s *State) PieceName(p PieceID) string {
	return "the " + p.Colour.String() + " " + s.shape[p.Seat&1].String()
}

// SeatName names a seat in messages: "Cylinders" or "Blocks".
func (s *State) SeatName(seat rules.Seat) string {
	n := s.shape[seat&1].Plural()
	return strings.ToUpper(n[:1]) + n[1:]
}

// Empowered reports whether piece p stands on a hex of its own colour.
func (s *State) Empowered(p PieceID) bool {
	h := s.pieces[p.id()].hex
	return h != NoHex && s.colours[h] == p.Colour
}
