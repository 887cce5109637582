package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nuid"

	"github.com/arcade/arcade/cluster/wire"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session"
)

// StoppedNotice is the notice of the last snapshot a client makes when the room's node stopped
// answering; %s is the room's code. The subscription has then Moved: a session follows the room
// to the node that takes it over.
const StoppedNotice = "The room's server stopped. Room %s is moving to another server."

// errStopped is what a request made after the room's node stopped answering returns: the room may
// be moving to another node (session.ErrMoving), and this subscription will not reach it there.
type errStopped struct{ code string }

func (e errStopped) Error() string {
	return fmt.Sprintf("room %s is moving to another server: its server stopped", e.code)
}

// Unwrap: the room is moving, and this subscription is closed.
func (errStopped) Unwrap() []error { return []error{session.ErrMoving, rooms.ErrRoomClosed} }

// Dial returns the room of code that the node host serves (Serve), reached over nc. It sends
// nothing: Join does. A code that host does not serve makes Join fail with rooms.ErrNoRoom (the
// room may have moved: the caller looks its host up again).
func Dial(nc *nats.Conn, code, host string, opt Options) session.Room {
	return &remoteRoom{nc: nc, code: code, host: host, opt: opt.withDefaults()}
}

type remoteRoom struct {
	nc   *nats.Conn
	code string
	host string
	opt  Options
}

// Code returns the code Dial was given.
func (r *remoteRoom) Code() string { return r.code }

// Join subscribes p to the room, on a seat or watching, with the contract of rooms.Room.Join: the
// first snapshot is on Updates when it returns. It listens for the snapshots before it asks the
// host; on an error it stops listening. No node serving the code gives an error that is
// rooms.ErrNoRoom.
func (r *remoteRoom) Join(p rooms.Player, watch bool) (session.Sub, error) {
	if !validToken(r.code) {
		return nil, fmt.Errorf("%w", rooms.ErrNoRoom)
	}
	c := &client{nc: r.nc, code: r.code, host: r.host, opt: r.opt, id: nuid.Next(), ch: make(chan rooms.Snapshot, 1),
		first: make(chan struct{}), stop: make(chan struct{})}
	ns, err := r.nc.Subscribe(snapSubject(r.code, c.id), c.onMsg)
	if err != nil {
		return nil, fmt.Errorf("join room %s: %w", r.code, err)
	}
	c.ns = ns
	body, err := json.Marshal(joinRequest{Player: p, Watch: watch, Sub: c.id})
	if err != nil {
		_ = ns.Unsubscribe()
		return nil, fmt.Errorf("join room %s: %w", r.code, err)
	}
	// The snapshots' subject is known to this node's server before the host is asked.
	_ = r.nc.FlushTimeout(r.opt.Timeout)
	msg, err := r.join(body)
	if err == nil {
		err = decodeReply(msg.Data)
	} else {
		err = requestError(r.code, err)
	}
	if err != nil {
		_ = ns.Unsubscribe()
		return nil, err
	}
	t := time.NewTimer(r.opt.Timeout)
	defer t.Stop()
	select {
	case <-c.first:
	case <-t.C:
		c.request(OpLeave, inRequest{})
		_ = ns.Unsubscribe()
		return nil, fmt.Errorf("join room %s: no snapshot came: %w", r.code, context.DeadlineExceeded)
	}
	go c.ping()
	return c, nil
}

// joinRetry bounds how long a join waits for the room's host to be known to this node's NATS
// server: a room opened on another node a moment ago may not be yet (servers learn of each
// other's subscriptions asynchronously).
const joinRetry = 2 * time.Second

// join sends the join request, again while no node answers, for at most joinRetry.
func (r *remoteRoom) join(body []byte) (*nats.Msg, error) {
	deadline := time.Now().Add(joinRetry)
	wait := 10 * time.Millisecond
	for {
		msg, err := r.nc.Request(subject(r.code, r.host, "join"), body, r.opt.Timeout)
		if !errors.Is(err, nats.ErrNoResponders) || time.Now().Add(wait).After(deadline) {
			return msg, err
		}
		time.Sleep(wait)
		wait = min(2*wait, 200*time.Millisecond)
	}
}

// requestError is the error of a request that got no reply: no node serves the room (then
// rooms.ErrNoRoom, with its text), or the host did not answer in time.
func requestError(code string, err error) error {
	if errors.Is(err, nats.ErrNoResponders) {
		return fmt.Errorf("%w", rooms.ErrNoRoom)
	}
	if errors.Is(err, nats.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("the server of room %s did not answer in time: %w", code, context.DeadlineExceeded)
	}
	return fmt.Errorf("room %s: %w", code, err)
}

