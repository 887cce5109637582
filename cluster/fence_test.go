package cluster

import (
	"context"
	"errors"
	"fmt"
	"github.com/arcade/arcade/cluster/remote"
	"reflect"
	"strings"
	"testing"

	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/session"
	"github.com/arcade/arcade/storage"
)

// TestLostRoomNeverReopens: the split brain of issue 31. n3 hosts a room and is cut off while a
// move of its is in doubt; n1 or n2 takes the room over and the players move on there. When n3
// is back, the move is retried on n3's copy: n3 learns it lost the room and never opens it again,
// the stream never holds two moves of one number, and the room is reached by its code, from
// every node, on its new host.
func TestLostRoomNeverReopens(t *testing.T) {
	t.Parallel()
	c := newCluster(t, true)
	n1, n2, n3 := c.nodes[0], c.nodes[1], c.nodes[2]
	code, sa, sb, snap := matchAcross(t, n3, n1)
	snap = playMoves(t, []session.Sub{sa, sb}, snap, 2)
	snap = playToSeat(t, []session.Sub{sa, sb}, snap, 0)
	before := len(snap.Moves)
	_, mv := next(t, snap)

	n3.proxy.Cut()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	err := sa.Move(ctx, mv)
	cancel()
	if !errors.Is(err, rooms.ErrNotSaved) {
		t.Fatalf("alice's move during the cut: %v, want ErrNotSaved", err)
	}
	var host *tnode
	eventually(t, "n1 or n2 hosts the room", func() error {
		if host = c.localHost(code, 3); host == nil {
			return errNotYet
		}
		return nil
	})
	sa2 := join(t, n2, code, alice)
	sb2 := join(t, n1, code, bob)
	snap = await(t, sa2, "the match on the new host", playing(before))
	await(t, sb2, "the match on the new host for bob", playing(before))
	snap = playMoves(t, []session.Sub{sa2, sb2}, snap, 2) // acknowledged on the new host

	// n3 comes back, and alice's session there tries her move again at once: the publish in doubt.
	n3.proxy.Heal()
	ctx, cancel = context.WithTimeout(context.Background(), patience)
	err = sa.Move(ctx, mv)
	cancel()
	t.Logf("the move retried on n3: %v", err)
	if err == nil {
		t.Error("the move retried on n3's copy was played")
	}
	eventually(t, "n3 closes its copy", func() error {
		if n3.holds(code) {
			return errNotYet
		}
		return nil
	})
	// The players go on: alice now through n3, which must reach the new host.
	sa3 := join(t, n3, code, alice)
	if n3.holds(code) {
		t.Fatal("n3 opened the room again")
	}
	snap = await(t, sa3, "the match through n3", playing(len(snap.Moves)))
	snap = playMoves(t, []session.Sub{sa3, sb2}, snap, 2)
	all := movesOf(snap)
	catchUp(t, n3)
	if reopened := n3.logged("restored room " + code); reopened != "" {
		t.Errorf("n3 opened the room again after it lost it: %q", reopened)
	}
	if c.localHost(code) != host {
		t.Errorf("the room is no longer on n%d", host.i)
	}
	cs := roomChanges(t, c.js(1), code)
	if dup := twicePlayed(cs); dup != "" {
		t.Errorf("the stream: %s", dup)
	}
	if got := streamMoves(cs); !reflect.DeepEqual(got, all) {
		t.Errorf("stream moves %v, want %v", got, all)
	}
	for _, n := range c.nodes {
		catchUp(t, n)
		id, ok := n.node.Store().ActiveMatch(code)
		if !ok {
			t.Fatalf("n%d: no active match in room %s", n.i, code)
		}
		m, err := n.node.Store().Match(id)
		if err != nil {
			t.Fatal(err)
		}
		if got := recordedMoves(m); !reflect.DeepEqual(got, all) {
			t.Errorf("n%d: recorded %v, want %v", n.i, got, all)
		}
		if r, err := n.db.Check(games.Rules()); err != nil || !r.Clean() {
			t.Errorf("n%d: arcade check: %+v, %v", n.i, r, err)
		}
	}
}

// TestStaleHostAnswersNothing: a host that lost its room without hearing of it (cut off from
// JetStream, still answering requests, as a host frozen and resumed is) is never asked: joins and
// requests for the room reach its new host alone. Once it hears, it closes its copy, and the
// players on the new host play on.
func TestStaleHostAnswersNothing(t *testing.T) {
	t.Parallel()
	c := newCluster(t, true)
	n1, n2, n3 := c.nodes[0], c.nodes[1], c.nodes[2]
	code, sa, sb, snap := matchAcross(t, n3, n1)
	snap = playMoves(t, []session.Sub{sa, sb}, snap, 1)

	// n3 hears the rooms' requests and nothing else, and sends their answers and nothing else (no
	// beat): the others take the room over while n3 still serves its copy.
	n3.proxy.Deafen(func(subject string, _ []byte) bool { return strings.HasPrefix(subject, "arcade.room.") })
	n3.proxy.Mute(func(subject string) bool { return strings.HasPrefix(subject, "_INBOX.") })
	var host *tnode
	eventually(t, "n1 or n2 hosts the room", func() error {
		if host = c.localHost(code, 3); host == nil {
			return errNotYet
		}
		return nil
	})
	var stale *remote.Host
	n3.ch.s.do(func(st *dirState) {
		if h := st.hosts[code]; h != nil {
			stale = h.host
		}
	})
	if stale == nil || !n3.holds(code) {
		t.Fatal("n3 no longer serves its copy: it heard that it lost the room")
	}
	before := stale.Subs() // bob's, from before the cut
	sa2 := join(t, n2, code, alice)
	sb2 := join(t, n1, code, bob)
	snap = await(t, sa2, "the match on the new host", playing(1))
	await(t, sb2, "the match on the new host for bob", playing(1))
	snap = playMoves(t, []session.Sub{sa2, sb2}, snap, 2)
	if n := stale.Subs(); n > before {
		t.Errorf("n3's stale copy took %d joins", n-before)
	}

	n3.proxy.Deafen(nil)
	n3.proxy.Mute(nil)
	eventually(t, "n3 closes its copy", func() error {
		if n3.holds(code) {
			return errNotYet
		}
		return nil
	})
	snap = playMoves(t, []session.Sub{sa2, sb2}, snap, 2)
	for _, s := range []session.Sub{sa2, sb2} {
		select {
		case last, open := <-s.Updates():
			if !open || last.Phase == rooms.Closed {
				t.Errorf("a player of the new host was thrown out: %q", last.Notice)
			}
		default:
		}
	}
	if got := streamMoves(roomChanges(t, c.js(1), code)); !reflect.DeepEqual(got, movesOf(snap)) {
		t.Errorf("stream moves %v, want %v", got, movesOf(snap))
	}
}

