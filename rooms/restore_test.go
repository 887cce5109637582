package rooms

import (
	"errors"
	"strings"
	"testing"

	"github.com/arcade/arcade/rules"
)

// TestRestore: an unfinished match comes back under its code with its moves replayed; the
// players' seats wait for them and they take them back by joining; the match goes on.
func TestRestore(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	r, err := h.Restore(Resume{
		Code: "k7qxm", GameID: "race", Options: rules.Options{"target": "10"}, Seed: 5,
		Seats: []SeatInfo{{PlayerID: alice.ID, Name: alice.Name}, {PlayerID: bob.ID, Name: bob.Name}},
		Moves: []MoveRecord{{Seat: 0, Move: "2"}, {Seat: 1, Move: "2"}, {Seat: 0, Move: "1"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if found, err := h.Find("K7QXM", alice); err != nil || found != r {
		t.Fatalf("Find after restore: %v", err)
	}
	b := mustJoin(t, r, bob, false)
	snap := waitFor(t, b, "the restored match", func(s Snapshot) bool { return s.Phase == Playing })
	if snap.You != 1 || len(snap.Moves) != 3 || snap.View.(raceView).Total != 5 {
		t.Fatalf("restored snapshot: you %d, %d moves, view %+v", snap.You, len(snap.Moves), snap.View)
	}
	if snap.Seats[0].Connected || snap.Seats[0].GraceUntil.IsZero() {
		t.Errorf("alice's seat should wait for her: %+v", snap.Seats[0])
	}
	mustMove(t, b, "2")
	a := mustJoin(t, r, alice, false)
	snap = waitFor(t, a, "alice back", func(s Snapshot) bool { return s.You == 0 && s.Seats[0].Connected })
	if snap.View.(raceView).Total != 7 {
		t.Errorf("total %d, want 7", snap.View.(raceView).Total)
	}
	if !strings.Contains(snap.Chat[0].Text, "restarted") {
		t.Errorf("no restart line in chat: %+v", snap.Chat)
	}
}

// TestRestoreRefusesBadRecords: a record Restore cannot bring back opens no room; one its game
// does not accept (a refused move, a seat not at the table, a bad option) is ErrDoesNotReplay, to
// be set aside as damaged, and one whose game or bot is missing is not.
func TestRestoreRefusesBadRecords(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	seats := []SeatInfo{{PlayerID: alice.ID, Name: alice.Name}, {PlayerID: bob.ID, Name: bob.Name}}
	for name, c := range map[string]struct {
		res     Resume
		damaged bool
	}{
		"unknown game": {Resume{Code: "AAAAA", GameID: "chess", Seats: seats}, false},
		"bad code":     {Resume{Code: "0OIL1", GameID: "race", Seats: seats}, false},
		"bad move":     {Resume{Code: "AAAAB", GameID: "race", Seats: seats, Moves: []MoveRecord{{Seat: 1, Move: "2"}}}, true},
		"no such seat": {Resume{Code: "AAAAD", GameID: "race", Seats: seats, Moves: []MoveRecord{{Seat: 9, Move: "2"}}}, true},
		"bad option":   {Resume{Code: "AAAAE", GameID: "race", Options: rules.Options{"target": "x"}, Seats: seats}, true},
		"unknown bot":  {Resume{Code: "AAAAC", GameID: "race", Seats: []SeatInfo{{PlayerID: alice.ID}, {Bot: "grandmaster"}}}, false},
	} {
		_, err := h.Restore(c.res)
		if err == nil {
			t.Errorf("%s: restored", name)
		} else if errors.Is(err, ErrDoesNotReplay) != c.damaged {
			t.Errorf("%s: %v; ErrDoesNotReplay: %v, want %v", name, err, errors.Is(err, ErrDoesNotReplay), c.damaged)
		}
		if code, ok := NormalizeCode(c.res.Code); ok {
			if _, err := h.Find(code, alice); !errors.Is(err, ErrNoRoom) {
				t.Errorf("%s: a room is open under %s (%v)", name, code, err)
			}
		}
	}
}

// TestRestoreFinishesAnEndedMatch: a match whose last move ended it, with the server stopped
// before the end was recorded (the room records it after the players see the move), is finished
// and its end recorded when it is restored.
func TestRestoreFinishesAnEndedMatch(t *testing.T) {
	rec := &recorder{}
	h, _ := newTestHub(t, Config{Recorder: rec})
	r, err := h.Restore(Resume{
		Code: "k7qxn", GameID: "race", Options: rules.Options{"target": "3"}, Seed: 5,
		Seats: []SeatInfo{{PlayerID: alice.ID, Name: alice.Name}, {PlayerID: bob.ID, Name: bob.Name}},
		Moves: []MoveRecord{{Seat: 0, Move: "1"}, {Seat: 1, Move: "2"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	b := mustJoin(t, r, bob, false)
	snap := waitFor(t, b, "the restored room", func(Snapshot) bool { return true })
	if snap.Phase != Finished || !snap.Outcome.Over || !chatHas(snap, "", "wins") {
		t.Errorf("restored snapshot: phase %v, outcome %+v, chat %+v", snap.Phase, snap.Outcome, snap.Chat)
	}
	if got := rec.kinds(); len(got) != 1 || got[0] != EventEnd {
		t.Errorf("events recorded by the restore: %v, want the end", got)
	} else if e := rec.events[0]; e.Ply != 2 || !e.Outcome.Over {
		t.Errorf("end: %+v", e)
	}
}

// TestRestoreKeepsBotNames: a restored bot keeps the name it had; one whose name another seat
// holds gets a name of its own.
func TestRestoreKeepsBotNames(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	r, err := h.Restore(Resume{
		Code: "k7qxn", GameID: "race", Options: rules.Options{"target": "10"}, Seed: 5,
		Seats: []SeatInfo{{PlayerID: alice.ID, Name: alice.Name}, {Bot: "easy", Name: "Kit (easy bot)"},
			{Bot: "easy", Name: "Kit (easy bot)"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	snap := waitFor(t, mustJoin(t, r, alice, false), "the restored match", func(s Snapshot) bool { return s.You == 0 })
	if snap.Seats[1].Name != "Kit (easy bot)" || snap.Seats[2].Name != "Cy (easy bot)" {
		t.Errorf("bots %q and %q", snap.Seats[1].Name, snap.Seats[2].Name)
	}
}
