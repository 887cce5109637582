package coloretta

import (
	"fmt"
	"math/rand/v2"

	"github.com/arcade/arcade/rules"
)

const (
	maxSeats = 5
	// stackCap is the capacity of every stack with 3 or more players.
	stackCap = 3
	// belowLastCycle is the number of cards beneath the Last Cycle card in a fresh deck.
	belowLastCycle = 15
	// Streams of the seeded PCG: one for who starts, one per round's shuffle.
	streamStart = 0x636f6c6f72657474 // "coloretta"
	streamRound = 0x726f756e64000000 // "round" + round number
)

// stack is one game stack.
type stack struct {
	cards [stackCap]Card
	n     int
	cap   int
	// picker is the seat that picked the stack this cycle, or -1. A picked stack keeps its cards
	// listed (they are in the picker's hand now) so that the view can show what was taken.
	picker int
}

// State is a match of Coloretta. It implements rules.Engine and is immutable: Apply returns a new
// State. Its deck order is private; View shows only what players may see.
type State struct {
	seats, rounds int
	seed          uint64
	ncol          int // colours in play
	first         int // who started round 1
	round, cycle  int // 1-based

	// deck is this round's deck, top card first. It is shared between states and never written:
	// drawing only advances next.
	deck      []Card
	next      int
	lastCycle bool // the Last Cycle card has come
	// left counts the cards of the deck by kind, the Last Cycle card left out: public knowledge
	// (a round's cards less those in sight), kept for the bots.
	left [LastCycle]int

	stacks  [MaxStacks]stack
	nstacks int
	hands   [maxSeats]Hand
	picked  [maxSeats]int // stack index picked this cycle, -1 if none
	turn    int           // seat to move, -1 when over
	drawn   Card
	drawing bool // turn has drawn drawn and must place it
	discard Hand // cards of discarded stacks this round (2 players)

	totals  [maxSeats]int
	results []RoundResult // shared, append-only (copied on append)
	over    bool

	lastSeat   int
	lastMove   Move
	roundEnded bool

	// sim marks a bot's simulation: rounds end without building their breakdowns.
	sim bool
}

// RoundResult is the end of one round: every hand and its score.
type RoundResult struct {
	// Round is the round's number, from 1.
	Round int
	// Hands holds each seat's hand at the end of the round, indexed by seat.
	Hands []Hand
	// Scores holds each hand's score and breakdown, indexed by seat.
	Scores []HandScore
	// Totals holds each seat's total after the round.
	Totals []int
}

// New sets up a match: options (key "rounds", 1 to 6, default 4), seats (2 to 5) and seed.
func New(opts rules.Options, seats int, seed uint64) (rules.Engine, error) {
	return NewState(opts.Int("rounds", defaultRounds), seats, seed)
}

// NewState sets up a match of the given number of rounds (1 to 6) and seats (2 to 5).
func NewState(rounds, seats int, seed uint64) (*State, error) {
	if seats < 2 || seats > maxSeats {
		return nil, fmt.Errorf("coloretta is for 2 to %d players, not %d", maxSeats, seats)
	}
	if rounds < 1 || rounds > maxRounds {
		return nil, fmt.Errorf("rounds must be a whole number from 1 to %d", maxRounds)
	}
	s := &State{seats: seats, rounds: rounds, seed: seed, ncol: ColoursInPlay(seats), round: 1}
	s.first = rand.New(rand.NewPCG(seed, streamStart)).IntN(seats)
	s.lastSeat = -1
	s.setupRound()
	return s, nil
}

// roundCards returns the cards of one round's deck, Last Cycle card excluded, in a fixed order.
func roundCards(ncol int) []Card {
	cards := make([]Card, 0, ncol*CardsPerColour+Plus2Cards+WildCards+1)
	for c := range ncol {
		for range CardsPerColour {
			cards = append(cards, Card(c))
		}
	}
	for range Plus2Cards {
		cards = append(cards, Plus2)
	}
	for range WildCards {
		cards = append(cards, Wild)
	}
	return cards
}

// setupRound deals round s.round: a new shuffle from the seed, one card of a distinct colour to
// each player, the Last Cycle card with 15 cards beneath it, empty stacks, the round's starter to
// move.
func (s *State) setupRound() {
	rng := rand.New(rand.NewPCG(s.seed, streamRound+uint64(s.round)))
	cards := roundCards(s.ncol)
	perm := rng.Perm(s.ncol)
	s.hands = [maxSeats]Hand{}
	for p := range s.seats {
		c := Card(perm[p])
		s.hands[p].add(c)
		// Remove one card of that colour (the colours come first, 9 each).
		i := int(c)*CardsPerColour + CardsPerColour - 1
		cards[i] = LastCycle // placeholder, dropped below
	}
	rest := cards[:0]
	for _, c := range cards {
		if c != LastCycle {
			rest = append(rest, c)
		}
	}
	rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	s.deck = insertLastCycle(rest)
	s.left = [LastCycle]int{}
	for _, c := range rest {
		s.left[c]++
	}
	s.next = 0
	s.lastCycle = false
	s.discard = Hand{}
	s.cycle = 1
	s.nstacks = s.seats
	if s.seats == 2 {
		s.nstacks = 3
	}
	for i := range s.stacks {
		s.stacks[i] = stack{cap: stackCap, picker: -1}
		if s.seats == 2 {
			s.stacks[i].cap = i + 1
		}
	}
	for i := range s.picked {
		s.picked[i] = -1
	}
	s.drawing = false
	s.turn = (s.first + s.round - 1) % s.seats
}

// insertLastCycle returns a new deck: cards with the Last Cycle card placed so that 15 cards (or all
// of them, when fewer) lie beneath it.
func insertLastCycle(cards []Card) []Card {
	at := max(len(cards)-belowLastCycle, 0)
	deck := make([]Card, 0, len(cards)+1)
	deck = append(deck, cards[:at]...)
	deck = append(deck, LastCycle)
	return append(deck, cards[at:]...)
}
