package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"testing/synctest"

	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
)

// TestJoinWaitsForTakeover: a join of a room being taken over on this node waits for it and gets
// the room, rather than "no room has that code"; a room that does not arrive is "moving", and
// neither counts against the player's wrong codes, whereas an unknown code does.
func TestJoinWaitsForTakeover(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newFakeCluster()
		defer c.stopAll()
		hub := rooms.NewHub(rooms.Config{Games: games.Rules(), BotDelay: -1, MoveLimit: -1, JoinFailures: 2})
		defer hub.Shutdown("test over")
		release := make(chan struct{})
		a := c.node(t, "a", func(s *served) {
			s.hub = hub
			s.catchUp = func(ctx context.Context, _ uint64) error { // a replica slow to reach the fence
				select {
				case <-release:
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			s.restore = func(m record.Match) error {
				_, err := hub.Restore(rooms.Resume{Code: m.Code, GameID: "discon",
					Seats: []rooms.SeatInfo{{Name: "alice", PlayerID: "alice"}, {Name: "bob", PlayerID: "bob"}}})
				return err
			}
		})
		x := c.node(t, "x")
		x.reserve(t, "AAAAA", "BBBBB")
		sleep(2 * fakeBeat)
		c.kill(x, true)
		sleep(fakeBeat) // a has taken AAAAA and BBBBB over, its replica not yet at the fence

		ch := &Hub{s: a.s}
		carol := rooms.Player{ID: "carol", Name: "carol"}
		found := make(chan error, 1)
		go func() {
			r, err := ch.Find("AAAAA", carol)
			if err == nil && r.Code() != "AAAAA" {
				err = errors.New("found room " + r.Code())
			}
			found <- err
		}()
		sleep(3 * fakeBeat)
		select {
		case err := <-found:
			t.Fatalf("the join did not wait for the takeover: %v", err)
		default:
		}
		close(release)
		if err := <-found; err != nil {
			t.Fatalf("the join during the takeover: %v", err)
		}

		// A room that never arrives (its restore fails) is "moving" at the end of the wait, as
		// often as asked, never "too many attempts".
		for range 3 {
			_, err := ch.Find("CCCCC", carol) // unknown: counts
			if !errors.Is(err, rooms.ErrNoRoom) && !errors.Is(err, rooms.ErrTooManyAttempts) {
				t.Fatalf("an unknown code: %v, want no room", err)
			}
		}
		dave := rooms.Player{ID: "dave", Name: "dave"}
		val, _ := json.Marshal(entry{Node: "a", Summary: rooms.Summary{Code: "DDDDD"}})
		if _, err := a.n.dir.Create(context.Background(), "DDDDD", val); err != nil {
			t.Fatal(err)
		}
		a.s.do(func(st *dirState) { st.taking["DDDDD"] = true })
		for range 3 {
			_, err := ch.Find("DDDDD", dave)
			if !errors.As(err, new(errMoving)) {
				t.Fatalf("a room being taken over that never opens: %v, want moving", err)
			}
		}
		if _, err := ch.Find("EEEEE", dave); !errors.Is(err, rooms.ErrNoRoom) {
			t.Errorf("dave's first unknown code after 3 waits for a moving room: %v, want no room (the waits did not count)", err)
		}
	})
}
