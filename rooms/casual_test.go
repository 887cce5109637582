package rooms

import (
	"slices"
	"testing"
	"time"

	"github.com/arcade/arcade/rules"
)

// TestStandardClocks: the default clock and clocks of a minute a move or five minutes a game up
// are standard; clock=off and shorter ones are casual, and Casual names them with the game's own
// options that are not standard, the clock last.
func TestStandardClocks(t *testing.T) {
	for _, c := range []struct {
		clock string
		want  bool
	}{
		{"1m", true}, {"2m", true}, {"24h", true}, {"5m+0s", true}, {"10m+5s", true},
		{"off", false}, {"30s", false}, {"59s", false}, {"3m+2s", false},
	} {
		clock, err := ParseClock(c.clock)
		if err != nil {
			t.Fatal(err)
		}
		if got := clock.Standard(); got != c.want {
			t.Errorf("clock %s: Standard = %v, want %v", c.clock, got, c.want)
		}
	}
	for _, c := range []struct {
		opts rules.Options
		want []string
	}{
		{rules.Options{"target": "10", "turns": "yes"}, nil},
		{rules.Options{"target": "10", "turns": "yes", ClockOption: "10m+5s"}, nil},
		{rules.Options{"target": "10", "turns": "no", ClockOption: "30s"}, []string{"turns=no", "clock=30s"}},
		{rules.Options{"target": "10", "turns": "yes", ClockOption: "off"}, []string{"clock=off"}},
	} {
		if got := Casual(raceGame, c.opts); !slices.Equal(got, c.want) {
			t.Errorf("Casual(%v) = %q, want %q", c.opts, got, c.want)
		}
	}
}

// TestCasualRoom: a room whose settings are not all standard is casual for its whole life: its
// snapshots and its summary say so, its matches are recorded casual from their start, and a
// takeback, which rated matches refuse, is agreed between two players with keys; a room of
// standard settings is rated while its seats are people with keys, and casual with a bot.
func TestCasualRoom(t *testing.T) {
	rec := &recorder{}
	h, _ := newTestHub(t, Config{Recorder: rec})
	r := mustCreate(t, h, rules.Options{"turns": "no"}, 2)
	a := mustJoin(t, r, alice, false)
	if sum := r.summary.Load(); sum.Mode != ModeCasual {
		t.Errorf("a waiting casual room's mode: %q", sum.Mode)
	}
	b := mustJoin(t, r, bob, false)
	snap := waitFor(t, a, "the match", func(s Snapshot) bool { return s.Phase == Playing })
	if !snap.Casual {
		t.Error("the snapshot of a casual room does not say so")
	}
	mustMove(t, a, "2")
	if err := a.TakeBack(); err != nil {
		t.Fatalf("alice asks for a takeback in a casual match: %v", err)
	}
	if err := b.TakeBack(); err != nil {
		t.Fatalf("bob agrees: %v", err)
	}
	waitFor(t, a, "the takeback", func(s Snapshot) bool { return len(s.Moves) == 0 })
	rec.mu.Lock()
	for _, e := range rec.events {
		if !e.Casual {
			t.Errorf("event %v of a casual room is not casual", e.Kind)
		}
	}
	rec.mu.Unlock()

	_, p, _ := startPair(t, h, 10)
	mustMove(t, p, "1")
	if snap := waitFor(t, p, "the move", func(s Snapshot) bool { return len(s.Moves) == 1 }); snap.Casual {
		t.Error("a room of standard settings is casual")
	}
	if sum := p.Room().summary.Load(); sum.Mode != ModeRated {
		t.Errorf("a rated room's mode: %q", sum.Mode)
	}

	withBot := mustCreate(t, h, nil, 2)
	mustJoin(t, withBot, dave, false)
	if err := mustJoin(t, withBot, carol, true).AddBot(1, "easy"); err != nil {
		t.Fatal(err)
	}
	if sum := withBot.summary.Load(); sum.Mode != ModeCasual {
		t.Errorf("a room with a bot: mode %q", sum.Mode)
	}
}

// TestResumedRoomKeepsItsMode: a resumed match is casual or rated as its record says, whatever
// its options would say now, so that a node that takes a room over rates it as the node that
// started it did.
func TestResumedRoomKeepsItsMode(t *testing.T) {
	for _, casual := range []bool{false, true} {
		rec := &recorder{}
		h, _ := newTestHub(t, Config{Recorder: rec, SeatGrace: time.Minute})
		r, err := h.Restore(Resume{Code: "K7QXM", GameID: "race", Options: rules.Options{"target": "10"}, Seed: 5,
			Seats:  []SeatInfo{{PlayerID: alice.ID, Name: alice.Name}, {PlayerID: bob.ID, Name: bob.Name}},
			Casual: casual})
		if err != nil {
			t.Fatal(err)
		}
		a := mustJoin(t, r, alice, false)
		if snap := waitFor(t, a, "the resumed match", func(s Snapshot) bool { return s.Phase == Playing }); snap.Casual != casual {
			t.Errorf("resumed with Casual %v: the snapshot says %v", casual, snap.Casual)
		}
		mustMove(t, a, "2")
		rec.mu.Lock()
		if e := rec.events[len(rec.events)-1]; e.Casual != casual {
			t.Errorf("resumed with Casual %v: the move is recorded with %v", casual, e.Casual)
		}
		rec.mu.Unlock()
	}
}
