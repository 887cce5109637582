//go:build measure

package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/arcade/arcade/cluster/natsd"
	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/storage"
)

// TestMeasureHistory measures what 1,000,000 changes cost on disk: the stream's bytes, the
// replica's file, and both after a snapshot trimmed the stream (docs/architecture.md, "Several
// nodes"). The changes go straight into the stream of a one-server cluster, as fast as it takes
// them: 2,000 players claim names, then 1,000 rooms play at once, each match 40 moves and its end,
// a new room taking each finished one's place. Run by hand:
//
//	go test -tags measure -run TestMeasureHistory -v -timeout 1h ./cluster/
func TestMeasureHistory(t *testing.T) {
	const total, rooms, plies, players = 1_000_000, 1000, 40, 2000
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	secret, err := natsd.CreateSecret(filepath.Join(t.TempDir(), natsd.SecretFile))
	if err != nil {
		t.Fatal(err)
	}
	storeDir := t.TempDir()
	ns, err := natsd.Start(natsd.Config{Name: "m1", Listen: "127.0.0.1:0", StoreDir: storeDir, Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	defer ns.Shutdown()
	nc, err := nats.Connect(ns.ClientURL(), secret.ClientOption())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if err := natsd.WaitJetStream(ctx, nc); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(t.TempDir(), "replica.db")
	db, err := storage.Open(dbPath, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	node, err := Start(ctx, Config{Conn: nc, Name: "m1", Replicas: 1, DB: db, noSnapshots: true})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	js, err := jetstream.New(nc, jetstream.WithPublishAsyncMaxPending(8192))
	if err != nil {
		t.Fatal(err)
	}

	began := time.Now()
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	sent := 0
	send := func(subject string, c storage.Change) {
		data, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := js.PublishAsync(subject, data); err != nil {
			t.Fatal(err)
		}
		sent++
		if sent%4_000 == 0 {
			select {
			case <-js.PublishAsyncComplete():
			case <-ctx.Done():
				t.Fatal(ctx.Err())
			}
		}
	}
	id := func(i int) string { return fmt.Sprintf("SHA256:measure-player-%06d", i) }
	for i := range players {
		send(subjectPlayers, storage.Change{Kind: storage.ChangeClaim, PlayerID: id(i), Name: fmt.Sprintf("player%d", i), At: at})
	}
	type slot struct {
		code string
		ply  int
	}
	slots := make([]slot, rooms)
	made := 0
	open := func(s *slot) {
		s.code, s.ply = fmt.Sprintf("M%06d", made), 0
		a, b := id(made*2%players), id((made*2+1)%players)
		made++
		send(subjectRoomLog+s.code, storage.Change{Kind: storage.ChangeStart, Code: s.code, At: at, Match: &record.Match{
			Game: "discon", Seed: uint64(made), Started: at,
			Seats: []record.Seat{{PlayerID: a, Name: "a"}, {PlayerID: b, Name: "b"}}}})
	}
	for i := range slots {
		open(&slots[i])
	}
	for i := 0; sent < total; i = (i + 1) % rooms {
		s := &slots[i]
		at = at.Add(time.Millisecond)
		if s.ply == plies {
			send(subjectRoomLog+s.code, storage.Change{Kind: storage.ChangeEnd, Code: s.code, At: at,
				Outcome: rules.Outcome{Over: true, Scores: []int{30, 25}, Ranks: []int{1, 2}, Reason: "all turns played"}})
			open(s)
			continue
		}
		mv := record.Move{Seat: rules.Seat(s.ply % 2), Move: fmt.Sprintf("c%d h%d", s.ply%9, s.ply%7), At: at}
		send(subjectRoomLog+s.code, storage.Change{Kind: storage.ChangeMove, Code: s.code, Ply: s.ply, Move: &mv})
		s.ply++
	}
	<-js.PublishAsyncComplete()
	published := time.Since(began)
	if err := node.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	applied := time.Since(began)
	info, err := node.stream.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fileSize := func(p string) int64 {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	t.Logf("%d changes (%d matches begun, %d rooms open at the end) published in %v, applied by the replica in %v",
		sent, made, rooms, published.Round(time.Second), applied.Round(time.Second))
	t.Logf("before any snapshot: stream %d changes, %d bytes (%.0f a change); replica.db %d bytes (%.0f a change)",
		info.State.Msgs, info.State.Bytes, float64(info.State.Bytes)/float64(sent), fileSize(dbPath), float64(fileSize(dbPath))/float64(sent))

	mark := time.Now()
	seq, err := node.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(mark)
	info, err = node.stream.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	all, err := snapshots(ctx, node.snaps, node.made)
	if err != nil || len(all) == 0 {
		t.Fatalf("snapshots: %v, %v", all, err)
	}
	oi, err := node.snaps.GetInfo(ctx, all[0].name)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("snapshot at change %d: %d bytes, stored and the stream trimmed in %v", seq, oi.Size, took.Round(time.Millisecond))
	t.Logf("after it: stream %d changes, %d bytes, from change %d (window %d changes)", info.State.Msgs, info.State.Bytes,
		info.State.FirstSeq, retainWindow)

	// A new node joins from the snapshot.
	db2Path := filepath.Join(t.TempDir(), "replica.db")
	db2, err := storage.Open(db2Path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	mark = time.Now()
	node2, err := Start(ctx, Config{Conn: nc, Name: "m2", Replicas: 1, DB: db2, noSnapshots: true})
	if err != nil {
		t.Fatal(err)
	}
	defer node2.Close()
	t.Logf("a new node joined (snapshot restored, the stream after it applied) in %v; its replica.db %d bytes",
		time.Since(mark).Round(time.Millisecond), fileSize(db2Path))
	if db2.Applied() != db.Applied() {
		t.Errorf("the new node's replica at change %d, the first's at %d", db2.Applied(), db.Applied())
	}
}
