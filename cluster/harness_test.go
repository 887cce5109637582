package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/arcade/arcade/cluster/clustertest"
	"github.com/arcade/arcade/cluster/natsd"
	"github.com/arcade/arcade/cluster/remote"
	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/matchlog"
	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session"
	"github.com/arcade/arcade/storage"
)

// patience bounds every wait; it guards against hanging and measures nothing.
const patience = time.Minute

// testSeed is every match's seed, so that a test can replay a room's moves on an engine.
const testSeed = 7

// The nodes' beat and TTL are the product's defaults: a shorter TTL made a node of a busy machine
// (the suite's tests run side by side) look gone, and its rooms were taken over in tests about
// something else. The tests run side by side, so the takeovers' waits overlap.
const (
	testBeat    = time.Second
	testTTL     = 5 * time.Second
	testTimeout = 2 * time.Second
)

var (
	alice = rooms.Player{ID: "SHA256:alice", Name: "alice"}
	bob   = rooms.Player{ID: "SHA256:bob", Name: "bob"}
)

// tnode is one node of a test cluster: its NATS server, its connection (through a proxy for a
// partitionable node), its replica, the node and its hubs.
type tnode struct {
	i     int
	ns    *natsd.Server
	nc    *nats.Conn
	proxy *clustertest.Proxy // nil unless the node is partitionable
	db    *storage.DB
	node  *Node
	hub   *rooms.Hub
	ch    *Hub

	mu   sync.Mutex
	logs []string
	dead bool
}

func (n *tnode) logf(format string, args ...any) {
	n.mu.Lock()
	n.logs = append(n.logs, fmt.Sprintf(format, args...))
	n.mu.Unlock()
}

// kill stops the node as abruptly as the process allows: no hub shutdown, the node closed, its
// connection closed and its NATS server gone.
func (n *tnode) kill() {
	n.mu.Lock()
	n.dead = true
	n.mu.Unlock()
	n.node.Close()
	n.nc.Close()
	n.ns.Shutdown()
}

type tcluster struct {
	t     *testing.T
	nodes []*tnode
}

// newCluster starts 3 NATS servers forming a cluster and a node on each; node 3's connection
// goes through a proxy (tnode.proxy) when partitionable.
func newCluster(t *testing.T, partitionable bool) *tcluster {
	t.Helper()
	began := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 2*patience)
	defer cancel()
	c := &tcluster{t: t, nodes: make([]*tnode, 3)}
	secret := clusterSecret(t) // made once, shared by every server and node, as an operator copies it
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for try := 1; ; try++ { // a port free a moment ago may be taken by now: pick others
		ports := clustertest.FreePorts(t, 3)
		routes := make([]string, 3)
		for i, p := range ports {
			routes[i] = fmt.Sprintf("127.0.0.1:%d", p)
		}
		for i := range 3 {
			c.nodes[i] = &tnode{i: i + 1}
			dir := t.TempDir()
			wg.Go(func() {
				others := slices.Concat(routes[:i], routes[i+1:])
				c.nodes[i].ns, errs[i] = natsd.Start(natsd.Config{Name: fmt.Sprintf("n%d", i+1),
					Listen: "127.0.0.1:0", Cluster: routes[i], Routes: others, StoreDir: dir, Secret: secret})
			})
		}
		wg.Wait()
		failed := slices.ContainsFunc(errs, func(err error) bool { return err != nil })
		if !failed {
			break
		}
		for i, n := range c.nodes {
			if errs[i] == nil {
				n.ns.Shutdown()
			}
		}
		if try == 3 {
			t.Fatalf("start NATS: %v", errors.Join(errs...))
		}
		clear(errs)
	}
	for _, n := range c.nodes {
		t.Cleanup(n.ns.Shutdown)
	}
	for _, n := range c.nodes {
		url := n.ns.ClientURL()
		if partitionable && n.i == 3 {
			n.proxy = clustertest.NewProxy(t, strings.TrimPrefix(url, "nats://"))
			url = "nats://" + n.proxy.Addr()
		}
		var err error
		n.nc, err = nats.Connect(url, nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond),
			nats.IgnoreDiscoveredServers(), nats.DontRandomize(), secret.ClientOption())
		if err != nil {
			t.Fatalf("connect n%d: %v", n.i, err)
		}
		t.Cleanup(n.nc.Close)
		if err := natsd.WaitJetStream(ctx, n.nc); err != nil {
			t.Fatalf("n%d: %v", n.i, err)
		}
		if n.db, err = storage.Open(filepath.Join(t.TempDir(), "replica.db"), storage.Options{}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.db.Close() })
	}
	for _, n := range c.nodes {
		wg.Go(func() {
			var err error
			n.node, err = Start(ctx, Config{Conn: n.nc, Name: fmt.Sprintf("n%d", n.i), Replicas: 3, DB: n.db,
				Beat: testBeat, TTL: testTTL, Timeout: testTimeout, Logf: n.logf})
			errs[n.i-1] = err
		})
	}
	wg.Wait()
	for i, n := range c.nodes {
		if errs[i] != nil {
			t.Fatalf("cluster.Start n%d: %v", n.i, errs[i])
		}
		t.Cleanup(n.node.Close)
	}
	for _, n := range c.nodes {
		n.hub = rooms.NewHub(rooms.Config{Games: games.Rules(), BotDelay: -1, MoveLimit: -1,
			ReserveCode: n.node.ReserveCode, Recorder: matchlog.Recorder{Log: n.node.Store()},
			NewSeed: func(string, int) uint64 { return testSeed }, Logf: n.logf})
		t.Cleanup(func() { n.hub.Shutdown("test over") }) // runs before the node's Close
		hub, online := n.hub, 10*(n.i)                    // node i says 10 i players are connected to it
		var err error
		n.ch, err = n.node.Serve(ServeConfig{Hub: n.hub, Online: func() int { return online },
			Restore: func(m record.Match) error { return matchlog.Resume(hub, m) },
			Remote:  remote.Options{Timeout: 2 * time.Second, PingTimeout: time.Second}})
		if err != nil {
			t.Fatalf("Serve n%d: %v", n.i, err)
		}
	}
	// A node takes over the rooms of a node whose beat it has not seen: wait until every node
	// has seen every other's beat, or a room created at once may be taken from its node.
	for _, n := range c.nodes {
		eventually(t, fmt.Sprintf("n%d sees every node beat", n.i), func() error {
			var all bool
			n.ch.s.do(func(st *dirState) {
				all = true
				for _, o := range c.nodes {
					all = all && st.alive[o.node.ID()]
				}
			})
			if !all {
				return errNotYet
			}
			return nil
		})
	}
	t.Cleanup(func() {
		if t.Failed() {
			for _, n := range c.nodes {
				n.mu.Lock()
				for _, l := range n.logs {
					t.Logf("n%d log: %s", n.i, l)
				}
				n.mu.Unlock()
			}
		}
	})
	t.Logf("cluster of 3 up in %v", time.Since(began))
	return c
}

