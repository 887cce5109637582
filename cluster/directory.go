package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
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
	cutOff     bool // the last beat failed (the beat's goroutine only)
	// recheck asks the next sync to write every room's entry, changed or not: the node is back
	// from a cut, and the compare-and-set finds the rooms the others took meanwhile.
	recheck atomic.Bool
	// beatFailed is when the node's beat last failed (Unix nanoseconds; 0: never). While the
	// beats cannot be written (their bucket electing a leader), every node's beat lapses, not
	// only a gone node's: no room is taken over until this node's beats have been stored for a
	// whole TTL, so that the others have beaten again too.
	beatFailed atomic.Int64

	mu    sync.Mutex
	hosts map[string]*hosted // the rooms this node hosts, by code
	cache map[string]cached  // the whole directory, by code
	alive map[string]bool    // the nodes whose beat is current, as of the last sweep
	// elsewhere counts the players connected to the other nodes, as of the last sweep.
	elsewhere int
	// seen holds the nodes this node has seen beat; missing, when it first found a room's node
	// that it never saw beat without a beat.
	seen    map[string]bool
	missing map[string]time.Time
	// taking holds the rooms this node is taking over, from the compare-and-set that names it
	// until the room is open here or given back: a join meanwhile waits for it (Hub.Find).
	taking map[string]bool
	// gone holds the nodes whose beat is current but that no connection answers for, as of
	// the last sweep (Node.absent).
	gone map[string]bool
}

// beatInfo is a node's value in arcade_nodes.
type beatInfo struct {
	Name   string    `json:"name"`
	Beat   time.Time `json:"beat"`
	Online int       `json:"online"` // the players connected to the node
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
// in arcade_rooms, naming this node.
func (n *Node) ReserveCode(code string) (bool, error) {
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
	s.mu.Lock()
	s.hosts[code] = &hosted{epoch: rev, rev: rev, sum: val, reserved: time.Now()}
	s.mu.Unlock()
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
		hosts: map[string]*hosted{}, cache: map[string]cached{}, alive: map[string]bool{},
		seen: map[string]bool{}, missing: map[string]time.Time{}, taking: map[string]bool{}}
}

// serve starts s: the watcher of the directory, the beat and the sweep, until the node closes.
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
		s.watch(w)
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

// watch keeps the cache of the directory.
func (s *served) watch(w jetstream.KeyWatcher) {
	for u := range w.Updates() {
		if u == nil {
			continue // the end of the initial values
		}
		s.mu.Lock()
		h := s.hosts[u.Key()]
		// A write after this node's epoch began that names another host or epoch, or deletes
		// the entry (this node deletes its entries once it no longer hosts them): another node
		// took the room while this one was cut off.
		taken := h != nil && u.Revision() > h.epoch && u.Operation() != jetstream.KeyValuePut
		if u.Operation() != jetstream.KeyValuePut {
			delete(s.cache, u.Key())
		} else {
			var e entry
			if json.Unmarshal(u.Value(), &e) == nil {
				s.cache[u.Key()] = cached{e: e, rev: u.Revision()}
				taken = h != nil && u.Revision() > h.epoch && (e.Node != s.n.id || e.epoch(u.Revision()) != h.epoch)
			}
		}
		s.mu.Unlock()
		if taken {
			s.n.lost(u.Key())
		}
	}
}

// beat says the node is alive; when it cannot, the node's rooms are told, and again when it can.
func (s *served) beat() {
	n := s.n
	ctx, cancel := n.request()
	defer cancel()
	online := 0
	if s.online != nil {
		online = s.online()
	}
	info, _ := json.Marshal(beatInfo{Name: n.cfg.Name, Beat: time.Now().UTC(), Online: online})
	if _, err := n.beats.Put(ctx, n.id, info); err != nil {
		if n.ctx.Err() != nil {
			return // the node is closing
		}
		n.cfg.Warnf("cluster: beat: %v", err)
		s.beatFailed.Store(time.Now().UnixNano())
		if !s.cutOff {
			s.cutOff = true
			s.hub.Announce(CutOffNotice)
		}
		return
	}
	if s.cutOff {
		s.cutOff = false
		s.recheck.Store(true) // rooms may have been taken over meanwhile
		s.hub.Announce(BackNotice)
	}
}

