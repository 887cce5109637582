package discon

import (
	"fmt"
	"math/rand/v2"

	"github.com/arcade/arcade/rules"
)

// piece is one piece on the board with the tower it carries.
type piece struct {
	sq    Square
	tower string // one byte per storey (a Colour), bottom first
}

// State is the state of one DISCON match. It implements rules.Engine and is immutable: every method
// leaves it unchanged, and Apply returns a new State.
type State struct {
	variant Variant
	seats   int
	limit   int // height limit; enforced unless variant is Penalty
	colours int // colour limit

	// floor holds what lies on each square, not carried: "" empty, 1 byte a disc, more a stack.
	floor  [Size * Size]string
	count  [Size * Size]int8 // number of pieces standing on each square
	pieces [4][Pieces]piece
	zone   *[Size * Size]int8 // seat whose home zone holds each square, or -1; shared, read-only

	turn      rules.Seat
	movesLeft int8 // 2 before the first move of a turn, 1 before the second
	first     int8 // index of the piece moved first this turn, -1 before it

	loose int // discs not carried by a piece (on the floor)
	// fresh marks the squares whose disc has never been in a tower: the disc laid there at the
	// start, not collected yet (a bit per square). A disc only moves by being collected, and a
	// piece landing on a square collects what lies there, so a square's bit is cleared by the
	// first landing and never set again.
	fresh     [2]uint64
	freshLeft int // discs never in a tower: the bits set in fresh
	freshTurn int // freshLeft at the end of the previous turn
	quiet     int // consecutive turns in which no disc that had never been in a tower was collected

	moves    int // moves applied so far
	last     Move
	lastSeat rules.Seat
	// turnMoves holds the moves of the latest turn, the one in progress or else the one before:
	// turnMoves[:turnLen] (1 or 2 moves), all by lastSeat.
	turnMoves [2]Move
	turnLen   int8
	note      string

	over   bool
	reason string
}

// New sets up a match of DISCON: variant, number of seats (2 to 4) and seed. It is Game.New.
func New(opts rules.Options, seats int, seed uint64) (rules.Engine, error) {
	v, err := ParseVariant(opts.String("variant", Premium.String()))
	if err != nil {
		return nil, err
	}
	return NewState(v, seats, seed)
}