// js returns a JetStream context on node i's connection.
func (c *tcluster) js(i int) jetstream.JetStream {
	js, err := jetstream.New(c.nodes[i-1].nc)
	if err != nil {
		c.t.Fatal(err)
	}
	return js
}

// eventually polls f until it returns nil, failing with its last error after patience.
func eventually(t *testing.T, what string, f func() error) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		err := f()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: still not so after %v: %v", what, patience, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// await reads s's snapshots until one satisfies ok.
func await(t *testing.T, s session.Sub, what string, ok func(rooms.Snapshot) bool) rooms.Snapshot {
	t.Helper()
	deadline := time.After(patience)
	var last rooms.Snapshot
	for {
		select {
		case snap, open := <-s.Updates():
			if !open {
				t.Fatalf("waiting for %s: the subscription ended (last snapshot: phase %v, notice %q, %d moves)",
					what, last.Phase, last.Notice, len(last.Moves))
			}
			last = snap
			if ok(snap) {
				return snap
			}
		case <-deadline:
			t.Fatalf("waiting for %s: not after %v (last snapshot: phase %v, notice %q, %d moves)",
				what, patience, last.Phase, last.Notice, len(last.Moves))
		}
	}
}

// playing: a snapshot of a match in progress with n moves.
func playing(n int) func(rooms.Snapshot) bool {
	return func(s rooms.Snapshot) bool { return s.Phase == rooms.Playing && len(s.Moves) == n }
}

// hasChat reports a chat line containing text.
func hasChat(s rooms.Snapshot, text string) bool {
	return slices.ContainsFunc(s.Chat, func(l rooms.ChatLine) bool { return strings.Contains(l.Text, text) })
}

// next returns the seat to move and its first legal move, by replaying snap's moves on an engine
// of the same seed.
func next(t *testing.T, snap rooms.Snapshot) (rules.Seat, string) {
	t.Helper()
	var g rules.Game
	for _, gg := range games.Rules() {
		if gg.ID == snap.GameID {
			g = gg
		}
	}
	e, err := g.New(maps.Clone(snap.Options), len(snap.Seats), testSeed)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range snap.Moves {
		if e, err = e.Apply(m.Seat, m.Move); err != nil {
			t.Fatalf("replay %v: %v", m, err)
		}
	}
	seat := e.ToMove()[0]
	return seat, e.Legal(seat)[0]
}

// played is a move as the tests compare them.
type played struct {
	Seat rules.Seat
	Move string
}

func movesOf(s rooms.Snapshot) []played {
	var out []played
	for _, m := range s.Moves {
		out = append(out, played{m.Seat, m.Move})
	}
	return out
}

func recordedMoves(m record.Match) []played {
	var out []played
	for _, mv := range m.Moves {
		out = append(out, played{mv.Seat, mv.Move})
	}
	return out
}

