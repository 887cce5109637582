package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arcade/arcade/cluster/wire"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session"
)

// Host serves one room of this node to the other nodes (Serve). Its methods are safe for
// concurrent use.
type Host struct {
	nc   *nats.Conn
	room *rooms.Room
	code string
	opt  Options

	mu     sync.Mutex
	subs   map[string]*hostSub // by SUB
	nsubs  []*nats.Subscription
	closed bool

	wg   sync.WaitGroup // publishers, request handlers and the reaper
	stop chan struct{}  // closed by Close
}

// hostSub is one remote subscription: a real rooms.Sub and the goroutine that publishes its
// snapshots.
type hostSub struct {
	id       string
	sub      *rooms.Sub
	subject  string
	wake     chan struct{} // capacity one: snapshots wait on sub's channel
	lastPing atomic.Int64  // unix nanoseconds of the join or the latest ping
	leaving  atomic.Bool   // Leave has been called (by the reaper or Close)
	stopped  atomic.Bool   // Close ended it: the closed message says so
}

// Serve serves r to other nodes over nc as hosted by host (this node's name, as the room
// directory names it), until Close or until the room stops (r.Done()). Each join makes a real
// subscription (r.Join) whose snapshots are published on its own subject, never blocking the
// room: the newest waiting snapshot wins, as on a rooms.Sub's channel.
func Serve(nc *nats.Conn, r *rooms.Room, host string, opt Options) (*Host, error) {
	code := r.Code()
	if !validToken(code) {
		return nil, fmt.Errorf("serve room %q: the code cannot be a subject token", code)
	}
	h := &Host{nc: nc, room: r, code: code, opt: opt.withDefaults(), subs: map[string]*hostSub{},
		stop: make(chan struct{})}
	for kind, handle := range map[string]func(*nats.Msg){"join": h.onJoin, "in": h.onIn} {
		ns, err := nc.Subscribe(subject(code, host, kind), func(m *nats.Msg) {
			// Each request on its own goroutine: a move waiting for the room (and its storage)
			// must not hold up the pings of the others.
			if !h.enter() {
				return
			}
			go func() {
				defer h.wg.Done()
				handle(m)
			}()
		})
		if err != nil {
			h.Close()
			return nil, fmt.Errorf("serve room %s: %w", code, err)
		}
		h.mu.Lock()
		h.nsubs = append(h.nsubs, ns)
		h.mu.Unlock()
	}
	if err := nc.Flush(); err != nil {
		h.Close()
		return nil, fmt.Errorf("serve room %s: %w", code, err)
	}
	h.wg.Add(1)
	go h.reap()
	return h, nil
}

// enter counts a goroutine in wg unless h is closed.
func (h *Host) enter() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.wg.Add(1)
	return true
}

// Close stops serving: it unsubscribes from the requests, Leaves every remote subscription (their
// nodes get the last snapshots and the closed message if the connection still works) and waits
// for the host's goroutines. Calling it again does nothing.
func (h *Host) Close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	close(h.stop)
	nsubs := h.nsubs
	subs := make([]*hostSub, 0, len(h.subs))
	for _, s := range h.subs {
		subs = append(subs, s)
	}
	h.mu.Unlock()
	for _, ns := range nsubs {
		_ = ns.Unsubscribe()
	}
	for _, s := range subs {
		s.stopped.Store(true)
		s.leave()
	}
	h.wg.Wait()
}

// Subs returns the number of remote subscriptions the host holds.
func (h *Host) Subs() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

// leave Leaves s's room subscription, once.
func (s *hostSub) leave() { s.leaveAs(false) }

// leaveAs Leaves s's room subscription, once; chosen: the player chose to go (LeaveByChoice).
func (s *hostSub) leaveAs(chosen bool) {
	if s.leaving.CompareAndSwap(false, true) {
		if chosen {
			s.sub.LeaveByChoice()
		} else {
			s.sub.Leave()
		}
	}
}

// reap Leaves the subscriptions that have not pinged for PingTimeout, and closes h when the room
// has stopped.
func (h *Host) reap() {
	defer h.wg.Done()
	tick := time.NewTicker(h.opt.PingTimeout / 4)
	defer tick.Stop()
	for {
		select {
		case <-h.stop:
			return
		case <-h.room.Done():
			go h.Close() // Close waits for this goroutine
			return
		case now := <-tick.C:
			h.mu.Lock()
			var stale []*hostSub
			for _, s := range h.subs {
				if now.Sub(time.Unix(0, s.lastPing.Load())) > h.opt.PingTimeout {
					stale = append(stale, s)
				}
			}
			h.mu.Unlock()
			for _, s := range stale {
				s.leave()
			}
		}
	}
}

