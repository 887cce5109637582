package coloretta

import (
	"fmt"
	"slices"

	"github.com/arcade/arcade/rules"
)

// View is what a viewer sees of a match: everything but the order of the deck. Hands, stacks, the
// drawn card and the discards are public, so every seat and spectators see the same, apart from
// Viewer, Legal and Prompt.
type View struct {
	// Viewer is the seat the view was made for, or rules.Spectator.
	Viewer rules.Seat
	// Seats is the number of players.
	Seats int
	// Colours lists the colours in play, in order (5, 6 or 7 of them).
	Colours []Colour
	// Round is the current round from 1 (the last one once the game is over); Rounds is how many
	// the game has.
	Round, Rounds int
	// Cycle is the current cycle of the round, from 1.
	Cycle int
	// DeckSize is the number of cards left in the deck, the Last Cycle card included until it
	// comes.
	DeckSize int
	// UntilLastCycle is the number of cards still to be drawn before the Last Cycle card turns up
	// (it lies with 15 cards beneath it, which everyone knows); 0 once it has come.
	UntilLastCycle int
	// LastCycle reports that the Last Cycle card has come: the current cycle is the round's last.
	LastCycle bool
	// HasDrawn reports that the player to move has drawn a card and must place it.
	HasDrawn bool
	// Drawn is the card drawn, face up for everyone, when HasDrawn.
	Drawn Card
	// Stacks holds the game stacks, index 0 being stack 1.
	Stacks []StackView
	// Players holds every seat's hand and standing, indexed by seat.
	Players []PlayerView
	// Discards holds the cards of stacks discarded this round (2 players: the stack nobody picked).
	Discards Hand
	// ToMove is the seat to move, or -1 when the game is over.
	ToMove rules.Seat
	// Legal holds the viewer's legal moves now, in notation; empty when it is not the viewer's turn.
	Legal []string
	// Prompt tells the viewer what to do now, e.g. "draw (d) or pick a stack (1, 2 or 3)"; empty when
	// it is not the viewer's turn.
	Prompt string
	// LastSeat is the seat that made the previous move, -1 before the first.
	LastSeat rules.Seat
	// LastMove is the previous move in notation, "" before the first.
	LastMove string
	// RoundEnded reports that the previous move ended a round: Results' last entry shows it (and the
	// hands on the table already belong to the next round, unless the game is over).
	RoundEnded bool
	// Results holds every finished round, in order; the last is the one for the end-of-round
	// screen.
	Results []RoundResult
	// Over reports that the game is over.
	Over bool
	// Ranks holds each seat's rank once the game is over: 1 first, ties share.
	Ranks []int
}

// StackView is one game stack.
type StackView struct {
	// Cards holds the cards on the stack, first placed first; empty once picked.
	Cards []Card
	// Capacity is the most cards the stack holds: 3, or 1, 2, 3 for stacks 1, 2, 3 with 2 players.
	Capacity int
	// PickedBy is the seat that picked the stack this cycle, or -1 while it is open.
	PickedBy rules.Seat
	// Taken holds the cards PickedBy took with it (now in its hand).
	Taken []Card
}

// Open reports whether the stack may still receive cards or be picked this cycle.
func (st StackView) Open() bool { return st.PickedBy < 0 }

// Full reports whether the stack holds as many cards as it can.
func (st StackView) Full() bool { return len(st.Cards) >= st.Capacity }

// PlayerView is one seat's hand and standing.
type PlayerView struct {
	// Seat is the player's seat.
	Seat rules.Seat
	// Hand is the hand, counted by kind.
	Hand Hand
	// Groups lists the colours held with their counts, most cards first.
	Groups []Group
	// Score is what the hand would score if the round ended now, with its breakdown.
	Score HandScore
	// Picked is the index of the stack the seat picked this cycle, or -1: a seat that picked sits
	// out the rest of the cycle.
	Picked int
	// Total is the seat's points from finished rounds.
	Total int
}

// SitsOut reports whether the seat picked a stack this cycle and waits for the cycle to end.
func (p PlayerView) SitsOut() bool { return p.Picked >= 0 }

// LastRound returns the most recent finished round, or false before the first ends.
func (v View) LastRound() (RoundResult, bool) {
	if len(v.Results) == 0 {
		return RoundResult{}, false
	}
	return v.Results[len(v.Results)-1], true
}

