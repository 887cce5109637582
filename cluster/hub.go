package cluster

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/arcade/arcade/cluster/remote"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session"
)

// Hub is the hub of a node's sessions (session.Hub, sshd.Hub): it opens rooms on this node and
// finds a room by its code on whichever node keeps it. Quick matches pair the players of the
// whole cluster. Safe for concurrent use.
type Hub struct{ s *served }

// Games returns the catalogue.
func (h *Hub) Games() []rules.Game { return h.s.hub.Games() }

// Create opens a room on this node (rooms.Hub.Create), its code reserved in the directory, and
// serves it to the other nodes at once.
func (h *Hub) Create(gameID string, opts rules.Options, seats int, by rooms.Player) (session.Room, error) {
	r, err := h.create(gameID, opts, seats, by)
	if err != nil {
		return nil, err
	}
	return session.LocalRoom(r), nil
}

// create is Create's: the quick-match pool opens its rooms with it too.
func (h *Hub) create(gameID string, opts rules.Options, seats int, by rooms.Player) (*rooms.Room, error) {
	r, err := h.s.hub.Create(gameID, opts, seats, by)
	if err != nil {
		return nil, err
	}
	h.s.host(r)
	return r, nil
}

// moveWait bounds how long a join waits for a room that is moving to another node (its node is
// gone and the room not yet taken over, or being taken over): the join fails with errMoving only
// when it has not arrived by then.
const moveWait = 10 * time.Second

// errMoving: the room's node is gone, or the room is being taken over; it will be open again in
// a few seconds. Not a wrong code: it never counts against the player (rooms.Hub.Find).
type errMoving struct{ code string }

func (e errMoving) Error() string {
	return fmt.Sprintf("room %s is moving to another server; try again in a few seconds", e.code)
}

// Unwrap makes the error session.ErrMoving, which a session waits through.
func (errMoving) Unwrap() error { return session.ErrMoving }

// Find returns the room of the code: this node's, or one that reaches the room on the node that
// keeps it. A code the directory does not know counts against by (rooms.Hub.Find). A room that
// is moving to another node (its node gone, or a takeover under way) is waited for, up to
// moveWait.
func (h *Hub) Find(code string, by rooms.Player) (session.Room, error) {
	return h.FindMoving(code, by, nil)
}

// FindMoving is Find, which calls wait (unless nil) before and after each pause of its wait for
// a room that is moving, as the Join of the room it returns does; when wait returns false the
// wait ends there, with errMoving (session.MovingHub).
func (h *Hub) FindMoving(code string, by rooms.Player, wait func() bool) (session.Room, error) {
	norm, valid := rooms.NormalizeCode(code)
	if !valid {
		return h.local(code, by)
	}
	return waitMoving(h.s.n, wait, func() (session.Room, error) { return h.find(code, norm, by, wait) })
}

// waitMoving calls f until it returns something other than errMoving, or moveWait has passed, or
// wait (unless nil), called before and after each pause, returns false.
func waitMoving[T any](n *Node, wait func() bool, f func() (T, error)) (T, error) {
	until := time.Now().Add(moveWait)
	goOn := func() bool { return wait == nil || wait() }
	for {
		v, err := f()
		if !errors.As(err, new(errMoving)) || time.Now().After(until) || !goOn() {
			return v, err
		}
		select {
		case <-n.ctx.Done():
			return v, err
		case <-time.After(250 * time.Millisecond):
		}
		if !goOn() {
			return v, err
		}
	}
}

func (h *Hub) find(code, norm string, by rooms.Player, wait func() bool) (session.Room, error) {
	if r, ok := h.s.hub.Room(norm); ok {
		return session.LocalRoom(r), nil
	}
	var c cached
	var ok, alive bool
	h.s.do(func(st *dirState) {
		c, ok = st.cache[norm]
		alive = st.alive[c.e.Node] && !st.gone[c.e.Node]
	})
	if !ok || !alive || c.e.Node == h.s.n.id {
		// The watcher may not have seen a room just opened on another node, or taken over
		// from one that is gone (its consumer may be on the server that went with it); the
		// last beat may not have seen a node that has just started; or it still names this
		// node for a room lost while the node was cut off: ask.
		e, err := h.s.n.lookup(norm)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			return h.asleep(code, norm, by)
		}
		if err != nil {
			// The directory did not answer (its leader may have gone with a killed node): the
			// room may be moving; a wrong code is told once the directory answers.
			return nil, errMoving{norm}
		}
		c = cached{rev: e.Revision()}
		if err := json.Unmarshal(e.Value(), &c.e); err != nil {
			return h.local(code, by)
		}
		alive = h.s.n.beating(c.e.Node)
		if alive && c.e.Node != h.s.n.id {
			h.s.do(func(st *dirState) { alive = !st.gone[c.e.Node] })
		}
	}
	switch {
	case c.e.Node == h.s.n.id:
		var taking bool
		h.s.do(func(st *dirState) { taking = st.taking[norm] || st.hosts[norm] != nil })
		if taking {
			if r, ok := h.s.hub.Room(norm); ok {
				return session.LocalRoom(r), nil
			}
			return nil, errMoving{norm} // being taken over here
		}
		return h.local(code, by) // opened or closed meanwhile
	case !alive:
		return nil, errMoving{norm}
	}
	return movingRoom{Room: remote.Dial(h.s.n.nc, norm, c.e.Node, h.s.opt), h: h, node: c.e.Node, wait: wait}, nil
}

