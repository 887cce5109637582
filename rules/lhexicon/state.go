package lhexicon

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/arcade/arcade/rules"
)

// MaxSeats is the most players a game has.
const MaxSeats = 4

// Check is how words are checked: the room option "check".
type Check uint8

// The ways of checking words.
const (
	// Auto: the server refuses a word that is not in the dictionary; the player tries again.
	Auto Check = iota
	// Checked by challenge: a word stands unless an opponent challenges it (see the package doc).
	ByChallenge
)

// String returns the option value: "auto" or "challenge".
func (c Check) String() string {
	if c == ByChallenge {
		return "challenge"
	}
	return "auto"
}

// Timer is the turn timer: the room option "timer".
type Timer uint8

// The turn timers.
const (
	TimerOff    Timer = iota // no limit
	Competition              // 3 minutes a turn
)

// String returns the option value: "off" or "competition".
func (t Timer) String() string {
	if t == Competition {
		return "competition"
	}
	return "off"
}

// CompetitionSeconds is the time a turn may take with timer=competition.
const CompetitionSeconds = 180

// State is the state of one match. It implements rules.Engine and is immutable: every method
// leaves it unchanged and Apply returns a new State. It is a flat value (arrays, no slices) so
// that a copy is a new state; only pending points elsewhere, to a state no one changes.
type State struct {
	seats int
	check Check
	timer Timer
	seed  uint64

	board [NumHexes]Tile
	bag   [TotalTiles]Tile // the bank; tiles are drawn from the end
	nbag  int
	racks [MaxSeats][RackSize]Tile
	nrack [MaxSeats]int

	scores  [MaxSeats]int
	turn    rules.Seat
	placed  int            // tiles on the board
	stall   int            // turns in a row that were passes or exchanges
	skip    [MaxSeats]bool // the seat loses its next turn (a failed challenge)
	pending *pending       // the word awaiting challenges (check=challenge), or nil
	plies   int            // moves applied
	turns   int            // moves applied by the seat whose turn it was, and withdrawals: turns begun
	last    Last           // what the last move did
	words   int            // words that stand
	over    bool           // the match has ended
	reason  string         // why it ended
}

// pending is a play under check=challenge whose word may still be challenged: it is on the board
// and scored, and withdrawn (back to before) if a challenge finds it is no word.
type pending struct {
	before   *State
	seat     rules.Seat
	word     string
	valid    bool
	accepted [MaxSeats]bool
	ends     bool // the play ends the game once it stands
}

// Last tells what the last move did, for the view.
type Last struct {
	// Seat made the move; -1 before the first.
	Seat rules.Seat
	// Kind is what it was.
	Kind Kind
	// Word, Path, Score and Bonus describe a play: the word, its hexes, its points with the trap
	// bonus included, and the bonus alone. For a challenge they describe the challenged play.
	Word  string
	Path  []Hex
	Score int
	Bonus int
	// Count is the number of tiles exchanged or blanks swapped.
	Count int
	// Note says in words what happened, e.g. "South challenged CRUEL: it is a word; South loses
	// the next turn."
	Note string
}

// New sets up a match: options check and timer, 1 to 4 seats, the seed. It is Game.New.
func New(opts rules.Options, seats int, seed uint64) (rules.Engine, error) {
	c := Auto
	switch v := opts.String("check", "auto"); v {
	case "auto":
	case "challenge":
		c = ByChallenge
	default:
		return nil, fmt.Errorf("check must be auto or challenge, not %q", v)
	}
	t := TimerOff
	switch v := opts.String("timer", "off"); v {
	case "off":
	case "competition":
		t = Competition
	default:
		return nil, fmt.Errorf("timer must be off or competition, not %q", v)
	}
	return NewState(seats, c, t, seed)
}

// NewState is New with typed options and result. The bank is shuffled from the seed and each seat
// draws 7 tiles in seat order; seat 0 plays first.
func NewState(seats int, c Check, t Timer, seed uint64) (*State, error) {
	if seats < 1 || seats > MaxSeats {
		return nil, fmt.Errorf("Lhex-i'-con is for 1 to %d players, not %d", MaxSeats, seats)
	}
	s := &State{seats: seats, check: c, timer: t, seed: seed, last: Last{Seat: -1}}
	bag := fullBag()
	rng := rand.New(rand.NewPCG(seed, seed^0x6c686578))
	rng.Shuffle(len(bag), func(i, j int) { bag[i], bag[j] = bag[j], bag[i] })
	s.nbag = copy(s.bag[:], bag)
	for seat := range seats {
		s.draw(rules.Seat(seat))
	}
	return s, nil
}

