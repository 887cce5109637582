package rooms

import (
	"errors"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/arcade/arcade/rules"
)

// botMatch has a spectator set up a match of the given bots and returns the final snapshot.
func botMatch(t *testing.T, h *Hub, target string, levels ...string) Snapshot {
	t.Helper()
	r, err := h.Create("race", rules.Options{"target": target}, len(levels), dave)
	if err != nil {
		t.Fatal(err)
	}
	d := mustJoin(t, r, dave, true)
	for i, lv := range levels {
		if err := d.AddBot(rules.Seat(i), lv); err != nil {
			t.Fatalf("AddBot(%d, %s): %v", i, lv, err)
		}
	}
	if err := d.AddBot(0, "easy"); !errors.Is(err, ErrSeatTaken) && !errors.Is(err, ErrNotSeated) {
		t.Errorf("AddBot on a bot's seat: %v", err)
	}
	return waitFor(t, d, "the end", func(s Snapshot) bool { return s.Phase == Finished })
}

func TestBotsPlayAMatch(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	snap := botMatch(t, h, "30", "random", "easy", "random")
	if total := snap.View.(raceView).Total; total < 30 || total > 31 {
		t.Errorf("total %d", total)
	}
	if len(snap.Outcome.Winners()) != 1 || len(snap.Moves) < 10 {
		t.Errorf("outcome %+v after %d moves", snap.Outcome, len(snap.Moves))
	}
	for i, m := range snap.Moves {
		if m.Seat != rules.Seat(i%3) {
			t.Fatalf("move %d by seat %d", i, m.Seat)
		}
	}
	// The same seed replays the same match.
	h2, _ := newTestHub(t, Config{})
	if again := botMatch(t, h2, "30", "random", "easy", "random"); !slices.Equal(untimed(again.Moves), untimed(snap.Moves)) {
		t.Errorf("replay differs:\n%v\n%v", again.Moves, snap.Moves)
	}
}

func TestBuggyBotsAreReplacedByTheFirstLegalMove(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, l := newTestHub(t, Config{BotTimeout: 2 * time.Second})
		start := time.Now()
		snap := botMatch(t, h, "6", "buggy", "slow", "panicky")
		for i, m := range snap.Moves {
			if m.Move != "1" {
				t.Errorf("move %d: %q", i, m.Move)
			}
		}
		if len(snap.Moves) != 6 {
			t.Errorf("%d moves", len(snap.Moves))
		}
		for _, want := range []string{`buggy) made an illegal move "7"`, "panicked: oops", `slow) made an illegal move ""`} {
			if !l.contains(want) {
				t.Errorf("not logged: %s", want)
			}
		}
		// Two slow moves, each after the bot's deadline.
		if took := time.Since(start); took < 4*time.Second {
			t.Errorf("slow bot did not wait for its deadline: %v", took)
		}
	})
}

func TestBotDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _ := newTestHub(t, Config{BotDelay: 400 * time.Millisecond})
		r := mustCreate(t, h, rules.Options{"target": "10"}, 2)
		a := mustJoin(t, r, alice, false)
		if err := a.AddBot(1, "easy"); err != nil {
			t.Fatal(err)
		}
		waitFor(t, a, "the match", func(s Snapshot) bool { return s.Phase == Playing })
		mustMove(t, a, "1")
		next(t, a)
		moved := time.Now()
		waitFor(t, a, "the bot's move", func(s Snapshot) bool { return len(s.Moves) == 2 })
		if took := time.Since(moved); took != 400*time.Millisecond {
			t.Errorf("the bot took %v, want BotDelay", took)
		}
	})
}

func TestBotMoveAcrossARematchIsDropped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, l := newTestHub(t, Config{BotDelay: time.Second, SeatGrace: -1})
		r := mustCreate(t, h, rules.Options{"target": "10"}, 3)
		a := mustJoin(t, r, alice, false)
		b := mustJoin(t, r, bob, false)
		if err := a.AddBot(2, "easy"); err != nil {
			t.Fatal(err)
		}
		mustMove(t, a, "1")
		mustMove(t, b, "1")
		// The bot on seat 2 thinks for a second. Meanwhile bob drops (no grace), alice ends the match
		// and starts a rematch with a bot on bob's seat.
		b.Leave()
		waitFor(t, a, "bob's seat abandoned", func(s Snapshot) bool { return s.Seats[1].Abandoned })
		if err := a.EndMatch(); err != nil {
			t.Fatal(err)
		}
		if err := a.Rematch(); err != nil {
			t.Fatal(err)
		}
		if err := a.AddBot(1, "easy"); err != nil {
			t.Fatal(err)
		}
		snap := waitFor(t, a, "the rematch", func(s Snapshot) bool { return s.Phase == Playing })
		if snap.Match != 2 || snap.You != 2 {
			t.Fatalf("match %d, alice on %d", snap.Match, snap.You)
		}
		time.Sleep(time.Second) // the old move arrives, and the first of the new match
		synctest.Wait()
		snap = waitFor(t, a, "the first move", func(s Snapshot) bool { return len(s.Moves) > 0 })
		if len(snap.Moves) != 1 || snap.Moves[0].Seat != 0 {
			t.Errorf("moves of the rematch: %v", snap.Moves)
		}
		if l.contains("illegal") || l.contains("no legal move") {
			t.Errorf("the stale move was played: %v", l.lines)
		}
		time.Sleep(time.Second)
		waitFor(t, a, "alice's turn", func(s Snapshot) bool { return slices.Equal(s.ToMove, []rules.Seat{2}) })
	})
}

func TestBotMoveForAnOldPositionIsDropped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _ := newTestHub(t, Config{BotDelay: time.Second})
		r := mustCreate(t, h, rules.Options{"target": "50", "turns": "no"}, 2)
		a := mustJoin(t, r, alice, false)
		if err := a.AddBot(1, "easy"); err != nil {
			t.Fatal(err)
		}
		waitFor(t, a, "the match", func(s Snapshot) bool { return s.Phase == Playing })
		// The bot starts thinking about the opening position; alice moves at once, so the bot is
		// asked again about the new one. Its answer about the opening arrives stale and is dropped.
		mustMove(t, a, "2")
		time.Sleep(time.Second)
		synctest.Wait()
		snap := waitFor(t, a, "the bot's move", func(s Snapshot) bool { return len(s.Moves) >= 2 })
		if len(snap.Moves) != 2 || snap.Moves[1].Seat != 1 {
			t.Errorf("moves: %v", snap.Moves)
		}
	})
}
