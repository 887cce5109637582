package cluster

import (
	"cmp"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/arcade/arcade/rooms"
)

// The cluster's quick-match pool is the bucket arcade_quick: one entry per ticket, written by
// the node of the player who waits, rewritten before it lapses (the bucket's TTL is the nodes'),
// so that the ticket of a node that is gone disappears. Every node with players waiting reads the
// whole pool once a second and at each seek, and pairs it by rooms.Pairs, as one hub pairs its
// queue; of a pair, the node of the longer waiting player acts on it:
//
//  1. it marks its own ticket "pairing" (compare-and-set on the revision it read), so that no
//     other node takes that player meanwhile;
//  2. it opens the room through Hub.Create (in the directory and fenced like any room);
//  3. it marks the other ticket "paired" with the room's code (compare-and-set on the revision
//     it read): a ticket is paired once, however many nodes pair at the same time;
//  4. it hands the room to its player and deletes its ticket. The other node, at its next read,
//     finds its ticket paired, deletes it (compare-and-set: until then the pairing node may put
//     it back, when its own player left meanwhile), and hands its player the room's code
//     (joined as any room, on whichever node).
//
// When step 1 or 3 fails (another node was quicker, the other player left, the ticket was
// rewritten), the node closes the room it opened, puts its ticket back and pairs again at the
// next read.

// Ticket states in arcade_quick.
const (
	quickWaiting = ""
	quickPairing = "pairing" // the node of the ticket is pairing it with With
	quickPaired  = "paired"  // paired with With in Room
)

// quickEntry is a ticket's value in arcade_quick.
type quickEntry struct {
	Node   string       `json:"node"` // the node of the player, which keeps the ticket
	Game   string       `json:"game"`
	Player rooms.Player `json:"player"`
	Rating float64      `json:"rating"`
	Since  time.Time    `json:"since"`
	State  string       `json:"state,omitempty"`
	With   string       `json:"with,omitempty"` // the other ticket's key, when pairing or paired
	Room   string       `json:"room,omitempty"` // the room's code, when paired
}

// quickTicket is a ticket of this node's player.
type quickTicket struct {
	t     *rooms.Ticket
	e     quickEntry
	rev   uint64    // the revision this node wrote last (pool.mu)
	wrote time.Time // when (pool.mu)
}

// pool is a node's part in the quick-match pool. Its tickets are written by the pairing
// goroutine (run), by Seek when made and by a ticket's Cancel when deleted.
type pool struct {
	h    *Hub
	kv   jetstream.KeyValue
	kick chan struct{} // asks run to read the pool now

	mu   sync.Mutex
	mine map[string]*quickTicket // this node's tickets, by key
}

// at returns the revision of qt this node wrote last, and when.
func (p *pool) at(qt *quickTicket) (uint64, time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return qt.rev, qt.wrote
}

// quickPool returns the node's pool, starting its pairing goroutine on the first call.
func (h *Hub) quickPool() *pool {
	n := h.s.n
	n.quickOnce.Do(func() {
		n.quickPool = &pool{h: h, kv: n.quick, kick: make(chan struct{}, 1), mine: map[string]*quickTicket{}}
		n.wg.Add(1)
		go func() {
			defer n.wg.Done()
			n.quickPool.run()
		}()
	})
	return n.quickPool
}