// client is a session.Sub of a room on another node.
type client struct {
	nc   *nats.Conn
	code string
	host string
	opt  Options
	id   string
	ns   *nats.Subscription

	onUpdate atomic.Pointer[func()]

	mu       sync.Mutex
	ch       chan rooms.Snapshot // sent to and closed under mu only
	last     rooms.Snapshot
	gotFirst bool
	first    chan struct{} // closed with the first message
	ended    bool
	leaving  bool          // Leave was called: the subscription ends with ErrLeft
	moved    bool          // the room's node stopped answering (Moved)
	gone     error         // why the subscription ended
	stop     chan struct{} // closed when the subscription ends
}

var _ session.MovedSub = (*client)(nil)

// Moved reports whether the subscription ended because the room's node stopped answering or
// stopped serving the room (with StoppedNotice): the room may come back on another node.
func (c *client) Moved() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.moved
}

// Updates returns the subscription's snapshots: a channel of capacity one where the newest
// snapshot replaces one not yet read, closed when the subscription ends (after a last snapshot
// saying why: the room's, or StoppedNotice when its node stopped answering).
func (c *client) Updates() <-chan rooms.Snapshot { return c.ch }

// OnUpdate has f called after each snapshot left on Updates and after Updates closes, as
// rooms.Sub.OnUpdate; f is called on a goroutine of the NATS connection or of the subscription,
// must return at once and must not call the subscription's methods that wait for the room.
func (c *client) OnUpdate(f func()) { c.onUpdate.Store(&f) }

func (c *client) updated() {
	if f := c.onUpdate.Load(); f != nil {
		(*f)()
	}
}

// onMsg takes a message of the host on the subscription's subject.
func (c *client) onMsg(m *nats.Msg) {
	if len(m.Data) == 0 {
		return
	}
	switch m.Data[0] {
	case kindSnapshot:
		snap, err := wire.DecodeSnapshot(m.Data[1:])
		if err != nil {
			return // the next snapshot makes good for it
		}
		c.mu.Lock()
		if c.ended || (c.gotFirst && snap.Seq < c.last.Seq) {
			c.mu.Unlock()
			return
		}
		c.last = snap
		rooms.Offer(c.ch, snap)
		c.markFirst()
		c.mu.Unlock()
		c.updated()
	case kindClosed:
		c.end(rooms.ErrRoomClosed, "")
	case kindStopped:
		c.end(errStopped{c.code}, fmt.Sprintf(StoppedNotice, c.code))
	}
}

// markFirst closes first once. Under mu.
func (c *client) markFirst() {
	if !c.gotFirst {
		c.gotFirst = true
		close(c.first)
	}
}

// end ends the subscription, once: with notice set, a last snapshot copied from the latest with
// that notice; then Updates closes.
func (c *client) end(why error, notice string) {
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		return
	}
	c.ended, c.gone = true, why
	if c.leaving {
		c.gone, notice = rooms.ErrLeft, ""
	} else if errors.As(why, new(errStopped)) {
		c.moved = true
	}
	if notice != "" && c.gotFirst && c.last.Phase != rooms.Closed { // a room's end has its own
		snap := c.last
		snap.Seq++
		snap.Notice = notice
		rooms.Offer(c.ch, snap)
	}
	close(c.ch)
	c.markFirst()
	close(c.stop)
	c.mu.Unlock()
	_ = c.ns.Unsubscribe()
	c.updated()
}

// errNoHost is a request that no host subscribes to (NATS's "no responders"): the room is closed
// there, or the host's connection to NATS is gone, which its server knows as soon as the
// connection drops (a killed process).
var errNoHost = noHost{}

type noHost struct{}

func (noHost) Error() string { return rooms.ErrRoomClosed.Error() }
func (noHost) Unwrap() error { return rooms.ErrRoomClosed }

// noHostRecheck is how long after a ping that no host took the client asks again before it
// ends the subscription: a host whose subscription is made again (or whose server's interest
// reaches this one's a moment late) is not taken for gone.
const noHostRecheck = 250 * time.Millisecond

// ping pings the host every PingTimeout/4 until the subscription ends; after PingTimeout without
// an answer, when the host no longer knows the subscription, or when no host subscribes to the
// room twice in a row (noHostRecheck apart), it ends it with StoppedNotice: a killed host is
// noticed within a ping's interval, not a PingTimeout.
func (c *client) ping() {
	every := c.opt.PingTimeout / 4
	t := time.NewTicker(every)
	defer t.Stop()
	lastOK := time.Now()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), every)
		err := c.requestCtx(ctx, OpPing, inRequest{})
		cancel()
		if errors.Is(err, errNoHost) {
			select {
			case <-c.stop:
				return
			case <-time.After(noHostRecheck):
			}
			ctx, cancel := context.WithTimeout(context.Background(), every)
			err = c.requestCtx(ctx, OpPing, inRequest{})
			cancel()
		}
		switch {
		case errors.Is(err, errNoHost):
			// No host twice: the host is gone.
		case err == nil:
			lastOK = time.Now()
			continue
		case errors.Is(err, rooms.ErrLeft) && !errors.Is(err, context.DeadlineExceeded):
			// The host forgot the subscription (it thought this node dead): its closed message
			// may have been lost.
		case time.Since(lastOK) < c.opt.PingTimeout:
			continue
		}
		c.end(errStopped{c.code}, fmt.Sprintf(StoppedNotice, c.code))
		return
	}
}

