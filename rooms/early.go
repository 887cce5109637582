package rooms

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/arcade/arcade/rules"
)

// Errors of ending a match early.
var (
	// ErrDrawTwoPlayers: draws are agreed between the two players of a two-seat match.
	ErrDrawTwoPlayers = errors.New("a draw is agreed between two players; with more, resign instead")
	// ErrBotPlaysOn: the opponent is a bot, and bots take no draws.
	ErrBotPlaysOn = errors.New("the bot plays on: bots take no draws")
	// ErrNotAPerson: only a seat's own player may resign it or offer a draw.
	ErrNotAPerson = errors.New("only the seat's player may do that")
)

// Resign ends the match early for s's seat. Before anyone has moved, it aborts the match for
// everybody, without rating. Otherwise: in a two-seat match the opponent wins and the match is
// rated as a loss; alone, the match ends without a score; with three seats or more, a bot of the
// game's middle level plays the seat on, the player watches, and the seat is ranked last when the
// match ends. Seated players only, while Playing.
func (s *Sub) Resign() error {
	r := s.room
	return r.call(context.Background(), func() error { return r.resign(s) })
}

// OfferDraw offers a draw in a two-seat match, or accepts the opponent's offer: when both have
// offered, the match ends drawn (every seat ranked first) and is rated so. An offer stands until
// the opponent moves; a bot opponent declines (ErrBotPlaysOn). Seated players only, while
// Playing.
func (s *Sub) OfferDraw() error {
	r := s.room
	return r.call(context.Background(), func() error { return r.offerDraw(s) })
}

// seatedPlayer checks that s holds a human seat of a match being played, and returns it. Room
// goroutine only.
func (r *Room) seatedPlayer(s *Sub) (*seatState, error) {
	if err := r.check(s); err != nil {
		return nil, err
	}
	if r.phase != Playing {
		return nil, ErrNotPlaying
	}
	if s.seat < 0 {
		return nil, ErrNotSeated
	}
	st := r.seats[s.seat]
	if st.bot != "" || st.player.ID != s.player.ID {
		return nil, ErrNotAPerson
	}
	return st, nil
}

// resign: see Sub.Resign. Room goroutine only.
func (r *Room) resign(s *Sub) error {
	st, err := r.seatedPlayer(s)
	if err != nil {
		return err
	}
	name := st.name()
	out := r.engine.Outcome()
	out.Scores = slices.Clone(out.Scores)
	out.Over = true
	switch {
	case len(r.moves) == 0:
		out.Ranks, out.Reason = nil, name+" aborted the match before the first move"
		r.finish(out, true)
	case len(r.seats) == 1:
		out.Ranks, out.Reason = nil, name+" resigned"
		r.finish(out, true)
	case len(r.seats) == 2:
		out.Ranks = []int{1, 1}
		out.Ranks[s.seat] = 2
		out.Reason = name + " resigned"
		r.finish(out, false)
	case len(r.game.Bots) == 0:
		return ErrNoSuchBot // nobody could play the seat on
	default:
		lv := r.game.Bots[len(r.game.Bots)/2]
		st.resigned = true
		r.clearGrace(st)
		r.seatBot(st, lv, "")
		st.sub = nil
		s.setSeat(rules.Spectator)
		r.spectators++
		r.system("%s resigned; %s plays on for them", name, st.name())
		if err := r.record(Event{Kind: EventTakeover, Seat: rules.Seat(slices.Index(r.seats, st))}); err != nil {
			r.cfg.Logf("rooms: room %s: recording a resignation: %v", r.code, err)
		}
		r.kickBots()
	}
	r.broadcast()
	return nil
}

// offerDraw: see Sub.OfferDraw. Room goroutine only.
func (r *Room) offerDraw(s *Sub) error {
	st, err := r.seatedPlayer(s)
	if err != nil {
		return err
	}
	if len(r.seats) != 2 {
		return ErrDrawTwoPlayers
	}
	other := r.seats[1-s.seat]
	if other.bot != "" {
		return ErrBotPlaysOn
	}
	if !other.drawOffer {
		if !st.drawOffer {
			st.drawOffer = true
			r.system("%s offers a draw", st.name())
			r.broadcast()
		}
		return nil
	}
	out := r.engine.Outcome()
	out.Scores = slices.Clone(out.Scores)
	out.Over, out.Ranks, out.Reason = true, []int{1, 1}, "drawn by agreement"
	r.finish(out, false)
	r.broadcast()
	return nil
}

// declineDraws withdraws the draw offers of every seat but the one that moved (a move answers an
// opponent's offer), and any takeback request. Room goroutine only.
func (r *Room) declineDraws(moved rules.Seat) {
	for i, st := range r.seats {
		if rules.Seat(i) != moved {
			st.drawOffer = false
		}
	}
	r.clearTakeback()
}

