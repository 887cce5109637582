package rooms

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arcade/arcade/rules"
)

// Phase is where a room is in its life.
type Phase int

const (
	// Waiting: seats are being filled; the match starts when all are.
	Waiting Phase = iota
	// Playing: a match is in progress.
	Playing
	// Finished: the match is over; a rematch may be voted.
	Finished
	// Closed: the room has ended; no more snapshots follow.
	Closed
)

// String returns the phase in lower case, e.g. "waiting".
func (p Phase) String() string {
	switch p {
	case Waiting:
		return "waiting"
	case Playing:
		return "playing"
	case Finished:
		return "finished"
	case Closed:
		return "closed"
	}
	return "unknown"
}

// Snapshot is one subscriber's view of its room at one moment.
//
// Every slice and map in a snapshot is shared: Options with the room for its whole life, Seats,
// ToMove and the slices of Outcome with the other subscribers of the same change, Moves and Chat
// with other subscribers and later snapshots, and View with subscribers of the same viewer seat.
// Treat them as read-only. The room never changes them once a snapshot holds them.
type Snapshot struct {
	Code     string
	GameID   string
	GameName string
	Options  rules.Options
	Phase    Phase
	// Seq increases with every change of the room; a later snapshot has a larger Seq.
	Seq uint64
	// Match counts the room's matches: 0 while Waiting for the first, 1 during the first...
	Match int
	Seats []SeatInfo
	// You is the subscriber's seat, rules.Spectator when watching.
	You rules.Seat
	// ToMove lists the seats that may act now (Playing only).
	ToMove []rules.Seat
	// Clock is when the seat to move runs out of time, by the game's own turn timer or the
	// room's clock, whichever comes first; its Ends is zero when neither runs.
	Clock TurnClock
	// TimeControl is the match's clock (the room option "clock"); Times, with a game clock, each
	// player's time as it was when their latest turn began (the running seat's runs out at
	// Clock.Ends).
	TimeControl Clock
	Times       []time.Duration
	// View is engine.View(You), the game's own view value; nil while Waiting.
	View    any
	Outcome rules.Outcome
	// Unrated is set when the match ended without rating (EndMatch).
	Unrated bool
	// Casual is set when the room's settings are not all standard (Casual): none of its matches
	// is rated, whoever sits. Whether a match of a room that is not casual is rated depends on
	// its seats as well (every one a person with a key); a snapshot from a node that does not
	// know the field has it false, and the seats alone say, as they did.
	Casual bool
	// Result is what recording the match's end did (its ID, the rating changes), once known:
	// Finished only, with a Recorder that is an EndRecorder.
	Result EndResult
	// Moves is the move log of the current match.
	Moves []MoveRecord
	// Chat holds the last ChatLines lines, oldest first: the players', the system's, and the
	// spectators' said between matches or, once a match has ended, during it.
	Chat []ChatLine
	// SpectatorChat holds the spectators' lines of the match being played, the last ChatLines,
	// oldest first: every subscriber gets them, and a player's screen shows them when asked.
	// When the match ends they join Chat, and this is empty. A snapshot from a node that does not
	// know the field has none (that node keeps every line in Chat).
	SpectatorChat []ChatLine
	Spectators    int
	// SeatGrace is how long a player's seat waits for them when they leave or drop during a match
	// (Config.SeatGrace).
	SeatGrace time.Duration
	// Notice is a room-wide notice, e.g. the shutdown message.
	Notice string
	// Replaced is set on the last snapshot of a subscription that a newer connection of the same
	// player has replaced.
	Replaced bool
}

// Counts reports whether the snapshot's match counts for a record: rated, with two seats or more,
// or on the solo table, alone (record.Match.Rateable, SoloScorable): the room's settings are
// standard (not Casual) and every seat is a person with a key (a free seat counts as one, as in
// Room.rated). What helps a player, a hint, is for matches that count for nothing.
func (s *Snapshot) Counts() bool {
	return !s.Casual && len(s.Seats) >= 1 &&
		!slices.ContainsFunc(s.Seats, func(x SeatInfo) bool { return x.Bot != "" || x.Guest })
}

// SeatInfo describes one seat.
type SeatInfo struct {
	// Name is the player's name, or the bot's ("Ada (easy bot)"); empty for a free seat.
	Name     string
	PlayerID string
	Guest    bool
	// Bot is the bot's level, "" for a human or a free seat.
	Bot string
	// Connected: the seat's player has a connection to the room (always true for bots).
	Connected bool
	// Empty: nobody holds the seat (Waiting only).
	Empty bool
	// GraceUntil is when a dropped player's seat is abandoned; zero unless the player dropped
	// during the match.
	GraceUntil time.Time
	// Abandoned: the grace ran out; others may AddBot on the seat or EndMatch.
	Abandoned bool
	// Rematch: the seat's holder voted for a rematch (bots always do).
	Rematch bool
	// DrawOffer: the seat's player offers a draw (Sub.OfferDraw).
	DrawOffer bool
	// Resigned: the seat's player resigned, and a bot plays the seat on (Sub.Resign).
	Resigned bool
	// TakeBack: the seat's player asks for, or agrees to, a takeback (Sub.TakeBack).
	TakeBack bool
}

