package rooms

import (
	"errors"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/arcade/arcade/rules"
)

func TestParseClock(t *testing.T) {
	for in, want := range map[string]Clock{
		"off": {}, "OFF": {}, "2m": {Move: 2 * time.Minute}, "90s": {Move: 90 * time.Second},
		"1h": {Move: time.Hour}, "10m+5s": {Game: 10 * time.Minute, Increment: 5 * time.Second},
		"5m+0s": {Game: 5 * time.Minute},
	} {
		c, err := ParseClock(in)
		if err != nil || c != want {
			t.Errorf("ParseClock(%q) = %+v, %v; want %+v", in, c, err, want)
		}
		if again, err := ParseClock(c.String()); err != nil || again != c {
			t.Errorf("%q is written %q, which reads %+v, %v", in, c.String(), again, err)
		}
	}
	for _, bad := range []string{"", "1s", "abc", "2m+", "-1m", "25h", "1.5s", "2m+x", "10m+-5s"} {
		if _, err := ParseClock(bad); !errors.Is(err, ErrBadClock) {
			t.Errorf("ParseClock(%q): %v", bad, err)
		}
	}
}

// TestMoveLimitOfARatedMatch: a rated match whose room set no clock has Config.MoveLimit a move;
// the player whose time runs out loses, rated, and the match records its clock.
func TestMoveLimitOfARatedMatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &recorder{}
		h, _ := newTestHub(t, Config{MoveLimit: time.Minute, Recorder: rec})
		start := time.Now()
		r := mustCreate(t, h, rules.Options{"target": "10"}, 2)
		a := mustJoin(t, r, alice, false)
		b := mustJoin(t, r, bob, false)
		snap := waitFor(t, a, "the match", func(s Snapshot) bool { return s.Phase == Playing })
		if snap.Clock != (TurnClock{Seat: 0, Ends: start.Add(time.Minute)}) || snap.TimeControl != (Clock{Move: time.Minute}) {
			t.Fatalf("clock %+v, time control %+v", snap.Clock, snap.TimeControl)
		}
		time.Sleep(40 * time.Second)
		mustMove(t, a, "1")
		snap = waitFor(t, b, "the move", func(s Snapshot) bool { return len(s.Moves) == 1 })
		if snap.Clock != (TurnClock{Seat: 1, Ends: time.Now().Add(time.Minute)}) {
			t.Errorf("bob's clock %+v", snap.Clock)
		}
		time.Sleep(time.Minute)
		snap = waitFor(t, a, "the end", func(s Snapshot) bool { return s.Phase == Finished })
		if snap.Unrated || !slices.Equal(snap.Outcome.Ranks, []int{1, 2}) || snap.Outcome.Reason != "bob ran out of time" {
			t.Errorf("after bob's time: unrated %v, outcome %+v", snap.Unrated, snap.Outcome)
		}
		if got := rec.events[0].Options[ClockOption]; got != "1m" {
			t.Errorf("the match is recorded with clock %q, want 1m", got)
		}
	})
}

// TestClockOff: clock=off leaves a rated match untimed; a match with a bot is untimed by default.
func TestClockOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _ := newTestHub(t, Config{MoveLimit: time.Minute})
		r, err := h.Create("race", rules.Options{"target": "10", ClockOption: "off"}, 2, alice)
		if err != nil {
			t.Fatal(err)
		}
		a := mustJoin(t, r, alice, false)
		mustJoin(t, r, bob, false)
		snap := waitFor(t, a, "the match", func(s Snapshot) bool { return s.Phase == Playing })
		time.Sleep(5 * time.Minute)
		synctest.Wait()
		if !snap.Clock.Ends.IsZero() || snap.TimeControl.Timed() {
			t.Errorf("clock=off: %+v %+v", snap.Clock, snap.TimeControl)
		}
		if _, err := h.Create("race", rules.Options{ClockOption: "soon"}, 2, alice); !errors.Is(err, ErrBadClock) {
			t.Errorf("a bad clock: %v", err)
		}
		r2 := mustCreate(t, h, rules.Options{"target": "10"}, 2)
		c := mustJoin(t, r2, carol, false)
		if err := c.AddBot(1, "easy"); err != nil {
			t.Fatal(err)
		}
		if snap := waitFor(t, c, "the match", func(s Snapshot) bool { return s.Phase == Playing }); snap.TimeControl.Timed() {
			t.Errorf("a match with a bot is timed: %+v", snap.TimeControl)
		}
	})
}