// request sends op to the host with the default timeout and returns the host's answer.
func (c *client) request(op string, req inRequest) error {
	ctx, cancel := context.WithTimeout(context.Background(), c.opt.Timeout)
	defer cancel()
	return c.requestCtx(ctx, op, req)
}

func (c *client) requestCtx(ctx context.Context, op string, req inRequest) error {
	req.Sub, req.Op = c.id, op
	body, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("%s in room %s: %w", op, c.code, err)
	}
	msg, err := c.nc.RequestWithContext(ctx, subject(c.code, c.host, "in"), body)
	if err != nil {
		if errors.Is(err, nats.ErrNoResponders) {
			return errNoHost
		}
		return requestError(c.code, err)
	}
	return decodeReply(msg.Data)
}

// do sends op unless the subscription has ended (then why it did, as a rooms.Sub says).
func (c *client) do(op string, req inRequest) error { return c.doCtx(context.Background(), op, req) }

// doCtx is do bounded by ctx as well as Options.Timeout.
func (c *client) doCtx(ctx context.Context, op string, req inRequest) error {
	c.mu.Lock()
	ended, gone := c.ended, c.gone
	c.mu.Unlock()
	if ended {
		return gone
	}
	ctx, cancel := context.WithTimeout(ctx, c.opt.Timeout)
	defer cancel()
	return c.requestCtx(ctx, op, req)
}

// Move plays move for the subscriber's seat and blocks until the room has judged (and stored)
// it, or ctx is done, or Options.Timeout has passed (then the move may still be played). When the
// room's node went away before it answered, the move may have been played or not: the error says
// so, and the room, once back, shows which.
func (c *client) Move(ctx context.Context, move string) error {
	err := c.doCtx(ctx, OpMove, inRequest{Text: move})
	if errors.Is(err, errNoHost) {
		return errMoveUnanswered
	}
	return err
}

// errMoveUnanswered: a move was sent and the room's node went away before it answered.
var errMoveUnanswered = moveUnanswered{}

type moveUnanswered struct{}

func (moveUnanswered) Error() string {
	return "the room's server stopped before it answered your move; once the room is back, its board shows whether it was played"
}

// Unwrap: the room is moving.
func (moveUnanswered) Unwrap() error { return session.ErrMoving }

// Chat says text in the room (rooms.Sub.Chat).
func (c *client) Chat(text string) error { return c.do(OpChat, inRequest{Text: text}) }

// AddBot seats a bot of level on seat (rooms.Sub.AddBot).
func (c *client) AddBot(seat rules.Seat, level string) error {
	return c.do(OpAddBot, inRequest{Seat: int(seat), Level: level})
}

// EndMatch ends the match without rating (rooms.Sub.EndMatch).
func (c *client) EndMatch() error { return c.do(OpEndMatch, inRequest{}) }

// Rematch votes for a rematch (rooms.Sub.Rematch).
func (c *client) Rematch() error { return c.do(OpRematch, inRequest{}) }

// Resign resigns the subscriber's seat (rooms.Sub.Resign).
func (c *client) Resign() error { return c.do(OpResign, inRequest{}) }

// OfferDraw offers or accepts a draw (rooms.Sub.OfferDraw).
func (c *client) OfferDraw() error { return c.do(OpOfferDraw, inRequest{}) }

// TakeBack asks for or agrees to a takeback (rooms.Sub.TakeBack).
func (c *client) TakeBack() error { return c.do(OpTakeBack, inRequest{}) }

// Leave ends the subscription: it tells the host (which Leaves the room subscription; its answer
// is awaited up to Options.Timeout), stops listening and closes Updates. Calling it again does
// nothing.
func (c *client) Leave() { c.leave(false) }

// LeaveByChoice is Leave for a player who chose to go (rooms.Sub.LeaveByChoice): the host's room
// tells the others that the player left, not that they dropped.
func (c *client) LeaveByChoice() { c.leave(true) }

func (c *client) leave(chosen bool) {
	c.mu.Lock()
	ended := c.ended
	c.leaving = true
	c.mu.Unlock()
	if !ended {
		_ = c.request(OpLeave, inRequest{Chosen: chosen})
	}
	c.end(rooms.ErrLeft, "")
}
