package rooms

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/arcade/arcade/rules"
)

// timedRace is the race game with timed turns: the seat whose turn it is (seat 0 whenever every
// seat may add, turns=no) has a minute, and adds 1 when it runs out. With turns=no, a turn is
// seat 0's until seat 0 moves: the others' moves go on in it.
type timedRace struct {
	race
	turns int
}

func (g timedRace) Apply(seat rules.Seat, move string) (rules.Engine, error) {
	next, err := g.race.Apply(seat, move)
	if err != nil {
		return nil, err
	}
	turns := g.turns
	if !g.free || seat == 0 {
		turns++
	}
	return timedRace{next.(race), turns}, nil
}

func (g timedRace) TurnLimit() (rules.TurnLimit, bool) {
	if g.over {
		return rules.TurnLimit{}, false
	}
	t := rules.TurnLimit{Seat: rules.Seat(g.turn), Turn: g.turns, Limit: time.Minute, Timeout: "1"}
	if g.free {
		t.Seat = 0
	}
	return t, true
}

var timedRaceGame = func() rules.Game {
	g := raceGame
	g.ID, g.Name = "timedrace", "Timed race"
	g.New = func(opts rules.Options, seats int, seed uint64) (rules.Engine, error) {
		e, err := raceGame.New(opts, seats, seed)
		if err != nil {
			return nil, err
		}
		return timedRace{race: e.(race)}, nil
	}
	return g
}()

// startTimed starts a two-seat timed race with alice and bob; both have read the first snapshot
// of the match.
func startTimed(t *testing.T, h *Hub, opts rules.Options) (*Room, *Sub, *Sub, Snapshot) {
	t.Helper()
	r, err := h.Create("timedrace", opts, 2, alice)
	if err != nil {
		t.Fatal(err)
	}
	a := mustJoin(t, r, alice, false)
	b := mustJoin(t, r, bob, false)
	playing := func(s Snapshot) bool { return s.Phase == Playing }
	snap := waitFor(t, a, "the match", playing)
	waitFor(t, b, "the match", playing)
	return r, a, b, snap
}

// TestTimedTurnRunsOut: a seat whose time runs out makes the move the rules make for it, which is
// recorded like any other and starts the next seat's time; a move in time starts it too.
func TestTimedTurnRunsOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &recorder{}
		h, _ := newTestHub(t, Config{Games: []rules.Game{timedRaceGame}, Recorder: rec})
		start := time.Now()
		_, a, b, snap := startTimed(t, h, rules.Options{"target": "10"})
		if want := (TurnClock{Seat: 0, Ends: start.Add(time.Minute)}); snap.Clock != want {
			t.Fatalf("clock at the start %+v, want %+v", snap.Clock, want)
		}
		if got := snap.Clock.Left(start.Add(20*time.Second + time.Millisecond)); got != 40*time.Second {
			t.Errorf("Left after 20.001s = %v, want 40s (rounded up)", got)
		}

		time.Sleep(59 * time.Second)
		synctest.Wait()
		if s, ok := pending(a); ok {
			t.Fatalf("a snapshot before the time ran out: %d moves", len(s.Moves))
		}
		time.Sleep(time.Second)
		snap = waitFor(t, a, "the timeout", func(s Snapshot) bool { return len(s.Moves) == 1 })
		if m := snap.Moves[0]; m.Seat != 0 || m.Move != "1" || !chatHas(snap, "", "time is up for alice: adds 1") {
			t.Errorf("timeout move %+v, chat %v", m, snap.Chat)
		}
		if want := (TurnClock{Seat: 1, Ends: time.Now().Add(time.Minute)}); snap.Clock != want {
			t.Errorf("bob's clock %+v, want %+v", snap.Clock, want)
		}
		waitFor(t, b, "the timeout", func(s Snapshot) bool { return len(s.Moves) == 1 })

		time.Sleep(30 * time.Second)
		mustMove(t, b, "2")
		snap = waitFor(t, a, "bob's move", func(s Snapshot) bool { return len(s.Moves) == 2 })
		if want := (TurnClock{Seat: 0, Ends: time.Now().Add(time.Minute)}); snap.Clock != want {
			t.Errorf("after bob's move the clock is %+v, want %+v", snap.Clock, want)
		}
		rec.mu.Lock()
		moves := slices.DeleteFunc(slices.Clone(rec.events), func(e Event) bool { return e.Kind != EventMove })
		rec.mu.Unlock()
		if len(moves) != 2 || moves[0].Seat != 0 || moves[0].Move != "1" || moves[1].Move != "2" {
			t.Errorf("recorded moves %+v", moves)
		}
	})
}

