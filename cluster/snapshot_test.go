package cluster

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session"
	"github.com/arcade/arcade/storage"
)

// storeMatch stores a match of room code through n's store, as its host would: its start, moves
// moves and, when end, its end (alice first); it returns the match's ID.
func storeMatch(t *testing.T, n *tnode, code string, moves int, end bool) string {
	t.Helper()
	st := n.node.Store()
	st.acquire(code, 1) // as a node that reserved the code
	seats := []record.Seat{{PlayerID: alice.ID, Name: alice.Name}, {PlayerID: bob.ID, Name: bob.Name}}
	id, err := st.StartMatch(record.Match{Code: code, Game: "discon", Seats: seats, Seed: testSeed,
		Started: time.Now().UTC()})
	if err != nil {
		t.Fatal(err)
	}
	storeMoves(t, n, code, 0, moves)
	if end {
		if err := st.EndMatch(code, rules.Outcome{Over: true, Scores: []int{2, 1}, Ranks: []int{1, 2}}, false); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

// storeMoves stores moves from to to (excluded) of room code's match through n's store.
func storeMoves(t *testing.T, n *tnode, code string, from, to int) {
	t.Helper()
	for ply := from; ply < to; ply++ {
		if err := n.node.Store().AppendMove(code, ply, record.Move{Seat: rules.Seat(ply % 2), Move: fmt.Sprintf("m%d", ply)}); err != nil {
			t.Fatal(err)
		}
	}
}

// claimBoth binds alice's and bob's names through n's store.
func claimBoth(t *testing.T, n *tnode) {
	t.Helper()
	for _, p := range []struct{ id, name string }{{alice.ID, alice.Name}, {bob.ID, bob.Name}} {
		if err := n.node.Store().Claim(p.id, p.name); err != nil {
			t.Fatal(err)
		}
	}
}

// replicaView is what a replica shows of the tests' history: what sessions read.
type replicaView struct {
	Applied  uint64
	Board    []record.Standing
	Alice    record.Profile
	Bob      record.Profile
	Matches  map[string]record.Match
	Unfinish map[string]string
}

func viewOf(t *testing.T, db *storage.DB, ids []string, codes []string) replicaView {
	t.Helper()
	v := replicaView{Applied: db.Applied(), Matches: map[string]record.Match{}, Unfinish: map[string]string{}}
	var err error
	if v.Board, err = db.Leaderboard("discon", 0); err != nil {
		t.Fatal(err)
	}
	if v.Alice, err = db.Profile(alice.ID, 10); err != nil {
		t.Fatal(err)
	}
	if v.Bob, err = db.Profile(bob.ID, 10); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if v.Matches[id], err = db.Match(id); err != nil {
			t.Fatalf("match %s: %v", id, err)
		}
	}
	for _, code := range codes {
		v.Unfinish[code], _ = db.ActiveMatch(code)
	}
	return v
}

// sameReplica fails the test unless got shows what want shows, the matches ids and the rooms
// codes included, and want has a rated match on its leaderboard.
func sameReplica(t *testing.T, what string, want, got *storage.DB, ids, codes []string) {
	t.Helper()
	w, g := viewOf(t, want, ids, codes), viewOf(t, got, ids, codes)
	if len(w.Board) == 0 {
		t.Fatal("the leaderboard is empty: the test proves nothing")
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s shows\n%+v\nwant\n%+v", what, g, w)
	}
}

// subjectCounts returns the number of changes on each subject of the stream, and its state.
func subjectCounts(t *testing.T, js jetstream.JetStream) (map[string]uint64, jetstream.StreamState) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	st, err := js.Stream(ctx, streamName)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx, jetstream.WithSubjectFilter(subjectLog))
	if err != nil {
		t.Fatal(err)
	}
	return info.State.Subjects, info.State
}

// takeSnapshot takes a snapshot on n, with a window of one change, and fails the test unless it
// trimmed the stream.
func takeSnapshot(t *testing.T, n *tnode) uint64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	catchUp(t, n)
	n.node.cfg.retain = 1
	seq, err := n.node.Snapshot(ctx)
	if err != nil {
		t.Fatalf("n%d's snapshot: %v", n.i, err)
	}
	if seq == 0 {
		t.Fatalf("n%d's snapshot: none taken", n.i)
	}
	return seq
}

