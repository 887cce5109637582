package coloretta

import (
	"errors"
	"fmt"
	"slices"

	"github.com/arcade/arcade/rules"
)

// Errors of Apply that bots and tests may check for; each reads as a sentence for the player.
var (
	ErrPlaceFirst = errors.New("place the card you drew first")
	ErrDrawFirst  = errors.New("you have no card to place: draw first (d)")
	ErrMustDraw   = errors.New("every open stack is empty: you must draw")
	ErrMayNotDraw = errors.New("every open stack is full: you may not draw")
	ErrDeckEmpty  = errors.New("the deck is empty: pick a stack")
)

// Game returns "coloretta".
func (s *State) Game() string { return Game.ID }

// Seats returns the number of players.
func (s *State) Seats() int { return s.seats }

// Round returns the current round (from 1) and the number of rounds.
func (s *State) Round() (round, rounds int) { return s.round, s.rounds }

// ToMove returns the one seat to move, or none when the game is over.
func (s *State) ToMove() []rules.Seat {
	if s.over {
		return nil
	}
	return []rules.Seat{rules.Seat(s.turn)}
}

// open reports whether stack i is in play and not picked this cycle.
func (s *State) open(i int) bool { return i >= 0 && i < s.nstacks && s.stacks[i].picker < 0 }

// allOpen reports whether every open stack is full (full) or empty (!full).
func (s *State) allOpen(full bool) bool {
	for i := range s.nstacks {
		st := &s.stacks[i]
		if st.picker >= 0 {
			continue
		}
		if full && st.n < st.cap || !full && st.n > 0 {
			return false
		}
	}
	return true
}

func (s *State) canDraw() bool { return s.next < len(s.deck) && !s.allOpen(true) }

// LegalMoves returns the legal moves of seat now: places when it has drawn, else draw (when
// allowed) and then takes, in stack order.
func (s *State) LegalMoves(seat rules.Seat) []Move {
	if s.over || int(seat) != s.turn {
		return nil
	}
	var ms []Move
	if s.drawing {
		for i := range s.nstacks {
			if s.open(i) && s.stacks[i].n < s.stacks[i].cap {
				ms = append(ms, Move{Kind: Place, Stack: i})
			}
		}
		return ms
	}
	if s.canDraw() {
		ms = append(ms, Move{Kind: Draw})
	}
	for i := range s.nstacks {
		if s.open(i) && s.stacks[i].n > 0 {
			ms = append(ms, Move{Kind: Take, Stack: i})
		}
	}
	return ms
}

// Legal returns the legal moves of seat now in notation (see LegalMoves).
func (s *State) Legal(seat rules.Seat) []string {
	return rules.Notations(s.LegalMoves(seat))
}

// Apply plays move (in notation) for seat and returns the new state; the receiver is unchanged.
func (s *State) Apply(seat rules.Seat, move string) (rules.Engine, error) {
	if s.over {
		return nil, fmt.Errorf("%w", rules.ErrGameOver)
	}
	m, err := ParseMove(move)
	if err != nil {
		return nil, err
	}
	ns, err := s.ApplyMove(seat, m)
	if err != nil {
		return nil, err
	}
	return ns, nil
}

// ApplyMove is Apply for a decoded move.
func (s *State) ApplyMove(seat rules.Seat, m Move) (*State, error) {
	if err := s.check(int(seat), m); err != nil {
		return nil, err
	}
	ns := *s
	ns.play(int(seat), m)
	return &ns, nil
}

// check returns why seat may not play m now, or nil.
func (s *State) check(seat int, m Move) error {
	if s.over {
		return fmt.Errorf("%w", rules.ErrGameOver)
	}
	if seat != s.turn {
		if seat >= 0 && seat < s.seats && s.picked[seat] >= 0 {
			return fmt.Errorf("%w: you picked stack %d and sit out until this cycle ends",
				rules.ErrNotYourTurn, s.picked[seat]+1)
		}
		return fmt.Errorf("%w", rules.ErrNotYourTurn)
	}
	if m.Kind != Draw && (m.Stack < 0 || m.Stack >= s.nstacks) {
		if m.Stack < 0 || m.Stack >= MaxStacks {
			return fmt.Errorf("%w: %v", rules.ErrBadNotation, m)
		}
		return fmt.Errorf("there is no stack %d: the stacks are 1 to %d", m.Stack+1, s.nstacks)
	}
	switch m.Kind {
	case Draw:
		switch {
		case s.drawing:
			return ErrPlaceFirst
		case s.allOpen(true):
			return ErrMayNotDraw
		case s.next >= len(s.deck):
			return ErrDeckEmpty
		}
	case Place:
		st := &s.stacks[m.Stack]
		switch {
		case !s.drawing:
			return ErrDrawFirst
		case st.picker >= 0:
			return fmt.Errorf("stack %d was already picked this cycle", m.Stack+1)
		case st.n >= st.cap:
			return fmt.Errorf("stack %d is full", m.Stack+1)
		}
	case Take:
		st := &s.stacks[m.Stack]
		switch {
		case s.drawing:
			return ErrPlaceFirst
		case st.picker >= 0:
			return fmt.Errorf("stack %d was already picked this cycle", m.Stack+1)
		case st.n == 0 && s.allOpen(false):
			return ErrMustDraw
		case st.n == 0:
			return fmt.Errorf("stack %d is empty", m.Stack+1)
		}
	default:
		return fmt.Errorf("%w: %v", rules.ErrBadNotation, m)
	}
	return nil
}

