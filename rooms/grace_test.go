package rooms

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/arcade/arcade/rules"
)

func TestDropGraceAbandonBotTakesOver(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _ := newTestHub(t, Config{SeatGrace: 2 * time.Minute})
		_, a, b := startPair(t, h, 5)
		mustMove(t, a, "1")
		start := time.Now()
		b.Leave()
		snap := waitFor(t, a, "bob dropping", func(s Snapshot) bool { return !s.Seats[1].Connected })
		if got := snap.Seats[1].GraceUntil; !got.Equal(start.Add(2 * time.Minute)) {
			t.Errorf("GraceUntil = %v, want %v", got, start.Add(2*time.Minute))
		}
		if snap.Seats[1].Abandoned || snap.Seats[1].PlayerID != bob.ID || !chatHas(snap, "", "bob dropped; their seat waits 2 minutes") {
			t.Errorf("dropped seat: %+v, chat %v", snap.Seats[1], snap.Chat)
		}
		if err := a.AddBot(1, "easy"); !errors.Is(err, ErrInGrace) {
			t.Errorf("AddBot during the grace: %v", err)
		}
		if err := a.EndMatch(); !errors.Is(err, ErrNotAbandoned) {
			t.Errorf("EndMatch during the grace: %v", err)
		}

		time.Sleep(time.Minute)
		synctest.Wait()
		if snap, ok := pending(a); ok {
			t.Errorf("snapshot before the grace ran out: %+v", snap.Seats[1])
		}
		time.Sleep(time.Minute)
		snap = waitFor(t, a, "the seat abandoned", func(s Snapshot) bool { return s.Seats[1].Abandoned })
		if !chatHas(snap, "", "bob did not come back") || snap.Phase != Playing {
			t.Errorf("chat %v", snap.Chat)
		}
		if err := a.AddBot(0, "easy"); !errors.Is(err, ErrSeatTaken) {
			t.Errorf("AddBot on alice's own seat: %v", err)
		}
		if err := a.AddBot(1, "grandmaster"); !errors.Is(err, ErrNoSuchBot) {
			t.Errorf("unknown level: %v", err)
		}
		if err := a.AddBot(7, "easy"); !errors.Is(err, ErrNoSuchSeat) {
			t.Errorf("seat 7: %v", err)
		}
		if err := a.AddBot(1, "easy"); err != nil {
			t.Fatal(err)
		}
		// The bot is to move: 1 (alice) + 1 (bot) + 2 (alice) + 1 (bot) = 5, the bot wins.
		snap = waitFor(t, a, "the bot's move", func(s Snapshot) bool { return len(s.Moves) == 2 })
		if s := snap.Seats[1]; s.Bot != "easy" || s.Name != "Bo (easy bot)" || !s.Connected || s.Abandoned ||
			!s.GraceUntil.IsZero() || s.PlayerID != "" || !chatHas(snap, "", "Bo (easy bot) takes over bob's seat") {
			t.Errorf("bot seat: %+v", s)
		}
		mustMove(t, a, "2")
		snap = waitFor(t, a, "the end", func(s Snapshot) bool { return s.Phase == Finished })
		if w := snap.Outcome.Winners(); len(w) != 1 || w[0] != 1 || snap.Unrated || snap.Moves[3].Name != "Bo (easy bot)" {
			t.Errorf("outcome %+v, moves %v", snap.Outcome, snap.Moves)
		}
		// bob comes back too late: the seat is the bot's, he watches.
		b2 := mustJoin(t, h.mustFind(t, snap.Code), bob, false)
		if b2.Seat() != rules.Spectator {
			t.Errorf("bob got seat %d back from the bot", b2.Seat())
		}
	})
}