// seek puts s in the pool (rooms.Hub.Seek's contract, for the whole cluster).
func (p *pool) seek(s rooms.Seek) (*rooms.Ticket, error) {
	g, ok := p.h.s.hub.Game(s.Game)
	if !ok {
		return nil, rooms.ErrNoSuchGame
	}
	if g.MinSeats > 2 || g.MaxSeats < 2 {
		return nil, rooms.ErrSeeking
	}
	n := p.h.s.n
	if n.ctx.Err() != nil {
		return nil, rooms.ErrShuttingDown
	}
	s.Game = g.ID
	e := quickEntry{Node: n.id, Game: g.ID, Player: s.Player, Rating: s.Rating, Since: time.Now()}
	val, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("quick match: %w", err)
	}
	id := make([]byte, 8)
	_, _ = crand.Read(id)
	key := hex.EncodeToString(id)
	ctx, cancel := n.request()
	defer cancel()
	rev, err := p.kv.Create(ctx, key, val)
	if err != nil {
		return nil, fmt.Errorf("quick match: join the pool: %w", err)
	}
	qt := &quickTicket{e: e, rev: rev, wrote: time.Now()}
	qt.t = rooms.PoolTicket(s, e.Since, func() { p.leave(key) })
	p.mu.Lock()
	var replaced []*rooms.Ticket
	for _, o := range p.mine {
		if o.e.Game == g.ID && o.e.Player.ID == s.Player.ID {
			replaced = append(replaced, o.t)
		}
	}
	p.mine[key] = qt
	p.mu.Unlock()
	for _, t := range replaced { // a player who seeks the same game again replaces the ticket
		t.Cancel()
	}
	select {
	case p.kick <- struct{}{}:
	default:
	}
	return qt.t, nil
}

// leave takes the ticket of key out of the pool: Cancel's part. A ticket that another node has
// paired meanwhile stays paired: its room stays open, waiting for the player, as any room does.
func (p *pool) leave(key string) {
	p.mu.Lock()
	qt, ok := p.mine[key]
	delete(p.mine, key)
	var rev uint64
	if ok {
		rev = qt.rev
	}
	p.mu.Unlock()
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), p.h.s.n.cfg.Timeout)
	defer cancel()
	_ = p.kv.Delete(ctx, key, jetstream.LastRevision(rev))
}

// run pairs the pool at each seek and every beat while this node has players waiting, until
// the node closes. The tickets it keeps then lapse, as a gone node's do; its players' tickets
// are cancelled.
func (p *pool) run() {
	n := p.h.s.n
	t := time.NewTicker(n.cfg.Beat)
	defer t.Stop()
	for {
		select {
		case <-n.ctx.Done():
			p.mu.Lock()
			mine := p.mine
			p.mine = map[string]*quickTicket{}
			p.mu.Unlock()
			for _, qt := range mine {
				qt.t.Cancel()
			}
			return
		case <-t.C:
		case <-p.kick:
		}
		p.mu.Lock()
		waiting := len(p.mine) > 0
		p.mu.Unlock()
		if waiting {
			p.pass()
		}
	}
}

// seen is a ticket as a read of the pool found it.
type seen struct {
	key string
	rev uint64
	e   quickEntry
}

// read returns every ticket of the pool.
func (p *pool) read() ([]seen, error) {
	ctx, cancel := p.h.s.n.request()
	defer cancel()
	// A watch of an empty bucket says it has caught up only if it could read its consumer's
	// pending count, which fails while the bucket elects a leader: ask the bucket first.
	st, err := p.kv.Status(ctx)
	if err != nil {
		return nil, err
	}
	if st.Values() == 0 {
		return nil, nil
	}
	w, err := p.kv.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return nil, err
	}
	defer w.Stop()
	var out []seen
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case u, ok := <-w.Updates():
			if !ok {
				return nil, errors.New("the watch ended")
			}
			if u == nil {
				return out, nil
			}
			s := seen{key: u.Key(), rev: u.Revision()}
			if json.Unmarshal(u.Value(), &s.e) == nil {
				out = append(out, s)
			}
		}
	}
}

