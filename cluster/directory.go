package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/arcade/arcade/cluster/remote"
	"github.com/arcade/arcade/cluster/wire"
	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
)

// entry is a room's value in arcade_rooms.
type entry struct {
	// Node is the node that hosts the room (Node.ID); empty while no node does (a takeover that
	// failed: the next sweep of any node takes the room over).
	Node string `json:"node"`
	// Since is the host's epoch: the revision of the entry's write that named Node the host. The
	// write that names it has 0, its own revision being the epoch.
	Since   uint64        `json:"since,omitempty"`
	Summary rooms.Summary `json:"summary"`
}

// cached is a directory entry as the node's watcher last saw it.
type cached struct {
	e   entry
	rev uint64
}

// epoch returns the host's epoch of the entry of revision rev.
func (e entry) epoch(rev uint64) uint64 {
	if e.Since != 0 {
		return e.Since
	}
	return rev
}

// hosted is a room of this node's in the directory.
//
// A node holds a room by an epoch: the revision of the directory write that named it the host (a
// create-if-absent of the code, or the compare-and-set of a takeover). The directory's revision,
// rather than a sequence of the stream, because the directory is what every node reads to find a
// room's host, and its compare-and-set is where a room changes hands, from the room's first
// moment; the stream's expected last sequence then refuses the writes of a node whose epoch
// ended (its successor's fence moved the room's subject on). A node that learns that the
// directory names another node, or another epoch, closes its copy and never opens the room again
// unless a new epoch names it (Store.moved, Store.acquire).
type hosted struct {
	host     *remote.Host // nil until the room is served (Serve hosts it on the next sweep)
	epoch    uint64       // the revision that named this node the host
	rev      uint64       // the entry's revision this node wrote last
	sum      []byte       // the entry's value this node wrote last
	reserved time.Time    // when the code was reserved, for a room not yet listed by the hub
	listed   bool         // the hub has listed the room
}

// dirState is what the node knows of the directory and the cluster's nodes. One goroutine owns
// it, the directory's (served.run), as a room's goroutine owns the room: the others hand it
// closures (served.do) and never touch it themselves; the requests to NATS are made outside it.
type dirState struct {
	hosts map[string]*hosted // the rooms this node hosts, by code
	cache map[string]cached  // the whole directory, by code
	// taking holds the rooms this node is taking over, from the compare-and-set that names it
	// until the room is open here or given back: a join meanwhile waits for it (Hub.Find).
	taking map[string]bool
	membership
}

// served is the node's part in the directory once Serve is called.
type served struct {
	n       *Node
	hub     *rooms.Hub
	restore func(record.Match) error
	opt     remote.Options

	online   func() int
	presence *nats.Subscription // the node's answers on its presence subject (nil in tests)

	// What a takeover needs of the stream and the replica, and the sweep of NATS (the node's
	// own, or the tests' fakes): the fence of a room (Store.storeFence), the wait for the
	// replica to have a change (replica.catchUpTo), the replica's unfinished match of a room,
	// and the nodes no connection answers for (Node.absent).
	fence      func(code string, epoch uint64) (uint64, error)
	catchUp    func(ctx context.Context, seq uint64) error
	unfinished func(code string) (record.Match, bool, error)
	absent     func(ctx context.Context, nodes []string) map[string]bool

	inbox chan func(*dirState) // closures for the directory's goroutine
	ended chan struct{}        // closed when the directory's goroutine has returned
	// st is the directory's goroutine's; once that has returned, the holder of endMu's.
	st    *dirState
	endMu sync.Mutex
}

// What the players of a node's rooms are told when the node loses touch with the cluster, and
// when it is back.
const (
	CutOffNotice = "This server has lost touch with the rest of the arcade: moves are not saved until it is back."
	BackNotice   = "This server is back in touch with the arcade: play on."
)

// ServeConfig is what Serve needs besides the node.
type ServeConfig struct {
	// Hub holds the node's rooms; its rooms.Config.ReserveCode must be the node's ReserveCode.
	Hub *rooms.Hub
	// Restore opens a room for an unfinished match of the replica, as a restart does, when the
	// node takes a room over.
	Restore func(record.Match) error
	// Remote sets the timeouts of the rooms served to other nodes and reached on them.
	Remote remote.Options
	// Online, when set, counts the players connected to this node, for the others' front pages
	// (Hub.Elsewhere).
	Online func() int
}

