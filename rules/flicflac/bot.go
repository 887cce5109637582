package flicflac

import (
	"context"
	"math/rand/v2"

	"github.com/arcade/arcade/rules"
)

// A bot is asked for one move at a time. Each level decides from the state it is given: the
// moves of its turn so far are part of it. Bots never take a piece back, so a turn of a bot
// ends after at most six moves and "end".

// step is one piece move of a plan: piece id to hex.
type step struct {
	id int
	to Hex
}

func (st step) move(g *Geometry) string {
	return Move{Kind: Place, Colour: Colour(st.id % Colours), To: g.Name(st.to)}.String()
}

// botState returns the engine as a *State to move for seat, or false (then the bot ends, or
// plays any legal move).
func botState(state rules.Engine, seat rules.Seat) (*State, bool) {
	s, ok := state.(*State)
	return s, ok && !s.over && s.turn == seat
}

// fallback is the move of a bot given a state that is not a Flic Flac match it may move in: the
// first legal move ("end" in Flic Flac), or "".
func fallback(state rules.Engine, seat rules.Seat) string {
	if ms := state.Legal(seat); len(ms) > 0 {
		return ms[0]
	}
	return ""
}

// steps calls f for every piece move seat may make now (no take-backs).
func (s *State) steps(f func(step)) {
	var buf [MaxHexes]Hex
	for c := range Colours {
		id := int(s.turn)*Colours + c
		if !s.mayMove(id) {
			continue
		}
		for _, h := range s.reachInto(id, buf[:0]) {
			f(step{id, h})
		}
	}
}

// Easy plays lively, careless turns. Each time it is asked it ends the turn only once it has
// moved EasyMinPieces pieces (or every piece that may move), and then one time in three;
// otherwise it moves a piece that may move: a move that dooms an enemy piece two times in three
// when there is one (it attacks, but misses some), else, one time in two, a move that brings a
// piece nearest to the enemy, else a random move. It never weighs what a move does to its own
// pieces: that is what a player learns to punish.
type Easy struct{}

// EasyMinPieces is how many pieces Easy moves in a turn before it may end it.
const EasyMinPieces = 3

// Move returns Easy's next move for seat: a piece move, or "end".
func (Easy) Move(_ context.Context, state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	s, ok := botState(state, seat)
	if !ok {
		return fallback(state, seat)
	}
	var all, attacks, closest []step
	doomed := countBits(s.doomed() &^ (uint16(0x3f) << (Colours * int(seat))))
	near := -1
	s.steps(func(st step) {
		all = append(all, st)
		n := *s
		n.place(st.id, st.to)
		if countBits(n.doomed()&^(uint16(0x3f)<<(Colours*int(seat)))) > doomed {
			attacks = append(attacks, st)
		}
		switch d := n.nearestEnemy(st.id); {
		case d < 0:
		case near < 0 || d < near:
			near, closest = d, append(closest[:0], st)
		case d == near:
			closest = append(closest, st)
		}
	})
	if len(all) == 0 || (s.movedThisTurn(seat) >= EasyMinPieces && rng.IntN(3) == 0) {
		return "end"
	}
	switch {
	case len(attacks) > 0 && rng.IntN(3) == 0:
		return attacks[rng.IntN(len(attacks))].move(s.geo)
	case len(closest) > 0 && rng.IntN(4) == 0:
		return closest[rng.IntN(len(closest))].move(s.geo)
	}
	return all[rng.IntN(len(all))].move(s.geo)
}

// movedThisTurn counts seat's pieces moved this turn (and not taken back).
func (s *State) movedThisTurn(seat rules.Seat) int {
	n := 0
	for c := range Colours {
		if s.pieces[int(seat)*Colours+c].moved {
			n++
		}
	}
	return n
}

// nearestEnemy returns the distance from piece id, on the board, to the nearest piece of the
// other seat on the board; -1 when either is not on the board.
func (s *State) nearestEnemy(id int) int {
	p := &s.pieces[id]
	if p.hex == NoHex {
		return -1
	}
	near := -1
	for e := range Colours {
		q := &s.pieces[(1-id/Colours)*Colours+e]
		if q.hex == NoHex {
			continue
		}
		if d := s.geo.Distance(p.hex, q.hex); near < 0 || d < near {
			near = d
		}
	}
	return near
}

// Greedy plays the turn that captures most now and loses least: each time it is asked, it
// makes the move that most improves the captures the end of the turn would bring (enemy
// pieces due to be captured less its own), ties broken by bringing pieces in, empowering them
// and nearing the enemy; it ends the turn when no move improves.
type Greedy struct{}

// Move returns Greedy's next move for seat: a piece move, or "end".
func (Greedy) Move(ctx context.Context, state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	s, ok := botState(state, seat)
	if !ok {
		return fallback(state, seat)
	}
	if st, ok := s.greedyStep(ctx, seat, rng); ok {
		return st.move(s.geo)
	}
	return "end"
}

// greedyStep returns the move that most improves greedyScore for seat, or false when none does.
// Equal moves are chosen among at random with rng, or the first when rng is nil.
func (s *State) greedyStep(ctx context.Context, seat rules.Seat, rng *rand.Rand) (step, bool) {
	base := greedyScore(s, seat)
	best, bestScore, ties := step{}, base, 0
	s.steps(func(st step) {
		if ctx.Err() != nil {
			return
		}
		n := *s
		n.place(st.id, st.to)
		switch sc := greedyScore(&n, seat); {
		case sc > bestScore:
			best, bestScore, ties = st, sc, 1
		case sc == bestScore && ties > 0:
			ties++
			if rng != nil && rng.IntN(ties) == 0 {
				best = st
			}
		}
	})
	return best, ties > 0
}

// greedyScore values s for seat as the turn would end now: 1000 a capture either way, then a
// little for each piece on the board, empowered, and near the enemy.
func greedyScore(s *State, seat rules.Seat) int {
	d := s.doomed()
	mine := uint16(0x3f) << (Colours * int(seat))
	return 1000*(countBits(d&^mine)-countBits(d&mine)) + s.presence(seat)
}

// presence values seat's pieces on the board: 20 each, 6 more when empowered, less 2 a step to
// the nearest enemy piece on the board.
func (s *State) presence(seat rules.Seat) int {
	v := 0
	for c := range Colours {
		p := &s.pieces[int(seat)*Colours+c]
		if p.hex == NoHex {
			continue
		}
		v += 20
		if s.colours[p.hex] == Colour(c) {
			v += 6
		}
		near := 0
		for e := range Colours {
			q := &s.pieces[int(1-seat)*Colours+e]
			if q.hex == NoHex {
				continue
			}
			if d := s.geo.Distance(p.hex, q.hex); near == 0 || d < near {
				near = d
			}
		}
		v -= 2 * near
	}
	return v
}
