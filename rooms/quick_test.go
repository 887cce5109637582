package rooms

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/arcade/arcade/rules"
)

// found returns the code of the room t was paired in, or "" when it has none yet.
func found(t *Ticket) string {
	select {
	case r := <-t.Found():
		return r
	default:
		return ""
	}
}

func mustSeek(t *testing.T, h *Hub, p Player, rating float64) *Ticket {
	t.Helper()
	tk, err := h.Seek(Seek{Game: "race", Player: p, Rating: rating})
	if err != nil {
		t.Fatalf("%s seeks: %v", p.Name, err)
	}
	return tk
}

// TestQuickMatchPairs: the first seeker waits; the second, close in rating, is paired with it at
// once, in a new two-seat room of the game's default options, which both join to play.
func TestQuickMatchPairs(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	a := mustSeek(t, h, alice, 1500)
	if found(a) != "" || h.Seeking()["race"] != 1 {
		t.Fatalf("a lone seeker was paired, or is not counted: %v", h.Seeking())
	}
	b := mustSeek(t, h, bob, 1420)
	ra, rb := <-a.Found(), <-b.Found()
	if ra != rb || len(h.Seeking()) != 0 {
		t.Fatalf("not paired in one room: %v %v, queue %v", ra, rb, h.Seeking())
	}
	r, ok := h.Room(ra)
	if !ok {
		t.Fatalf("no room %s", ra)
	}
	sa, sb := mustJoin(t, r, alice, false), mustJoin(t, r, bob, false)
	snap := waitFor(t, sa, "the match", func(s Snapshot) bool { return s.Phase == Playing })
	waitFor(t, sb, "the match", func(s Snapshot) bool { return s.Phase == Playing })
	if len(snap.Seats) != 2 || snap.Options["target"] != "10" {
		t.Errorf("quick room: %d seats, options %v", len(snap.Seats), snap.Options)
	}
}

// TestQuickMatchClosestRating: players far apart in rating wait while the window of the longer
// wait widens (100 points, 50 more a second); a newcomer is paired with the closest in rating of
// those it may meet; a player is never paired with themself, and seeking again replaces their
// earlier ticket.
func TestQuickMatchClosestRating(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _ := newTestHub(t, Config{})
		low := mustSeek(t, h, alice, 1200)
		high := mustSeek(t, h, bob, 1800)
		c1 := mustSeek(t, h, carol, 1500)
		c2 := mustSeek(t, h, carol, 1510) // replaces her first ticket
		select {
		case <-c1.Done():
		default:
			t.Error("carol's first ticket was not cancelled by her second")
		}
		synctest.Wait()
		if found(low) != "" || found(high) != "" || found(c2) != "" || h.Seeking()["race"] != 3 {
			t.Fatalf("players 290 points apart were paired at once, or the queue is %v", h.Seeking())
		}
		// dave (1750) is closest to bob (1800): paired at once, although alice waited longer.
		d := mustSeek(t, h, dave, 1750)
		synctest.Wait()
		if r := found(d); r == "" || found(high) != r {
			t.Fatal("dave (1750) was not paired with bob (1800)")
		}
		// After 4 s alice's window is 300 points: she meets carol (310 away) a second later.
		time.Sleep(4 * time.Second)
		synctest.Wait()
		if found(low) != "" {
			t.Fatal("alice was paired with carol 310 points away after 4 s")
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if r := found(low); r == "" || found(c2) != r {
			t.Fatal("alice and carol were not paired once the window had widened")
		}
		if len(h.Seeking()) != 0 {
			t.Errorf("still waiting: %v", h.Seeking())
		}
	})
}

// TestQuickMatchRefusals: a game not played by two has no quick match, an unknown one is refused,
// a cancelled ticket leaves the queue, and a shutdown ends every wait.
func TestQuickMatchRefusals(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		trio := raceGame
		trio.ID, trio.MinSeats = "trio", 3
		h, _ := newTestHub(t, Config{Games: []rules.Game{raceGame, trio}})
		if _, err := h.Seek(Seek{Game: "trio", Player: alice}); !errors.Is(err, ErrSeeking) {
			t.Errorf("a game for 3: %v", err)
		}
		if _, err := h.Seek(Seek{Game: "chess", Player: alice}); !errors.Is(err, ErrNoSuchGame) {
			t.Errorf("an unknown game: %v", err)
		}
		c := mustSeek(t, h, carol, 1500)
		c.Cancel()
		c.Cancel()
		if n := h.Seeking()["race"]; n != 0 {
			t.Errorf("%d waiting after carol cancelled", n)
		}
		a := mustSeek(t, h, alice, 1500)
		h.Shutdown("bye")
		select {
		case <-a.Done():
		default:
			t.Error("the shutdown did not end the wait")
		}
		a.Cancel()
		if _, err := h.Seek(Seek{Game: "race", Player: bob}); !errors.Is(err, ErrShuttingDown) {
			t.Errorf("seek after the shutdown: %v", err)
		}
		synctest.Wait()
	})
}