// ReserveCode is the rooms.Config.ReserveCode of the node's hub: a create-if-absent of the code
// in arcade_rooms, naming this node. A code with an unfinished match in the replica (a sleeping
// correspondence room, which has no entry) is not reserved.
func (n *Node) ReserveCode(code string) (bool, error) {
	if db := n.cfg.DB; db != nil {
		if _, taken := db.ActiveMatch(code); taken {
			return false, nil
		}
	}
	val, err := json.Marshal(entry{Node: n.id, Summary: rooms.Summary{Code: code, Created: time.Now()}})
	if err != nil {
		return false, err
	}
	ctx, cancel := n.request()
	defer cancel()
	rev, err := n.dir.Create(ctx, code, val)
	if errors.Is(err, jetstream.ErrKeyExists) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reserve room code: %w", err)
	}
	s := n.serving()
	if s == nil {
		return false, errors.New("reserve room code: the node serves no hub yet")
	}
	n.store.acquire(code, rev) // a new epoch: a room of the code that was here before is long gone
	s.do(func(st *dirState) {
		st.hosts[code] = &hosted{epoch: rev, rev: rev, sum: val, reserved: time.Now()}
	})
	return true, nil
}

// Serve makes the node host cfg.Hub's rooms: they are listed in the directory, served to
// sessions on other nodes, and the node takes its share of the rooms of nodes that are gone. It
// returns the hub the node's sessions use, which reaches every room of the cluster.
func (n *Node) Serve(cfg ServeConfig) (*Hub, error) {
	if err := wire.Register(cfg.Hub.Games()); err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	s := newServed(n, cfg)
	s.fence, s.catchUp, s.unfinished, s.absent = n.store.storeFence, n.rep.catchUpTo, n.unfinished, n.absent
	var err error
	if s.presence, err = n.answerPresence(); err != nil {
		return nil, fmt.Errorf("cluster: answer on the node's presence subject: %w", err)
	}
	if err := n.serve(s); err != nil {
		_ = s.presence.Unsubscribe()
		return nil, err
	}
	return &Hub{s: s}, nil
}

// newServed returns the node's part in the directory, with no stream, replica or NATS
// connection yet: Serve adds the node's, the tests fakes.
func newServed(n *Node, cfg ServeConfig) *served {
	return &served{n: n, hub: cfg.Hub, restore: cfg.Restore, opt: cfg.Remote, online: cfg.Online,
		inbox: make(chan func(*dirState)), ended: make(chan struct{}),
		st: &dirState{hosts: map[string]*hosted{}, cache: map[string]cached{}, taking: map[string]bool{},
			membership: newMembership()}}
}

// serve starts s: the directory's goroutine (with the watcher of the directory), the beat and
// the sweep, until the node closes.
func (n *Node) serve(s *served) error {
	w, err := n.dir.WatchAll(n.ctx)
	if err != nil {
		return fmt.Errorf("cluster: watch the room directory: %w", err)
	}
	n.mu.Lock()
	n.served = s
	n.mu.Unlock()
	n.wg.Add(3)
	go func() {
		defer n.wg.Done()
		defer w.Stop()
		s.run(w)
	}()
	// The beat has a goroutine of its own, so that a slow sweep (a takeover waits for the
	// replica) never lets it lapse.
	go func() {
		defer n.wg.Done()
		n.every(s.beat)
	}()
	go func() {
		defer n.wg.Done()
		n.every(s.sweep)
	}()
	return nil
}

// every calls f at once, then every Config.Beat until the node closes.
func (n *Node) every(f func()) {
	f()
	t := time.NewTicker(n.cfg.Beat)
	defer t.Stop()
	for {
		select {
		case <-n.ctx.Done():
			return
		case <-t.C:
			f()
		}
	}
}

// run is the directory's goroutine: it runs the closures of do, and keeps the cache of the
// directory from the watcher's updates, until the node closes.
func (s *served) run(w jetstream.KeyWatcher) {
	defer close(s.ended)
	updates := w.Updates()
	for {
		select {
		case <-s.n.ctx.Done():
			return
		case f := <-s.inbox:
			f(s.st)
		case u, ok := <-updates:
			if !ok {
				updates = nil
				continue
			}
			if u != nil { // nil: the end of the initial values
				s.watched(s.st, u)
			}
		}
	}
}