// sweep brings the node's rooms' entries up to date and takes over the rooms of nodes that are
// gone.
func (s *served) sweep() {
	n := s.n
	ctx, cancel := n.request()
	defer cancel()
	s.sync(ctx)
	if n.ctx.Err() != nil {
		return // the node is closing: the other nodes take over what is left
	}
	// A node that no connection answers for is gone (killed, or cut off NATS): its rooms are
	// taken at once, its beat current or not, and whether or not the beats can be read. NATS
	// knows it without JetStream, whose buckets may be electing a leader for seconds when the
	// server lost was the node's own.
	s.mu.Lock()
	var hosts []string
	for _, c := range s.cache {
		if node := c.e.Node; node != "" && node != n.id && !slices.Contains(hosts, node) {
			hosts = append(hosts, node)
		}
	}
	wasGone := s.gone
	s.mu.Unlock()
	gone := s.absent(ctx, hosts)
	for node := range gone {
		if !wasGone[node] {
			n.cfg.Logf("cluster: no connection answers for node %s: it is gone", node)
		}
	}
	// The beats are read with a short timeout: while the bucket elects a leader (its server was
	// the one lost), the next sweep asks again a beat later rather than five.
	bctx, bcancel := context.WithTimeout(ctx, n.cfg.Beat)
	defer bcancel()
	keys, err := n.beats.Keys(bctx)
	beatsRead := err == nil || errors.Is(err, jetstream.ErrNoKeysFound)
	if !beatsRead {
		n.cfg.Warnf("cluster: nodes: %v", err)
	}
	alive := map[string]bool{}
	elsewhere := 0
	for _, k := range keys {
		if gone[k] {
			continue // its beat is current, but the node is gone
		}
		alive[k] = true
		if k == n.id {
			continue
		}
		if e, err := n.beats.Get(bctx, k); err == nil {
			var b beatInfo
			if json.Unmarshal(e.Value(), &b) == nil {
				elsewhere += b.Online
			}
		}
	}
	now := time.Now()
	s.mu.Lock()
	s.gone = gone
	if beatsRead {
		s.alive, s.elsewhere = alive, elsewhere
	}
	for node := range alive {
		s.seen[node] = true
	}
	// The absence of a beat means much only when this node's own beat is known to be stored:
	// while the beats cannot be written (their bucket electing a leader), every node's lapses.
	sure := beatsRead && alive[n.id] && time.Since(time.Unix(0, s.beatFailed.Load())) >= n.cfg.TTL
	var orphans []string
	missing := map[string]time.Time{}
	for code, c := range s.cache {
		node := c.e.Node
		switch {
		case gone[node], node == "": // gone, or left by a takeover that failed: no node has it
			orphans = append(orphans, code)
			continue
		case !beatsRead:
			continue
		case node == n.id || alive[node]:
			continue
		}
		// A node seen beating before is gone; one never seen may have just started, with
		// rooms before its first beat is here: it is gone once missed for a whole TTL.
		since, ok := s.missing[node]
		if !ok {
			since = now
		}
		missing[node] = since
		if sure && (s.seen[node] || now.Sub(since) >= n.cfg.TTL) {
			orphans = append(orphans, code)
		}
	}
	if beatsRead {
		s.missing = missing
	}
	s.mu.Unlock()
	rand.Shuffle(len(orphans), func(i, j int) { orphans[i], orphans[j] = orphans[j], orphans[i] })
	for _, code := range orphans {
		s.takeOver(code)
	}
}