// TestJoinTrimmedStream: after a snapshot, the stream no longer holds the changes behind it: the
// closed room's subject is gone, the open room keeps its last change; a new node then joins from
// the snapshot and the stream after it, and its replica shows what the others show.
func TestJoinTrimmedStream(t *testing.T) {
	t.Parallel()
	c := newCluster(t, false)
	n1 := c.nodes[0]
	claimBoth(t, n1)
	ended := storeMatch(t, n1, "SNAPA", 6, true)
	open := storeMatch(t, n1, "SNAPB", 3, false)
	seq := takeSnapshot(t, n1)

	counts, state := subjectCounts(t, c.js(2))
	if n := counts[subjectRoomLog+"SNAPA"]; n != 0 {
		t.Errorf("the closed room's subject holds %d changes after the snapshot, want none", n)
	}
	if n := counts[subjectRoomLog+"SNAPB"]; n != 1 {
		t.Errorf("the open room's subject holds %d changes after the snapshot, want its last", n)
	}
	if state.FirstSeq <= 1 || state.Msgs >= seq {
		t.Errorf("after a snapshot at change %d the stream holds %d changes from %d: not trimmed", seq, state.Msgs, state.FirstSeq)
	}

	// The stream goes on after the snapshot.
	storeMoves(t, n1, "SNAPB", 3, 6)
	later := storeMatch(t, n1, "SNAPC", 2, true)

	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	n4 := &tnode{i: 4, nc: n1.nc}
	var err error
	if n4.db, err = storage.Open(filepath.Join(t.TempDir(), "replica.db"), storage.Options{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n4.db.Close() })
	n4.node, err = Start(ctx, Config{Conn: n1.nc, Name: "n4", Replicas: 3, DB: n4.db, Beat: testBeat, TTL: testTTL,
		Timeout: testTimeout, Logf: n4.logf})
	if err != nil {
		t.Fatalf("a new node on the trimmed stream: %v", err)
	}
	t.Cleanup(n4.node.Close)
	if n4.logged("restored the replica from snapshot") == "" {
		t.Errorf("the new node did not start from the snapshot; its log: %q", n4.logs)
	}
	for _, n := range append(c.nodes, n4) {
		catchUp(t, n)
	}
	for _, n := range c.nodes[1:] {
		sameReplica(t, fmt.Sprintf("n%d", n.i), n1.db, n.db, []string{ended, open, later}, []string{"SNAPA", "SNAPB", "SNAPC"})
	}
	sameReplica(t, "the new node", n1.db, n4.db, []string{ended, open, later}, []string{"SNAPA", "SNAPB", "SNAPC"})
	if got := keptMoves(t, n4, "SNAPB"); len(got) != 6 {
		t.Errorf("the new node keeps moves %v of the open room, want 6", got)
	}
}

// TestRestartPastTrim: a node down while the cluster goes on and the stream is trimmed behind a
// snapshot restores the snapshot when it starts again, instead of skipping the changes it lacks,
// and shows what the others show; once the stream is trimmed past what any snapshot holds, it
// refuses to start.
func TestRestartPastTrim(t *testing.T) {
	t.Parallel()
	c := newCluster(t, false)
	n1, n3 := c.nodes[0], c.nodes[2]
	claimBoth(t, n1)
	open := storeMatch(t, n1, "SNAPD", 4, false)
	catchUp(t, n3)
	n3.node.Close()
	down := n3.db.Applied()

	storeMoves(t, n1, "SNAPD", 4, 8)
	ended := storeMatch(t, n1, "SNAPE", 3, true)
	takeSnapshot(t, n1)
	storeMoves(t, n1, "SNAPD", 8, 9)

	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	st, err := c.js(1).Stream(ctx, streamName)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetMsg(ctx, down+1); !errors.Is(err, jetstream.ErrMsgNotFound) {
		t.Fatalf("change %d, the first the stopped node lacks: %v, want it trimmed", down+1, err)
	}
	start := func() (*Node, error) {
		return Start(ctx, Config{Conn: n3.nc, Name: "n3", Replicas: 3, DB: n3.db, Beat: testBeat, TTL: testTTL,
			Timeout: testTimeout, Logf: n3.logf})
	}
	node, err := start()
	if err != nil {
		t.Fatalf("n3 started again past the trim: %v", err)
	}
	if n3.logged("restored the replica from snapshot") == "" {
		t.Errorf("n3 did not restore the snapshot; its log: %q", n3.logs)
	}
	if err := node.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	catchUp(t, n1)
	sameReplica(t, "n3 started again", n1.db, n3.db, []string{open, ended}, []string{"SNAPD", "SNAPE"})
	node.Close()

	// The stream trimmed by hand past every snapshot: n3, stopped meanwhile, lacks changes that
	// neither holds.
	storeMoves(t, n1, "SNAPD", 9, 11)
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Purge(ctx, jetstream.WithPurgeSequence(info.State.LastSeq)); err != nil {
		t.Fatal(err)
	}
	_, err = start()
	t.Logf("n3 started on a stream trimmed past every snapshot: %v", err)
	if !errors.Is(err, ErrStreamGone) || !strings.Contains(err.Error(), "no snapshot") {
		t.Errorf("n3 started on a stream trimmed past every snapshot: %v, want ErrStreamGone saying no snapshot holds the changes", err)
	}
}

