package lhexicon

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/arcade/arcade/rules"
)

// Hard weighs its best plays by more than their score: the value of the tiles it keeps (see
// leaveValue), and what the next player could score in reply near the tiles it lays. For the
// reply it draws a few racks for the next player from the tiles it cannot see (with its rng, so a
// move depends on the rng and the state only) and searches the replies whose new tiles lie near
// the play's; when the bank is empty the unseen tiles are the opponents' racks, so it searches the
// reply exactly, and weighs ending the game by who then wins. It challenges like Greedy. Its own
// search stops after SearchBudget steps and the reply searches after hardDefault.replyStep steps
// in all (or when ctx is done: then it plays the best judged so far).
type Hard struct{}

// Move returns Hard's move for seat.
func (Hard) Move(ctx context.Context, e rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	return hardDefault.move(ctx, e.(*State), seat, rng)
}

// hardParams are Hard's weights and limits.
type hardParams struct {
	leaveW    float64 // weight of leaveValue against points
	keep      int     // plays kept by score plus leave
	look      int     // plays of those whose replies are searched
	samples   int     // racks drawn for the next player
	zoneR     int     // replies place their tiles within this distance of the play's
	base      float64 // what the next player scores anyway: a reply counts above it
	threatW   float64 // weight of the reply's excess
	replyStep int     // steps of all the reply searches together
}

// hardDefault are Hard's settings.
var hardDefault = hardParams{
	leaveW:    1,
	keep:      40,
	look:      8,
	samples:   2,
	zoneR:     2,
	base:      18,
	threatW:   0.8,
	replyStep: 1_600_000,
}

// valued is a play with Hard's estimate of its worth.
type valued struct {
	c Candidate
	v float64
}

// byValue orders plays best first.
func byValue(a, b valued) int {
	switch {
	case a.v > b.v:
		return -1
	case a.v < b.v:
		return 1
	}
	return 0
}

// move is Hard's move with settings p.
func (p hardParams) move(ctx context.Context, s *State, seat rules.Seat, rng *rand.Rand) string {
	if m, ok := s.respond(seat, true); ok {
		return m
	}
	cands := p.candidates(ctx, s, seat)
	if len(cands) == 0 {
		return s.noPlay(seat)
	}
	if s.seats == 1 || p.look == 0 {
		return cands[0].c.Move.String()
	}
	opp := (seat + 1) % rules.Seat(s.seats)
	pool := s.unseen(seat)
	exact := s.nbag == 0 && s.seats == 2
	var racks [][]Tile
	if exact {
		racks = [][]Tile{pool}
	} else {
		for range p.samples {
			racks = append(racks, drawRack(pool, s.nrack[opp], rng))
		}
	}
	// Each reply search gets an equal share of the steps, so that every play is judged alike.
	budget := p.replyStep / (p.look * len(racks))
	best, bestV := 0, 0.0
	for i := range min(p.look, len(cands)) {
		if ctx.Err() != nil {
			break
		}
		var v float64
		if exact {
			v = p.endValue(ctx, s, seat, opp, cands[i], pool, budget)
		} else {
			v = cands[i].v - p.threatW*p.threat(ctx, s, seat, cands[i].c, racks, budget)
		}
		if ctx.Err() != nil {
			break // the replies were cut short: v is no judgement
		}
		if i == 0 || v > bestV {
			best, bestV = i, v
		}
	}
	return cands[best].c.Move.String()
}

// candidates returns the plays of seat with the best score plus leave, best first.
func (p hardParams) candidates(ctx context.Context, s *State, seat rules.Seat) []valued {
	var all []valued
	floor := math.Inf(-1)
	s.generate(ctx, seat, SearchBudget, func(c Candidate) bool {
		v := float64(c.Score) + p.leaveW*leaveValue(&c.kept)
		if len(all) >= p.keep && v <= floor {
			return true
		}
		all = append(all, valued{c.Clone(), v})
		if len(all) >= 4*p.keep {
			slices.SortStableFunc(all, byValue)
			all = all[:p.keep]
			floor = all[p.keep-1].v
		}
		return true
	})
	slices.SortStableFunc(all, byValue)
	return all[:min(len(all), p.keep)]
}