// draw fills seat's rack from the bank, up to 7 tiles or until the bank is empty.
func (s *State) draw(seat rules.Seat) {
	for s.nrack[seat] < RackSize && s.nbag > 0 {
		s.nbag--
		s.racks[seat][s.nrack[seat]] = s.bag[s.nbag]
		s.bag[s.nbag] = NoTile
		s.nrack[seat]++
	}
}

// Game returns "lhexicon".
func (s *State) Game() string { return "lhexicon" }

// Seats returns the number of seats.
func (s *State) Seats() int { return s.seats }

// Check returns how words are checked.
func (s *State) Check() Check { return s.check }

// Timer returns the turn timer option.
func (s *State) Timer() Timer { return s.timer }

// Board returns the tile on h (NoTile when empty).
func (s *State) Board(h Hex) Tile { return s.board[h] }

// Rack returns seat's tiles (a copy). It is private to that seat: View gives it only to its owner.
func (s *State) Rack(seat rules.Seat) []Tile {
	if seat < 0 || int(seat) >= s.seats {
		return nil
	}
	return append([]Tile(nil), s.racks[seat][:s.nrack[seat]]...)
}

// Bank returns the number of tiles left in the bank.
func (s *State) Bank() int { return s.nbag }

// Turn returns the seat whose turn it is, or -1 when the match is over or a word that ends it
// awaits its challenges.
func (s *State) Turn() rules.Seat {
	if s.over || s.pending != nil && s.pending.ends {
		return -1
	}
	return s.turn
}

// LastMove returns what the last move did.
func (s *State) LastMove() Last { return s.last }

// Pending returns the word that may be challenged now, its player, and whether there is one.
func (s *State) Pending() (word string, seat rules.Seat, ok bool) {
	if s.pending == nil {
		return "", -1, false
	}
	return s.pending.word, s.pending.seat, true
}

// ToMove returns the seats that may act now: the seat whose turn it is and, while a word may be
// challenged, every opponent of its player who has not accepted it. Empty when over.
func (s *State) ToMove() []rules.Seat {
	if s.over {
		return nil
	}
	var out []rules.Seat
	if t := s.Turn(); t >= 0 {
		out = append(out, t)
	}
	if p := s.pending; p != nil {
		for seat := range rules.Seat(s.seats) {
			if seat != p.seat && seat != s.Turn() && !p.accepted[seat] {
				out = append(out, seat)
			}
		}
	}
	return out
}

// mayAct reports whether seat is among ToMove.
func (s *State) mayAct(seat rules.Seat) bool {
	for _, x := range s.ToMove() {
		if x == seat {
			return true
		}
	}
	return false
}

// Scores returns each seat's score.
func (s *State) Scores() []int { return append([]int(nil), s.scores[:s.seats]...) }

// Outcome returns the scores, and once over the ranks (ties share) and the reason.
func (s *State) Outcome() rules.Outcome {
	o := rules.Outcome{Over: s.over, Scores: s.Scores(), Reason: s.reason}
	if s.over {
		o.Ranks = rules.RankByScore(o.Scores)
	}
	return o
}

// StallLimit is the number of passes and exchanges in a row that ends the match: two for each
// player.
func (s *State) StallLimit() int { return 2 * s.seats }

// Stall returns the number of turns in a row that were passes or exchanges.
func (s *State) Stall() int { return s.stall }

// SkipsNext reports whether seat loses its next turn (it challenged a good word).
func (s *State) SkipsNext(seat rules.Seat) bool {
	return seat >= 0 && int(seat) < s.seats && s.skip[seat]
}

// SeatName returns the name of a seat as the engine's messages call it: "Player 1" to "Player 4".
func SeatName(seat rules.Seat) string {
	return fmt.Sprintf("Player %d", int(seat)+1)
}

// TurnLimit implements rules.TurnTimer: with timer=competition, the seat whose turn it is has
// CompetitionSeconds, and passes when they run out (a pass lets a word that may be challenged
// stand). An opponent's answer to a word does not start a new turn. When the last word awaits
// answers and nobody's turn follows, the first opponent who has not answered has the time, and
// accepts the word when it runs out.
func (s *State) TurnLimit() (rules.TurnLimit, bool) {
	if s.timer != Competition || s.over {
		return rules.TurnLimit{}, false
	}
	t := rules.TurnLimit{Turn: s.turns, Limit: CompetitionSeconds * time.Second}
	if seat := s.Turn(); seat >= 0 {
		t.Seat, t.Timeout = seat, Move{Kind: Pass}.String()
		return t, true
	}
	if to := s.ToMove(); len(to) > 0 {
		t.Seat, t.Timeout = to[0], Move{Kind: Accept}.String()
		return t, true
	}
	return rules.TurnLimit{}, false
}
