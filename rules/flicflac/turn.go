package flicflac

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/arcade/arcade/rules"
)

// end ends the turn now being played: pieces with negative health are captured, the mover's
// captors get a captors' turn, or the turn passes (after a possible random event).
func (s *State) end() {
	doomed := s.doomed()
	rep := Report{Seat: s.turn, CaptorsTurn: s.captorsTurn}
	var captors uint16
	for id := range Pieces {
		if doomed&(1<<id) == 0 {
			continue
		}
		for _, nb := range s.geo.nbr[s.pieces[id].hex] {
			if nb == NoHex || s.occ[nb] == 0 {
				continue
			}
			a := int(s.occ[nb]) - 1
			if rules.Seat(a/Colours) == s.turn && a/Colours != id/Colours &&
				flies(Colour(a%Colours), s.pieces[a].flipped, Colour(id%Colours)) {
				captors |= 1 << a
			}
		}
	}
	for id := range Pieces {
		if doomed&(1<<id) != 0 {
			s.sendHome(id)
			s.captures[1-id/Colours]++
			rep.Scored[1-id/Colours]++
		}
		s.pieces[id].moved = false
	}
	rep.Captured = doomed
	s.timed++
	if doomed != 0 {
		s.checkWin()
	}
	if s.over {
		s.report(rep)
		return
	}
	if captors != 0 {
		s.captorsTurn, s.may = true, captors
		rep.Captors = captors
		s.report(rep)
		return
	}
	s.captorsTurn, s.may = false, 0
	s.turns++
	if s.turns >= s.cfg.Limit {
		s.over = true
		switch {
		case s.captures[0] > s.captures[1]:
			s.winner = 0
		case s.captures[1] > s.captures[0]:
			s.winner = 1
		}
		s.reason = fmt.Sprintf("all %d turns played", s.cfg.Limit)
		s.report(rep)
		return
	}
	s.event(&rep)
	s.report(rep)
	s.turn = 1 - s.turn
}

// report keeps rep as the latest end, and adds it to the turn's: a turn's end starts the
// turn's report anew, its captors' turns' ends add to it.
func (s *State) report(rep Report) {
	s.last = rep
	if !rep.CaptorsTurn {
		s.turnRep = rep
		return
	}
	t := &s.turnRep
	t.Captured |= rep.Captured
	t.Scored[0] += rep.Scored[0]
	t.Scored[1] += rep.Scored[1]
	t.Captors, t.Event, t.Pair, t.Sent = rep.Captors, rep.Event, rep.Pair, rep.Sent
}

// checkWin ends the match when a seat has the target of captures and a lead of 2.
func (s *State) checkWin() {
	for seat := range 2 {
		if s.captures[seat] >= s.cfg.Target && s.captures[seat]-s.captures[1-seat] >= 2 {
			s.over, s.winner = true, rules.Seat(seat)
			s.reason = fmt.Sprintf("the %s reached %d captures with a lead of %d",
				strings.ToLower(s.SeatName(rules.Seat(seat))), s.captures[seat], s.captures[seat]-s.captures[1-seat])
		}
	}
}

// event draws, from the match seed and the number of turns ended, whether a random event
// follows the turn, and plays it.
func (s *State) event(rep *Report) {
	if s.cfg.EventPercent == 0 {
		return
	}
	rng := rand.New(rand.NewPCG(s.seed, 0xe7e47<<32|uint64(s.turns)))
	if rng.IntN(100) >= s.cfg.EventPercent {
		return
	}
	s.playEvent(Event(1+rng.IntN(4)), Colour(rng.IntN(3)), rep)
}

// playEvent plays event e (pair: the first colour of a pair of opposite colours) and notes it
// in rep.
func (s *State) playEvent(e Event, pair Colour, rep *Report) {
	rep.Event, rep.Pair = e, pair
	inPair := func(c Colour) bool { return c == pair || c == pair.Opposite() }
	switch e {
	case TumblingWind:
		for id := range s.pieces {
			if s.pieces[id].hex != NoHex {
				s.pieces[id].flipped = !s.pieces[id].flipped
			}
		}
	case Recall, SinkHoles:
		for id := range s.pieces {
			h := s.pieces[id].hex
			if h == NoHex {
				continue
			}
			if e == Recall && inPair(Colour(id%Colours)) || e == SinkHoles && inPair(s.colours[h]) {
				s.sendHome(id)
				rep.Sent |= 1 << id
			}
		}
	case HexSlide:
		var next [MaxHexes]Colour
		for h := range s.geo.NumHexes() {
			next[s.geo.rot[h]] = s.colours[h]
		}
		s.colours = next
	}
}
