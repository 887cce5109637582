package lhexicon

import (
	"context"
	"math/rand/v2"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon/dict"
)

// Easy plays a short word: a random one among the first plays of at most four letters that the
// generator finds, else any play it finds; it never challenges.
type Easy struct{}

// Greedy plays the highest-scoring play of the turn, trap bonus included (ties broken at random),
// and challenges exactly the words that are not in the dictionary. Its search stops after
// SearchBudget steps: then it plays the best of the plays found (see docs/performance.md for how
// often that happens).
type Greedy struct{}

// easySample is how many short plays Easy collects before it chooses.
const easySample = 40

// Move returns Easy's move for seat.
func (Easy) Move(ctx context.Context, e rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	s := e.(*State)
	if m, ok := s.respond(seat, false); ok {
		return m
	}
	var short, any []Candidate
	s.generate(ctx, seat, SearchBudget, func(c Candidate) bool {
		if len(c.Move.Word()) <= 4 {
			short = append(short, c.Clone())
		} else if len(any) < easySample {
			any = append(any, c.Clone())
		}
		return len(short) < easySample
	})
	if len(short) == 0 {
		short = any
	}
	if len(short) == 0 {
		return s.noPlay(seat)
	}
	return short[rng.IntN(len(short))].Move.String()
}

// Move returns Greedy's move for seat.
func (Greedy) Move(ctx context.Context, e rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	s := e.(*State)
	if m, ok := s.respond(seat, true); ok {
		return m
	}
	best, ok := s.bestPlay(ctx, seat, SearchBudget, rng)
	if !ok {
		return s.noPlay(seat)
	}
	return best.Move.String()
}

// BestPlay returns the highest-scoring play seat can make (the first found among equals, or a
// random one of them when rng is not nil), or false when there is none. When ctx is done first it
// returns the best found so far.
func (s *State) BestPlay(ctx context.Context, seat rules.Seat, rng *rand.Rand) (Candidate, bool) {
	return s.bestPlay(ctx, seat, 0, rng)
}

// bestPlay is BestPlay with a search budget (0: none).
func (s *State) bestPlay(ctx context.Context, seat rules.Seat, budget int, rng *rand.Rand) (Candidate, bool) {
	var best Candidate
	found, ties := false, 0
	s.generate(ctx, seat, budget, func(c Candidate) bool {
		switch {
		case !found || c.Score > best.Score:
			best, found, ties = c.Clone(), true, 1
		case c.Score == best.Score && rng != nil:
			// Reservoir sampling among equal plays.
			ties++
			if rng.IntN(ties) == 0 {
				best = c.Clone()
			}
		}
		return true
	})
	return best, found
}

// respond answers a word that may be challenged, when seat may challenge it: a bot that checks
// challenges a word that is not in the dictionary and accepts the others; one that does not
// accepts. It returns false when there is nothing to answer, or when seat is to play anyway and
// the word is good (playing on lets it stand).
func (s *State) respond(seat rules.Seat, checks bool) (string, bool) {
	p := s.pending
	if p == nil || p.seat == seat || p.accepted[seat] {
		return "", false
	}
	if checks && !dict.Words().Contains(p.word) {
		return "challenge", true
	}
	if seat == s.Turn() {
		return "", false
	}
	return "accept", true
}

// noPlay is a bot's move when it finds no play: exchange the whole rack (as much as the bank
// allows), else pass.
func (s *State) noPlay(seat rules.Seat) string {
	rack := s.Rack(seat)
	n := min(len(rack), s.nbag)
	if n == 0 {
		return "pass"
	}
	return Move{Kind: Exchange, Give: rack[:n]}.String()
}