// playMoves plays n moves, each by the seat to move through its sub (subs by seat), waiting for
// every sub to see it; it returns the snapshot after the last.
func playMoves(t *testing.T, subs []session.Sub, snap rooms.Snapshot, n int) rooms.Snapshot {
	t.Helper()
	for range n {
		seat, mv := next(t, snap)
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		err := subs[seat].Move(ctx, mv)
		cancel()
		if err != nil {
			t.Fatalf("seat %d plays %q after %d moves: %v", seat, mv, len(snap.Moves), err)
		}
		want := len(snap.Moves) + 1
		for _, s := range subs {
			snap = await(t, s, fmt.Sprintf("move %d", want), func(s rooms.Snapshot) bool { return len(s.Moves) >= want })
		}
	}
	return snap
}

// roomChanges reads the changes on the room's subject of the stream.
func roomChanges(t *testing.T, js jetstream.JetStream, code string) []storage.Change {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	st, err := js.Stream(ctx, streamName)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx, jetstream.WithSubjectFilter(subjectRoomLog+code))
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Subjects[subjectRoomLog+code] == 0 {
		return nil
	}
	var out []storage.Change
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq; seq++ {
		m, err := st.GetMsg(ctx, seq)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue
		}
		if err != nil {
			t.Fatalf("read change %d: %v", seq, err)
		}
		if m.Subject != subjectRoomLog+code {
			continue
		}
		var c storage.Change
		if err := json.Unmarshal(m.Data, &c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// streamMoves returns the moves of the room's subject since its last start, takebacks applied.
func streamMoves(cs []storage.Change) []played {
	var out []played
	for _, c := range cs {
		switch c.Kind {
		case storage.ChangeStart:
			out = nil
		case storage.ChangeMove:
			out = append(out, played{c.Move.Seat, c.Move.Move})
		case storage.ChangeTakeback:
			out = out[:min(c.Ply, len(out))]
		}
	}
	return out
}

// plies returns the ply of every move change of the subject, in order.
func plies(cs []storage.Change) []int {
	var out []int
	for _, c := range cs {
		if c.Kind == storage.ChangeMove {
			out = append(out, c.Ply)
		}
	}
	return out
}

// catchUp waits until node n's replica has the whole stream.
func catchUp(t *testing.T, n *tnode) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	if err := n.node.CatchUp(ctx); err != nil {
		t.Fatalf("n%d catch up: %v", n.i, err)
	}
}

// findRoom finds code through n's cluster hub, retrying while the room is moving.
func findRoom(t *testing.T, n *tnode, code string, p rooms.Player) session.Room {
	t.Helper()
	var r session.Room
	eventually(t, fmt.Sprintf("n%d finds room %s", n.i, code), func() error {
		var err error
		r, err = n.ch.Find(code, p)
		return err
	})
	return r
}

// join joins p to the room of code through n, retrying while the room is moving or not yet
// served; it leaves at the end of the test.
// matchAcross opens a DISCON room on host with alice seated there, seats bob through other, and
// returns the room's code, their subscriptions and the first snapshot of the match.
func matchAcross(t *testing.T, host, other *tnode) (code string, sa, sb session.Sub, snap rooms.Snapshot) {
	t.Helper()
	r, err := host.ch.Create("discon", nil, 2, alice)
	if err != nil {
		t.Fatal(err)
	}
	code = r.Code()
	if sa, err = r.Join(alice, false); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sa.Leave)
	sb = join(t, other, code, bob)
	snap = await(t, sa, "the match", playing(0))
	await(t, sb, fmt.Sprintf("the match on n%d", other.i), playing(0))
	return code, sa, sb, snap
}

// playToSeat plays moves through subs until it is seat's turn, and returns the last snapshot.
func playToSeat(t *testing.T, subs []session.Sub, snap rooms.Snapshot, seat rules.Seat) rooms.Snapshot {
	t.Helper()
	for s, _ := next(t, snap); s != seat; s, _ = next(t, snap) {
		snap = playMoves(t, subs, snap, 1)
	}
	return snap
}

func join(t *testing.T, n *tnode, code string, p rooms.Player) session.Sub {
	t.Helper()
	var s session.Sub
	// Find counts an unknown code against the player: wait until the node's directory has it.
	eventually(t, fmt.Sprintf("n%d's directory has %s", n.i, code), func() error {
		var ok bool
		n.ch.s.do(func(st *dirState) { _, ok = st.cache[code] })
		if !ok {
			return errNotYet
		}
		return nil
	})
	eventually(t, fmt.Sprintf("%s joins %s through n%d", p.Name, code, n.i), func() error {
		r, err := n.ch.Find(code, p)
		if err != nil {
			return err
		}
		s, err = r.Join(p, false)
		return err
	})
	t.Cleanup(s.Leave)
	return s
}

// localHost returns the live node whose hub holds code locally, nil when none.
func (c *tcluster) localHost(code string, skip ...int) *tnode {
	for _, n := range c.nodes {
		if slices.Contains(skip, n.i) {
			continue
		}
		if r, ok := n.hub.Room(code); ok {
			select {
			case <-r.Done():
				continue
			default:
				return n
			}
		}
	}
	return nil
}

var errNotYet = errors.New("not yet")