// threat is the mean, over racks, of what the best reply near c's tiles scores above base.
func (p hardParams) threat(ctx context.Context, s *State, seat rules.Seat, c Candidate, racks [][]Tile, budget int) float64 {
	after, err := s.ApplyMove(seat, c.Move)
	if err != nil || after.over {
		return 0
	}
	zone := zoneNear(s, after, c.Move, p.zoneR)
	total := 0.0
	for _, rack := range racks {
		best := 0
		after.search(ctx, rack, &zone, budget, func(r Candidate) bool {
			best = max(best, r.Score)
			return true
		})
		total += max(0, float64(best)-p.base)
	}
	return total / float64(len(racks))
}

// endValue judges c when the bank is empty and the opponent's rack is known: the lead after c and
// the opponent's best reply, and who wins when either ends the game.
func (p hardParams) endValue(ctx context.Context, s *State, seat, opp rules.Seat, c valued, rack []Tile, budget int) float64 {
	after, err := s.ApplyMove(seat, c.c.Move)
	if err != nil {
		return c.v
	}
	lead := float64(after.scores[seat] - after.scores[opp])
	if after.over {
		return lead + 1000*sign(lead)
	}
	var reply Candidate
	found := false
	after.search(ctx, rack, nil, budget, func(r Candidate) bool {
		if !found || r.Score > reply.Score {
			reply, found = r.Clone(), true
		}
		return true
	})
	if !found {
		return lead + p.leaveW*leaveValue(&c.c.kept)
	}
	lead -= float64(reply.Score)
	if reply.Tiles == len(rack) {
		return lead + 1000*sign(lead)
	}
	return lead + p.leaveW*leaveValue(&c.c.kept)
}

func sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// zoneNear returns the empty hexes of after within r of the tiles m placed on s.
func zoneNear(s, after *State, m Move, r int) [NumHexes]bool {
	var zone [NumHexes]bool
	hexes, _ := m.Cells()
	for _, h := range hexes {
		if s.board[h] != NoTile {
			continue
		}
		for x := range Hex(NumHexes) {
			if after.board[x] == NoTile && h.Distance(x) <= r {
				zone[x] = true
			}
		}
	}
	return zone
}

// unseen returns the tiles seat cannot see: the bank and the other racks.
func (s *State) unseen(seat rules.Seat) []Tile {
	count := distribution
	take := func(t Tile) {
		if t.IsBlank() {
			count[0]--
		} else {
			count[t]--
		}
	}
	for _, t := range s.board {
		if t != NoTile {
			take(t)
		}
	}
	for _, t := range s.racks[seat][:s.nrack[seat]] {
		take(t)
	}
	var out []Tile
	for i, n := range count {
		t := Tile(i)
		if i == 0 {
			t = Blank
		}
		for range n {
			out = append(out, t)
		}
	}
	return out
}

// drawRack draws n tiles from pool at random (all of them when it holds no more).
func drawRack(pool []Tile, n int, rng *rand.Rand) []Tile {
	if n >= len(pool) {
		return append([]Tile(nil), pool...)
	}
	p := append([]Tile(nil), pool...)
	for i := range n {
		j := i + rng.IntN(len(p)-i)
		p[i], p[j] = p[j], p[i]
	}
	return p[:n]
}

// leaveValue is a guess at what the tiles kept (counts by letter, blanks at 0) are worth for the
// coming turns: blanks are good, a mix of vowels and consonants is good, duplicates and the Qu and
// heavy letters are awkward.
func leaveValue(kept *[28]int8) float64 {
	v, vowels, n := 0.0, 0, 0
	v += 6 * float64(kept[0])
	n += int(kept[0])
	for l := Tile(1); l <= QU; l++ {
		k := int(kept[l])
		if k == 0 {
			continue
		}
		n += k
		v -= 2 * float64(k-1)
		switch l {
		case LetterTile('a'), LetterTile('e'), LetterTile('i'), LetterTile('o'), LetterTile('u'):
			vowels += k
		case LetterTile('s'):
			v += 2 * float64(k)
		case QU, LetterTile('j'), LetterTile('x'), LetterTile('z'), LetterTile('v'), LetterTile('w'):
			v -= 2 * float64(k)
		}
	}
	if n > 0 {
		d := float64(vowels) - 0.4*float64(n)
		v -= d * d
	}
	return v
}