// MoveRecord is one accepted move.
type MoveRecord struct {
	Seat rules.Seat
	Move string
	// Name is the name of the seat's holder when the move was made.
	Name string
	// At is when the move was made; zero when not known (a replay's moves).
	At time.Time
	// Public is the move as the other players may read it while the match goes on, when Move
	// shows what only its mover may know (rules.Concealer); "" when Move is public.
	Public string
}

// ChatLine is one line of chat. System lines (joins, leaves, drops, bot takeovers, results) have
// From == "".
type ChatLine struct {
	From string
	Text string
	At   time.Time
	// Player is the ID of who said it (Player.ID); empty for system lines. A session hides the
	// lines of the players its player ignores by it.
	Player string
	// Spectator: the line was said by a spectator (in a room's Chat, a spectators' line that
	// was said between matches, or that joined it when its match ended).
	Spectator bool
}

// ChatLines is the number of chat lines a room keeps.
const ChatLines = 50

// Summary describes an open room for the lobby and `ssh host rooms`. Options is shared with the
// room: treat it as read-only.
type Summary struct {
	Code     string
	GameID   string
	GameName string
	Options  rules.Options
	Phase    Phase
	// Seats holds each seat's name, "" for a free seat.
	Seats      []string
	Free       int
	Spectators int
	Created    time.Time
	// Away lists the seats whose players dropped during the match, in seat order.
	Away []Away
	// Mode says whether the room's matches are rated: ModeRated or ModeCasual for a room of two
	// seats or more (its settings and its seats as they are now: a free seat counts as a
	// person's with a key); "" for a room played alone, and in a summary from a node that does
	// not say.
	Mode string `json:"mode,omitempty"`
	// Players holds, for each seat held by a player with a key, that player's ID (Player.ID);
	// "" for a free seat, a bot's or a guest's. Nil when no seat has such a player. The lobby
	// finds a player's matches by it (Yours).
	Players []string `json:",omitempty"`
	// ToMove are the seats whose move it is while the match is played, and Clock the turn's
	// clock when the turn is timed (the earlier of the game's turn timer and the room's clock, as
	// snapshots show it). Both change with every move, so the cluster's directory does not carry
	// them: a summary of a room of another node has neither.
	ToMove []rules.Seat `json:"-"`
	Clock  TurnClock    `json:"-"`
}

// The modes of a room (Summary.Mode), as lists write them.
const (
	ModeRated  = "rated"
	ModeCasual = "casual"
)

// SeatOf returns the seat held by the player with key id, or -1 (always for id "").
func (s Summary) SeatOf(id string) int {
	if id == "" {
		return -1
	}
	return slices.Index(s.Players, id)
}

// ToPlay reports whether the match is played and it is seat's move.
func (s Summary) ToPlay(seat int) bool {
	return s.Phase == Playing && slices.Contains(s.ToMove, rules.Seat(seat))
}

// Away is a seat whose player dropped during the match.
type Away struct {
	Name string
	// Until is when the seat is abandoned if its player has not come back.
	Until time.Time
	// Gone: the grace ran out (the seat may be given to a bot, or the match ended).
	Gone bool
}

// State says what is true of the room at now, in a few words for a list: "waiting for 2
// players", "playing", "bob away 1:42" (with "+1" when more are away), "bob left", "finished".
func (s Summary) State(now time.Time) string {
	switch s.Phase {
	case Waiting:
		if s.Free == 1 {
			return "waiting for 1 player"
		}
		return fmt.Sprintf("waiting for %d players", s.Free)
	case Playing:
		if len(s.Away) == 0 {
			return "playing"
		}
		a := s.Away[0]
		state := a.Name + " left"
		if !a.Gone {
			left := max(a.Until.Sub(now), 0).Round(time.Second)
			state = fmt.Sprintf("%s away %d:%02d", a.Name, int(left.Minutes()), int(left.Seconds())%60)
		}
		if len(s.Away) > 1 {
			state += fmt.Sprintf(" +%d", len(s.Away)-1)
		}
		return state
	}
	return s.Phase.String()
}

// SeatList joins the names of the room's seats, "-" for a free one: "ann, -".
func (s Summary) SeatList() string {
	out := make([]string, len(s.Seats))
	for i, name := range s.Seats {
		out[i] = name
		if name == "" {
			out[i] = "-"
		}
	}
	return strings.Join(out, ", ")
}

// shared holds the parts of one broadcast that every subscriber's snapshot is made from.
type shared struct {
	seats   []SeatInfo
	toMove  []rules.Seat
	clock   TurnClock
	times   []time.Duration
	outcome rules.Outcome
	moves   []MoveRecord
	views   map[rules.Seat]any
}

