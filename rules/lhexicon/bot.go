package lhexicon

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"

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

// Hard plays the play with the best score plus the value of the tiles it keeps (see leaveValue),
// less a penalty for leaving a trap that the next player could close; it challenges like Greedy.
type Hard struct{}

// leaveWeight is the weight of the tiles kept against the points of the play, for Hard.
const leaveWeight = 0.15

// hardKeep is how many of its best plays Hard keeps while searching.
const hardKeep = 200

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

// Move returns Hard's move for seat.
func (Hard) Move(ctx context.Context, e rules.Engine, seat rules.Seat, _ *rand.Rand) string {
	s := e.(*State)
	if m, ok := s.respond(seat, true); ok {
		return m
	}
	rack := s.Rack(seat)
	type scored struct {
		c Candidate
		v float64
	}
	// The plays with the best score plus leave are kept, a few hundred at most.
	var all []scored
	byValue := func(a, b scored) int {
		switch {
		case a.v > b.v:
			return -1
		case a.v < b.v:
			return 1
		}
		return 0
	}
	floor := math.Inf(-1)
	s.generate(ctx, seat, SearchBudget, func(c Candidate) bool {
		v := float64(c.Score) + leaveWeight*leaveValue(leave(rack, c.Move, &s.board))
		if v <= floor {
			return true
		}
		all = append(all, scored{c.Clone(), v})
		if len(all) >= 2*hardKeep {
			slices.SortStableFunc(all, byValue)
			all = all[:hardKeep]
			floor = all[hardKeep-1].v
		}
		return true
	})
	if len(all) == 0 {
		return s.noPlay(seat)
	}
	slices.SortStableFunc(all, byValue)
	// The trap danger is weighed for the best few only: it needs the board after the play. Alone,
	// a trap left open is the player's own to close, so it is no danger.
	best, bestV := all[0].c, all[0].v
	for i := 0; i < len(all) && i < 12 && s.seats > 1 && ctx.Err() == nil; i++ {
		v := all[i].v - 0.3*float64(s.openTrapThreat(seat, all[i].c.Move))
		if i == 0 || v > bestV {
			best, bestV = all[i].c, v
		}
	}
	return best.Move.String()
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

// leave returns the rack tiles a play keeps.
func leave(rack []Tile, m Move, board *[NumHexes]Tile) []Tile {
	rest := append([]Tile(nil), rack...)
	hexes, _ := m.Cells()
	for i, h := range hexes {
		if board[h] != NoTile {
			continue
		}
		t := m.Tiles[i]
		if t.IsBlank() {
			t = Blank
		}
		if j := indexTile(rest, t); j >= 0 {
			rest = append(rest[:j], rest[j+1:]...)
		}
	}
	return rest
}

// leaveValue is a guess at what tiles kept are worth for the coming turns: blanks are good, a mix
// of vowels and consonants is good, duplicates and the Qu and heavy letters are awkward.
func leaveValue(rest []Tile) float64 {
	v, vowels := 0.0, 0
	var seen [28]int
	for _, t := range rest {
		if t == Blank {
			v += 6
			continue
		}
		seen[t]++
		if seen[t] > 1 {
			v -= 2
		}
		switch t {
		case LetterTile('a'), LetterTile('e'), LetterTile('i'), LetterTile('o'), LetterTile('u'):
			vowels++
		case LetterTile('s'):
			v += 2
		case QU, LetterTile('j'), LetterTile('x'), LetterTile('z'), LetterTile('v'), LetterTile('w'):
			v -= 2
		}
	}
	if n := len(rest); n > 0 {
		ideal := float64(n) * 0.4
		d := float64(vowels) - ideal
		v -= d * d
	}
	return v
}

// openTrapThreat estimates the trap bonus the next player could take after seat plays m: the
// largest region of empty hexes that touches the edge in one hex only, which one tile there
// would close (3 points for each of its other hexes).
func (s *State) openTrapThreat(seat rules.Seat, m Move) int {
	p, err := s.checkPlay(seat, m)
	if err != nil {
		return 0
	}
	after := s.board
	for i, h := range p.hexes {
		after[h] = p.tiles[i]
	}
	var r regions
	r.label(&after)
	// A region whose edge hexes are a single hex becomes a trap when a tile goes there.
	var edgeCount [NumHexes + 1]int
	for h := range Hex(NumHexes) {
		if c := r.comp[h]; c != 0 && onEdge[h] {
			edgeCount[c]++
		}
	}
	threat := 0
	for c := 1; c <= r.n; c++ {
		if edgeCount[c] == 1 && r.size[c] > 1 {
			threat = max(threat, 3*(int(r.size[c])-1))
		}
	}
	return threat
}
