package rooms

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/sanitize"
)

// Limits of user text and of chat.
const (
	// MaxChat is the longest chat line, in runes.
	MaxChat = 200
	// MaxMove is the longest move text, in runes.
	MaxMove = 100
	// ChatBurst lines may be said per ChatWindow by one subscription.
	ChatBurst  = 5
	ChatWindow = 5 * time.Second
)

// Sub is one connection's subscription to a room: a player on a seat or a spectator. Its methods are
// safe for concurrent use; those that return an error block until the room has answered.
type Sub struct {
	room     *Room
	player   Player
	ch       chan Snapshot          // sent to and closed by the room goroutine only
	onUpdate atomic.Pointer[func()] // see OnUpdate
	seatNow  atomic.Int64           // mirror of seat for Seat()
	moved    atomic.Bool            // the room closed because it moved to another server (Moved)

	// Owned by the room goroutine.
	seat      rules.Seat
	gone      error // why the subscription ended, nil while it lasts
	chatTimes []time.Time
}

// setSeat moves s to seat. Room goroutine only.
func (s *Sub) setSeat(seat rules.Seat) {
	s.seat = seat
	s.seatNow.Store(int64(seat))
}

// Updates returns the subscription's snapshots: a channel of capacity one where the newest
// snapshot replaces one not yet read. The first snapshot is there when Join returns. The channel is
// closed when the subscription ends (Leave, replacement by a newer connection, or the room's end,
// after a last snapshot saying so).
func (s *Sub) Updates() <-chan Snapshot { return s.ch }

// OnUpdate has the room call f, on the room's goroutine, after each snapshot it leaves on Updates
// and after it closes Updates, so that a subscriber need not keep a goroutine waiting on the
// channel: f must return at once and must not call into the room (it might signal a goroutine
// that wakes a Bubble Tea program, whose model then reads Updates without waiting). A later call
// replaces f. The snapshots left before OnUpdate (the first is there when Join returns) wait on
// Updates: read it once after calling OnUpdate.
func (s *Sub) OnUpdate(f func()) { s.onUpdate.Store(&f) }

// updated calls the function OnUpdate set, if any. Room goroutine only.
func (s *Sub) updated() {
	if f := s.onUpdate.Load(); f != nil {
		(*f)()
	}
}

// Seat returns the subscriber's seat, or rules.Spectator when watching: the seat taken at Join,
// moved when a rematch rotates the seats. Snapshot.You says the same with each snapshot.
func (s *Sub) Seat() rules.Seat { return rules.Seat(s.seatNow.Load()) }

// Player returns the subscriber, with the name as the room shows it.
func (s *Sub) Player() Player { return s.player }

// Room returns the subscription's room.
func (s *Sub) Room() *Room { return s.room }

// Move plays move (in the game's notation) for the subscriber's seat and blocks until the room has
// judged it (or ctx is done: then ctx.Err() is returned and the move may still be played). An
// illegal move returns the engine's error as is, written for the player, and changes nothing.
// Spectators get ErrNotSeated.
func (s *Sub) Move(ctx context.Context, move string) error {
	move = sanitize.Line(move, MaxMove)
	r := s.room
	return r.call(ctx, func() error {
		if err := r.check(s); err != nil {
			return err
		}
		if s.seat < 0 {
			return ErrNotSeated
		}
		return r.apply(s.seat, move)
	})
}

// Chat says text in the room. It is sanitised to one line of at most MaxChat runes; nothing left is
// ErrEmptyChat; more than ChatBurst lines per ChatWindow is ErrSlowDown. Spectators may chat: while
// a match is played their lines go to the spectators' chat (Snapshot.SpectatorChat), which
// players read only when they ask, and join the room's chat when the match ends.
func (s *Sub) Chat(text string) error {
	text = sanitize.Line(text, MaxChat)
	if text == "" {
		return ErrEmptyChat
	}
	r := s.room
	return r.call(context.Background(), func() error {
		if err := r.check(s); err != nil {
			return err
		}
		now := time.Now()
		keep := s.chatTimes[:0]
		for _, t := range s.chatTimes {
			if now.Sub(t) < ChatWindow {
				keep = append(keep, t)
			}
		}
		s.chatTimes = keep
		if len(keep) >= ChatBurst {
			return ErrSlowDown
		}
		s.chatTimes = append(s.chatTimes, now)
		r.say(ChatLine{From: s.player.Name, Text: text, At: now, Player: s.player.ID, Spectator: s.seat < 0})
		r.broadcast()
		return nil
	})
}

// AddBot seats a bot of the given level ("" for the game's weakest) on seat.
//
// While Waiting, anyone in the room, spectators too, may fill a free seat with a bot (so that a
// spectator can set up a match of bots); the match starts when the last seat is filled. During a
// match, a seated player may hand a seat whose countdown has run out (SeatInfo.Abandoned) to a bot,
// which plays on from there; ErrInGrace while the countdown runs. After a match, a seated player may
// hand the seat of a player who left to a bot, so that a rematch can be voted without them.
func (s *Sub) AddBot(seat rules.Seat, level string) error {
	r := s.room
	return r.call(context.Background(), func() error { return r.addBot(s, seat, level) })
}

// EndMatch ends the match without rating (Outcome.Over, Outcome.Reason "abandoned", no ranks,
// Snapshot.Unrated) once some seat has been abandoned (ErrNotAbandoned before). Seated players only.
func (s *Sub) EndMatch() error {
	r := s.room
	return r.call(context.Background(), func() error { return r.endMatch(s) })
}

// Rematch votes for a rematch after a match (ErrNotFinished before). When every human seat holder
// has voted (bots always agree), a new match starts with the same players, a new seed and the seats
// rotated by one: the holder of seat i+1 moves to seat i, the holder of seat 0 to the last seat.
// Voting twice is the same as once. Seated players only.
func (s *Sub) Rematch() error {
	r := s.room
	return r.call(context.Background(), func() error { return r.rematch(s) })
}

// Leave ends the subscription and closes its channel; it blocks until the room has done so (or has
// stopped). Calling it again does nothing. A seated player leaving while Waiting frees the seat;
// during a match the seat waits Config.SeatGrace for the player to come back (SeatInfo.GraceUntil);
// after a match it stays theirs.
func (s *Sub) Leave() { s.leave(false) }

// Moved reports, once Updates has closed, whether the room closed because it moved to another
// server (Hub.MoveRoom: another node of a cluster keeps it now), so that the session may follow
// it there; false when the room closed for any other reason or the subscriber left.
func (s *Sub) Moved() bool { return s.moved.Load() }

// LeaveByChoice is Leave for a player who chose to go (the room screen's leave), not one whose
// connection ended: the room tells the others that the player left, not that they dropped. The
// seat waits for them all the same.
func (s *Sub) LeaveByChoice() { s.leave(true) }

func (s *Sub) leave(chosen bool) {
	r := s.room
	_ = r.call(context.Background(), func() error {
		r.leave(s, chosen)
		return nil
	})
}
