package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/session"
	"github.com/arcade/arcade/storage"
)

// TestClaimRace: one name claimed at once by 10 keys on 3 nodes binds to exactly one.
func TestClaimRace(t *testing.T) {
	t.Parallel()
	c := newCluster(t, false)
	errs := make([]error, 10)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range errs {
		wg.Go(func() {
			<-start
			errs[i] = c.nodes[i%3].node.Store().Claim(fmt.Sprintf("SHA256:key%d", i), "zed")
		})
	}
	close(start)
	wg.Wait()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil:
			if winner >= 0 {
				t.Fatalf("keys %d and %d both claimed Zed", winner, i)
			}
			winner = i
		case !errors.Is(err, storage.ErrNameTaken):
			t.Errorf("key %d: %v, want ErrNameTaken", i, err)
		}
	}
	if winner < 0 {
		t.Fatal("nobody claimed Zed")
	}
	id := fmt.Sprintf("SHA256:key%d", winner)
	for _, n := range c.nodes {
		if err := n.node.Store().Claim(id, "zed"); err != nil {
			t.Errorf("the winner claims again on n%d: %v", n.i, err)
		}
		if err := n.node.Store().Claim("SHA256:other", "zed"); !errors.Is(err, storage.ErrNameTaken) {
			t.Errorf("another key claims zed on n%d: %v, want ErrNameTaken", n.i, err)
		}
	}
	for _, n := range c.nodes {
		eventually(t, fmt.Sprintf("n%d's profile of the winner", n.i), func() error {
			p, err := n.node.Store().Profile(id, 0)
			if err != nil {
				return err
			}
			if p.Name != "zed" {
				return fmt.Errorf("name %q", p.Name)
			}
			return nil
		})
	}
	if err := c.nodes[0].node.Store().SetBell(id, true); err != nil {
		t.Fatal(err)
	}
	for _, n := range c.nodes {
		eventually(t, fmt.Sprintf("n%d's bell", n.i), func() error {
			if !n.node.Store().Bell(id) {
				return errNotYet
			}
			return nil
		})
	}
	if err := c.nodes[1].node.Store().SetBell("SHA256:nobody", true); !errors.Is(err, storage.ErrNoPlayer) {
		t.Errorf("SetBell of a key without a name: %v, want ErrNoPlayer", err)
	}
}

// TestRoomAcrossNodes: a room on n1, joined from n2, played from both, ended; leaderboards
// converge; n3 lists the room while it is open, as each player's game.
func TestRoomAcrossNodes(t *testing.T) {
	t.Parallel()
	c := newCluster(t, false)
	n1, n2, n3 := c.nodes[0], c.nodes[1], c.nodes[2]
	for _, p := range []rooms.Player{alice, bob} {
		if err := n1.node.Store().Claim(p.ID, p.Name); err != nil {
			t.Fatal(err)
		}
	}
	r, err := n1.ch.Create("discon", nil, 2, alice)
	if err != nil {
		t.Fatal(err)
	}
	code := r.Code()
	sa, err := r.Join(alice, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sa.Leave)
	sb := join(t, n2, code, bob)
	if _, local := n2.hub.Room(code); local {
		t.Fatal("n2 has the room locally")
	}
	snap := await(t, sa, "the match", playing(0))
	await(t, sb, "the match on n2", playing(0))
	// The front page counts the players of the other nodes (10 on n1, 20 on n2, 30 on n3).
	eventually(t, "n3 counts the others' players", func() error {
		if got := n3.ch.Elsewhere(); got != 30 {
			return fmt.Errorf("n3.Elsewhere() = %d, want 10 + 20", got)
		}
		return nil
	})
	eventually(t, "n3 lists the room", func() error {
		for _, s := range n3.ch.List() {
			if s.Code == code {
				return nil
			}
		}
		return errNotYet
	})
	// The lobby of a player of the match on n3 lists it among the player's games (whose turn it
	// is, the directory does not say).
	for _, p := range []rooms.Player{alice, bob} {
		eventually(t, "n3 lists the room as "+p.Name+"'s game", func() error {
			if yours := rooms.Yours(n3.ch.List(), p.ID); len(yours) != 1 || yours[0].Code != code {
				return fmt.Errorf("%s's games on n3: %+v, want room %s", p.Name, yours, code)
			}
			return nil
		})
	}
	subs := []session.Sub{sa, sb}
	snap = playMoves(t, subs, snap, 4)
	if err := sb.Resign(); err != nil {
		t.Fatal(err)
	}
	end := await(t, sa, "the end", func(s rooms.Snapshot) bool { return s.Phase == rooms.Finished })
	if end.Result.MatchID == "" {
		t.Fatal("no match ID in the result")
	}
	var boards [3]any
	for i, n := range c.nodes {
		eventually(t, fmt.Sprintf("n%d's leaderboard", n.i), func() error {
			lb, err := n.node.Store().Leaderboard("discon", 10)
			if err != nil {
				return err
			}
			if len(lb) != 2 {
				return fmt.Errorf("%d standings", len(lb))
			}
			boards[i] = lb
			return nil
		})
		m, err := n.node.Store().Match(end.Result.MatchID)
		if err != nil {
			t.Fatalf("n%d: match %s: %v", n.i, end.Result.MatchID, err)
		}
		if got := recordedMoves(m); !reflect.DeepEqual(got, movesOf(snap)) {
			t.Errorf("n%d: match moves %v, want %v", n.i, got, movesOf(snap))
		}
	}
	if !reflect.DeepEqual(boards[0], boards[1]) || !reflect.DeepEqual(boards[0], boards[2]) {
		t.Errorf("leaderboards differ:\n%+v\n%+v\n%+v", boards[0], boards[1], boards[2])
	}
	n1.hub.CloseRoom(code, "closing")
	eventually(t, "n3 no longer lists the room", func() error {
		for _, s := range n3.ch.List() {
			if s.Code == code {
				return errNotYet
			}
		}
		return nil
	})
}