// TestTrimKeepsOpenRooms: a snapshot purges the subject of a closed room and keeps the last change
// of a room being played; the room's host then dies, another node takes the room over with every
// acknowledged move, and the match goes on there: the fence works on the trimmed subject.
func TestTrimKeepsOpenRooms(t *testing.T) {
	t.Parallel()
	c := newCluster(t, false)
	n1, n2, n3 := c.nodes[0], c.nodes[1], c.nodes[2]
	storeMatch(t, n3, "SHUT1", 2, true)
	code, sa, sb, snap := matchAcross(t, n1, n2)
	snap = playMoves(t, []session.Sub{sa, sb}, snap, 4)
	acked := movesOf(snap)
	for _, n := range c.nodes {
		catchUp(t, n)
	}
	takeSnapshot(t, n2)
	counts, _ := subjectCounts(t, c.js(3))
	if n := counts[subjectRoomLog+"SHUT1"]; n != 0 {
		t.Errorf("the closed room's subject holds %d changes after the snapshot, want none", n)
	}
	if n := counts[subjectRoomLog+code]; n != 1 {
		t.Errorf("the open room's subject holds %d changes after the snapshot, want its last", n)
	}

	n1.kill()
	eventually(t, "n2 or n3 hosts the room", func() error {
		if c.localHost(code, 1) == nil {
			return errNotYet
		}
		return nil
	})
	sa2 := join(t, n3, code, alice)
	sb2 := join(t, n2, code, bob)
	snap = await(t, sa2, "the match taken over", playing(len(acked)))
	if got := movesOf(snap); !reflect.DeepEqual(got, acked) {
		t.Fatalf("moves after the takeover %v, want %v", got, acked)
	}
	snap = playMoves(t, []session.Sub{sa2, sb2}, snap, 2)
	catchUp(t, n2)
	catchUp(t, n3)
	id, _ := n2.db.ActiveMatch(code)
	for _, n := range []*tnode{n2, n3} {
		m, err := n.db.Match(id)
		if err != nil {
			t.Fatal(err)
		}
		if got := recordedMoves(m); !reflect.DeepEqual(got, movesOf(snap)) {
			t.Errorf("n%d records %v, want %v", n.i, got, movesOf(snap))
		}
	}
}

// TestCutOffPastTrim: a running node cut off NATS while the stream is trimmed past its replica
// finds, once back, that the stream delivers a change after a gap: it restores the snapshot,
// without stopping or skipping, and shows what the others show.
func TestCutOffPastTrim(t *testing.T) {
	t.Parallel()
	c := newCluster(t, true)
	n1, n3 := c.nodes[0], c.nodes[2]
	claimBoth(t, n1)
	open := storeMatch(t, n1, "SNAPF", 2, false)
	catchUp(t, n3)
	n3.proxy.Cut()
	ended := storeMatch(t, n1, "SNAPG", 4, true)
	storeMoves(t, n1, "SNAPF", 2, 6)
	takeSnapshot(t, n1)
	storeMoves(t, n1, "SNAPF", 6, 7)
	n3.proxy.Heal()

	eventually(t, "n3 restores the snapshot", func() error {
		if err := n3.node.rep.stopped(); err != nil {
			t.Fatalf("n3's replica stopped: %v", err)
		}
		if n3.logged("restored the replica from snapshot") == "" {
			return errNotYet
		}
		return nil
	})
	catchUp(t, n3)
	catchUp(t, n1)
	sameReplica(t, "n3 back", n1.db, n3.db, []string{open, ended}, []string{"SNAPF", "SNAPG"})
}
