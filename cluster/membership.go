package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// membership is what a node knows of which nodes are alive: part of the directory's state
// (dirState), owned by its goroutine.
type membership struct {
	alive map[string]bool // the nodes whose beat is current, as of the last sweep that read them
	// gone holds the nodes that no connection answers for, as of the last sweep (Node.absent).
	gone map[string]bool
	// elsewhere counts the players connected to the other nodes, as of the last sweep.
	elsewhere int
	// seen holds the nodes this node has seen beat; missing, when it first found a room's node
	// that it never saw beat without a beat.
	seen    map[string]bool
	missing map[string]time.Time
	cutOff  bool // the last beat failed
	// recheck asks the next sync to write every room's entry, changed or not: the node is back
	// from a cut, and the compare-and-set finds the rooms the others took meanwhile.
	recheck bool
	// beatFailed is when the node's beat last failed (zero: never). While the beats cannot be
	// written (their bucket electing a leader), every node's beat lapses, not only a gone
	// node's: no room is taken over for a lapsed beat until this node's beats have been stored
	// for a whole TTL, so that the others have beaten again too.
	beatFailed time.Time
}

func newMembership() membership {
	return membership{alive: map[string]bool{}, gone: map[string]bool{}, seen: map[string]bool{},
		missing: map[string]time.Time{}}
}

// beatInfo is a node's value in arcade_nodes.
type beatInfo struct {
	Name   string    `json:"name"`
	Beat   time.Time `json:"beat"`
	Online int       `json:"online"` // the players connected to the node
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
	_, err := n.beats.Put(ctx, n.id, info)
	if err != nil && n.ctx.Err() != nil {
		return // the node is closing
	}
	if err != nil {
		n.cfg.Warnf("cluster: beat: %v", err)
	}
	var cut, back bool
	s.do(func(st *dirState) {
		switch {
		case err != nil:
			st.beatFailed = time.Now()
			cut, st.cutOff = !st.cutOff, true
		case st.cutOff:
			st.cutOff, st.recheck, back = false, true, true // rooms may have been taken over meanwhile
		}
	})
	switch {
	case cut:
		s.hub.Announce(CutOffNotice)
	case back:
		s.hub.Announce(BackNotice)
	}
}

// census is what a sweep learned of the nodes: those no connection answers for, and, when the
// beats could be read, those whose beat is current and the players connected to the others.
type census struct {
	gone      map[string]bool
	read      bool // the beats were read: alive and elsewhere say something
	alive     map[string]bool
	elsewhere int
}

// count asks NATS which of the nodes hosting rooms, or beating, are gone, and the bucket of
// beats which nodes are alive. The two are asked at once: while the beats' bucket elects a
// leader (its server was the one lost), the probes need not wait for it.
func (s *served) count(ctx context.Context) census {
	n := s.n
	// A node that no connection answers for is gone (killed, or cut off NATS): NATS knows it
	// without JetStream, whose buckets may be electing a leader for seconds when the server
	// lost was the node's own. Node.absent says nothing of a node never heard: a node whose beat
	// was read counts as heard (it answers before it beats), and the nodes beating are probed
	// too, rooms or not.
	var nodes, seen []string
	var wasGone map[string]bool
	s.do(func(st *dirState) {
		for node := range st.seen {
			if node != n.id {
				seen = append(seen, node)
			}
		}
		for _, c := range st.cache {
			if node := c.e.Node; node != "" && node != n.id && !slices.Contains(nodes, node) {
				nodes = append(nodes, node)
			}
		}
		for node := range st.alive {
			if node != n.id && !slices.Contains(nodes, node) {
				nodes = append(nodes, node)
			}
		}
		wasGone = st.gone
	})
	n.presence.heard(seen)
	beats := make(chan beatsRead, 1)
	go func() { beats <- s.readBeats(ctx) }()
	c := census{gone: s.absent(ctx, nodes), alive: map[string]bool{}}
	for node := range c.gone {
		if !wasGone[node] {
			n.cfg.Logf("cluster: no connection answers for node %s: it is gone", node)
		}
	}
	b := <-beats
	c.read = b.err == nil
	if !c.read {
		n.cfg.Warnf("cluster: nodes: %v", b.err)
	}
	for k, online := range b.online {
		if c.gone[k] {
			continue // its beat is current, but the node is gone
		}
		c.alive[k] = true
		if k != n.id {
			c.elsewhere += online
		}
	}
	return c
}

// beatsRead is what a read of the beats found: each node with a current beat and the players
// connected to it, or why the beats could not be read.
type beatsRead struct {
	online map[string]int
	err    error
}

// readBeats reads the bucket of beats, with a beat's time: while the bucket elects a leader (its
// server was the one lost), the next sweep asks again a beat later rather than five.
func (s *served) readBeats(ctx context.Context) beatsRead {
	n := s.n
	bctx, bcancel := context.WithTimeout(ctx, n.cfg.Beat)
	defer bcancel()
	keys, err := n.beats.Keys(bctx)
	if err != nil && !errors.Is(err, jetstream.ErrNoKeysFound) {
		return beatsRead{err: err}
	}
	b := beatsRead{online: map[string]int{}}
	for _, k := range keys {
		b.online[k] = 0
		if k == n.id {
			continue
		}
		if e, err := n.beats.Get(bctx, k); err == nil {
			var bi beatInfo
			if json.Unmarshal(e.Value(), &bi) == nil {
				b.online[k] = bi.Online
			}
		}
	}
	return b
}

// orphans records what the sweep learned of the nodes (c) and returns the rooms of the
// directory that no live node has, with their entry's revision: their node is gone (no
// connection answers for it; or its beat lapsed, when this node's own beat is known to be
// stored), or a takeover that failed left them naming no node.
func (st *dirState) orphans(self string, ttl time.Duration, c census, now time.Time) map[string]uint64 {
	st.gone = c.gone
	if c.read {
		st.alive, st.elsewhere = c.alive, c.elsewhere
	}
	for node := range c.alive {
		st.seen[node] = true
	}
	sure := c.read && c.alive[self] && now.Sub(st.beatFailed) >= ttl
	orphans := map[string]uint64{}
	missing := map[string]time.Time{}
	for code, ce := range st.cache {
		node := ce.e.Node
		switch {
		case c.gone[node], node == "": // gone, or left by a takeover that failed: no node has it
			orphans[code] = ce.rev
			continue
		case !c.read:
			continue
		case node == self || c.alive[node]:
			continue
		}
		// A node seen beating before is gone; one never seen may have just started, with rooms
		// before its first beat is here: it is gone once missed for a whole TTL.
		since, ok := st.missing[node]
		if !ok {
			since = now
		}
		missing[node] = since
		if sure && (st.seen[node] || now.Sub(since) >= ttl) {
			orphans[code] = ce.rev
		}
	}
	if c.read {
		st.missing = missing
	}
	return orphans
}