// sync writes the entries of the node's rooms whose summary changed, serves the rooms not yet
// served, and deletes the entries of rooms that closed.
func (s *served) sync(ctx context.Context) {
	n := s.n
	recheck := s.recheck.Swap(false)
	listed := map[string]bool{}
	for _, sum := range s.hub.List() {
		listed[sum.Code] = true
		s.mu.Lock()
		h := s.hosts[sum.Code]
		s.mu.Unlock()
		if h == nil {
			continue // a room this node does not keep in the directory (lost, or closing)
		}
		s.mu.Lock()
		h.listed = true
		unserved := h.host == nil
		s.mu.Unlock()
		if unserved {
			if r, ok := s.hub.Room(sum.Code); ok {
				s.host(r)
			}
		}
		val, _ := json.Marshal(entry{Node: n.id, Since: h.epoch, Summary: sum})
		if bytes.Equal(val, h.sum) && !recheck {
			continue
		}
		rev, err := n.dir.Update(ctx, sum.Code, val, h.rev)
		if err != nil {
			if isWrongSeq(err) {
				// Another node took it over while this one was cut off; or a write of this
				// node's was stored without an answer, and the entry still names it.
				if rev, held, err := n.held(ctx, sum.Code, h.epoch); err == nil && held {
					s.mu.Lock()
					h.rev, h.sum = rev, nil // written again at the next sweep
					s.mu.Unlock()
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
		s.mu.Lock()
		h.rev, h.sum = rev, val
		s.mu.Unlock()
	}
	s.mu.Lock()
	var gone []string
	for code, h := range s.hosts {
		if !listed[code] && (h.listed || time.Since(h.reserved) > time.Minute) {
			gone = append(gone, code)
		}
	}
	s.mu.Unlock()
	for _, code := range gone {
		s.mu.Lock()
		h := s.hosts[code]
		delete(s.hosts, code)
		s.mu.Unlock()
		if h.host != nil {
			h.host.Close()
		}
		n.store.forget(code)
		if err := n.dir.DeleteAt(ctx, code, h.rev); err != nil && !isWrongSeq(err) {
			n.cfg.Warnf("cluster: directory entry of closed room %s: %v", code, err)
		}
	}
}

// host serves r to the other nodes.
func (s *served) host(r *rooms.Room) {
	h, err := remote.Serve(s.n.nc, r, s.n.id, s.opt)
	if err != nil {
		s.n.cfg.Warnf("cluster: serve room %s: %v", r.Code(), err)
		return
	}
	s.mu.Lock()
	if hs := s.hosts[r.Code()]; hs != nil && hs.host == nil {
		hs.host = h
		h = nil
	}
	s.mu.Unlock()
	if h != nil {
		h.Close() // served already, or no longer this node's
	}
}

// takeOver takes the room of a node that is gone: a compare-and-set of its entry, then the
// match is rebuilt from the replica, once it has every change stored so far. A room without an
// unfinished match (still waiting for players, or over) is dropped from the directory.
func (s *served) takeOver(code string) {
	n := s.n
	s.mu.Lock()
	c, ok := s.cache[code]
	s.mu.Unlock()
	if !ok {
		return
	}
	ctx, cancel := n.request()
	defer cancel()
	val, _ := json.Marshal(entry{Node: n.id, Summary: c.e.Summary})
	rev, err := n.dir.Update(ctx, code, val, c.rev)
	if err != nil {
		return // another node was quicker, or the directory is out of reach: the next beat sees
	}
	s.mu.Lock()
	s.taking[code] = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.taking, code)
		s.mu.Unlock()
	}()
	// The entry names this node now, which beats: no other node will see the room as a gone
	// node's again. When it cannot be rebuilt here, the entry names no node, so that the next
	// beat of any node tries again (the node that had the room among them, if it is back: with
	// a new epoch; its copy was fenced).
	giveBack := func(why error) {
		n.cfg.Warnf("cluster: take over room %s: %v; left for the next beat", code, why)
		old, _ := json.Marshal(entry{Summary: c.e.Summary})
		gctx, gcancel := n.request()
		defer gcancel()
		if _, err := n.dir.Update(gctx, code, old, rev); err != nil {
			n.cfg.Warnf("cluster: take over room %s: give the entry back: %v", code, err)
		}
	}
	// The fence first: the node that had the room may still be writing it (cut off from the
	// beats, not gone), and what it wrote must be in the replica before the room opens here. A
	// timeout of its own: after a server is lost, the stream may need seconds to elect a leader.
	cctx, ccancel := n.request()
	defer ccancel()
	fence, err := s.fence(code, rev)
	if err == nil {
		err = s.catchUp(cctx, fence)
	}
	if err != nil {
		giveBack(err)
		return
	}
	m, found, err := s.unfinished(code)
	if err != nil {
		giveBack(err)
		return
	}
	if !found {
		_ = n.dir.DeleteAt(cctx, code, rev)
		return
	}
	s.mu.Lock()
	s.hosts[code] = &hosted{epoch: rev, rev: rev, sum: val, reserved: time.Now()}
	s.mu.Unlock()
	if err := s.restore(m); err != nil {
		n.cfg.Warnf("cluster: take over room %s: %v", code, err)
		return
	}
	n.cfg.Logf("cluster: took over room %s from node %s (match %s, %d moves)", code, c.e.Node, m.ID, len(m.Moves))
	if r, ok := s.hub.Room(code); ok {
		s.host(r)
	}
}

// unfinished returns the replica's unfinished match of the room.
func (n *Node) unfinished(code string) (record.Match, bool, error) {
	open, _, err := n.cfg.DB.Unfinished()
	if err != nil {
		return record.Match{}, false, err
	}
	for _, m := range open {
		if m.Code == code {
			return m, true, nil
		}
	}
	return record.Match{}, false, nil
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
	s.mu.Lock()
	h := s.hosts[code]
	delete(s.hosts, code)
	s.mu.Unlock()
	n.store.moved(code)
	go func() { // not on the room's goroutine, which may be the caller
		if h != nil && h.host != nil {
			h.host.Close()
		}
		s.hub.CloseRoom(code, fmt.Sprintf("This room moved to another server. Join %s again to carry on.", code))
		n.cfg.Warnf("cluster: room %s is kept by another node now; closed here", code)
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
	s.mu.Lock()
	h := s.hosts[code]
	var epoch uint64
	if h != nil { // the room is closed and opened again: its entry stays
		h.listed, h.reserved, epoch = false, time.Now(), h.epoch
	}
	s.mu.Unlock()
	go func() {
		s.hub.CloseRoom(code, fmt.Sprintf("The room is being reloaded. Join %s again to carry on.", code))
		s.mu.Lock()
		if h != nil && h.host != nil {
			h.host.Close()
			h.host = nil
		}
		s.mu.Unlock()
		ctx, cancel := n.request()
		defer cancel()
		_, held, err := n.held(ctx, code, epoch)
		if err != nil {
			n.cfg.Warnf("cluster: reload room %s: %v; the room is closed here", code, err)
		}
		if h == nil || !held {
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
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range s.hosts {
		if h.host != nil {
			h.host.Close()
			h.host = nil
		}
	}
}

// isWrongSeq reports a compare-and-set that lost: the key's revision moved on.
func isWrongSeq(err error) bool {
	var api *jetstream.APIError
	return errors.Is(err, jetstream.ErrKeyExists) || errors.As(err, &api) &&
		(api.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
			api.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant)
}