// pass reads the pool once: hands the rooms of this node's paired tickets, keeps its tickets
// from lapsing, and pairs the waiting tickets.
func (p *pool) pass() {
	n := p.h.s.n
	all, err := p.read()
	if err != nil {
		n.cfg.Logf("cluster: quick match: read the pool: %v", err)
		return
	}
	now := time.Now()
	byKey := make(map[string]seen, len(all))
	for _, s := range all {
		byKey[s.key] = s
	}
	newest := map[[2]string]time.Time{} // by game and player: an older ticket was replaced
	for _, s := range all {
		k := [2]string{s.e.Game, s.e.Player.ID}
		if s.e.Since.After(newest[k]) {
			newest[k] = s.e.Since
		}
	}

	p.mu.Lock()
	mine := make(map[string]*quickTicket, len(p.mine))
	for k, qt := range p.mine {
		mine[k] = qt
	}
	p.mu.Unlock()
	for key, qt := range mine {
		s, ok := byKey[key]
		rev, wrote := p.at(qt)
		switch {
		case ok && s.e.State == quickPaired:
			p.found(key, s)
		case ok && s.e.Since.Before(newest[[2]string{s.e.Game, s.e.Player.ID}]):
			qt.t.Cancel() // the player seeks the game on another node too: the newer ticket counts
		case !ok || s.rev != rev || now.Sub(wrote) >= n.cfg.TTL/3:
			if rev, err := p.refresh(key, qt, rev, ok && s.rev == rev); err == nil && ok {
				s.rev, s.e = rev, qt.e
				byKey[key] = s // pairs at once, at the revision just written
			}
		}
	}

	queues := map[string][]seen{}
	for _, s := range all {
		s = byKey[s.key]
		if s.e.State != quickWaiting || s.e.Since.Before(newest[[2]string{s.e.Game, s.e.Player.ID}]) {
			continue
		}
		if s.e.Node == n.id {
			p.mu.Lock()
			qt, ok := p.mine[s.key]
			current := ok && qt.rev == s.rev
			p.mu.Unlock()
			if !current {
				continue // cancelled, or rewritten since: the next read has it
			}
		}
		queues[s.e.Game] = append(queues[s.e.Game], s)
	}
	for _, q := range queues {
		slices.SortFunc(q, func(a, b seen) int { return cmp.Or(a.e.Since.Compare(b.e.Since), cmp.Compare(a.key, b.key)) })
		w := make([]rooms.Seeker, len(q))
		for i, s := range q {
			w[i] = rooms.Seeker{Player: s.e.Player.ID, Rating: s.e.Rating, Since: s.e.Since}
		}
		for _, pr := range rooms.Pairs(w, now) {
			if a, b := q[pr[0]], q[pr[1]]; a.e.Node == n.id {
				p.pair(a, b)
			}
		}
	}
}

// refresh rewrites this node's ticket before it lapses, or writes it again when it has lapsed
// (current: the pool holds the revision this node wrote last). A ticket another node has marked
// meanwhile is left to the next read. It returns the revision written.
func (p *pool) refresh(key string, qt *quickTicket, last uint64, current bool) (uint64, error) {
	n := p.h.s.n
	val, err := json.Marshal(qt.e)
	if err != nil {
		return 0, err
	}
	ctx, cancel := n.request()
	defer cancel()
	var rev uint64
	if current {
		rev, err = p.kv.Update(ctx, key, val, last)
	} else {
		// Lapsed (a node slow to rewrite it): write it again, unless it was marked meanwhile.
		if _, gerr := p.kv.Get(ctx, key); !errors.Is(gerr, jetstream.ErrKeyNotFound) {
			return 0, errors.New("the ticket was written meanwhile")
		}
		rev, err = p.kv.Create(ctx, key, val)
	}
	if err != nil {
		return 0, err
	}
	p.mu.Lock()
	cancelled := p.mine[key] != qt
	if !cancelled {
		qt.rev, qt.wrote = rev, time.Now()
	}
	p.mu.Unlock()
	if cancelled {
		// The player cancelled while this write was on its way: leave's delete named the
		// revision before it, so this write would stay in the pool until it lapsed. Take it
		// back, at the revision just written.
		_ = p.kv.Delete(ctx, key, jetstream.LastRevision(rev))
		return 0, errors.New("the ticket was cancelled")
	}
	return rev, nil
}

