package rooms

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/arcade/arcade/rules"
)

func TestCreateFindJoin(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	seen := map[string]bool{}
	for range 200 {
		r := mustCreate(t, h, nil, 0)
		code := r.Code()
		if len(code) != CodeLen {
			t.Fatalf("code %q: length %d", code, len(code))
		}
		for _, c := range code {
			if !strings.ContainsRune(CodeAlphabet, c) || strings.ContainsRune("0O1IL", c) {
				t.Fatalf("code %q: character %q", code, c)
			}
		}
		if seen[code] {
			t.Fatalf("code %q twice", code)
		}
		seen[code] = true
	}
	if got := h.Stats().Rooms; got != 200 {
		t.Errorf("Stats().Rooms = %d, want 200", got)
	}

	r := mustCreate(t, h, rules.Options{"target": "5"}, 3)
	for _, code := range []string{r.Code(), strings.ToLower(r.Code()), "  " + strings.ToLower(r.Code()) + "\n"} {
		got, err := h.Find(code, bob)
		if err != nil || got != r {
			t.Fatalf("Find(%q) = %v, %v", code, got, err)
		}
	}

	a := mustJoin(t, r, alice, false)
	snap := next(t, a)
	if snap.Code != r.Code() || snap.GameID != "race" || snap.GameName != "Race" || snap.Phase != Waiting ||
		snap.You != 0 || len(snap.Seats) != 3 || snap.Options["target"] != "5" || snap.View != nil {
		t.Fatalf("first snapshot: %+v", snap)
	}
	if s := snap.Seats; s[0].Name != "alice" || s[0].Empty || !s[0].Connected || !s[1].Empty || !s[2].Empty {
		t.Errorf("seats: %+v", s)
	}
	if a.Seat() != 0 {
		t.Errorf("Seat() = %d", a.Seat())
	}
}

func TestCreateErrors(t *testing.T) {
	h, _ := newTestHub(t, Config{MaxRooms: 2})
	if _, err := h.Create("chess", nil, 2, alice); !errors.Is(err, ErrNoSuchGame) {
		t.Errorf("unknown game: %v", err)
	}
	if _, err := h.Create("race", rules.Options{"target": "2"}, 2, alice); err == nil ||
		err.Error() != "target must be a whole number from 3 to 1000" {
		t.Errorf("bad option: %v", err)
	}
	if _, err := h.Create("race", rules.Options{"colour": "red"}, 2, alice); err == nil || !strings.Contains(err.Error(), "colour") {
		t.Errorf("unknown option: %v", err)
	}
	for _, n := range []int{1, 5, -1} {
		if _, err := h.Create("race", nil, n, alice); !errors.Is(err, ErrBadSeats) || !strings.Contains(err.Error(), "2 to 4") {
			t.Errorf("%d seats: %v", n, err)
		}
	}
	// Occupied rooms: an empty one would expire to make way (share.go).
	mustJoin(t, mustCreate(t, h, nil, 0), alice, false)
	mustJoin(t, mustCreate(t, h, nil, 4), alice, false)
	if _, err := h.Create("race", nil, 2, alice); !errors.Is(err, ErrTooManyRooms) {
		t.Errorf("beyond MaxRooms: %v", err)
	}
	h2, _ := newTestHub(t, Config{})
	if _, err := mustCreate(t, h2, nil, 0).Join(Player{Name: "x"}, false); !errors.Is(err, ErrNoPlayer) {
		t.Errorf("join without ID: %v", err)
	}
}

func TestFindRateLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _ := newTestHub(t, Config{JoinFailures: 3, JoinWindow: time.Minute})
		r := mustCreate(t, h, nil, 0)
		for _, bad := range []string{"ZZZZZ", "nope", "O0I1L"} {
			if _, err := h.Find(bad, bob); !errors.Is(err, ErrNoRoom) || err.Error() != "no room with that code" {
				t.Fatalf("Find(%q) = %v", bad, err)
			}
		}
		// Limited now, even with the right code; others are not.
		if _, err := h.Find(r.Code(), bob); !errors.Is(err, ErrTooManyAttempts) {
			t.Fatalf("after 3 failures: %v", err)
		}
		if got, err := h.Find(r.Code(), carol); err != nil || got != r {
			t.Fatalf("carol: %v", err)
		}
		time.Sleep(time.Minute)
		if got, err := h.Find(r.Code(), bob); err != nil || got != r {
			t.Fatalf("after the window: %v", err)
		}
	})
}

