package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
)

// A room of a cluster lives on one server; when that server stops, another takes the room over a
// few seconds later. A session in such a room follows it there by itself: its subscription ends
// saying the room's server stopped (MovedSub), the room screen stays, saying the room is moving,
// and the session finds the room again (Hub.Find, which waits for the takeover) and joins it as
// the same player, on the same seat or watching as before; then the room screen shows the room
// again. Whatever the player does meanwhile is refused, saying why (movingSub): the room is the
// only judge of a move, and a move it has not had is not played later behind the player's back.

// ErrMoving is the error (wrapped) of a Find or a Join of a room that is moving to another server:
// its server stopped, and another is taking it over. It is not a wrong code.
var ErrMoving = errors.New("the room is moving to another server")

// MovingHub is a Hub whose rooms may move between servers (package cluster's). FindMoving is
// Find, which waits for a room that is moving, as the Join of the room it returns does; it calls
// wait before and after each pause of such a wait: wait tells the player (it must return at once)
// and says whether to go on waiting. When it returns false the wait ends with an ErrMoving, and
// nothing is joined after: a session that has ended must not take its player's seat from the
// terminal the player went on with.
type MovingHub interface {
	FindMoving(code string, by rooms.Player, wait func() bool) (Room, error)
}

// MovedSub is a Sub whose room may move to another server (package cluster/remote's). Once its
// Updates has closed, Moved reports whether it closed because the room's server stopped answering
// (the room may come back on another server, and the session follows it), not because the room
// closed or the subscriber left.
type MovedSub interface {
	Sub
	Moved() bool
}

// followWait bounds how long a session waits for its room to come back on another server, from
// when it starts looking (Hub.Find's own wait may take it a little past).
const followWait = 15 * time.Second

// followRetry is the pause between two looks for a room that is still moving.
const followRetry = 250 * time.Millisecond

// following is a room screen's wait for its room to come back on another server.
type following struct {
	code   string
	cancel context.CancelFunc // the player left the room: stop looking
}

// followedMsg: the room that moved has been joined again (sub), or not (err); f is the wait it
// ends.
type followedMsg struct {
	f   *following
	sub Sub
	err error
}

// joinWaitMsg: a join waits for a room that is moving to another server.
type joinWaitMsg struct{ code string }

// movingText is what the room screen says while its room moves.
func movingText(code string) string {
	return fmt.Sprintf("The room's server stopped. Room %s is moving to another server…", code)
}

// joinWaitText is what the lobby says while a join waits for a room that is moving.
func joinWaitText(code string) string {
	return fmt.Sprintf("Room %s is moving to another server… waiting for room %s to come back.", code, code)
}

// moved reports whether sub, whose Updates has closed, ended because its room's server stopped.
func moved(sub Sub) bool {
	s, ok := sub.(MovedSub)
	return ok && s.Moved()
}

// follow starts following the room screen's room to its new server: the screen keeps the last
// snapshot and says the room is moving, its subscription stands for the room's refusals
// (movingSub), and the command looks for the room and joins it again as the player was: seated,
// or watching.
func (m Model) follow() tea.Cmd {
	r := m.room
	code := r.snap.Code
	ctx, cancel := context.WithCancel(context.Background())
	f := &following{code: code, cancel: cancel}
	r.moving, r.sub, r.lastMove = f, movingSub{code}, nil
	m.conn.set(nil) // the subscription that ended
	hub, p, c := m.cfg.Hub, m.cfg.Player, m.conn
	watch := r.snap.You == rules.Spectator
	return func() tea.Msg {
		sub, err := refind(ctx, hub, code, p, watch, func() bool { return c.over(ctx) })
		if err == nil && !c.adopt(ctx, sub) {
			sub, err = nil, ctx.Err()
		}
		return followedMsg{f: f, sub: sub, err: err}
	}
}

// refind finds the room of code and joins it, again while it is moving (or its server did not
// answer in time), for followWait at most or until ctx is done. It does not join once stopped
// reports true (the session has ended: the player may have joined from another terminal, whose
// seat a join would take).
func refind(ctx context.Context, hub Hub, code string, p rooms.Player, watch bool, stopped func() bool) (Sub, error) {
	until := time.Now().Add(followWait)
	find := hub.Find
	if mh, ok := hub.(MovingHub); ok {
		find = func(code string, p rooms.Player) (Room, error) {
			return mh.FindMoving(code, p, func() bool { return !stopped() })
		}
	}
	for {
		room, err := find(code, p)
		if err == nil && stopped() {
			return nil, context.Canceled
		}
		if err == nil {
			var sub Sub
			if sub, err = room.Join(p, watch); err == nil {
				return sub, nil
			}
		}
		again := errors.Is(err, ErrMoving) || errors.Is(err, context.DeadlineExceeded)
		if !again || time.Now().After(until) {
			return nil, err
		}
		if stopped() {
			return nil, context.Canceled
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(followRetry):
		}
	}
}

// followed takes the end of a room's move: the room screen shows the room again through the new
// subscription, or, when the room did not come back, the lobby says so. A wait the player has
// left meanwhile (the screen has another, or none) is forgotten, its subscription left.
func (m Model) followed(msg followedMsg) (tea.Model, tea.Cmd) {
	if m.room == nil || m.room.moving != msg.f {
		if msg.sub != nil {
			m.conn.drop(msg.sub)
		}
		return m, nil
	}
	m.room.moving = nil
	msg.f.cancel()
	if msg.err != nil {
		m.leaveRoom()
		m.lobby.fail(followError(msg.f.code, msg.err))
		return m, nil
	}
	m.room.sub = msg.sub
	m.room.prompt.clearError() // a refusal while the room moved is past
	msg.sub.OnUpdate(m.wake)
	return m.takeSnapshots() // the first is there already
}

// followError is the lobby's line when a room that moved could not be joined again.
func followError(code string, err error) string {
	switch {
	case errors.Is(err, ErrMoving), errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("Room %s did not come back: no server has taken it over yet. Try join %s again later.", code, code)
	case errors.Is(err, rooms.ErrNoRoom):
		return fmt.Sprintf("Room %s has closed.", code)
	}
	return fmt.Sprintf("Room %s moved, and could not be entered again: %s", code, sentence(err.Error()))
}

// errMovingNow is the refusal of what a player does in a room that is moving.
type errMovingNow struct{ code string }

func (e errMovingNow) Error() string {
	return fmt.Sprintf("Room %s is moving to another server: that was not sent. Do it again once the room is back.", e.code)
}

func (errMovingNow) Unwrap() error { return ErrMoving }

// movingSub stands for the subscription of a room that is moving: it brings no snapshot and
// refuses every request (errMovingNow); Leave does nothing.
type movingSub struct{ code string }

func (s movingSub) Updates() <-chan rooms.Snapshot     { return nil }
func (s movingSub) OnUpdate(func())                    {}
func (s movingSub) Move(context.Context, string) error { return errMovingNow(s) }
func (s movingSub) Chat(string) error                  { return errMovingNow(s) }
func (s movingSub) AddBot(rules.Seat, string) error    { return errMovingNow(s) }
func (s movingSub) EndMatch() error                    { return errMovingNow(s) }
func (s movingSub) Rematch() error                     { return errMovingNow(s) }
func (s movingSub) Resign() error                      { return errMovingNow(s) }
func (s movingSub) OfferDraw() error                   { return errMovingNow(s) }
func (s movingSub) TakeBack() error                    { return errMovingNow(s) }
func (s movingSub) Leave()                             {}