// do runs f with the directory's state on the directory's goroutine, and returns when it has
// run. Once that goroutine has returned (the node closed), f runs on the caller's, one at a time.
// f must not call do.
func (s *served) do(f func(*dirState)) {
	done := make(chan struct{})
	select {
	case s.inbox <- func(st *dirState) { f(st); close(done) }:
		<-done
		return
	case <-s.ended:
	}
	s.endMu.Lock()
	defer s.endMu.Unlock()
	f(s.st)
}

// watched applies an update of the directory to the cache (on the directory's goroutine).
func (s *served) watched(st *dirState, u jetstream.KeyValueEntry) {
	h := st.hosts[u.Key()]
	// A write after this node's epoch began that names another host or epoch, or deletes the
	// entry (this node deletes its entries once it no longer hosts them): another node took the
	// room while this one was cut off.
	taken := h != nil && u.Revision() > h.epoch && u.Operation() != jetstream.KeyValuePut
	if u.Operation() != jetstream.KeyValuePut {
		delete(st.cache, u.Key())
	} else {
		var e entry
		if json.Unmarshal(u.Value(), &e) == nil {
			st.cache[u.Key()] = cached{e: e, rev: u.Revision()}
			taken = h != nil && u.Revision() > h.epoch && (e.Node != s.n.id || e.epoch(u.Revision()) != h.epoch)
		}
	}
	if taken {
		delete(st.hosts, u.Key())
		s.closeLost(u.Key(), h)
	}
}

// sync writes the entries of the node's rooms whose summary changed, serves the rooms not yet
// served, and deletes the entries of rooms that closed.
func (s *served) sync(ctx context.Context) {
	n := s.n
	var recheck bool
	s.do(func(st *dirState) { recheck, st.recheck = st.recheck, false })
	listed := map[string]bool{}
	for _, sum := range s.hub.List() {
		listed[sum.Code] = true
		var h hosted
		var held, unserved bool
		s.do(func(st *dirState) {
			if hp := st.hosts[sum.Code]; hp != nil {
				hp.listed = true
				h, held, unserved = *hp, true, hp.host == nil
			}
		})
		if !held {
			continue // a room this node does not keep in the directory (lost, or closing)
		}
		if unserved {
			if r, ok := s.hub.Room(sum.Code); ok {
				s.host(r)
			}
		}
		val, _ := json.Marshal(entry{Node: n.id, Since: h.epoch, Summary: sum})
		if bytes.Equal(val, h.sum) && !recheck {
			continue
		}
		// A beat's time at most: while the bucket elects a leader, the takeovers of this sweep
		// wait behind these writes, which the next sweep makes again.
		uctx, ucancel := context.WithTimeout(ctx, n.cfg.Beat)
		rev, err := n.dir.Update(uctx, sum.Code, val, h.rev)
		ucancel()
		if err != nil {
			if isWrongSeq(err) {
				// Another node took it over while this one was cut off; or a write of this
				// node's was stored without an answer, and the entry still names it.
				if rev, held, err := n.held(ctx, sum.Code, h.epoch); err == nil && held {
					s.wrote(sum.Code, h.epoch, rev, nil) // written again at the next sweep
					continue
				}
				n.lost(sum.Code)
				continue
			}
			if n.ctx.Err() != nil {
				return // the node is closing
			}
			n.cfg.Warnf("cluster: directory entry of room %s: %v", sum.Code, err)
			continue
		}
		s.wrote(sum.Code, h.epoch, rev, val)
	}
	var gone map[string]*hosted
	s.do(func(st *dirState) {
		for code, h := range st.hosts {
			if !listed[code] && (h.listed || time.Since(h.reserved) > time.Minute) {
				if gone == nil {
					gone = map[string]*hosted{}
				}
				gone[code] = h
				delete(st.hosts, code)
			}
		}
	})
	for code, h := range gone {
		if h.host != nil {
			h.host.Close()
		}
		n.store.forget(code)
		if err := n.dir.DeleteAt(ctx, code, h.rev); err != nil && !isWrongSeq(err) {
			n.cfg.Warnf("cluster: directory entry of closed room %s: %v", code, err)
		}
	}
}

// wrote records the entry's revision and value this node wrote last for its room of the epoch.
func (s *served) wrote(code string, epoch, rev uint64, val []byte) {
	s.do(func(st *dirState) {
		if h := st.hosts[code]; h != nil && h.epoch == epoch {
			h.rev, h.sum = rev, val
		}
	})
}