// TestLeftIsNotDropped: a player who leaves by choice (LeaveByChoice) is told as "left", one whose
// connection ends (Leave) as "dropped"; the seat waits for either, and every snapshot says how long
// a seat waits (SeatGrace).
func TestLeftIsNotDropped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _ := newTestHub(t, Config{SeatGrace: 90 * time.Second})
		r, a, b := startPair(t, h, 5)
		mustMove(t, a, "1")
		b.LeaveByChoice()
		snap := waitFor(t, a, "bob leaving", func(s Snapshot) bool { return !s.Seats[1].Connected })
		if !chatHas(snap, "", "bob left; their seat waits 1m30s for them") || chatHas(snap, "", "bob dropped") {
			t.Errorf("bob left by choice: chat %v", snap.Chat)
		}
		if snap.Seats[1].GraceUntil.IsZero() || snap.Seats[1].Abandoned {
			t.Errorf("bob's seat does not wait for him: %+v", snap.Seats[1])
		}
		if snap.SeatGrace != 90*time.Second {
			t.Errorf("SeatGrace = %v, want 1m30s", snap.SeatGrace)
		}
		b = mustJoin(t, r, bob, false)
		waitFor(t, a, "bob back", func(s Snapshot) bool { return s.Seats[1].Connected })
		b.Leave()
		snap = waitFor(t, a, "bob dropping", func(s Snapshot) bool { return !s.Seats[1].Connected })
		if !chatHas(snap, "", "bob dropped; their seat waits 1m30s for them") {
			t.Errorf("bob's connection ended: chat %v", snap.Chat)
		}
		b.LeaveByChoice() // after Leave, nothing more
		a.Leave()
	})
}

func (h *Hub) mustFind(t *testing.T, code string) *Room {
	t.Helper()
	r, err := h.Find(code, alice)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRejoinDuringAndAfterTheGrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _ := newTestHub(t, Config{SeatGrace: time.Minute})
		r, a, b := startPair(t, h, 10)
		b.Leave()
		waitFor(t, a, "bob dropping", func(s Snapshot) bool { return !s.Seats[1].GraceUntil.IsZero() })
		time.Sleep(30 * time.Second)
		b = mustJoin(t, r, bob, false)
		snap := next(t, b)
		if snap.You != 1 || !snap.Seats[1].Connected || !snap.Seats[1].GraceUntil.IsZero() || !chatHas(snap, "", "bob is back") {
			t.Errorf("back during the grace: %+v", snap.Seats[1])
		}
		time.Sleep(time.Minute) // the old timer must not abandon the seat
		synctest.Wait()
		if snap, ok := pending(a); ok && snap.Seats[1].Abandoned {
			t.Error("seat abandoned although bob came back")
		}

		b.Leave()
		time.Sleep(2 * time.Minute)
		waitFor(t, a, "the seat abandoned", func(s Snapshot) bool { return s.Seats[1].Abandoned })
		b = mustJoin(t, r, bob, false)
		snap = next(t, b)
		if snap.You != 1 || snap.Seats[1].Abandoned || !snap.Seats[1].GraceUntil.IsZero() {
			t.Errorf("back after the grace: %+v", snap.Seats[1])
		}
		mustMove(t, a, "1")
		waitFor(t, b, "alice's move", func(s Snapshot) bool { return len(s.Moves) == 1 })
	})
}

func TestEndMatchUnrated(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _ := newTestHub(t, Config{SeatGrace: time.Minute})
		r, a, b := startPair(t, h, 10)
		d := mustJoin(t, r, dave, true)
		mustMove(t, a, "2")
		b.Leave()
		time.Sleep(time.Minute)
		waitFor(t, a, "the seat abandoned", func(s Snapshot) bool { return s.Seats[1].Abandoned })
		if err := d.EndMatch(); !errors.Is(err, ErrNotSeated) {
			t.Errorf("spectator ends the match: %v", err)
		}
		if err := a.EndMatch(); err != nil {
			t.Fatal(err)
		}
		for _, s := range []*Sub{a, d} {
			snap := waitFor(t, s, "the end", func(s Snapshot) bool { return s.Phase == Finished })
			if o := snap.Outcome; !snap.Unrated || !o.Over || o.Reason != "abandoned" || len(o.Winners()) != 0 || o.Scores[0] != 2 {
				t.Errorf("%s: unrated %v, outcome %+v", s.Player().Name, snap.Unrated, o)
			}
			if !chatHas(snap, "", "the match ended without rating: abandoned") {
				t.Errorf("chat %v", snap.Chat)
			}
		}
		if err := a.EndMatch(); !errors.Is(err, ErrNotPlaying) {
			t.Errorf("EndMatch twice: %v", err)
		}
		if err := a.Move(t.Context(), "1"); !errors.Is(err, rules.ErrGameOver) {
			t.Errorf("move after EndMatch: %v", err)
		}
	})
}

