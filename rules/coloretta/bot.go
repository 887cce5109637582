package coloretta

import (
	"context"
	"math/rand/v2"

	"github.com/arcade/arcade/rules"
)

// The bots, weakest first. They see only what View shows a seat (hands, stacks, the drawn card,
// discards, how many cards the deck holds); none reads the order of the deck.
var (
	// Easy plays a random legal move.
	Easy rules.Bot = easyBot{}
	// Greedy looks one move ahead for its own hand only: it picks the stack that adds most to its
	// score unless drawing is expected to make a better stack, and places a drawn card where it
	// leaves the best stack for itself.
	Greedy rules.Bot = greedyBot{}
	// Hard plays each legal move against 48 guessed orders of the unseen cards, finishing the round
	// with the greedy policy for everyone, and keeps the move that leaves it furthest ahead of its
	// strongest opponent on average.
	Hard rules.Bot = hardBot{deals: 48}
)

type easyBot struct{}

func (easyBot) Move(_ context.Context, state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	legal := state.Legal(seat)
	if len(legal) == 0 {
		return ""
	}
	return legal[rng.IntN(len(legal))]
}

// publicState returns what seat sees of state; ok is false when state is not Coloretta's or the
// seat may not move.
func publicState(state rules.Engine, seat rules.Seat) (View, bool) {
	v, ok := state.View(seat).(View)
	return v, ok && len(v.Legal) > 0
}

// unseen counts the cards no one can see (the deck, Last Cycle card left out), by kind, from what
// v shows: a round's cards less the hands, the open stacks, the discards and the drawn card.
func unseen(v View) (cnt [LastCycle]int, total int) {
	for _, c := range v.Colours {
		cnt[c] = CardsPerColour
	}
	cnt[Wild], cnt[Plus2] = WildCards, Plus2Cards
	sub := func(h Hand) {
		for c := range NumColours {
			cnt[c] -= h.Colours[c]
		}
		cnt[Wild] -= h.Wilds
		cnt[Plus2] -= h.Plus2
	}
	for _, p := range v.Players {
		sub(p.Hand)
	}
	sub(v.Discards)
	for _, st := range v.Stacks {
		for _, c := range st.Cards {
			cnt[c]--
		}
	}
	if v.HasDrawn {
		cnt[v.Drawn]--
	}
	for _, n := range cnt {
		total += n
	}
	return cnt, total
}

// simState builds a simulation state from v with the given deck (top first, the Last Cycle card in
// it when it has not come). The simulation ends with the current round.
func simState(v View, deck []Card) *State {
	s := &State{
		seats: v.Seats, rounds: v.Round, round: v.Round, cycle: v.Cycle, ncol: len(v.Colours),
		deck: deck, lastCycle: v.LastCycle, nstacks: len(v.Stacks), turn: int(v.ToMove),
		drawn: v.Drawn, drawing: v.HasDrawn, discard: v.Discards, lastSeat: -1, sim: true,
	}
	s.left, _ = unseen(v)
	for i, st := range v.Stacks {
		ss := &s.stacks[i]
		ss.cap, ss.picker = st.Capacity, int(st.PickedBy)
		cards := st.Cards
		if st.PickedBy >= 0 {
			cards = st.Taken
		}
		ss.n = copy(ss.cards[:], cards)
	}
	for i := range s.picked {
		s.picked[i] = -1
	}
	for p, pv := range v.Players {
		s.hands[p] = pv.Hand
		s.picked[p] = pv.Picked
		s.totals[p] = pv.Total
	}
	return s
}

// gain returns how much adding stack i's cards (and extra, when extra < LastCycle) changes the
// score of seat's hand.
func (s *State) gain(seat, i int, extra Card) int {
	h := s.hands[seat]
	base := points(&h)
	st := &s.stacks[i]
	for _, c := range st.cards[:st.n] {
		h.add(c)
	}
	if extra < LastCycle {
		h.add(extra)
	}
	return points(&h) - base
}

type greedyBot struct{}

func (greedyBot) Move(_ context.Context, state rules.Engine, seat rules.Seat, _ *rand.Rand) string {
	v, ok := publicState(state, seat)
	if !ok {
		return ""
	}
	if len(v.Legal) == 1 {
		return v.Legal[0]
	}
	s := simState(v, nil)
	return s.greedyMove(int(seat)).String()
}

// greedyMove returns the greedy choice of seat, the seat to move. A drawn card goes where it leaves
// the best stack for seat (bestPlace). Otherwise seat picks the stack that adds most to its score,
// unless the expected best gain after one more card is drawn and placed to suit it is higher (the
// expectation runs over the unseen cards, s.left). It uses no hidden information.
func (s *State) greedyMove(seat int) Move {
	if s.drawing {
		return Move{Kind: Place, Stack: s.bestPlace(seat, s.drawn)}
	}
	best, g := s.bestTake(seat)
	total := 0
	for _, n := range s.left {
		total += n
	}
	switch {
	case best < 0:
		return Move{Kind: Draw}
	case total == 0 || s.allOpen(true):
		return Move{Kind: Take, Stack: best}
	}
	// Each open stack that has room, as seat's hand would be after taking it.
	var with [MaxStacks]Hand
	room := 0
	for i := range s.nstacks {
		if st := &s.stacks[i]; st.picker < 0 && st.n < st.cap {
			h := s.hands[seat]
			for _, c := range st.cards[:st.n] {
				h.add(c)
			}
			with[room] = h
			room++
		}
	}
	base := points(&s.hands[seat])
	ev := 0
	for c, n := range s.left {
		if n == 0 {
			continue
		}
		bestAfter := -1 << 30
		for i := range room {
			h := with[i]
			h.add(Card(c))
			bestAfter = max(bestAfter, points(&h))
		}
		ev += n * (bestAfter - base)
	}
	if g*total >= ev {
		return Move{Kind: Take, Stack: best}
	}
	return Move{Kind: Draw}
}

// bestTake returns the open, non-empty stack worth most to seat and its gain, or -1.
func (s *State) bestTake(seat int) (best, g int) {
	best = -1
	for i := range s.nstacks {
		st := &s.stacks[i]
		if st.picker >= 0 || st.n == 0 {
			continue
		}
		if x := s.gain(seat, i, LastCycle); best < 0 || x > g {
			best, g = i, x
		}
	}
	return best, g
}

// bestPlace returns where seat places card c: on the open stack that leaves the best stack for
// seat afterwards; equal choices prefer the stack the card helps most, then the lowest.
func (s *State) bestPlace(seat int, c Card) int {
	var gains [MaxStacks]int
	for i := range s.nstacks {
		if s.stacks[i].picker < 0 && s.stacks[i].n > 0 {
			gains[i] = s.gain(seat, i, LastCycle)
		} else {
			gains[i] = -1 << 30
		}
	}
	best, bestTop, bestOwn := -1, 0, 0
	for i := range s.nstacks {
		st := &s.stacks[i]
		if st.picker >= 0 || st.n >= st.cap {
			continue
		}
		own := s.gain(seat, i, c)
		top := own
		for j := range s.nstacks {
			if j != i {
				top = max(top, gains[j])
			}
		}
		if best < 0 || top > bestTop || top == bestTop && own > bestOwn {
			best, bestTop, bestOwn = i, top, own
		}
	}
	return best
}