// onJoin answers a join: a real subscription, whose snapshots a publisher relays.
func (h *Host) onJoin(m *nats.Msg) {
	if len(m.Data) > MaxRequest {
		respond(m, fmt.Errorf("%w: %d bytes, at most %d", ErrTooLarge, len(m.Data), MaxRequest))
		return
	}
	var req joinRequest
	if err := json.Unmarshal(m.Data, &req); err != nil {
		respond(m, fmt.Errorf("bad join request: %w", err))
		return
	}
	if !validToken(req.Sub) {
		respond(m, fmt.Errorf("bad join request: subscription %q", req.Sub))
		return
	}
	h.mu.Lock()
	_, dup := h.subs[req.Sub]
	h.mu.Unlock()
	if dup {
		respond(m, fmt.Errorf("bad join request: subscription %s already joined", req.Sub))
		return
	}
	sub, err := h.room.Join(req.Player, req.Watch)
	if err != nil {
		respond(m, err)
		return
	}
	s := &hostSub{id: req.Sub, sub: sub, subject: snapSubject(h.code, req.Sub), wake: make(chan struct{}, 1)}
	s.lastPing.Store(time.Now().UnixNano())
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		sub.Leave()
		respond(m, rooms.ErrRoomClosed)
		return
	}
	h.subs[s.id] = s
	h.wg.Add(1)
	h.mu.Unlock()
	sub.OnUpdate(s.signal)
	s.signal() // the first snapshot waits on Updates already
	go h.publish(s)
	respond(m, nil)
}

// signal has s's publisher look at Updates; it never blocks (the room calls it).
func (s *hostSub) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// publish relays s's snapshots, the newest waiting each time, until its Updates close; it then
// sends the closed message and forgets s.
func (h *Host) publish(s *hostSub) {
	defer h.wg.Done()
	for range s.wake {
		snap, fresh, closed := session.Latest(s.sub)
		if fresh {
			b, err := wire.EncodeSnapshot(snap)
			if err == nil {
				err = h.nc.Publish(s.subject, append([]byte{kindSnapshot}, b...))
			}
			_ = err // a lost snapshot is made good by the next; a dead link by the pings
		}
		if closed {
			kind := byte(kindClosed)
			if s.stopped.Load() {
				kind = kindStopped
			}
			_ = h.nc.Publish(s.subject, []byte{kind})
			h.mu.Lock()
			delete(h.subs, s.id)
			h.mu.Unlock()
			return
		}
	}
}

// onIn answers a subscriber's request: the rooms.Sub method of the op's name.
func (h *Host) onIn(m *nats.Msg) {
	if len(m.Data) > MaxRequest {
		respond(m, fmt.Errorf("%w: %d bytes, at most %d", ErrTooLarge, len(m.Data), MaxRequest))
		return
	}
	var req inRequest
	if err := json.Unmarshal(m.Data, &req); err != nil {
		respond(m, fmt.Errorf("bad request: %w", err))
		return
	}
	h.mu.Lock()
	s := h.subs[req.Sub]
	h.mu.Unlock()
	if s == nil {
		respond(m, rooms.ErrLeft)
		return
	}
	if req.Op != OpLeave {
		// Any request shows that the subscriber's node is alive.
		s.lastPing.Store(time.Now().UnixNano())
	}
	var err error
	switch req.Op {
	case OpPing:
	case OpMove:
		ctx, cancel := context.WithTimeout(context.Background(), h.opt.Timeout)
		err = s.sub.Move(ctx, req.Text)
		cancel()
	case OpChat:
		err = s.sub.Chat(req.Text)
	case OpAddBot:
		err = s.sub.AddBot(rules.Seat(req.Seat), req.Level)
	case OpEndMatch:
		err = s.sub.EndMatch()
	case OpRematch:
		err = s.sub.Rematch()
	case OpResign:
		err = s.sub.Resign()
	case OpOfferDraw:
		err = s.sub.OfferDraw()
	case OpTakeBack:
		err = s.sub.TakeBack()
	case OpLeave:
		s.leaveAs(req.Chosen)
	default:
		err = fmt.Errorf("%w: %q", ErrUnknownOp, req.Op)
	}
	respond(m, err)
}

// respond replies to m with err; a reply that cannot be sent is the requester's timeout.
func respond(m *nats.Msg, err error) {
	_ = m.Respond(encodeReply(err))
}