// KeyMove maps a key of the seed's keyboard to a move in notation: "d" draws; "1" to "5" place the
// drawn card on that stack when a card is drawn, else pick that stack. Whether the move is legal is
// for Apply to say; ok is false for other keys.
func (v View) KeyMove(key string) (move string, ok bool) {
	switch {
	case key == "d" || key == "D":
		return "d", true
	case len(key) == 1 && key[0] >= '1' && key[0] <= '0'+MaxStacks:
		if v.HasDrawn {
			return "p" + key, true
		}
		return "t" + key, true
	}
	return "", false
}

// View returns what viewer sees (see View). Any seat gets the same public information.
func (s *State) View(viewer rules.Seat) any { return s.ViewOf(viewer) }

// ViewOf is View with its concrete type.
func (s *State) ViewOf(viewer rules.Seat) View {
	v := View{
		Viewer:    viewer,
		Seats:     s.seats,
		Round:     s.round,
		Rounds:    s.rounds,
		Cycle:     s.cycle,
		DeckSize:  len(s.deck) - s.next,
		LastCycle: s.lastCycle,
		HasDrawn:  s.drawing,
		Discards:  s.discard,
		ToMove:    rules.Seat(s.turn),
		LastSeat:  rules.Seat(s.lastSeat),
		Results:   copyResults(s.results),
		Over:      s.over,
	}
	if s.drawing {
		v.Drawn = s.drawn
	}
	if s.lastSeat >= 0 {
		v.LastMove = s.lastMove.String()
		v.RoundEnded = s.roundEnded
	}
	if !s.lastCycle {
		v.UntilLastCycle = max(v.DeckSize-belowLastCycle-1, 0)
	}
	for c := range s.ncol {
		v.Colours = append(v.Colours, Colour(c))
	}
	for i := range s.nstacks {
		st := s.stacks[i]
		sv := StackView{Capacity: st.cap, PickedBy: rules.Seat(st.picker)}
		if st.picker >= 0 {
			sv.Taken = slices.Clone(st.cards[:st.n])
		} else {
			sv.Cards = slices.Clone(st.cards[:st.n])
		}
		v.Stacks = append(v.Stacks, sv)
	}
	for p := range s.seats {
		h := s.hands[p]
		v.Players = append(v.Players, PlayerView{
			Seat: rules.Seat(p), Hand: h, Groups: h.Groups(), Score: ScoreHand(h),
			Picked: s.picked[p], Total: s.totals[p],
		})
	}
	if s.over {
		v.Ranks = rules.RankByScore(s.totals[:s.seats])
	}
	v.Legal = s.Legal(viewer)
	if len(v.Legal) > 0 {
		v.Prompt = s.prompt()
	}
	return v
}

// copyResults returns a deep copy of rs, so that a view shares nothing with its state.
func copyResults(rs []RoundResult) []RoundResult {
	out := make([]RoundResult, len(rs))
	for i, r := range rs {
		out[i] = RoundResult{Round: r.Round, Hands: slices.Clone(r.Hands), Totals: slices.Clone(r.Totals)}
		out[i].Scores = make([]HandScore, len(r.Scores))
		for j, hs := range r.Scores {
			hs.Best, hs.Penalised, hs.Wilds = slices.Clone(hs.Best), slices.Clone(hs.Penalised), slices.Clone(hs.Wilds)
			out[i].Scores[j] = hs
		}
	}
	return out
}

// prompt tells the player to move what they may do.
func (s *State) prompt() string {
	var place, take []int
	for _, m := range s.LegalMoves(rules.Seat(s.turn)) {
		switch m.Kind {
		case Place:
			place = append(place, m.Stack+1)
		case Take:
			take = append(take, m.Stack+1)
		}
	}
	switch {
	case s.drawing:
		return fmt.Sprintf("place the %v card on a stack (%s)", s.drawn, numbers(place))
	case len(take) == 0:
		return "draw a card (d)"
	case !s.canDraw():
		if s.allOpen(true) {
			return fmt.Sprintf("every open stack is full: pick one (%s)", numbers(take))
		}
		return fmt.Sprintf("pick a stack (%s)", numbers(take))
	}
	return fmt.Sprintf("draw (d) or pick a stack (%s)", numbers(take))
}

// numbers writes stack numbers as "2", "1 or 3" or "1, 2 or 4".
func numbers(ns []int) string {
	out := ""
	for i, n := range ns {
		switch {
		case i == 0:
		case i == len(ns)-1:
			out += " or "
		default:
			out += ", "
		}
		out += fmt.Sprint(n)
	}
	return out
}