// NewState is New with a typed variant and result.
func NewState(v Variant, seats int, seed uint64) (*State, error) {
	if seats < 2 || seats > 4 {
		return nil, fmt.Errorf("DISCON is for 2 to 4 players, not %d", seats)
	}
	if v < 0 || int(v) >= len(variantNames) {
		return nil, fmt.Errorf("there is no DISCON variant %d", int(v))
	}
	s := &State{
		variant:   v,
		seats:     seats,
		limit:     HeightLimit(seats),
		colours:   ColourLimit(v),
		movesLeft: 2,
		first:     -1,
		lastSeat:  -1,
		loose:     96,
		freshLeft: 96,
		freshTurn: 96,
	}
	discs := make([]byte, 0, 96)
	for c, n := range discCount {
		for range n {
			discs = append(discs, byte(c))
		}
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	rng.Shuffle(len(discs), func(i, j int) { discs[i], discs[j] = discs[j], discs[i] })
	k := 0
	for q := range Square(Size * Size) {
		if q == corners[0] || q == corners[1] || q == corners[2] || q == corners[3] {
			continue
		}
		s.floor[q] = string(discs[k : k+1])
		s.fresh[q/64] |= 1 << (q % 64)
		k++
	}
	s.zone = &zoneTables[seats]
	for seat := range rules.Seat(seats) {
		home := homeCorner(seats, seat)
		for i := range Pieces {
			s.pieces[seat][i] = piece{sq: home}
		}
		s.count[home] = Pieces
	}
	return s, nil
}

// zoneTables[n] maps each square to the seat whose home zone holds it in a game of n players, or -1.
var zoneTables [5][Size * Size]int8

func init() {
	for n := 2; n <= 4; n++ {
		for q := range Square(Size * Size) {
			zoneTables[n][q] = -1
			for seat := range rules.Seat(n) {
				if inZone(homeCorner(n, seat), q) {
					zoneTables[n][q] = int8(seat)
				}
			}
		}
	}
}

// Game returns "discon".
func (s *State) Game() string { return "discon" }

// Seats returns the number of seats.
func (s *State) Seats() int { return s.seats }

// Variant returns the variant being played.
func (s *State) Variant() Variant { return s.variant }

// Turn returns the seat to move, or -1 when the match is over.
func (s *State) Turn() rules.Seat {
	if s.over {
		return -1
	}
	return s.turn
}

// MovesLeft returns how many moves the seat to move has left this turn: 2 or 1; 0 when over.
func (s *State) MovesLeft() int {
	if s.over {
		return 0
	}
	return int(s.movesLeft)
}

// ToMove returns the seat to move, or nothing when the match is over.
func (s *State) ToMove() []rules.Seat {
	if s.over {
		return nil
	}
	return []rules.Seat{s.turn}
}

// Legal returns the legal moves of seat in canonical notation.
func (s *State) Legal(seat rules.Seat) []string {
	return rules.Notations(s.LegalMoves(seat))
}

// Apply decodes move and plays it for seat (see ApplyMove).
func (s *State) Apply(seat rules.Seat, move string) (rules.Engine, error) {
	if err := s.canAct(seat); err != nil {
		return nil, err
	}
	m, err := ParseMove(move)
	if err != nil {
		return nil, err
	}
	if who := MoveSeat(move); who >= 0 && who != seat && m.Kind == Jump {
		return nil, fmt.Errorf("%s%d is %s's piece; yours are %c1 to %c%d (or just 1 to %d)",
			string(SeatLetter(who)), m.Piece, SeatName(who), SeatLetter(seat), SeatLetter(seat), Pieces, Pieces)
	}
	ns, err := s.ApplyMove(seat, m)
	if err != nil {
		return nil, err
	}
	return ns, nil
}

// canAct checks that the match goes on and that it is seat's turn.
func (s *State) canAct(seat rules.Seat) error {
	if s.over {
		return fmt.Errorf("%w", rules.ErrGameOver)
	}
	if seat != s.turn {
		return fmt.Errorf("%w: %s is to move", rules.ErrNotYourTurn, SeatName(s.turn))
	}
	return nil
}

// Scores returns each seat's current score: the sum of the values of the towers its pieces carry.
func (s *State) Scores() []int {
	sc := make([]int, s.seats)
	for seat := range s.seats {
		sc[seat] = s.seatScore(rules.Seat(seat))
	}
	return sc
}

func (s *State) seatScore(seat rules.Seat) int {
	n := 0
	for i := range Pieces {
		n += scoreStack(s.variant, s.seats, s.pieces[seat][i].tower)
	}
	return n
}

// Outcome returns the scores, and once the match is over the ranks (ties share) and the reason.
func (s *State) Outcome() rules.Outcome {
	o := rules.Outcome{Over: s.over, Scores: s.Scores(), Reason: s.reason}
	if s.over {
		o.Ranks = rules.RankByScore(o.Scores)
	}
	return o
}

// opponentZone returns the seat other than mover whose home zone holds q, or -1.
func (s *State) opponentZone(mover rules.Seat, q Square) rules.Seat {
	z := rules.Seat(s.zone[q])
	if z == mover {
		return -1
	}
	return z
}

// pieceAt returns a piece standing on q (the lowest seat and number when several share a home
// corner), or false.
func (s *State) pieceAt(q Square) (PieceID, bool) {
	if s.count[q] == 0 {
		return PieceID{}, false
	}
	for seat := range s.seats {
		for i := range Pieces {
			if s.pieces[seat][i].sq == q {
				return PieceID{Seat: rules.Seat(seat), Num: i + 1}, true
			}
		}
	}
	return PieceID{}, false
}
