package matchlog

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/storage"
)

// TestSleepingMatchRunsOutOfTime: a correspondence match whose players have gone sleeps, costs
// no room, and when its turn's deadline comes the scheduler wakes it: the room ends the match on
// time, rated, once; a player's join wakes a sleeping room too.
func TestSleepingMatchRunsOutOfTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		db, err := storage.Open(filepath.Join(t.TempDir(), "arcade.db"), storage.Options{LockTimeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		ann, bob := rooms.Player{ID: "SHA256:ann", Name: "ann"}, rooms.Player{ID: "SHA256:bob", Name: "bob"}
		for _, p := range []rooms.Player{ann, bob} {
			if err := db.Claim(p.ID, p.Name); err != nil {
				t.Fatal(err)
			}
		}
		var hub *rooms.Hub
		var dl *Deadlines
		var mu sync.Mutex
		var woken []string
		wake := func(code string) bool {
			ok, err := Wake(hub, db, code)
			if err != nil {
				t.Errorf("wake %s: %v", code, err)
			}
			return ok
		}
		hub = rooms.NewHub(rooms.Config{Games: []rules.Game{stonetowers.Game}, Recorder: Recorder{Log: db},
			SleepAfter: time.Minute, Sleep: func(string) { dl.Poke() }, Wake: wake, Logf: t.Logf})
		defer hub.Shutdown("over")
		dl = StartDeadlines(db, func(code string) {
			mu.Lock()
			woken = append(woken, code)
			mu.Unlock()
			wake(code)
		}, t.Logf)
		defer dl.Close()

		r, err := hub.Create("stonetowers", rules.Options{rooms.ClockOption: "1d"}, 2, ann)
		if err != nil {
			t.Fatal(err)
		}
		code := r.Code()
		a, _ := r.Join(ann, false)
		b, _ := r.Join(bob, false)
		first, second := a, b
		if a.Seat() != 0 {
			first, second = b, a
		}
		if err := first.Move(context.Background(), "b a1"); err != nil {
			t.Fatal(err)
		}
		a.Leave()
		b.Leave()
		time.Sleep(time.Minute)
		<-r.Done()
		if _, open := hub.Room(code); open {
			t.Fatal("the room did not sleep")
		}
		// A join wakes it; the players leave again and it sleeps again.
		woke, err := hub.Find(code, bob)
		if err != nil {
			t.Fatalf("wake by a join: %v", err)
		}
		s, err := woke.Join(second.Player(), false)
		if err != nil {
			t.Fatal(err)
		}
		s.Leave()
		time.Sleep(time.Minute)
		<-woke.Done()

		time.Sleep(24 * time.Hour) // second's turn runs out
		synctest.Wait()
		m, err := db.Match(mustActive(t, db, code, false))
		if err != nil || !m.Finished() || m.Outcome.Reason != second.Player().Name+" ran out of time" || !m.Rated {
			t.Fatalf("after the deadline: %+v %v", m, err)
		}
		if c, _ := db.Correspondence(ann.ID); len(c) != 0 {
			t.Errorf("still indexed: %+v", c)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(woken) != 1 || woken[0] != code {
			t.Errorf("woken %v", woken)
		}
	})
}

// mustActive returns the ID of the room's match: its unfinished one, or (finished) the latest
// of the player's.
func mustActive(t *testing.T, db *storage.DB, code string, unfinished bool) string {
	t.Helper()
	if id, ok := db.ActiveMatch(code); ok {
		return id
	}
	p, err := db.Profile("SHA256:ann", 1)
	if err != nil || len(p.Recent) == 0 || unfinished {
		t.Fatalf("no match of room %s: %v", code, err)
	}
	return p.Recent[0].ID
}