func TestList(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _ := newTestHub(t, Config{})
		r1 := mustCreate(t, h, nil, 3)
		time.Sleep(time.Second)
		r2 := mustCreate(t, h, nil, 2)
		a := mustJoin(t, r1, alice, false)
		mustJoin(t, r1, dave, true)
		mustJoin(t, r2, bob, false)
		mustJoin(t, r2, carol, false)
		list := h.List()
		if len(list) != 2 {
			t.Fatalf("List: %+v", list)
		}
		w, p := list[0], list[1]
		if w.Code != r1.Code() || w.Phase != Waiting || w.Free != 2 || w.Spectators != 1 ||
			len(w.Seats) != 3 || w.Seats[0] != "alice" || w.GameID != "race" || w.Options["target"] != "10" {
			t.Errorf("waiting room: %+v", w)
		}
		if p.Code != r2.Code() || p.Phase != Playing || p.Free != 0 || p.Seats[0] != "bob" || p.Seats[1] != "carol" ||
			!p.Created.After(w.Created) {
			t.Errorf("playing room: %+v", p)
		}
		if err := a.AddBot(1, "easy"); err != nil {
			t.Fatal(err)
		}
		if got := h.List()[0]; got.Seats[1] != "Bo (easy bot)" || got.Free != 1 {
			t.Errorf("after AddBot: %+v", got)
		}
	})
}

func TestShutdown(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	_, a, b := startPair(t, h, 10)
	r2 := mustCreate(t, h, nil, 2)
	c := mustJoin(t, r2, carol, false)
	d := mustJoin(t, r2, dave, true)
	mustJoin(t, r2, bob, true) // never reads
	if got := h.Stats().Subscribers; got != 5 {
		t.Errorf("Subscribers = %d, want 5", got)
	}
	h.Shutdown("the server restarts")
	for _, s := range []*Sub{a, b, c, d} {
		last, ok := closedAfter(t, s)
		if !ok || last.Phase != Closed || last.Notice != "the server restarts" {
			t.Errorf("%s: last snapshot %v: %+v", s.Player().Name, ok, last)
		}
	}
	if _, err := h.Create("race", nil, 2, alice); !errors.Is(err, ErrShuttingDown) {
		t.Errorf("Create after Shutdown: %v", err)
	}
	if _, err := h.Find(r2.Code(), alice); !errors.Is(err, ErrNoRoom) {
		t.Errorf("Find after Shutdown: %v", err)
	}
	if _, err := r2.Join(alice, false); !errors.Is(err, ErrRoomClosed) {
		t.Errorf("Join after Shutdown: %v", err)
	}
	if err := a.Chat("hello?"); !errors.Is(err, ErrRoomClosed) {
		t.Errorf("Chat after Shutdown: %v", err)
	}
	a.Leave()
	if st := h.Stats(); st.Rooms != 0 || st.Subscribers != 0 || len(h.List()) != 0 {
		t.Errorf("after Shutdown: %+v", st)
	}
	h.Shutdown("again") // does nothing
}

func TestEmptyRoomExpires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, l := newTestHub(t, Config{EmptyExpiry: 30 * time.Minute})
		never := mustCreate(t, h, nil, 0) // nobody ever joins
		kept := mustCreate(t, h, nil, 0)
		mustJoin(t, kept, dave, true) // stays, never reads
		left := mustCreate(t, h, nil, 0)
		a := mustJoin(t, left, alice, false)

		time.Sleep(20 * time.Minute)
		a.Leave() // left is empty from now
		time.Sleep(15 * time.Minute)
		synctest.Wait()
		if _, err := h.Find(never.Code(), alice); !errors.Is(err, ErrNoRoom) {
			t.Errorf("never joined room after 35m: %v", err)
		}
		if _, err := h.Find(left.Code(), alice); err != nil {
			t.Errorf("room empty for 15m: %v", err)
		}
		time.Sleep(16 * time.Minute)
		synctest.Wait()
		if _, err := h.Find(left.Code(), alice); !errors.Is(err, ErrNoRoom) {
			t.Errorf("room empty for 30m: %v", err)
		}
		if _, err := h.Find(kept.Code(), alice); err != nil {
			t.Errorf("watched room: %v", err)
		}
		if !l.contains("expired") {
			t.Error("expiry not logged")
		}
		if got := h.Stats().Rooms; got != 1 {
			t.Errorf("Rooms = %d, want 1", got)
		}
	})
}
