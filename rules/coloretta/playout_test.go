package coloretta

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/arcade/arcade/rules"
)

// census counts every card of the current round wherever it is: deck, open stacks, hands, discards,
// the drawn card, and the Last Cycle card set aside.
func census(s *State) Hand {
	var all Hand
	lc := 0
	for _, c := range s.deck[s.next:] {
		if c == LastCycle {
			lc++
		}
		all.add(c)
	}
	if s.lastCycle {
		lc++
	}
	for i := range s.nstacks {
		if st := s.stacks[i]; st.picker < 0 {
			all = all.Add(st.cards[:st.n]...)
		}
	}
	for p := range s.seats {
		all = all.Add(s.hands[p].cardsList()...)
	}
	all = all.Add(s.discard.cardsList()...)
	if s.drawing {
		all.add(s.drawn)
	}
	if lc != 1 {
		all.Plus2 += 1000 // make the census fail
	}
	return all
}

func (h Hand) cardsList() []Card {
	var cs []Card
	for c, n := range h.Colours {
		for range n {
			cs = append(cs, Card(c))
		}
	}
	for range h.Wilds {
		cs = append(cs, Wild)
	}
	for range h.Plus2 {
		cs = append(cs, Plus2)
	}
	return cs
}

func fullDeck(ncol int) Hand {
	var h Hand
	for c := range ncol {
		h.Colours[c] = CardsPerColour
	}
	h.Wilds, h.Plus2 = WildCards, Plus2Cards
	return h
}

// junk holds moves to try in every position: most are illegal.
var junk = []string{"d", "p1", "p2", "p3", "p4", "p5", "t1", "t2", "t3", "t4", "t5", "", "x", "p0",
	"p6", "t9", "dd", "D", " t1 "}

// checkInvariants fails the test when s breaks an invariant.
func checkInvariants(t *testing.T, s *State) {
	t.Helper()
	if !s.over {
		if got, want := census(s), fullDeck(s.ncol); got != want {
			t.Fatalf("census %+v, want %+v", got, want)
		}
	}
	for i := range s.nstacks {
		st := s.stacks[i]
		if st.n < 0 || st.n > st.cap {
			t.Fatalf("stack %d holds %d of %d", i+1, st.n, st.cap)
		}
	}
}

// playout plays a game with the given move chooser, checking at each step that exactly the legal
// moves are accepted and that rejected moves change nothing.
func playout(t *testing.T, seats int, seed uint64, choose func(s *State, r *rand.Rand) string) *State {
	t.Helper()
	e, err := NewState(2, seats, seed)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 7))
	s := e
	for step := 0; !s.over; step++ {
		if step > 5000 {
			t.Fatalf("seats %d seed %d: game does not end", seats, seed)
		}
		checkInvariants(t, s)
		turn := s.ToMove()
		if len(turn) != 1 {
			t.Fatalf("ToMove = %v", turn)
		}
		legal := s.Legal(turn[0])
		if len(legal) == 0 {
			t.Fatalf("seat %d to move has no legal move", turn[0])
		}
		before := *s
		for seat := range rules.Seat(seats) {
			for _, j := range junk {
				_, err := s.Apply(seat, j)
				m, perr := ParseMove(j)
				ok := perr == nil && seat == turn[0] && slices.Contains(legal, m.String())
				if ok != (err == nil) {
					t.Fatalf("seat %d move %q: legal %v, err %v", seat, j, legal, err)
				}
				if err != nil && seat != turn[0] && !errors.Is(err, rules.ErrNotYourTurn) && perr == nil {
					t.Fatalf("seat %d move %q off turn: %v", seat, j, err)
				}
			}
			if seat != turn[0] && len(s.Legal(seat)) != 0 {
				t.Fatalf("seat %d has moves off turn", seat)
			}
		}
		if !reflect.DeepEqual(before, *s) {
			t.Fatal("Apply changed its receiver")
		}
		mv := choose(s, r)
		ne, err := s.Apply(turn[0], mv)
		if err != nil {
			t.Fatalf("legal move %q rejected: %v", mv, err)
		}
		s = ne.(*State)
	}
	if _, err := s.Apply(0, "d"); !errors.Is(err, rules.ErrGameOver) {
		t.Fatalf("move after the end: %v", err)
	}
	if len(s.results) != s.rounds || len(s.ToMove()) != 0 {
		t.Fatalf("results %d of %d rounds", len(s.results), s.rounds)
	}
	o := s.Outcome()
	if !o.Over || len(o.Ranks) != seats {
		t.Fatalf("outcome %+v", o)
	}
	return s
}

func TestRandomPlayouts(t *testing.T) {
	for seats := 2; seats <= 5; seats++ {
		for seed := uint64(1); seed <= 6; seed++ {
			playout(t, seats, seed, func(s *State, r *rand.Rand) string {
				l := s.Legal(rules.Seat(s.turn))
				return l[r.IntN(len(l))]
			})
		}
	}
}

func TestBotPlayouts(t *testing.T) {
	for seats := 2; seats <= 5; seats++ {
		for i, b := range Game.Bots {
			if b.Name == "hard" && (seats > 3 || testing.Short()) {
				continue // slow; TestBotMatch plays it at length
			}
			seed := uint64(100*seats + i)
			playout(t, seats, seed, func(s *State, r *rand.Rand) string {
				return b.Bot.Move(context.Background(), s, rules.Seat(s.turn), r)
			})
		}
	}
}
