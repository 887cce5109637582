package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"testing/synctest"

	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/session"
)

// TestFindMovingTellsAndStops: a find of a room that is moving calls its wait function while it
// waits (so that the session tells the player), ends as soon as that says no more, and its error
// is session.ErrMoving, which a session waits through, never a wrong code.
func TestFindMovingTellsAndStops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newFakeCluster()
		defer c.stopAll()
		hub := rooms.NewHub(rooms.Config{Games: games.Rules(), BotDelay: -1, MoveLimit: -1, JoinFailures: 2})
		defer hub.Shutdown("test over")
		a := c.node(t, "a", func(s *served) { s.hub = hub })
		val, _ := json.Marshal(entry{Node: "a", Summary: rooms.Summary{Code: "DDDDD"}})
		if _, err := a.n.dir.Create(context.Background(), "DDDDD", val); err != nil {
			t.Fatal(err)
		}
		a.s.do(func(st *dirState) { st.taking["DDDDD"] = true }) // a takeover that never ends
		ch := &Hub{s: a.s}
		dave := rooms.Player{ID: "dave", Name: "dave"}

		var waits int
		_, err := ch.FindMoving("ddddd", dave, func() bool { waits++; return true })
		if !errors.Is(err, session.ErrMoving) || waits == 0 {
			t.Fatalf("a find of a moving room: %v after %d calls of wait, want session.ErrMoving after some", err, waits)
		}
		waits = 0
		for range 3 {
			_, err = ch.FindMoving("DDDDD", dave, func() bool { waits++; return false })
			if !errors.Is(err, session.ErrMoving) {
				t.Fatalf("a find told to stop waiting: %v, want session.ErrMoving", err)
			}
		}
		if waits != 3 {
			t.Errorf("a find told to stop waiting called wait %d times, want once each", waits)
		}
		if _, err := ch.Find("EEEEE", dave); !errors.Is(err, rooms.ErrNoRoom) {
			t.Errorf("an unknown code after the waits: %v, want no room (the waits did not count)", err)
		}
	})
}
