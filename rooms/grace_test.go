package rooms

import (
	"errors"
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