// play plays a checked move, changing s in place.
func (s *State) play(seat int, m Move) {
	s.lastSeat, s.lastMove, s.roundEnded = seat, m, false
	switch m.Kind {
	case Draw:
		c := s.deck[s.next]
		s.next++
		if c == LastCycle {
			// Set aside; the replacement is the drawn card. 15 cards lie beneath the Last Cycle
			// card, so there always is one.
			s.lastCycle = true
			c = s.deck[s.next]
			s.next++
		}
		s.left[c]--
		s.drawn, s.drawing = c, true
		return
	case Place:
		st := &s.stacks[m.Stack]
		st.cards[st.n] = s.drawn
		st.n++
		s.drawing = false
		s.turn = s.nextSeat(seat)
	case Take:
		st := &s.stacks[m.Stack]
		for _, c := range st.cards[:st.n] {
			s.hands[seat].add(c)
		}
		st.picker = seat
		s.picked[seat] = m.Stack
		if t := s.nextSeat(seat); t >= 0 {
			s.turn = t
		} else {
			s.endCycle(seat)
			return
		}
	}
	// Defensive (cannot happen with the standard deck, whose Last Cycle card has 15 cards beneath
	// it and a cycle takes at most 15): a player who must draw from an empty deck ends the round.
	if !s.drawing && s.next >= len(s.deck) && s.allOpen(false) {
		s.endRound()
	}
}

// nextSeat returns the next seat after seat (seat itself last) that has not picked this cycle,
// or -1.
func (s *State) nextSeat(seat int) int {
	for k := 1; k <= s.seats; k++ {
		t := (seat + k) % s.seats
		if s.picked[t] < 0 {
			return t
		}
	}
	return -1
}

// endCycle ends the cycle in which last picked last.
func (s *State) endCycle(last int) {
	for i := range s.nstacks {
		if st := &s.stacks[i]; st.picker < 0 { // 2 players: the third stack is discarded
			for _, c := range st.cards[:st.n] {
				s.discard.add(c)
			}
			st.n = 0
		}
	}
	if s.lastCycle {
		s.endRound()
		return
	}
	s.clearStacks()
	s.cycle++
	s.turn = last
}

func (s *State) clearStacks() {
	for i := range s.nstacks {
		s.stacks[i].n, s.stacks[i].picker = 0, -1
	}
	for i := range s.picked {
		s.picked[i] = -1
	}
}

// endRound scores the hands, adds them to the totals and deals the next round or ends the game.
func (s *State) endRound() {
	s.roundEnded = true
	if s.sim {
		for p := range s.seats {
			s.totals[p] += points(&s.hands[p])
		}
		s.over, s.turn, s.drawing = true, -1, false
		return
	}
	r := RoundResult{Round: s.round, Hands: make([]Hand, s.seats), Scores: make([]HandScore, s.seats),
		Totals: make([]int, s.seats)}
	for p := range s.seats {
		r.Hands[p] = s.hands[p]
		r.Scores[p] = ScoreHand(s.hands[p])
		s.totals[p] += r.Scores[p].Total
		r.Totals[p] = s.totals[p]
	}
	s.results = append(slices.Clip(s.results), r)
	if s.round >= s.rounds {
		s.over, s.turn, s.drawing = true, -1, false
		// Leave the final hands and stacks on the table for the last look.
		for i := range s.nstacks {
			s.stacks[i].picker = -1
			s.stacks[i].n = 0
		}
		for i := range s.picked {
			s.picked[i] = -1
		}
		return
	}
	s.round++
	s.setupRound()
}

// Outcome returns each seat's total of the finished rounds (the hand in play is not counted until
// its round ends) and, once the game is over, the ranks: highest total first, ties share.
func (s *State) Outcome() rules.Outcome {
	o := rules.Outcome{Over: s.over, Scores: slices.Clone(s.totals[:s.seats])}
	if s.over {
		o.Ranks = rules.RankByScore(o.Scores)
		o.Reason = fmt.Sprintf("all %d rounds played", s.rounds)
		if s.rounds == 1 {
			o.Reason = "the round is over"
		}
	}
	return o
}