// movingRoom is a room on another node that the directory lists: when that node does not answer
// for it, the room has moved (another node took it over: it is looked up again and joined
// there), or its node has just gone and the room will be taken over: the join waits for it, up
// to moveWait, or until wait (unless nil; see FindMoving) says no more.
type movingRoom struct {
	session.Room
	h    *Hub
	node string // the host the directory named
	wait func() bool
}

func (r movingRoom) Join(p rooms.Player, watch bool) (session.Sub, error) {
	s, err := r.Room.Join(p, watch)
	if !errors.Is(err, rooms.ErrNoRoom) {
		return s, err
	}
	if r.wait != nil && !r.wait() {
		return nil, errMoving{r.Code()}
	}
	return waitMoving(r.h.s.n, r.wait, func() (session.Sub, error) { return r.rejoin(p, watch) })
}

// rejoin joins the room on the node the directory names now; a room that has no entry any more
// went to sleep (its node closed it, the directory dropped it): it is woken, here or elsewhere.
func (r movingRoom) rejoin(p rooms.Player, watch bool) (session.Sub, error) {
	e, lerr := r.h.s.n.lookup(r.Code())
	if errors.Is(lerr, jetstream.ErrKeyNotFound) {
		if db := r.h.s.n.cfg.DB; db != nil && asleepIn(db, r.Code()) {
			room, err := r.h.asleep(r.Code(), r.Code(), p)
			if err != nil {
				return nil, err
			}
			return room.Join(p, watch)
		}
	}
	var en entry
	if lerr == nil && json.Unmarshal(e.Value(), &en) == nil && en.Node != "" {
		if en.Node == r.h.s.n.id {
			if local, ok := r.h.s.hub.Room(r.Code()); ok {
				return session.LocalRoom(local).Join(p, watch)
			}
		} else if r.h.s.n.beating(en.Node) {
			s, err := remote.Dial(r.h.s.n.nc, r.Code(), en.Node, r.h.s.opt).Join(p, watch)
			if !errors.Is(err, rooms.ErrNoRoom) {
				return s, err
			}
		}
	}
	return nil, errMoving{r.Code()}
}

// asleep returns the room of a code the directory does not list: a sleeping correspondence
// room of the replica is woken here (or, woken by another node meanwhile, is moving: the join
// waits for it); any other code is looked up here, as a wrong one.
func (h *Hub) asleep(code, norm string, by rooms.Player) (session.Room, error) {
	woke, err := h.s.wake(norm)
	switch {
	case err != nil:
		h.s.n.cfg.Warnf("cluster: %v", err)
		return nil, errMoving{norm}
	case woke:
		return h.local(code, by)
	}
	if db := h.s.n.cfg.DB; db != nil && asleepIn(db, norm) {
		return nil, errMoving{norm} // another node is waking it: its entry comes
	}
	return h.local(code, by)
}

func (h *Hub) local(code string, by rooms.Player) (session.Room, error) {
	r, err := h.s.hub.Find(code, by)
	if err != nil {
		return nil, err
	}
	return session.LocalRoom(r), nil
}

// List describes the open rooms of the whole cluster, in rooms.Hub.List's order: this node's as
// they are, the others' as the directory last had them (a second or so old).
func (h *Hub) List() []rooms.Summary {
	out := h.s.hub.List()
	mine := make(map[string]bool, len(out))
	for _, s := range out {
		mine[s.Code] = true
	}
	h.s.do(func(st *dirState) {
		for code, c := range st.cache {
			if !mine[code] && c.e.Node != h.s.n.id && c.e.Summary.GameID != "" && c.e.Summary.Phase != rooms.Closed {
				out = append(out, c.e.Summary)
			}
		}
	})
	slices.SortFunc(out, func(a, b rooms.Summary) int {
		return cmp.Or(cmp.Compare(a.Phase, b.Phase), b.Created.Compare(a.Created), cmp.Compare(a.Code, b.Code))
	})
	return out
}

// Elsewhere returns how many players are connected to the other nodes, as their last beats
// said (a second or two old): the front page counts the whole cluster's players.
func (h *Hub) Elsewhere() int {
	var n int
	h.s.do(func(st *dirState) { n = st.elsewhere })
	return n
}

// Seek puts a player in the quick-match pool of the whole cluster, with rooms.Hub.Seek's
// contract and pairing rule (see quick.go): a pair's room opens on the node of the longer
// waiting player; both tickets yield its code, which the sessions join through Find.
func (h *Hub) Seek(s rooms.Seek) (*rooms.Ticket, error) { return h.quickPool().seek(s) }

// lookupRetry bounds how long a lookup of a code the directory does not show waits for it: a
// read served by a replica of the bucket that has not caught up may miss a room opened a moment
// ago on another node.
const lookupRetry = 500 * time.Millisecond

// lookup reads the room's directory entry.
func (n *Node) lookup(code string) (jetstream.KeyValueEntry, error) {
	ctx, cancel := n.request()
	defer cancel()
	deadline := time.Now().Add(lookupRetry)
	for {
		e, err := n.dir.Get(ctx, code)
		if !errors.Is(err, jetstream.ErrKeyNotFound) || time.Now().After(deadline) {
			return e, err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// beating reports whether the node's beat is current, asking the bucket.
func (n *Node) beating(node string) bool {
	ctx, cancel := n.request()
	defer cancel()
	_, err := n.beats.Get(ctx, node)
	return err == nil
}