// rankResignedLast ranks the seats whose players resigned after every other seat, in out (a
// match's end). Room goroutine only.
func (r *Room) rankResignedLast(out rules.Outcome) rules.Outcome {
	if len(out.Ranks) != len(r.seats) || !slices.ContainsFunc(r.seats, func(st *seatState) bool { return st.resigned }) {
		return out
	}
	stayed := 0
	for _, st := range r.seats {
		if !st.resigned {
			stayed++
		}
	}
	// The players who stayed keep their order among themselves; those who resigned share the rank
	// after them.
	ranks := make([]int, len(out.Ranks))
	for i, st := range r.seats {
		if st.resigned {
			ranks[i] = stayed + 1
			continue
		}
		better := 0
		for j, o := range r.seats {
			if !o.resigned && out.Ranks[j] < out.Ranks[i] {
				better++
			}
		}
		ranks[i] = better + 1
	}
	out.Ranks = ranks
	return out
}

// ErrTakebackRated: takebacks are for matches that are not rated.
var ErrTakebackRated = errors.New("takebacks are for casual matches (with a bot, a guest or settings that are not standard)")

// ErrNothingToTakeBack: the player has made no move in this match.
var ErrNothingToTakeBack = errors.New("you have made no move to take back")

// TakeBack asks to take back the player's last move, with every move after it, in a match that is
// not rated (a seat is a bot's or a guest's); or, when another player asked, agrees. The moves
// are taken back when every other person at the table has agreed (bots always do): the match goes
// on from before them, and the record forgets them. A move made meanwhile withdraws the request.
// Seated players only, while Playing.
func (s *Sub) TakeBack() error {
	r := s.room
	return r.call(context.Background(), func() error { return r.takeBack(s) })
}

// rated reports whether the match will be rated: the room's settings are standard (Casual), and
// it has two seats or more, every one a person with a key (a free seat counts as one, until a
// guest or a bot takes it). The store's rating step decides the same from the match's record
// (record.Match.Rateable, with Casual recorded from the room). Room goroutine only.
func (r *Room) rated() bool {
	return !r.casual && len(r.seats) >= 2 &&
		!slices.ContainsFunc(r.seats, func(st *seatState) bool { return st.bot != "" || st.player.Guest })
}

// takeBack: see Sub.TakeBack. Room goroutine only.
func (r *Room) takeBack(s *Sub) error {
	st, err := r.seatedPlayer(s)
	if err != nil {
		return err
	}
	if r.rated() {
		return ErrTakebackRated
	}
	by := r.takebackBy
	if by < 0 {
		if slices.IndexFunc(r.moves, func(m MoveRecord) bool { return m.Seat == s.seat }) < 0 {
			return ErrNothingToTakeBack
		}
		by = s.seat
		r.takebackBy = by
		r.system("%s asks to take back their last move", st.name())
	}
	st.takeback = true
	for _, o := range r.seats {
		if o.bot == "" && !o.takeback {
			r.broadcast()
			return nil // waiting for the others
		}
	}
	return r.undoTo(by)
}

// undoTo takes back seat's last move and every move after it. Room goroutine only.
func (r *Room) undoTo(seat rules.Seat) error {
	k := len(r.moves) - 1
	for k >= 0 && r.moves[k].Seat != seat {
		k--
	}
	r.clearTakeback()
	if k < 0 {
		r.broadcast()
		return ErrNothingToTakeBack
	}
	kept := rules.TakenBackTo(r.reshuffles, k)
	eng, err := r.game.New(maps.Clone(r.opts), len(r.seats), r.seed)
	for i, mv := range r.moves[:k] {
		if err != nil {
			break
		}
		eng, err = rules.Reshuffled(eng, kept, i).Apply(mv.Seat, mv.Move)
	}
	if err != nil {
		r.cfg.Logf("rooms: room %s: the moves before a takeback do not replay: %v", r.code, err)
		return fmt.Errorf("the moves cannot be taken back: %w", err)
	}
	eng = rules.Reshuffled(eng, kept, k)
	back := Event{Kind: EventTakeback, Ply: k}
	if rs, ok := eng.(rules.Reshuffler); ok {
		// The same bag again would draw what the player saw drawn after the moves taken back:
		// its undrawn part is shuffled anew, and the record says how.
		back.Reshuffle = &rules.Reshuffle{Ply: k, Salt: r.cfg.NewSalt()}
		eng = rs.Reshuffle(back.Reshuffle.Salt)
		kept = append(kept, *back.Reshuffle)
	}
	if r.clock.Correspondence() {
		back.ToMove, back.Due = eng.ToMove(), r.due()
	}
	if err := r.record(back); err != nil {
		r.cfg.Logf("rooms: room %s: recording a takeback: %v", r.code, err)
		return ErrNotSaved
	}
	n := len(r.moves) - k
	r.engine, r.moves, r.outcome, r.reshuffles = eng, r.moves[:k:k], eng.Outcome(), kept
	clear(r.thinking)
	r.system("%s's last move is taken back (%d %s)", r.seats[seat].name(), n, map[bool]string{true: "move", false: "moves"}[n == 1])
	r.armTurn(true)
	r.armClock()
	r.kickBots()
	r.broadcast()
	return nil
}

// clearTakeback withdraws a takeback request. Room goroutine only.
func (r *Room) clearTakeback() {
	r.takebackBy = -1
	for _, st := range r.seats {
		st.takeback = false
	}
}