// TestGameClock: with a game clock each player's time runs only on their turns and gains the
// increment after each of their moves; the snapshot shows every player's time.
func TestGameClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _ := newTestHub(t, Config{})
		r, err := h.Create("race", rules.Options{"target": "50", ClockOption: "1m+10s"}, 2, alice)
		if err != nil {
			t.Fatal(err)
		}
		a := mustJoin(t, r, alice, false)
		b := mustJoin(t, r, bob, false)
		waitFor(t, a, "the match", func(s Snapshot) bool { return s.Phase == Playing })
		time.Sleep(20 * time.Second)
		mustMove(t, a, "1")
		snap := waitFor(t, b, "the move", func(s Snapshot) bool { return len(s.Moves) == 1 })
		if want := []time.Duration{50 * time.Second, time.Minute}; !slices.Equal(snap.Times, want) ||
			snap.Clock != (TurnClock{Seat: 1, Ends: time.Now().Add(time.Minute)}) {
			t.Fatalf("times %v, clock %+v; want %v and bob's minute", snap.Times, snap.Clock, want)
		}
		time.Sleep(30 * time.Second)
		mustMove(t, b, "1")
		snap = waitFor(t, a, "bob's move", func(s Snapshot) bool { return len(s.Moves) == 2 })
		if want := []time.Duration{50 * time.Second, 40 * time.Second}; !slices.Equal(snap.Times, want) ||
			snap.Clock.Ends != time.Now().Add(50*time.Second) {
			t.Fatalf("times %v, clock %+v", snap.Times, snap.Clock)
		}
		time.Sleep(50 * time.Second)
		snap = waitFor(t, b, "the end", func(s Snapshot) bool { return s.Phase == Finished })
		if snap.Outcome.Reason != "alice ran out of time" || !slices.Equal(snap.Outcome.Ranks, []int{2, 1}) {
			t.Errorf("outcome %+v", snap.Outcome)
		}
	})
}

// TestClockAtATableOfThree: the player whose time runs out gives the seat to a bot, ranks last,
// and the others play on.
func TestClockAtATableOfThree(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _ := newTestHub(t, Config{MoveLimit: time.Minute})
		r := mustCreate(t, h, rules.Options{"target": "30"}, 3)
		a := mustJoin(t, r, alice, false)
		mustJoin(t, r, bob, false)
		mustJoin(t, r, carol, false)
		waitFor(t, a, "the match", func(s Snapshot) bool { return s.Phase == Playing })
		time.Sleep(time.Minute)
		snap := waitFor(t, a, "the takeover", func(s Snapshot) bool { return s.Seats[0].Bot != "" })
		if snap.Phase != Playing || !snap.Seats[0].Resigned || !chatHas(snap, "", "alice ran out of time; ") || snap.You != rules.Spectator {
			t.Errorf("after alice's time: phase %v, seat %+v, you %d, chat %v", snap.Phase, snap.Seats[0], snap.You, snap.Chat)
		}
	})
}

// TestRestoreGivesTheClockBack: a restored match with a game clock gives every player the time
// they had when their latest turn began, charged from the moves' times, and a grace more.
func TestRestoreGivesTheClockBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _ := newTestHub(t, Config{})
		started := time.Now().Add(-time.Hour)
		r, err := h.Restore(Resume{
			Code: "k7qxm", GameID: "race", Options: rules.Options{"target": "10", ClockOption: "5m+2s"}, Seed: 5,
			Seats:   []SeatInfo{{PlayerID: alice.ID, Name: alice.Name}, {PlayerID: bob.ID, Name: bob.Name}},
			Moves:   []MoveRecord{{Seat: 0, Move: "2", At: started.Add(30 * time.Second)}, {Seat: 1, Move: "1", At: started.Add(90 * time.Second)}},
			Started: started,
		})
		if err != nil {
			t.Fatal(err)
		}
		snap := waitFor(t, mustJoin(t, r, alice, false), "the match", func(s Snapshot) bool { return s.Phase == Playing })
		// alice: 5m - 30s + 2s + 5s grace; bob: 5m - 60s + 2s + 5s.
		want := []time.Duration{5*time.Minute - 23*time.Second, 4*time.Minute + 7*time.Second}
		if !slices.Equal(snap.Times, want) || snap.Clock != (TurnClock{Seat: 0, Ends: time.Now().Add(want[0])}) {
			t.Errorf("restored times %v, clock %+v; want %v", snap.Times, snap.Clock, want)
		}
	})
}