// newShared collects the room's state for one broadcast. Room goroutine only.
func (r *Room) newShared() *shared {
	sh := &shared{
		seats:   r.seatInfos(),
		outcome: r.outcome,
		moves:   r.moves[:len(r.moves):len(r.moves)],
		views:   map[rules.Seat]any{},
	}
	sh.outcome.Scores = slices.Clone(r.outcome.Scores) // the engine's, which may change them
	sh.outcome.Ranks = slices.Clone(r.outcome.Ranks)
	if r.phase == Playing {
		sh.toMove = r.engine.ToMove()
		sh.clock, sh.times = r.clockShown()
	}
	return sh
}

// snapshotFor returns s's snapshot of the room from sh. Room goroutine only.
func (r *Room) snapshotFor(s *Sub, sh *shared) Snapshot {
	snap := Snapshot{
		Code:          r.code,
		GameID:        r.game.ID,
		GameName:      r.game.Name,
		Options:       r.opts, // never changed after newRoom
		Phase:         r.phase,
		Seq:           r.seq,
		Match:         r.match,
		Seats:         sh.seats,
		You:           s.seat,
		ToMove:        sh.toMove,
		Clock:         sh.clock,
		TimeControl:   r.clock,
		Times:         sh.times,
		Outcome:       sh.outcome,
		Unrated:       r.unrated,
		Casual:        r.casual,
		Result:        r.result,
		Moves:         sh.moves,
		Chat:          r.chat,
		SpectatorChat: r.watchers,
		Spectators:    r.spectators,
		SeatGrace:     r.cfg.SeatGrace,
		Notice:        r.notice,
	}
	if r.engine != nil {
		seat := s.seat
		if _, public := r.engine.(rules.PublicViewer); public {
			seat = rules.Spectator // one view for everybody
		}
		v, ok := sh.views[seat]
		if !ok {
			v = r.engine.View(seat)
			sh.views[seat] = v
		}
		snap.View = v
	}
	return snap
}

// Offer puts snap into ch, a channel of capacity one, without blocking: a stale snapshot still
// waiting there is replaced, as on a Sub's Updates. With one sender (a room's goroutine sends on
// its subscribers' channels), the send after the drain cannot block; the select is there only as
// a guard. Other implementations of a subscription (cluster/remote) use it too.
func Offer(ch chan Snapshot, snap Snapshot) {
	select {
	case ch <- snap:
		return
	default:
	}
	select {
	case <-ch:
	default:
	}
	select {
	case ch <- snap:
	default:
	}
}

// broadcast sends every subscriber its snapshot of the room as it is now and publishes the room's
// summary. Room goroutine only.
func (r *Room) broadcast() {
	r.seq++
	sh := r.newShared()
	for s := range r.subs {
		Offer(s.ch, r.snapshotFor(s, sh))
		s.updated()
	}
	r.publish(sh)
}

// seatPlayers returns Summary.Players of the room's seats now: the last summary's when they have
// not changed (summaries are never changed once published), so that a move's summary makes no
// new one. Room goroutine only.
func (r *Room) seatPlayers() []string {
	var prev []string
	if last := r.summary.Load(); last != nil && len(last.Players) == len(r.seats) {
		prev = last.Players
	}
	same, keyed := prev != nil, false
	for i, st := range r.seats {
		id := st.key()
		keyed = keyed || id != ""
		same = same && prev[i] == id
	}
	switch {
	case same:
		return prev
	case !keyed:
		return nil
	}
	out := make([]string, len(r.seats))
	for i, st := range r.seats {
		out[i] = st.key()
	}
	return out
}

// publish stores the room's summary for Hub.List; sh is the broadcast's state when the summary
// is published with one (its turn and clock are the snapshots'), else nil. Room goroutine only.
func (r *Room) publish(sh *shared) {
	sum := &Summary{
		Code:       r.code,
		GameID:     r.game.ID,
		GameName:   r.game.Name,
		Options:    r.opts, // never changed after newRoom
		Phase:      r.phase,
		Seats:      make([]string, len(r.seats)),
		Spectators: r.spectators,
		Created:    r.created,
	}
	for i, st := range r.seats {
		if st.empty() {
			sum.Free++
		}
		sum.Seats[i] = st.name()
		if r.phase == Playing && st.away() && !r.corr() { // correspondence players are mostly away
			sum.Away = append(sum.Away, Away{Name: st.name(), Until: st.graceUntil, Gone: st.abandoned})
		}
	}
	sum.Players = r.seatPlayers()
	if len(r.seats) >= 2 {
		sum.Mode = ModeCasual
		if r.rated() {
			sum.Mode = ModeRated
		}
	}
	switch {
	case sh != nil:
		sum.ToMove, sum.Clock = sh.toMove, sh.clock
	case r.phase == Playing && r.engine != nil:
		sum.ToMove = r.engine.ToMove()
		sum.Clock, _ = r.clockShown()
	}
	r.summary.Store(sum)
}
