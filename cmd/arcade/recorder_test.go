package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/storage"
)

// TestStorageDown: a failed store's errors reach the rooms as ErrStorageDown, with the cause;
// other errors as they are.
func TestStorageDown(t *testing.T) {
	failed := fmt.Errorf("append move: %w: fdatasync: input/output error", storage.ErrFailed)
	if err := storageDown(failed); !errors.Is(err, rooms.ErrStorageDown) || !errors.Is(err, storage.ErrFailed) {
		t.Errorf("failed store: %v", err)
	}
	other := errors.New("no such match")
	if err := storageDown(other); err != other {
		t.Errorf("other error: %v", err)
	}
	if err := storageDown(nil); err != nil {
		t.Errorf("nil: %v", err)
	}
}

// TestRestartKeepsLastPlayed: the last move of a rated match is on disk but the server stops
// before the end is recorded; at the next start the restored room records the end. The match's
// end and both players' "last played" are the time of that last move, not of the restart.
func TestRestartKeepsLastPlayed(t *testing.T) {
	path := filepath.Join(t.TempDir(), dbFile)
	open := func() *storage.DB {
		db, err := storage.Open(path, storage.Options{LockTimeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
	db := open()
	rc := recorder{db}
	const code = "K7QXM"
	g, opts, seed := stonetowers.Game, rules.Options{"size": "8", "turns": "10"}, uint64(7)
	seats := []rooms.SeatInfo{{PlayerID: "SHA256:alice", Name: "alice"}, {PlayerID: "SHA256:bob", Name: "bob"}}
	event := func(e rooms.Event) {
		t.Helper()
		e.GameID, e.Match, e.Options, e.Seed, e.Seats = g.ID, 1, opts, seed, seats
		if err := rc.Record(code, e); err != nil {
			t.Fatal(err)
		}
	}
	event(rooms.Event{Kind: rooms.EventStart})
	eng, err := g.New(opts, len(seats), seed)
	if err != nil {
		t.Fatal(err)
	}
	for ply := 0; !eng.Outcome().Over; ply++ {
		seat := eng.ToMove()[0]
		move := eng.Legal(seat)[0]
		if eng, err = eng.Apply(seat, move); err != nil {
			t.Fatal(err)
		}
		event(rooms.Event{Kind: rooms.EventMove, Ply: ply, Seat: seat, Move: move, Outcome: eng.Outcome()})
	}
	played := time.Now().UTC()
	db.Close() // stopped before the end (EventEnd) was recorded

	for !time.Now().After(played) { // the restart comes strictly later than the match
		time.Sleep(time.Millisecond)
	}
	restart := time.Now().UTC()
	db = open()
	defer db.Close()
	hub := rooms.NewHub(rooms.Config{Games: games.Rules(), Recorder: recorder{db}, SeatGrace: -1, BotDelay: -1, Logf: t.Logf})
	defer hub.Shutdown("test over")
	if n, err := resume(db, hub, t.Logf, t.Logf); err != nil || n != 1 {
		t.Fatalf("resume = %d, %v; want the one match", n, err)
	}

	board, err := db.Leaderboard(g.ID, 0)
	if err != nil || len(board) != 2 {
		t.Fatalf("leaderboard = %+v, %v; want both players", board, err)
	}
	for _, st := range board {
		if st.Games != 1 || st.Last.IsZero() || !st.Last.Before(restart) || st.Last.After(played) {
			t.Errorf("%s: %d games, last played %v; want 1, at the last move (before %v), not at the restart (%v)",
				st.Name, st.Games, st.Last, played, restart)
		}
	}
	prof, err := db.Profile("SHA256:alice", 1)
	if err != nil || len(prof.Recent) != 1 {
		t.Fatalf("profile = %+v, %v", prof, err)
	}
	m, err := db.Match(prof.Recent[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if last := m.Moves[len(m.Moves)-1].At; !m.Ended.Equal(last) || !m.Rated || !board[0].Last.Equal(last) {
		t.Errorf("match ended %v (rated %v), last move at %v, last played %v: want all the last move's time",
			m.Ended, m.Rated, last, board[0].Last)
	}
}