// TestDesertedRoomCloses: a match whose human players have all dropped ends unrated and its room
// closes when the last grace runs out, instead of being listed as playing; while a grace runs,
// the list says who is away and for how long. A watcher does not keep the room open.
func TestDesertedRoomCloses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, l := newTestHub(t, Config{SeatGrace: 2 * time.Minute})
		r, a, b := startPair(t, h, 10)
		d := mustJoin(t, r, dave, true)
		mustMove(t, a, "1")
		b.Leave()
		waitFor(t, d, "bob dropping", func(s Snapshot) bool { return !s.Seats[1].Connected })
		time.Sleep(time.Minute)
		a.Leave()
		synctest.Wait()
		if got := h.List()[0].State(time.Now()); got != "alice away 2:00 +1" {
			t.Errorf("both away: state %q", got)
		}
		time.Sleep(time.Minute) // bob's grace runs out; alice's has a minute to go
		synctest.Wait()
		if got := h.List()[0].State(time.Now()); got != "alice away 1:00 +1" || !h.List()[0].Away[1].Gone {
			t.Errorf("bob's grace over: state %q", got)
		}
		time.Sleep(time.Minute)
		last, _ := closedAfter(t, d)
		if last.Phase != Closed || !strings.Contains(last.Notice, "every player left") {
			t.Errorf("the watcher's last snapshot: phase %v, notice %q", last.Phase, last.Notice)
		}
		synctest.Wait() // the room closes its subscribers' channels before it takes itself off the list
		if len(h.List()) != 0 || !l.contains("every player left") {
			t.Errorf("the room is still listed: %+v", h.List())
		}
	})
}

// TestRoomStates: the list says what is true of each room.
func TestRoomStates(t *testing.T) {
	now := time.Now()
	for _, c := range []struct {
		s    Summary
		want string
	}{
		{Summary{Phase: Waiting, Free: 1}, "waiting for 1 player"},
		{Summary{Phase: Waiting, Free: 3}, "waiting for 3 players"},
		{Summary{Phase: Playing}, "playing"},
		{Summary{Phase: Playing, Away: []Away{{Name: "bob", Until: now.Add(102 * time.Second)}}}, "bob away 1:42"},
		{Summary{Phase: Playing, Away: []Away{{Name: "bob", Until: now.Add(-time.Second)}}}, "bob away 0:00"},
		{Summary{Phase: Playing, Away: []Away{{Name: "bob", Gone: true}, {Name: "ann"}}}, "bob left +1"},
		{Summary{Phase: Finished}, "finished"},
	} {
		if got := c.s.State(now); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
}

// TestFinishedRoomClosesWhenLeft: a finished room that everyone has left closes when the seat
// grace runs out (a player may come back for a rematch until then), not after the empty expiry.
func TestFinishedRoomClosesWhenLeft(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _ := newTestHub(t, Config{SeatGrace: 2 * time.Minute, EmptyExpiry: 30 * time.Minute})
		r, a, b := startPair(t, h, 3)
		mustMove(t, a, "2")
		mustMove(t, b, "1")
		waitFor(t, b, "the end", func(s Snapshot) bool { return s.Phase == Finished })
		a.Leave()
		b.Leave()
		time.Sleep(time.Minute)
		synctest.Wait()
		if got := h.List(); len(got) != 1 || got[0].State(time.Now()) != "finished" {
			t.Fatalf("a minute after: %+v", got)
		}
		time.Sleep(time.Minute)
		synctest.Wait()
		if _, err := h.Find(r.Code(), alice); !errors.Is(err, ErrNoRoom) {
			t.Errorf("finished room left for the seat grace: %v", err)
		}
	})
}