// holds reports whether the node's hub holds the room of code open.
func (n *tnode) holds(code string) bool {
	r, ok := n.hub.Room(code)
	if !ok {
		return false
	}
	select {
	case <-r.Done():
		return false
	default:
		return true
	}
}

// logged returns the first line of the node's log containing text, "" when none does.
func (n *tnode) logged(text string) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, l := range n.logs {
		if strings.Contains(l, text) {
			return l
		}
	}
	return ""
}

// twicePlayed describes the first move number stored twice for one match on the room's subject
// (a takeback frees the numbers it takes back), "" when there is none.
func twicePlayed(cs []storage.Change) string {
	seen := map[int]string{}
	for i, c := range cs {
		switch c.Kind {
		case storage.ChangeStart:
			clear(seen)
		case storage.ChangeTakeback:
			for p := range seen {
				if p >= c.Ply {
					delete(seen, p)
				}
			}
		case storage.ChangeMove:
			if first, dup := seen[c.Ply]; dup {
				return fmt.Sprintf("move %d stored twice: %s, then %q (change %d of the room)", c.Ply+1, first, c.Move.Move, i+1)
			}
			seen[c.Ply] = fmt.Sprintf("%q", c.Move.Move)
		}
	}
	return ""
}

// TestStoredInDoubtReloads: a move whose answer was lost but which JetStream stored (n3 hears
// no acknowledgement of the stream's for a while) is in doubt; when n3 hears again, the next write finds the move stored,
// n3's own and the room's last: the room still n3's by the directory, n3 opens it again from the
// replica, with the move, and play goes on there.
func TestStoredInDoubtReloads(t *testing.T) {
	t.Parallel()
	c := newCluster(t, true)
	n1, n3 := c.nodes[0], c.nodes[2]
	code, sa, sb, snap := matchAcross(t, n3, n1)
	snap = playMoves(t, []session.Sub{sa, sb}, snap, 2)
	snap = playToSeat(t, []session.Sub{sa, sb}, snap, 0)
	_, mv := next(t, snap)
	want := append(movesOf(snap), played{0, mv})
	first, _ := n3.hub.Room(code)

	// n3 hears no acknowledgement of the stream's: what it writes there is stored unbeknown.
	n3.proxy.Deafen(func(_ string, payload []byte) bool {
		return !strings.Contains(string(payload), `"stream":"`+streamName+`"`)
	})
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	err := sa.Move(ctx, mv)
	cancel()
	n3.proxy.Deafen(nil)
	n3.proxy.Mute(nil)
	if !errors.Is(err, rooms.ErrNotSaved) {
		t.Fatalf("alice's move without an answer: %v, want ErrNotSaved", err)
	}
	eventually(t, "the move in doubt is on the stream", func() error {
		if got := streamMoves(roomChanges(t, c.js(1), code)); !reflect.DeepEqual(got, want) {
			return fmt.Errorf("stream moves %v, want %v", got, want)
		}
		return nil
	})
	// The next write finds it: the room is opened again on n3, with the move.
	ctx, cancel = context.WithTimeout(context.Background(), patience)
	err = sa.Move(ctx, mv)
	cancel()
	t.Logf("the move again: %v", err)
	if err == nil {
		t.Fatal("the move was played twice")
	}
	var sa2 session.Sub
	eventually(t, "n3 opens the room again", func() error {
		r, ok := n3.hub.Room(code)
		if !ok || r == first {
			return errNotYet
		}
		s, err := r.Join(alice, false)
		if err != nil {
			return err
		}
		sa2 = s
		return nil
	})
	t.Cleanup(sa2.Leave)
	snap = await(t, sa2, "the room opened again", playing(len(want)))
	if got := movesOf(snap); !reflect.DeepEqual(got, want) {
		t.Fatalf("moves after the reload %v, want %v", got, want)
	}
	sb2 := join(t, n1, code, bob)
	await(t, sb2, "the room opened again, for bob", playing(len(want)))
	snap = playMoves(t, []session.Sub{sa2, sb2}, snap, 2)
	if host := c.localHost(code); host != n3 {
		t.Errorf("the room is on n%d, want n3", host.i)
	}
	cs := roomChanges(t, c.js(1), code)
	if dup := twicePlayed(cs); dup != "" {
		t.Errorf("the stream: %s", dup)
	}
	if got := streamMoves(cs); !reflect.DeepEqual(got, movesOf(snap)) {
		t.Errorf("stream moves %v, want %v", got, movesOf(snap))
	}
}