// host serves r to the other nodes.
func (s *served) host(r *rooms.Room) {
	h, err := remote.Serve(s.n.nc, r, s.n.id, s.opt)
	if err != nil {
		s.n.cfg.Warnf("cluster: serve room %s: %v", r.Code(), err)
		return
	}
	attached := false
	s.do(func(st *dirState) {
		if hs := st.hosts[r.Code()]; hs != nil && hs.host == nil {
			hs.host, attached = h, true
		}
	})
	if !attached {
		h.Close() // served already, or no longer this node's
	}
}

// serving returns the node's part in the directory, nil before Serve.
func (n *Node) serving() *served {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.served
}

// lost closes the node's copy of a room that another node now keeps.
func (n *Node) lost(code string) {
	s := n.serving()
	if s == nil {
		return
	}
	var h *hosted
	s.do(func(st *dirState) {
		h = st.hosts[code]
		delete(st.hosts, code)
	})
	s.closeLost(code, h)
}

// closeLost closes the copy of a room that another node now keeps, h being what the node held of
// it (nil: nothing) and no longer in the state.
func (s *served) closeLost(code string, h *hosted) {
	s.n.store.moved(code)
	go func() { // not on the room's goroutine, which may be the caller
		if h != nil && h.host != nil {
			h.host.Close()
		}
		// Its sessions follow it to the node that keeps it (session.MovedSub).
		s.hub.MoveRoom(code, fmt.Sprintf("This room moved to another server. Join %s again to carry on.", code))
		s.n.cfg.Warnf("cluster: room %s is kept by another node now; closed here", code)
	}()
}

// reload closes the node's copy of a room and opens it again from the replica: a change the
// room was told failed turned out to be stored, and is the room's last (at sequence last). The
// room is opened again only if the directory still names this node with the epoch it holds the
// room by; otherwise the node lost it (lost).
func (n *Node) reload(code string, last uint64) {
	s := n.serving()
	if s == nil {
		return
	}
	var epoch uint64
	var held bool
	s.do(func(st *dirState) {
		if h := st.hosts[code]; h != nil { // the room is closed and opened again: its entry stays
			h.listed, h.reserved, epoch, held = false, time.Now(), h.epoch, true
		}
	})
	go func() {
		s.hub.CloseRoom(code, fmt.Sprintf("The room is being reloaded. Join %s again to carry on.", code))
		var old *remote.Host
		s.do(func(st *dirState) {
			if h := st.hosts[code]; h != nil && h.epoch == epoch {
				old, h.host = h.host, nil
			}
		})
		if old != nil {
			old.Close()
		}
		ctx, cancel := n.request()
		defer cancel()
		_, still, err := n.held(ctx, code, epoch)
		if err != nil {
			n.cfg.Warnf("cluster: reload room %s: %v; the room is closed here", code, err)
		}
		if !held || !still {
			n.lost(code)
			return
		}
		if err := n.rep.wait(ctx, last); err != nil {
			n.cfg.Warnf("cluster: reload room %s: %v", code, err)
			return
		}
		m, found, err := s.unfinished(code)
		if err == nil && found && n.store.reopened(code, last) {
			err = s.restore(m)
		}
		if err != nil {
			n.cfg.Warnf("cluster: reload room %s: %v", code, err)
		}
	}()
}

// held reads the room's directory entry and reports whether it names this node with epoch, and
// its revision.
func (n *Node) held(ctx context.Context, code string, epoch uint64) (uint64, bool, error) {
	e, err := retry(ctx, func(ctx context.Context) (jetstream.KeyValueEntry, error) { return n.dir.Get(ctx, code) })
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("directory entry of room %s: %w", code, err)
	}
	var en entry
	if err := json.Unmarshal(e.Value(), &en); err != nil {
		return 0, false, fmt.Errorf("directory entry of room %s: %w", code, err)
	}
	return e.Revision(), en.Node == n.id && en.epoch(e.Revision()) == epoch, nil
}

// closeHosts stops serving the node's rooms to other nodes, and answering for the node.
func (s *served) closeHosts() {
	if s.presence != nil {
		_ = s.presence.Unsubscribe()
	}
	var hs []*remote.Host
	s.do(func(st *dirState) {
		for _, h := range st.hosts {
			if h.host != nil {
				hs = append(hs, h.host)
				h.host = nil
			}
		}
	})
	for _, h := range hs {
		h.Close()
	}
}

// isWrongSeq reports a compare-and-set that lost: the key's revision moved on.
func isWrongSeq(err error) bool {
	var api *jetstream.APIError
	return errors.Is(err, jetstream.ErrKeyExists) || errors.As(err, &api) &&
		(api.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
			api.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant)
}
