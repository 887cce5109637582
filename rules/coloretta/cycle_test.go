package coloretta

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arcade/arcade/rules"
)

func newState(t *testing.T, seats int) *State {
	t.Helper()
	s, err := NewState(4, seats, 9)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// play applies moves, each for the seat to move.
func play(t *testing.T, s *State, moves ...string) *State {
	t.Helper()
	for _, m := range moves {
		ns, err := s.Apply(rules.Seat(s.turn), m)
		if err != nil {
			t.Fatalf("seat %d %q: %v", s.turn, m, err)
		}
		s = ns.(*State)
	}
	return s
}

// wantErr checks that seat may not play move in s, with an error containing text.
func wantErr(t *testing.T, s *State, seat int, move, text string) {
	t.Helper()
	_, err := s.Apply(rules.Seat(seat), move)
	if err == nil || !strings.Contains(err.Error(), text) {
		t.Fatalf("seat %d %q: error %v, want %q", seat, move, err, text)
	}
}

func TestSetup(t *testing.T) {
	for seats, ncol := range map[int]int{2: 5, 3: 6, 4: 7, 5: 7} {
		s := newState(t, seats)
		v := s.ViewOf(rules.Spectator)
		if len(v.Colours) != ncol || s.ncol != ncol {
			t.Errorf("%d players: %d colours, want %d", seats, len(v.Colours), ncol)
		}
		if census(s) != fullDeck(ncol) {
			t.Errorf("%d players: census %+v", seats, census(s))
		}
		total := ncol*CardsPerColour + Plus2Cards + WildCards + 1
		if v.DeckSize != total-seats || s.deck[len(s.deck)-16] != LastCycle {
			t.Errorf("%d players: deck of %d, Last Cycle card not 15 from the bottom", seats, v.DeckSize)
		}
		if v.UntilLastCycle != v.DeckSize-16 || v.LastCycle {
			t.Errorf("%d players: %d cards until Last Cycle", seats, v.UntilLastCycle)
		}
		seen := map[Colour]bool{}
		for _, p := range v.Players {
			if p.Hand.Size() != 1 || len(p.Groups) != 1 || seen[p.Groups[0].Colour] {
				t.Errorf("%d players: seat %d dealt %+v", seats, p.Seat, p.Hand)
			}
			if int(p.Groups[0].Colour) >= ncol {
				t.Errorf("%d players: dealt a colour not in play", seats)
			}
			seen[p.Groups[0].Colour] = true
		}
		wantStacks := seats
		if seats == 2 {
			wantStacks = 3
		}
		if len(v.Stacks) != wantStacks {
			t.Fatalf("%d players: %d stacks", seats, len(v.Stacks))
		}
		for i, st := range v.Stacks {
			want := 3
			if seats == 2 {
				want = i + 1
			}
			if st.Capacity != want || len(st.Cards) != 0 || !st.Open() {
				t.Errorf("%d players: stack %d %+v", seats, i+1, st)
			}
		}
	}
}

func TestDeterministic(t *testing.T) {
	a, b := newState(t, 4), newState(t, 4)
	if !slices.Equal(a.deck, b.deck) || a.turn != b.turn || a.hands != b.hands {
		t.Fatal("same seed, different deal")
	}
	c, _ := NewState(4, 4, 10)
	if slices.Equal(a.deck, c.deck) {
		t.Fatal("another seed, same deck")
	}
}

func TestMustDrawWhenOpenStacksEmpty(t *testing.T) {
	s := newState(t, 3)
	if l := s.Legal(rules.Seat(s.turn)); !slices.Equal(l, []string{"d"}) {
		t.Fatalf("legal %v, want only d", l)
	}
	wantErr(t, s, s.turn, "t1", "every open stack is empty: you must draw")
	wantErr(t, s, s.turn, "p1", "you have no card to place: draw first")
	s = play(t, s, "d")
	wantErr(t, s, s.turn, "d", "place the card you drew first")
	wantErr(t, s, s.turn, "t1", "place the card you drew first")
	if !s.ViewOf(rules.Spectator).HasDrawn {
		t.Fatal("the drawn card is not shown")
	}
	s = play(t, s, "p1")
	wantErr(t, s, s.turn, "t2", "stack 2 is empty")
	wantErr(t, s, s.turn, "p5", "there is no stack 5")
	wantErr(t, s, s.turn, "p9", "not a move")
	if l := s.Legal(rules.Seat(s.turn)); !slices.Equal(l, []string{"d", "t1"}) {
		t.Fatalf("legal %v", l)
	}
}

func TestFullStacksAndPicking(t *testing.T) {
	s := newState(t, 3)
	a := s.turn
	s = play(t, s, "d", "p1", "d", "p1", "d", "p1")
	s = play(t, s, "d")
	wantErr(t, s, s.turn, "p1", "stack 1 is full")
	s = play(t, s, "p2", "d", "p2", "d", "p2", "d", "p3", "d", "p3", "d", "p3")
	if s.turn != a {
		t.Fatalf("turn %d, want %d", s.turn, a)
	}
	wantErr(t, s, s.turn, "d", "every open stack is full: you may not draw")
	if l := s.Legal(rules.Seat(s.turn)); !slices.Equal(l, []string{"t1", "t2", "t3"}) {
		t.Fatalf("legal %v", l)
	}
	s = play(t, s, "t1")
	if got := s.hands[a].Size(); got != 4 {
		t.Fatalf("picker holds %d cards", got)
	}
	b := s.turn
	if b != (a+1)%3 {
		t.Fatalf("after a pick the turn goes to %d", b)
	}
	wantErr(t, s, b, "t1", "stack 1 was already picked this cycle")
	wantErr(t, s, a, "t2", "you picked stack 1 and sit out")
	if _, err := s.Apply(rules.Seat(a), "t2"); !errors.Is(err, rules.ErrNotYourTurn) {
		t.Fatalf("picker plays: %v", err)
	}
	v := s.ViewOf(rules.Seat(b))
	if v.Stacks[0].PickedBy != rules.Seat(a) || len(v.Stacks[0].Taken) != 3 || len(v.Stacks[0].Cards) != 0 ||
		!v.Players[a].SitsOut() || v.Players[a].Picked != 0 {
		t.Fatalf("view after the pick: %+v / %+v", v.Stacks[0], v.Players[a])
	}
	s = play(t, s, "t2")
	c := s.turn
	wantErr(t, s, c, "t2", "stack 2 was already picked this cycle")
	s = play(t, s, "t3")
	// The cycle is over: the last picker starts the next one, the stacks are open and empty.
	if s.turn != c || s.cycle != 2 {
		t.Fatalf("next cycle: turn %d cycle %d, want %d, 2", s.turn, s.cycle, c)
	}
	for i := range s.nstacks {
		if st := s.stacks[i]; st.n != 0 || st.picker != -1 {
			t.Fatalf("stack %d after the cycle: %+v", i+1, st)
		}
	}
	for p := range 3 {
		if s.picked[p] != -1 || s.hands[p].Size() != 4 {
			t.Fatalf("seat %d after the cycle: picked %d, %d cards", p, s.picked[p], s.hands[p].Size())
		}
	}
	checkInvariants(t, s)
}

func TestPickedSeatsAreSkipped(t *testing.T) {
	s := newState(t, 3)
	a := s.turn
	s = play(t, s, "d", "p1", "d", "p2", "d", "p3")
	s = play(t, s, "t1") // a picks
	b, c := (a+1)%3, (a+2)%3
	s = play(t, s, "d", "p2")
	if s.turn != c {
		t.Fatalf("turn %d, want %d", s.turn, c)
	}
	s = play(t, s, "d", "p3")
	if s.turn != b {
		t.Fatalf("turn %d, want %d (the picker sits out)", s.turn, b)
	}
	s = play(t, s, "t2", "d", "p3")
	if s.turn != c { // the only one left plays on
		t.Fatalf("turn %d, want %d", s.turn, c)
	}
	wantErr(t, s, c, "d", "every open stack is full: you may not draw")
}

func TestTwoPlayers(t *testing.T) {
	s := newState(t, 2)
	a := s.turn
	s = play(t, s, "d", "p1", "d")
	wantErr(t, s, s.turn, "p1", "stack 1 is full")
	s = play(t, s, "p2", "d", "p2", "d", "p3", "d", "p3", "d", "p3")
	wantErr(t, s, s.turn, "d", "every open stack is full: you may not draw")
	third := s.stacks[0].cards[0]
	s = play(t, s, "t3", "t2")
	b := 1 - a
	if s.turn != b || s.cycle != 2 {
		t.Fatalf("turn %d cycle %d: the last picker starts", s.turn, s.cycle)
	}
	if s.discard.Size() != 1 || s.discard.Count(third) != 1 {
		t.Fatalf("discards %+v, want the card of stack 1", s.discard)
	}
	if v := s.ViewOf(0); v.Discards != s.discard {
		t.Fatal("discards not in the view")
	}
	if s.hands[a].Size() != 4 || s.hands[b].Size() != 3 {
		t.Fatalf("hands %d and %d cards", s.hands[a].Size(), s.hands[b].Size())
	}
	checkInvariants(t, s)
}

// firstLegal plays the seat to move's first legal take if it has one, else its first legal move.
func firstLegal(s *State) string {
	l := s.Legal(rules.Seat(s.turn))
	for _, m := range l {
		if m[0] == 't' {
			return m
		}
	}
	return l[0]
}

func TestLastCycleEndsRound(t *testing.T) {
	s := newState(t, 3)
	// Put the Last Cycle card on top of the deck (card counts unchanged).
	deck := slices.Clone(s.deck)
	i := slices.Index(deck, LastCycle)
	deck[0], deck[i] = deck[i], deck[0]
	s.deck = deck
	second := deck[1]
	starter := s.turn
	s = play(t, s, "d")
	v := s.ViewOf(rules.Spectator)
	if !v.LastCycle || v.Drawn != second || v.DeckSize != len(deck)-2 || v.UntilLastCycle != 0 {
		t.Fatalf("after drawing the Last Cycle card: %+v", v)
	}
	s = play(t, s, "p1")
	for s.round == 1 {
		if s.picked[0] >= 0 && s.picked[1] >= 0 && s.picked[2] >= 0 {
			t.Fatal("everyone picked but the round goes on")
		}
		checkInvariants(t, s)
		before := s
		s = play(t, s, firstLegal(s))
		if s.round == 1 && s.cycle != 1 {
			t.Fatal("a new cycle started after the Last Cycle card")
		}
		if s.round == 2 {
			// The move that ended the round was a pick by the last seat to pick.
			if before.lastMove.Kind != Take && s.lastMove.Kind != Take {
				t.Fatalf("round ended by %v", s.lastMove)
			}
		}
	}
	v = s.ViewOf(rules.Spectator)
	r, ok := v.LastRound()
	if !ok || r.Round != 1 || !v.RoundEnded || v.Round != 2 || v.Cycle != 1 || v.LastCycle {
		t.Fatalf("after the round: %+v", v)
	}
	for p := range 3 {
		if !equalScore(r.Scores[p], ScoreHand(r.Hands[p])) || r.Totals[p] != r.Scores[p].Total ||
			v.Players[p].Total != r.Totals[p] || v.Players[p].Hand.Size() != 1 {
			t.Fatalf("seat %d: result %+v, view %+v", p, r, v.Players[p])
		}
	}
	if s.turn != (starter+1)%3 {
		t.Fatalf("round 2 starts with %d, want %d", s.turn, (starter+1)%3)
	}
	checkInvariants(t, s)
	s = play(t, s, "d")
	if v := s.ViewOf(0); v.RoundEnded {
		t.Fatal("RoundEnded stays on")
	}
}

func TestGameEnds(t *testing.T) {
	s, _ := NewState(2, 4, 3)
	starters := []int{s.turn}
	for !s.over {
		round := s.round
		s = play(t, s, firstLegal(s))
		if s.round != round && !s.over {
			starters = append(starters, s.turn)
		}
	}
	if starters[1] != (starters[0]+1)%4 {
		t.Fatalf("starters %v: they rotate", starters)
	}
	o := s.Outcome()
	if !o.Over || len(s.results) != 2 || o.Reason == "" {
		t.Fatalf("outcome %+v", o)
	}
	for p := range 4 {
		if o.Scores[p] != s.results[0].Scores[p].Total+s.results[1].Scores[p].Total {
			t.Fatalf("seat %d: total %d", p, o.Scores[p])
		}
	}
	if !slices.Equal(o.Ranks, rules.RankByScore(o.Scores)) {
		t.Fatalf("ranks %v", o.Ranks)
	}
	v := s.ViewOf(0)
	if !v.Over || v.ToMove != -1 || len(v.Legal) != 0 || !slices.Equal(v.Ranks, o.Ranks) {
		t.Fatalf("final view %+v", v)
	}
}

func TestEmptyDeckEndsRound(t *testing.T) {
	// Not possible with a real deck; the rule still has to hold.
	s := newState(t, 3)
	s.deck = []Card{ColourCard(Red), ColourCard(Yellow)}
	s.next = 0
	s = play(t, s, "d", "p1")
	s = play(t, s, "d", "p2")
	wantErr(t, s, s.turn, "d", "the deck is empty: pick a stack")
	if l := s.Legal(rules.Seat(s.turn)); !slices.Equal(l, []string{"t1", "t2"}) {
		t.Fatalf("legal %v", l)
	}
	s = play(t, s, "t1", "t2")
	// The last player must draw from an empty deck: the round ends.
	if s.round != 2 || len(s.results) != 1 {
		t.Fatalf("round %d, %d results", s.round, len(s.results))
	}
}

func TestNewErrors(t *testing.T) {
	for _, tc := range []struct{ rounds, seats int }{{4, 1}, {4, 6}, {0, 3}, {7, 3}} {
		if _, err := NewState(tc.rounds, tc.seats, 1); err == nil {
			t.Errorf("NewState(%d rounds, %d seats) accepted", tc.rounds, tc.seats)
		}
	}
	opts, err := Game.Resolve(rules.Options{})
	if err != nil || opts["rounds"] != "4" {
		t.Fatalf("options %v %v", opts, err)
	}
	e, err := Game.New(rules.Options{"rounds": "2"}, 3, 1)
	if err != nil || e.(*State).rounds != 2 || e.Game() != "coloretta" || e.Seats() != 3 {
		t.Fatalf("New: %v", err)
	}
	if _, err := Game.Resolve(rules.Options{"rounds": "7"}); err == nil {
		t.Fatal("7 rounds accepted")
	}
}