// hopeRace is the race game as a rules.Winnable: a seat that has not added anything yet cannot
// win (the test's own rule, to say so for certain).
type hopeRace struct{ race }

func (g hopeRace) Apply(seat rules.Seat, move string) (rules.Engine, error) {
	next, err := g.race.Apply(seat, move)
	if err != nil {
		return nil, err
	}
	return hopeRace{next.(race)}, nil
}

func (g hopeRace) CanWin(seat rules.Seat) bool { return g.scores[seat] > 0 }

var hopeRaceGame = func() rules.Game {
	g := raceGame
	g.ID, g.Name = "hoperace", "Hopeful race"
	g.New = func(opts rules.Options, seats int, seed uint64) (rules.Engine, error) {
		e, err := raceGame.New(opts, seats, seed)
		if err != nil {
			return nil, err
		}
		return hopeRace{e.(race)}, nil
	}
	return g
}()

// TestClockOutAgainstAHopelessOpponent: when a player's time runs out in a two-seat match and
// the engine is certain the opponent cannot win, the match is a draw, rated and recorded so; when
// the opponent can win, it wins on time.
func TestClockOutAgainstAHopelessOpponent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &recorder{}
		h, _ := newTestHub(t, Config{Games: []rules.Game{hopeRaceGame}, Recorder: rec})
		r, err := h.Create("hoperace", rules.Options{"target": "10", ClockOption: "1m"}, 2, alice)
		if err != nil {
			t.Fatal(err)
		}
		a := mustJoin(t, r, alice, false)
		b := mustJoin(t, r, bob, false)
		waitFor(t, a, "the match", func(s Snapshot) bool { return s.Phase == Playing })
		time.Sleep(time.Minute) // alice's time; bob has added nothing
		snap := waitFor(t, b, "the end", func(s Snapshot) bool { return s.Phase == Finished })
		const reason = "alice ran out of time; bob cannot win: a draw"
		if o := snap.Outcome; snap.Unrated || !slices.Equal(o.Ranks, []int{1, 1}) || o.Reason != reason {
			t.Errorf("alice's time against a hopeless bob: unrated %v, outcome %+v", snap.Unrated, o)
		}
		if !chatHas(snap, "", "game over: a draw ("+reason+")") {
			t.Errorf("the room does not say so: %v", snap.Chat)
		}
		rec.mu.Lock()
		end := rec.events[len(rec.events)-1]
		rec.mu.Unlock()
		if end.Kind != EventEnd || end.Outcome.Reason != reason || !slices.Equal(end.Outcome.Ranks, []int{1, 1}) || end.Unrated {
			t.Errorf("recorded end %+v", end)
		}

		// A rematch: the first to move adds 1, and the other's time runs out: the first can win,
		// and wins on time.
		if err := a.Rematch(); err != nil {
			t.Fatal(err)
		}
		if err := b.Rematch(); err != nil {
			t.Fatal(err)
		}
		snap = waitFor(t, a, "the rematch", func(s Snapshot) bool { return s.Phase == Playing })
		first, waiting := a, b
		if snap.ToMove[0] != snap.You {
			first, waiting = b, a
		}
		mustMove(t, first, "1")
		time.Sleep(time.Minute)
		snap = waitFor(t, first, "the end", func(s Snapshot) bool { return s.Phase == Finished })
		want := []int{2, 2}
		want[snap.You] = 1
		if o := snap.Outcome; !slices.Equal(o.Ranks, want) || o.Reason != waiting.Player().Name+" ran out of time" {
			t.Errorf("the time of a player against one who can win: outcome %+v", o)
		}
	})
}
