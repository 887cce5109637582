package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/arcade/arcade/record"
)

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
	c := s.count(ctx)
	var orphans map[string]uint64
	s.do(func(st *dirState) { orphans = st.orphans(n.id, n.cfg.TTL, c, time.Now()) })
	codes := slices.Collect(maps.Keys(orphans))
	rand.Shuffle(len(codes), func(i, j int) { codes[i], codes[j] = codes[j], codes[i] })
	for _, code := range codes {
		s.takeOver(code, orphans[code])
	}
}

// takeOver takes the room of a node that is gone, whose entry had revision rev when the sweep
// found it orphaned: a compare-and-set of its entry, then the match is rebuilt from the replica,
// once it has every change stored so far. An entry that changed since (another node took the
// room meanwhile) is left alone. A room without an unfinished match (still waiting for players,
// or over) is dropped from the directory.
func (s *served) takeOver(code string, rev uint64) {
	n := s.n
	var c cached
	var ok bool
	s.do(func(st *dirState) { c, ok = st.cache[code] })
	if !ok || c.rev != rev {
		return
	}
	ctx, cancel := n.request()
	defer cancel()
	val, _ := json.Marshal(entry{Node: n.id, Summary: c.e.Summary})
	rev, err := s.claim(ctx, code, val, rev)
	if err != nil {
		return // another node was quicker, or the directory is out of reach: the next beat sees
	}
	s.do(func(st *dirState) { st.taking[code] = true })
	defer s.do(func(st *dirState) { delete(st.taking, code) })
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
		// Waiting for players, or its match over (as the replica has every change up to the
		// fence): nothing to carry on.
		n.cfg.Logf("cluster: room %s of node %s has no match under way: dropped from the directory", code, c.e.Node)
		if err := n.dir.DeleteAt(cctx, code, rev); err != nil && !isWrongSeq(err) {
			n.cfg.Warnf("cluster: drop room %s from the directory: %v", code, err)
		}
		return
	}
	s.do(func(st *dirState) {
		st.hosts[code] = &hosted{epoch: rev, rev: rev, sum: val, reserved: time.Now()}
	})
	if err := s.restore(m); err != nil {
		n.cfg.Warnf("cluster: take over room %s: %v", code, err)
		return
	}
	n.cfg.Logf("cluster: took over room %s from node %s (match %s, %d moves)", code, c.e.Node, m.ID, len(m.Moves))
	if r, ok := s.hub.Room(code); ok {
		s.host(r)
	}
}

// claim compare-and-sets the room's entry from revision rev to val, trying again while the
// directory cannot answer (its leader being elected after a server was lost), and returns the
// entry's new revision. A try that got no answer may have been stored, so a refusal is checked
// against the entry: when it holds val, the write was this node's.
func (s *served) claim(ctx context.Context, code string, val []byte, rev uint64) (uint64, error) {
	n := s.n
	nrev, err := retry(ctx, func(ctx context.Context) (uint64, error) { return n.dir.Update(ctx, code, val, rev) })
	if err == nil || !isWrongSeq(err) {
		return nrev, err
	}
	e, gerr := retry(ctx, func(ctx context.Context) (jetstream.KeyValueEntry, error) { return n.dir.Get(ctx, code) })
	if gerr == nil && e.Revision() > rev && bytes.Equal(e.Value(), val) {
		return e.Revision(), nil
	}
	return 0, err
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