// TestCodesUnique: rooms created at once on 3 nodes have distinct codes, each in the directory
// once, naming its node.
func TestCodesUnique(t *testing.T) {
	t.Parallel()
	c := newCluster(t, false)
	const perNode = 20
	codes := make([][]string, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i, n := range c.nodes {
		wg.Go(func() {
			var inner sync.WaitGroup
			var mu sync.Mutex
			for range perNode {
				inner.Go(func() {
					r, err := n.ch.Create("discon", nil, 2, alice)
					mu.Lock()
					defer mu.Unlock()
					if err != nil {
						errs[i] = err
						return
					}
					codes[i] = append(codes[i], r.Code())
				})
			}
			inner.Wait()
		})
	}
	wg.Wait()
	seen := map[string]int{}
	for i := range c.nodes {
		if errs[i] != nil {
			t.Fatalf("create on n%d: %v", i+1, errs[i])
		}
		for _, code := range codes[i] {
			if j, dup := seen[code]; dup {
				t.Errorf("code %s on n%d and n%d", code, j, i+1)
			}
			seen[code] = i + 1
		}
	}
	if len(seen) != 3*perNode {
		t.Fatalf("%d codes, want %d", len(seen), 3*perNode)
	}
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	kv, err := c.js(1).KeyValue(ctx, bucketRooms)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := kv.Keys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 3*perNode {
		t.Errorf("%d directory entries, want %d", len(keys), 3*perNode)
	}
	for _, k := range keys {
		i, ok := seen[k]
		if !ok {
			t.Errorf("directory entry %s of no room", k)
			continue
		}
		e, err := kv.Get(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		var en entry
		if err := json.Unmarshal(e.Value(), &en); err != nil {
			t.Fatal(err)
		}
		if en.Node != c.nodes[i-1].node.ID() {
			t.Errorf("room %s: directory says node %s, created on %s", k, en.Node, c.nodes[i-1].node.ID())
		}
	}
}

// TestTakeover: a node stopped mid-match has its room taken over, with every acknowledged move,
// and the match is finished on the other nodes without a doubled move.
func TestTakeover(t *testing.T) {
	t.Parallel()
	c := newCluster(t, false)
	n1, n2, n3 := c.nodes[0], c.nodes[1], c.nodes[2]
	r, err := n1.ch.Create("discon", nil, 2, alice)
	if err != nil {
		t.Fatal(err)
	}
	code := r.Code()
	sa, err := r.Join(alice, false)
	if err != nil {
		t.Fatal(err)
	}
	sb := join(t, n2, code, bob)
	snap := await(t, sa, "the match", playing(0))
	await(t, sb, "the match on n2", playing(0))
	snap = playMoves(t, []session.Sub{sa, sb}, snap, 5)
	acked := movesOf(snap)
	matchID, _ := n1.node.Store().ActiveMatch(code)

	killed := time.Now()
	n1.kill()
	var host *tnode
	eventually(t, "n2 or n3 hosts the room", func() error {
		if host = c.localHost(code, 1); host == nil {
			return errNotYet
		}
		return nil
	})
	t.Logf("room %s taken over by n%d %v after n1 stopped", code, host.i, time.Since(killed))
	if host != n2 && host != n3 {
		t.Fatalf("host n%d", host.i)
	}
	sa2 := join(t, n3, code, alice)
	sb2 := join(t, n2, code, bob)
	snap = await(t, sa2, "the restored match", playing(len(acked)))
	await(t, sb2, "the restored match on n2", playing(len(acked)))
	if got := movesOf(snap); !reflect.DeepEqual(got, acked) {
		t.Fatalf("restored moves %v, want %v", got, acked)
	}
	mark := time.Now()
	snap = playMoves(t, []session.Sub{sa2, sb2}, snap, 3)
	t.Logf("3 moves after the takeover took %v", time.Since(mark))
	all := movesOf(snap)
	// The replicas' ordered consumers lived on n1's server when it led the stream: they come
	// back only after their heartbeats are missed, and until then EndMatch waits in vain.
	mark = time.Now()
	catchUp(t, n2)
	catchUp(t, n3)
	t.Logf("replicas caught up %v after the last move (%v after n1 stopped)", time.Since(mark), time.Since(killed))
	if err := sa2.Resign(); err != nil {
		t.Fatal(err)
	}
	end := await(t, sb2, "the end", func(s rooms.Snapshot) bool { return s.Phase == rooms.Finished })
	if end.Result.MatchID != matchID {
		t.Errorf("match ID %q after the takeover, %q before", end.Result.MatchID, matchID)
	}
	for _, n := range []*tnode{n2, n3} {
		catchUp(t, n)
		m, err := n.node.Store().Match(matchID)
		if err != nil {
			t.Fatal(err)
		}
		if got := recordedMoves(m); !reflect.DeepEqual(got, all) {
			t.Errorf("n%d: recorded %v, want %v", n.i, got, all)
		}
	}
	cs := roomChanges(t, c.js(2), code)
	if got := streamMoves(cs); !reflect.DeepEqual(got, all) {
		t.Errorf("stream moves %v, want %v", got, all)
	}
	if p := plies(cs); len(p) != len(all) || !slices.IsSorted(p) || p[0] != 0 || p[len(p)-1] != len(all)-1 {
		t.Errorf("stream plies %v, want each once", p)
	}
}

// TestPartition: a node cut off from NATS tells its room, refuses moves, loses the room to the
// others and closes its copy when it is back; the match goes on with every acknowledged move.
func TestPartition(t *testing.T) {
	t.Parallel()
	c := newCluster(t, true)
	n1, n3 := c.nodes[0], c.nodes[2]
	code, sa, sb, snap := matchAcross(t, n3, n1)
	snap = playMoves(t, []session.Sub{sa, sb}, snap, 2)
	snap = playToSeat(t, []session.Sub{sa, sb}, snap, 0)
	acked := movesOf(snap)
	seat, mv := next(t, snap)
	if seat != 0 {
		t.Fatalf("seat %d to move, want alice's", seat)
	}

	cut := time.Now()
	n3.proxy.Cut()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	err := sa.Move(ctx, mv)
	cancel()
	t.Logf("alice's move during the cut: %v (after %v)", err, time.Since(cut))
	if !errors.Is(err, rooms.ErrNotSaved) {
		t.Fatalf("alice's move during the cut: %v, want ErrNotSaved", err)
	}
	await(t, sa, "the cut-off notice", func(s rooms.Snapshot) bool { return hasChat(s, CutOffNotice) })
	t.Logf("cut-off notice after %v", time.Since(cut))
	var host *tnode
	eventually(t, "n1 or n2 hosts the room", func() error {
		if host = c.localHost(code, 3); host == nil {
			return errNotYet
		}
		return nil
	})
	t.Logf("room taken over by n%d %v after the cut", host.i, time.Since(cut))

	healed := time.Now()
	n3.proxy.Heal()
	closed := await(t, sa, "n3's copy closed", func(s rooms.Snapshot) bool { return s.Phase == rooms.Closed })
	t.Logf("n3's copy closed %v after the heal: notice %q; back notice shown: %v", time.Since(healed),
		closed.Notice, hasChat(closed, BackNotice))
	if !strings.Contains(closed.Notice, "moved to another server") {
		t.Errorf("closing notice %q, want the moved notice", closed.Notice)
	}
	if len(closed.Moves) != len(acked) {
		t.Errorf("n3's copy closed with %d moves, want %d", len(closed.Moves), len(acked))
	}
	// The refused move is not on the stream (once node 3 has flushed what it buffered).
	eventually(t, "n3 reconnected", func() error {
		if !n3.nc.IsConnected() {
			return errNotYet
		}
		return n3.nc.Flush()
	})
	if got := streamMoves(roomChanges(t, c.js(2), code)); !reflect.DeepEqual(got, acked) {
		t.Fatalf("stream moves after the cut %v, want %v", got, acked)
	}

	sa2 := join(t, n3, code, alice)
	if _, local := n3.hub.Room(code); local {
		t.Error("n3 holds the room locally again")
	}
	sb2 := join(t, n1, code, bob)
	snap = await(t, sa2, "the match again", playing(len(acked)))
	await(t, sb2, "the match again for bob", playing(len(acked)))
	snap = playMoves(t, []session.Sub{sa2, sb2}, snap, 2)
	all := movesOf(snap)
	if got := streamMoves(roomChanges(t, c.js(2), code)); !reflect.DeepEqual(got, all) {
		t.Errorf("stream moves %v, want %v", got, all)
	}
	eventually(t, "n3 creates a room again", func() error {
		_, err := n3.ch.Create("discon", nil, 2, alice)
		return err
	})
}

// TestDuplicatePublish: a room change published twice with the same expected sequence and
// message ID, as store.go does on a retry, is stored once.
func TestDuplicatePublish(t *testing.T) {
	t.Parallel()
	c := newCluster(t, false)
	js := c.js(1)
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	const code = "DUPE2"
	data, _ := json.Marshal(storage.Change{Kind: storage.ChangeSeats, Code: code})
	var seqs []uint64
	for range 2 {
		ack, err := js.Publish(ctx, subjectRoomLog+code, data,
			jetstream.WithExpectLastSequencePerSubject(0), jetstream.WithMsgID(code+"-0"))
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, ack.Sequence)
	}
	if seqs[0] != seqs[1] {
		t.Errorf("sequences %v, want one", seqs)
	}
	if cs := roomChanges(t, js, code); len(cs) != 1 {
		t.Errorf("%d changes stored, want 1", len(cs))
	}
}

// TestFenceRefusesOldHost: after another node fenced a room (its first write once it took the
// room over), the node that kept the room before is refused at its next write (ErrMoved), and
// its change is not stored. The old node's publish expects the sequence the fence expected too.
func TestFenceRefusesOldHost(t *testing.T) {
	t.Parallel()
	c := newCluster(t, false)
	a, b := c.nodes[0].node.Store(), c.nodes[1].node.Store()
	const code = "FENCE"
	seats := []record.Seat{{PlayerID: alice.ID, Name: alice.Name}, {PlayerID: bob.ID, Name: bob.Name}}
	a.acquire(code, 1) // as a node that reserved the code
	if _, err := a.StartMatch(record.Match{Code: code, Game: "discon", Seats: seats, Seed: testSeed,
		Started: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	if err := a.AppendMove(code, 0, record.Move{Seat: 0, Move: "m0"}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.storeFence(code, 2); err != nil {
		t.Fatalf("fence: %v", err)
	}
	err := a.AppendMove(code, 1, record.Move{Seat: 1, Move: "m1"})
	cs := roomChanges(t, c.js(1), code)
	var kinds []string
	for _, ch := range cs {
		kinds = append(kinds, string(ch.Kind))
	}
	t.Logf("old host's write after the fence: %v; stream: %v", err, kinds)
	if !slices.Equal(kinds, []string{"start", "move", "fence"}) {
		t.Errorf("the room's changes: %v, want start, move, fence", kinds)
	}
	if !errors.Is(err, ErrMoved) {
		t.Errorf("old host's move after the fence: %v, want ErrMoved", err)
	}
	if p := plies(cs); !slices.Equal(p, []int{0}) {
		t.Errorf("moves on the stream: plies %v, want [0]", p)
	}
}