// TestTimedTurnKeepsItsTime: another seat's move does not give the timed seat its time again; the
// timed seat's own move does.
func TestTimedTurnKeepsItsTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _ := newTestHub(t, Config{Games: []rules.Game{timedRaceGame}})
		start := time.Now()
		_, a, b, _ := startTimed(t, h, rules.Options{"target": "100", "turns": "no"})
		time.Sleep(30 * time.Second)
		mustMove(t, b, "1")
		snap := waitFor(t, a, "bob's move", func(s Snapshot) bool { return len(s.Moves) == 1 })
		if want := (TurnClock{Seat: 0, Ends: start.Add(time.Minute)}); snap.Clock != want {
			t.Errorf("after bob's move %+v, want alice's time unchanged %+v", snap.Clock, want)
		}
		time.Sleep(30 * time.Second)
		snap = waitFor(t, a, "the timeout", func(s Snapshot) bool { return len(s.Moves) == 2 })
		if m := snap.Moves[1]; m.Seat != 0 || time.Since(start) != time.Minute {
			t.Errorf("timeout %+v after %v", m, time.Since(start))
		}
		time.Sleep(10 * time.Second)
		mustMove(t, a, "2")
		snap = waitFor(t, a, "alice's move", func(s Snapshot) bool { return len(s.Moves) == 3 })
		if want := (TurnClock{Seat: 0, Ends: time.Now().Add(time.Minute)}); snap.Clock != want {
			t.Errorf("after alice's own move %+v, want %+v", snap.Clock, want)
		}
	})
}

// TestTimedTurnStopsAtTheEnd: a finished match has no clock, and no timeout comes after it; an
// untimed game never has one.
func TestTimedTurnStopsAtTheEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _ := newTestHub(t, Config{Games: []rules.Game{timedRaceGame, raceGame}})
		_, a, b, _ := startTimed(t, h, rules.Options{"target": "3"})
		mustMove(t, a, "2")
		mustMove(t, b, "1")
		snap := waitFor(t, a, "the end", func(s Snapshot) bool { return s.Phase == Finished })
		if !snap.Clock.Ends.IsZero() || snap.Clock.Left(time.Now()) != 0 {
			t.Errorf("finished match's clock %+v", snap.Clock)
		}
		time.Sleep(5 * time.Minute)
		synctest.Wait()
		for {
			s, ok := pending(a)
			if !ok {
				break
			}
			if len(s.Moves) != 2 {
				t.Errorf("a move after the end: %+v", s.Moves)
			}
		}

		_, a, _ = startPair(t, h, 10)
		mustMove(t, a, "1")
		if snap := waitFor(t, a, "the move", func(s Snapshot) bool { return len(s.Moves) == 1 }); !snap.Clock.Ends.IsZero() {
			t.Errorf("untimed game's clock %+v", snap.Clock)
		}
	})
}

// TestRestoreGivesTheTurnItsTime: after a restart the timed turn has its whole time again.
func TestRestoreGivesTheTurnItsTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _ := newTestHub(t, Config{Games: []rules.Game{timedRaceGame}})
		r, err := h.Restore(Resume{
			Code: "k7qxm", GameID: "timedrace", Options: rules.Options{"target": "10"}, Seed: 5,
			Seats: []SeatInfo{{PlayerID: alice.ID, Name: alice.Name}, {PlayerID: bob.ID, Name: bob.Name}},
			Moves: []MoveRecord{{Seat: 0, Move: "2"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		restored := time.Now()
		b := mustJoin(t, r, bob, false)
		snap := waitFor(t, b, "the restored match", func(s Snapshot) bool { return s.Phase == Playing })
		if want := (TurnClock{Seat: 1, Ends: restored.Add(time.Minute)}); snap.Clock != want {
			t.Errorf("restored clock %+v, want %+v", snap.Clock, want)
		}
		time.Sleep(time.Minute)
		snap = waitFor(t, b, "the timeout", func(s Snapshot) bool { return len(s.Moves) == 2 })
		if m := snap.Moves[1]; m.Seat != 1 || m.Move != "1" {
			t.Errorf("timeout after the restart: %+v", m)
		}
	})
}

// TestBotFitsItsTurnInTheTime: a bot whose turn is timed takes no more than a tenth of the time
// left for its pause, however long Config.BotDelay is, so that a turn of several moves ends before
// its time (Flic Flac at timer=2s).
func TestBotFitsItsTurnInTheTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _ := newTestHub(t, Config{Games: []rules.Game{timedRaceGame}, BotDelay: 2 * time.Minute})
		r, err := h.Create("timedrace", rules.Options{"target": "10"}, 2, alice)
		if err != nil {
			t.Fatal(err)
		}
		a := mustJoin(t, r, alice, false)
		if err := a.AddBot(1, "easy"); err != nil {
			t.Fatal(err)
		}
		waitFor(t, a, "the match", func(s Snapshot) bool { return s.Phase == Playing })
		mustMove(t, a, "2")
		start := time.Now()
		snap := waitFor(t, a, "the bot's move", func(s Snapshot) bool { return len(s.Moves) == 2 })
		if m := snap.Moves[1]; m.Seat != 1 || m.Move != "1" || m.At.Sub(start) != 6*time.Second {
			t.Errorf("the bot's move %+v came %v after its turn began, want its own move after 6s (a tenth of its minute)", m, m.At.Sub(start))
		}
	})
}
