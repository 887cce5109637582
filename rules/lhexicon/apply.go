package lhexicon

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/arcade/arcade/rules"
)

// Apply decodes move and plays it for seat (see ApplyMove).
func (s *State) Apply(seat rules.Seat, move string) (rules.Engine, error) {
	if err := s.canAct(seat); err != nil {
		return nil, err
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

// canAct checks that the match goes on and that seat may act now.
func (s *State) canAct(seat rules.Seat) error {
	if s.over {
		return fmt.Errorf("%w", rules.ErrGameOver)
	}
	if !s.mayAct(seat) {
		if t := s.Turn(); t >= 0 {
			return fmt.Errorf("%w: %s is to move", rules.ErrNotYourTurn, SeatName(t))
		}
		return fmt.Errorf("%w: the others may still challenge the last word", rules.ErrNotYourTurn)
	}
	return nil
}

// ApplyMove plays m for seat and returns the new state, or an error in plain words that wraps the
// reason (ErrNotWord, ErrContact, ... for plays; rules.ErrNotYourTurn, rules.ErrGameOver). The
// receiver is unchanged either way.
func (s *State) ApplyMove(seat rules.Seat, m Move) (*State, error) {
	if err := s.canAct(seat); err != nil {
		return nil, err
	}
	switch m.Kind {
	case Challenge, Accept:
		if s.pending == nil {
			return nil, errors.New("there is no word to challenge or accept now")
		}
		if s.pending.seat == seat {
			return nil, errors.New("you cannot challenge or accept your own word")
		}
		if s.pending.accepted[seat] {
			return nil, errors.New("you have already accepted the word")
		}
		if m.Kind == Challenge {
			return s.challenge(seat), nil
		}
		return s.accept(seat), nil
	}
	if seat != s.Turn() {
		return nil, fmt.Errorf("%w: %s is to move; you may only challenge or accept %s now",
			rules.ErrNotYourTurn, SeatName(s.turn), strings.ToUpper(s.pending.word))
	}
	// Any other move of the seat whose turn it is lets a pending word stand.
	base := s
	if s.pending != nil {
		c := *s
		c.pending = nil
		base = &c
	}
	var ns *State
	var err error
	switch m.Kind {
	case Play:
		ns, err = base.play(seat, m)
	case Exchange:
		ns, err = base.exchange(seat, m.Give)
	case Swap:
		ns, err = base.swap(seat, m.Hexes)
	case Pass:
		ns = base.clone(seat, Pass)
		ns.last.Note = SeatName(seat) + " passed."
		ns.stalled()
	case End:
		if s.seats != 1 {
			return nil, errors.New(`only a solo game can be ended with "end"`)
		}
		ns = base.clone(seat, End)
		ns.last.Note = "The player ended the game."
		ns.finish("the player ended the game")
	default:
		return nil, fmt.Errorf("%w: unknown kind of move", rules.ErrBadNotation)
	}
	if err != nil {
		return nil, err
	}
	return ns, nil
}

// clone returns a copy of s for the next move, by seat, of the given kind.
func (s *State) clone(seat rules.Seat, k Kind) *State {
	ns := *s
	ns.plies++
	if seat == s.Turn() {
		ns.turns++ // an opponent's answer to a word goes on in the same turn
	}
	ns.last = Last{Seat: seat, Kind: k}
	return &ns
}

// play places a checked play.
func (s *State) play(seat rules.Seat, m Move) (*State, error) {
	p, err := s.checkPlay(seat, m)
	if err != nil {
		return nil, err
	}
	challenged := s.check == ByChallenge && s.seats > 1
	if !p.valid && !challenged {
		return nil, notWord(p.word)
	}
	ns := s.clone(seat, Play)
	for i, h := range p.hexes {
		if p.isNew[i] {
			ns.board[h] = p.tiles[i]
			ns.placed++
		}
	}
	ns.racks[seat] = [RackSize]Tile{}
	ns.nrack[seat] = copy(ns.racks[seat][:], p.rack)
	ns.scores[seat] += p.score
	ns.draw(seat)
	ns.stall = 0
	ns.last.Word, ns.last.Path, ns.last.Score, ns.last.Bonus = p.word, p.hexes, p.score, p.bonus
	ns.last.Note = fmt.Sprintf("%s played %s for %d", SeatName(seat), strings.ToUpper(p.word), p.score)
	if p.bonus > 0 {
		ns.last.Note += fmt.Sprintf(" (trap bonus %d)", p.bonus)
	}
	ns.last.Note += "."
	ends := ns.nbag == 0 && ns.nrack[seat] == 0
	if challenged {
		ns.pending = &pending{before: s, seat: seat, word: p.word, valid: p.valid, ends: ends}
		if !ends {
			ns.advance()
		}
		return ns, nil
	}
	if ends {
		ns.finish(SeatName(seat) + " used every tile and the bank is empty")
		return ns, nil
	}
	ns.advance()
	return ns, nil
}

// exchange gives tiles back to the bank for as many new ones.
func (s *State) exchange(seat rules.Seat, give []Tile) (*State, error) {
	if s.nbag == 0 {
		return nil, errors.New("the bank is empty: there is nothing to exchange with")
	}
	if len(give) > s.nbag {
		return nil, fmt.Errorf("the bank has only %d tiles: exchange at most %d", s.nbag, s.nbag)
	}
	rack := s.Rack(seat)
	for _, t := range give {
		j := indexTile(rack, t)
		if j < 0 {
			return nil, fmt.Errorf("%w: you have no %s to exchange", ErrNotInRack, rackName(t))
		}
		rack = append(rack[:j], rack[j+1:]...)
	}
	ns := s.clone(seat, Exchange)
	ns.racks[seat] = [RackSize]Tile{}
	ns.nrack[seat] = copy(ns.racks[seat][:], rack)
	ns.draw(seat)
	for _, t := range give {
		ns.bag[ns.nbag] = t
		ns.nbag++
	}
	// The bank is shuffled again, from the match seed and the move's number, so that a replay
	// draws the same tiles.
	rng := rand.New(rand.NewPCG(s.seed, uint64(ns.plies)))
	rng.Shuffle(ns.nbag, func(i, j int) { ns.bag[i], ns.bag[j] = ns.bag[j], ns.bag[i] })
	ns.last.Count = len(give)
	ns.last.Note = fmt.Sprintf("%s exchanged %d tiles.", SeatName(seat), len(give))
	ns.stalled()
	return ns, nil
}

// rackName names a rack tile in messages: "E", "QU", "blank".
func rackName(t Tile) string {
	if t == Blank {
		return "blank"
	}
	return upper(t)
}

// swap takes the blanks on hexes, putting the player's letter tiles in their place.
func (s *State) swap(seat rules.Seat, hexes []Hex) (*State, error) {
	rack := s.Rack(seat)
	ns := s.clone(seat, Swap)
	for i, h := range hexes {
		if !h.Valid() {
			return nil, errors.New("that hex is not on the board")
		}
		for _, g := range hexes[:i] {
			if g == h {
				return nil, fmt.Errorf("the swap names %s twice", h)
			}
		}
		on := s.board[h]
		if !on.IsBlank() {
			return nil, fmt.Errorf("there is no blank on %s", h)
		}
		j := indexTile(rack, on.Letter())
		if j < 0 {
			return nil, fmt.Errorf("%w: you have no %s to put on %s in place of the blank", ErrNotInRack, upper(on), h)
		}
		rack[j] = Blank
		ns.board[h] = on.Letter()
	}
	ns.nrack[seat] = copy(ns.racks[seat][:], rack)
	ns.stall = 0
	ns.last.Count = len(hexes)
	ns.last.Note = fmt.Sprintf("%s swapped %d blank(s).", SeatName(seat), len(hexes))
	ns.advance()
	return ns, nil
}

// challenge resolves a challenge by seat of the pending word.
func (s *State) challenge(seat rules.Seat) *State {
	p := s.pending
	word := strings.ToUpper(p.word)
	if !p.valid {
		ns := *p.before
		ns.plies, ns.turns = s.plies+1, s.turns+1
		ns.last = Last{Seat: seat, Kind: Challenge, Word: p.word, Path: s.last.Path,
			Note: fmt.Sprintf("%s challenged %s: it is not a word. %s takes the tiles back and scores nothing.",
				SeatName(seat), word, SeatName(p.seat))}
		ns.turn = p.seat
		ns.stalled()
		return &ns
	}
	ns := s.clone(seat, Challenge)
	ns.last.Word, ns.last.Path, ns.last.Score, ns.last.Bonus = p.word, s.last.Path, s.last.Score, s.last.Bonus
	ns.pending = nil
	ns.last.Note = fmt.Sprintf("%s challenged %s: it is a word; %s loses a turn.", SeatName(seat), word, SeatName(seat))
	switch {
	case p.ends:
		ns.finish(SeatName(p.seat) + " used every tile and the bank is empty")
	case seat == s.turn:
		ns.skip[seat] = true
		ns.turn = seat
		ns.skipNow()
	default:
		ns.skip[seat] = true
	}
	return ns
}

// accept records that seat lets the pending word stand; when every opponent has, it stands.
func (s *State) accept(seat rules.Seat) *State {
	ns := s.clone(seat, Accept)
	ns.last = s.last
	ns.last.Seat, ns.last.Kind = seat, Accept
	p := *s.pending
	p.accepted[seat] = true
	ns.pending = &p
	for o := range rules.Seat(s.seats) {
		if o != p.seat && !p.accepted[o] {
			return ns
		}
	}
	ns.pending = nil
	if p.ends {
		ns.finish(SeatName(p.seat) + " used every tile and the bank is empty")
	}
	return ns
}

// stalled counts a pass, an exchange or a withdrawn word, ends the match after two of them in a
// row for every player, and otherwise hands the turn on.
func (s *State) stalled() {
	s.stall++
	if s.stall >= s.StallLimit() {
		s.finish("every player passed or exchanged twice in a row")
		return
	}
	s.advance()
}

// advance hands the turn to the next seat, passing over seats that lose their turn.
func (s *State) advance() {
	s.turn = (s.turn + 1) % rules.Seat(s.seats)
	s.skipNow()
}

// skipNow passes over the seat to move, and the next ones, while they lose their turn.
func (s *State) skipNow() {
	for range s.seats {
		if !s.skip[s.turn] {
			return
		}
		s.skip[s.turn] = false
		s.last.Note += " " + SeatName(s.turn) + " loses this turn."
		s.turn = (s.turn + 1) % rules.Seat(s.seats)
	}
}

func (s *State) finish(reason string) {
	s.over, s.reason, s.pending = true, reason, nil
}