// found hands the room of this node's ticket that another node paired (s) to its player. It
// deletes the ticket first, by compare-and-set: the pairing node may still put the ticket back
// (its own player left meanwhile) until then, and the next read tells.
func (p *pool) found(key string, s seen) {
	p.mu.Lock()
	qt, ok := p.mine[key]
	p.mu.Unlock()
	if !ok {
		return
	}
	ctx, cancel := p.h.s.n.request()
	defer cancel()
	if err := p.kv.Delete(ctx, key, jetstream.LastRevision(s.rev)); err != nil {
		return
	}
	p.mu.Lock()
	ok = p.mine[key] == qt
	delete(p.mine, key)
	p.mu.Unlock()
	if !ok {
		return // cancelled meanwhile: the room stays open, as a room does
	}
	qt.t.Pair(s.e.Room)
}

// pair pairs a, this node's ticket of the longer waiting player, with b (see the steps above).
func (p *pool) pair(a, b seen) {
	n := p.h.s.n
	ctx, cancel := n.request()
	defer cancel()
	p.mu.Lock()
	qt, ok := p.mine[a.key]
	current := ok && qt.rev == a.rev
	p.mu.Unlock()
	if !current {
		return
	}
	marked := a.e
	marked.State, marked.With = quickPairing, b.key
	val, _ := json.Marshal(marked)
	rev, err := p.kv.Update(ctx, a.key, val, a.rev)
	if err != nil {
		return // cancelled, or marked by a node that took this player first
	}
	p.mu.Lock()
	if p.mine[a.key] == qt {
		qt.rev, qt.wrote = rev, time.Now()
	}
	p.mu.Unlock()
	// putBack makes a wait again; a cancelled ticket is deleted instead.
	putBack := func() {
		p.mu.Lock()
		_, waiting := p.mine[a.key]
		p.mu.Unlock()
		if !waiting {
			_ = p.kv.Delete(ctx, a.key, jetstream.LastRevision(rev))
			return
		}
		val, _ := json.Marshal(a.e)
		if rev2, err := p.kv.Update(ctx, a.key, val, rev); err == nil {
			p.mu.Lock()
			if p.mine[a.key] == qt {
				qt.rev, qt.wrote = rev2, time.Now()
			}
			p.mu.Unlock()
		}
	}

	r, err := p.h.create(a.e.Game, nil, 2, b.e.Player)
	if err != nil {
		n.cfg.Logf("cluster: quick match %s: cannot open a room: %v", a.e.Game, err)
		putBack()
		return
	}
	paired := b.e
	paired.State, paired.With, paired.Room = quickPaired, a.key, r.Code()
	val, _ = json.Marshal(paired)
	brev, err := p.kv.Update(ctx, b.key, val, b.rev)
	p.mu.Lock()
	_, waiting := p.mine[a.key]
	if err == nil && waiting {
		delete(p.mine, a.key) // paired: the room is a's player's from now on
	}
	p.mu.Unlock()
	if err == nil && !waiting {
		// a's player left meanwhile: b waits on.
		val, _ := json.Marshal(b.e)
		if _, err := p.kv.Update(ctx, b.key, val, brev); err != nil {
			// b's node has handed b the room already: it stays open, as a room does.
			n.cfg.Logf("cluster: quick match %s: %s left as %s was paired", a.e.Game, a.e.Player.ID, b.e.Player.ID)
			return
		}
		err = errors.New("the player left")
	}
	if err != nil {
		p.h.s.hub.CloseRoom(r.Code(), "")
		putBack()
		return
	}
	n.cfg.Logf("cluster: quick match %s: %s (%.0f) and %s (%.0f) in room %s", a.e.Game, a.e.Player.ID,
		a.e.Rating, b.e.Player.ID, b.e.Rating, r.Code())
	qt.t.Pair(r.Code())
	_ = p.kv.Delete(ctx, a.key, jetstream.LastRevision(rev))
}
