package main

import (
	"context"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/matchlog"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/storage"
)

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
	rc := matchlog.Recorder{Log: db}
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
	hub := rooms.NewHub(rooms.Config{Games: games.Rules(), Recorder: matchlog.Recorder{Log: db}, SeatGrace: -1, BotDelay: -1, Logf: t.Logf})
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

// TestRecordEndSaysWhatItDid: recording the end of a rated match gives the match's ID and each
// player's rating before and after; a bot's seat, and every seat of an unrated match, is not
// rated.
func TestRecordEndSaysWhatItDid(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), dbFile), storage.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rc := matchlog.Recorder{Log: db}
	play := func(code string, seats []rooms.SeatInfo, unrated bool) rooms.EndResult {
		t.Helper()
		base := rooms.Event{GameID: "stonetowers", Match: 1, Options: rules.Options{"size": "8", "turns": "10"}, Seed: 1, Seats: seats}
		start := base
		start.Kind = rooms.EventStart
		if err := rc.Record(code, start); err != nil {
			t.Fatal(err)
		}
		end := base
		end.Kind, end.Unrated = rooms.EventEnd, unrated
		end.Outcome = rules.Outcome{Over: true, Scores: []int{3, 1}, Ranks: []int{1, 2}, Reason: "bob resigned"}
		if unrated {
			end.Outcome.Ranks = nil
		}
		res, err := rc.RecordEnd(code, end)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	people := []rooms.SeatInfo{{PlayerID: "SHA256:alice", Name: "alice"}, {PlayerID: "SHA256:bob", Name: "bob"}}
	res := play("K7QXM", people, false)
	if res.MatchID == "" || len(res.Ratings) != 2 {
		t.Fatalf("result %+v", res)
	}
	a, b := res.Ratings[0], res.Ratings[1]
	if !a.Rated || !b.Rated || a.Before != 1500 || !a.BeforeProvisional || a.After <= 1500 || b.After >= 1500 {
		t.Errorf("ratings: alice %+v, bob %+v", a, b)
	}
	if m, err := db.Match(res.MatchID); err != nil || m.Outcome.Reason != "bob resigned" {
		t.Errorf("the ID names another match: %v %+v", err, m.Outcome)
	}
	withBot := []rooms.SeatInfo{people[0], {Name: "Bo (greedy bot)", Bot: "greedy"}}
	if res := play("B0TSS", withBot, false); res.Ratings[0].Rated || res.Ratings[1].Rated {
		t.Errorf("a match with a bot changed ratings: %+v", res.Ratings)
	}
	if res := play("UNRAT", people, true); res.Ratings[0].Rated || res.Ratings[0].Before != a.After {
		t.Errorf("an unrated match: %+v (alice was %v)", res.Ratings, a.After)
	}
}

// TestTimeoutRecordedAndReplayed: a rated match that ends on the clock is recorded with how it
// ended (who ran out of time, the ranks, the clock) and its moves, and the record replays; under
// a fake clock (testing/synctest), so nothing waits the minute.
func TestTimeoutRecordedAndReplayed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		db, err := storage.Open(filepath.Join(t.TempDir(), dbFile), storage.Options{LockTimeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		hub := rooms.NewHub(rooms.Config{Games: games.Rules(), Recorder: matchlog.Recorder{Log: db}, SeatGrace: -1, BotDelay: -1, Logf: t.Logf})
		defer hub.Shutdown("test over")
		alice, bob := rooms.Player{ID: "SHA256:alice", Name: "alice"}, rooms.Player{ID: "SHA256:bob", Name: "bob"}
		room, err := hub.Create("stonetowers", rules.Options{rooms.ClockOption: "1m"}, 2, alice)
		if err != nil {
			t.Fatal(err)
		}
		a, err := room.Join(alice, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := room.Join(bob, false); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if err := a.Move(context.Background(), "b d4"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Minute) // bob's time
		synctest.Wait()
		var snap rooms.Snapshot
		for len(a.Updates()) > 0 {
			snap = <-a.Updates()
		}
		if snap.Phase != rooms.Finished || snap.Result.MatchID == "" {
			t.Fatalf("after bob's minute: phase %v, result %+v", snap.Phase, snap.Result)
		}
		m, err := db.Match(snap.Result.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		if o := m.Outcome; !m.Finished() || !m.Rated || o.Reason != "bob ran out of time" || len(o.Ranks) != 2 || o.Ranks[0] != 1 || o.Ranks[1] != 2 ||
			m.Options[rooms.ClockOption] != "1m" || len(m.Moves) != 1 {
			t.Fatalf("the record: finished %v, rated %v, outcome %+v, options %v, moves %+v", m.Finished(), m.Rated, o, m.Options, m.Moves)
		}
		final, err := m.Final(stonetowers.Game)
		if err != nil || final.Outcome().Over {
			t.Errorf("the replay: %v (the moves end the match: %v)", err, err == nil && final.Outcome().Over)
		}
	})
}
