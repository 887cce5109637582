package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/arcade/arcade/cluster/natsd"
	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session"
	"github.com/arcade/arcade/storage"
)

// clusterSecret makes the secret of a test cluster once, in a data folder of the test, as the
// first node of a cluster does; every server and node of the cluster is given that one.
func clusterSecret(t *testing.T) *natsd.Secret {
	t.Helper()
	s, err := natsd.CreateSecret(filepath.Join(t.TempDir(), natsd.SecretFile))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// playSome starts a match in room code on n1 and stores moves moves: every change acknowledged.
func playSome(t *testing.T, c *tcluster, code string, moves int) {
	t.Helper()
	st := c.nodes[0].node.Store()
	st.acquire(code, 1) // as a node that reserved the code
	seats := []record.Seat{{PlayerID: alice.ID, Name: alice.Name}, {PlayerID: bob.ID, Name: bob.Name}}
	if _, err := st.StartMatch(record.Match{Code: code, Game: "discon", Seats: seats, Seed: testSeed,
		Started: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	for ply := range moves {
		if err := st.AppendMove(code, ply, record.Move{Seat: rules.Seat(ply % 2), Move: fmt.Sprintf("m%d", ply)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Claim(alice.ID, alice.Name); err != nil {
		t.Fatal(err)
	}
	for _, n := range c.nodes {
		catchUp(t, n)
	}
}

// keptMoves returns the moves of the room's unfinished match in n's replica.
func keptMoves(t *testing.T, n *tnode, code string) []string {
	t.Helper()
	id, ok := n.db.ActiveMatch(code)
	if !ok {
		t.Fatalf("n%d's replica has no match in room %s", n.i, code)
	}
	m, err := n.db.Match(id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, mv := range m.Moves {
		out = append(out, mv.Move)
	}
	return out
}

// awaitStopped waits until every node's replica has stopped with ErrStreamGone and said so in
// its log.
func awaitStopped(t *testing.T, c *tcluster) {
	t.Helper()
	for _, n := range c.nodes {
		eventually(t, fmt.Sprintf("n%d stops following the stream", n.i), func() error {
			if err := n.node.rep.stopped(); !errors.Is(err, ErrStreamGone) {
				return fmt.Errorf("replica: %v", err)
			}
			n.mu.Lock()
			defer n.mu.Unlock()
			if !slices.ContainsFunc(n.logs, func(l string) bool {
				return strings.Contains(l, "the cluster's stream ARCADE is gone or was recreated")
			}) {
				return errors.New("no log line says the stream is gone")
			}
			return nil
		})
	}
}

// TestStreamDeleted: the stream deleted under a running cluster stops every node's writes with a
// clear error; each replica keeps every change acknowledged before; a node started again on its
// replica refuses to make the stream again, and refuses a stream made anew by someone else.
func TestStreamDeleted(t *testing.T) {
	t.Parallel()
	c := newCluster(t, false)
	const code = "GONE1"
	playSome(t, c, code, 4)
	want := []string{"m0", "m1", "m2", "m3"}
	applied := c.nodes[0].db.Applied()

	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	if err := c.js(2).DeleteStream(ctx, streamName); err != nil {
		t.Fatal(err)
	}
	awaitStopped(t, c)
	err := c.nodes[0].node.Store().AppendMove(code, 4, record.Move{Seat: 0, Move: "m4"})
	t.Logf("a move after the stream was deleted: %v", err)
	if !errors.Is(err, ErrStreamGone) || !errors.Is(err, rooms.ErrStorageDown) {
		t.Errorf("a move after the stream was deleted: %v, want ErrStreamGone and rooms.ErrStorageDown", err)
	}
	if err := c.nodes[1].node.Store().Claim(bob.ID, bob.Name); !errors.Is(err, ErrStreamGone) {
		t.Errorf("a name claim after the stream was deleted: %v, want ErrStreamGone", err)
	}
	for _, n := range c.nodes {
		if got := keptMoves(t, n, code); !slices.Equal(got, want) {
			t.Errorf("n%d's replica keeps moves %v, want %v", n.i, got, want)
		}
		if n.db.Applied() != applied {
			t.Errorf("n%d's replica at change %d, want %d", n.i, n.db.Applied(), applied)
		}
	}

	// Started again on its replica, a node does not make the stream.
	n1 := c.nodes[0]
	n1.node.Close()
	restart := func() error {
		node, err := Start(ctx, Config{Conn: n1.nc, Name: "n1", Replicas: 3, DB: n1.db,
			Beat: testBeat, TTL: testTTL, Timeout: testTimeout, Logf: n1.logf})
		if err == nil {
			node.Close()
		}
		return err
	}
	err = restart()
	t.Logf("restart with the stream missing: %v", err)
	if !errors.Is(err, ErrStreamGone) || !strings.Contains(err.Error(), "missing") {
		t.Errorf("restart with the stream missing: %v, want ErrStreamGone saying it is missing", err)
	}
	if _, err := c.js(2).Stream(ctx, streamName); !errors.Is(err, jetstream.ErrStreamNotFound) {
		t.Fatalf("after the refused restart, the stream: %v, want it still missing", err)
	}
	// Someone makes an empty stream of the same name: still refused.
	if _, err := c.js(2).CreateStream(ctx, jetstream.StreamConfig{Name: streamName, Subjects: []string{subjectLog},
		Replicas: 3}); err != nil {
		t.Fatal(err)
	}
	err = restart()
	t.Logf("restart with a stream made anew: %v", err)
	if !errors.Is(err, ErrStreamGone) {
		t.Errorf("restart with a stream made anew: %v, want ErrStreamGone", err)
	}
	// ... and fills it with more changes than the replica had: still another history.
	forged, _ := json.Marshal(storage.Change{Kind: storage.ChangeBell, PlayerID: alice.ID, Bell: false})
	for range applied + 2 {
		if _, err := c.js(2).Publish(ctx, subjectPlayers, forged); err != nil {
			t.Fatal(err)
		}
	}
	err = restart()
	t.Logf("restart with a stream made anew and longer than the replica: %v", err)
	if !errors.Is(err, ErrStreamGone) || !strings.Contains(err.Error(), "was made at") {
		t.Errorf("restart with a stream made anew and longer than the replica: %v, want ErrStreamGone saying when it was made", err)
	}
	if n1.db.Applied() != applied || !n1.db.Bell(alice.ID) {
		t.Errorf("the refused restart applied the new stream: replica at change %d (want %d), alice's bell off", n1.db.Applied(), applied)
	}
}

// TestStreamRecreated: the stream deleted and made again at once, with a change on it, under a
// running cluster: no node applies a change of the new stream (its consumer would carry on from
// the sequence it had reached), nor restores the snapshot of the old one, and every node stops.
func TestStreamRecreated(t *testing.T) {
	t.Parallel()
	c := newCluster(t, false)
	const code = "GONE2"
	playSome(t, c, code, 2)
	applied := c.nodes[0].db.Applied()

	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	if _, err := c.nodes[0].node.Snapshot(ctx); err != nil {
		t.Fatal(err)
	}
	js := c.js(3)
	if err := js.DeleteStream(ctx, streamName); err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: streamName, Subjects: []string{subjectLog},
		Replicas: 3}); err != nil {
		t.Fatal(err)
	}
	// More changes than the replicas had: a consumer that carried on would deliver the last.
	forged, _ := json.Marshal(storage.Change{Kind: storage.ChangeSeats, Code: code,
		Seats: []record.Seat{{PlayerID: "SHA256:mallory", Name: "mallory"}, {PlayerID: bob.ID, Name: bob.Name}}})
	for range applied + 2 {
		if _, err := js.Publish(ctx, subjectRoomLog+code, forged); err != nil {
			t.Fatal(err)
		}
	}
	awaitStopped(t, c)
	for _, n := range c.nodes {
		if n.db.Applied() != applied {
			t.Errorf("n%d's replica at change %d, want %d: it applied the new stream", n.i, n.db.Applied(), applied)
		}
		id, _ := n.db.ActiveMatch(code)
		m, err := n.db.Match(id)
		if err != nil {
			t.Fatal(err)
		}
		if m.Seats[0].PlayerID != alice.ID {
			t.Errorf("n%d's replica seats %v, want alice first", n.i, m.Seats)
		}
	}
}

// TestStreamDeletedRoom: the stream deleted under a match played across two nodes: the next move,
// by the host's player or by the remote one, is refused with the message that moves cannot be
// saved, and every replica keeps the moves acknowledged before, and no other.
func TestStreamDeletedRoom(t *testing.T) {
	t.Parallel()
	c := newCluster(t, false)
	n1, n2 := c.nodes[0], c.nodes[1]
	code, sa, sb, snap := matchAcross(t, n1, n2)
	subs := []session.Sub{sa, sb}
	snap = playMoves(t, subs, snap, 3)
	acked := movesOf(snap)
	for _, n := range c.nodes {
		catchUp(t, n)
	}

	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	if err := c.js(3).DeleteStream(ctx, streamName); err != nil {
		t.Fatal(err)
	}
	awaitStopped(t, c)
	seat, mv := next(t, snap)
	err := subs[seat].Move(ctx, mv)
	t.Logf("seat %d's move after the stream was deleted: %v", seat, err)
	if err == nil || !strings.Contains(err.Error(), "cannot save moves") {
		t.Errorf("seat %d's move after the stream was deleted: %v, want the server to say it cannot save moves", seat, err)
	}
	for _, n := range c.nodes {
		id, ok := n.db.ActiveMatch(code)
		if !ok {
			t.Fatalf("n%d's replica has no match in room %s", n.i, code)
		}
		m, err := n.db.Match(id)
		if err != nil {
			t.Fatal(err)
		}
		if got := recordedMoves(m); !slices.Equal(got, acked) {
			t.Errorf("n%d's replica keeps %v, want %v", n.i, got, acked)
		}
	}
}
