package matchlog

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon"
	"github.com/arcade/arcade/storage"
)

// waitSnap reads sub's snapshots until ok says yes (a generous bound, not a timing: the test
// fails rather than hangs).
func waitSnap(t *testing.T, sub *rooms.Sub, what string, ok func(rooms.Snapshot) bool) rooms.Snapshot {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		select {
		case snap, open := <-sub.Updates():
			if !open {
				t.Fatalf("updates closed while waiting for %s", what)
			}
			if ok(snap) {
				return snap
			}
		case <-timeout:
			t.Fatalf("still waiting for %s", what)
		}
	}
}

// rackOf is the viewer's rack in snap.
func rackOf(snap rooms.Snapshot) []lhexicon.Tile { return snap.View.(*lhexicon.View).Rack }

// TestTakebackReshufflesAndResumes: against a bot, ann plays a word and sees what she draws;
// she takes it back and plays the same word again, and draws other tiles: the takeback shuffled
// the bank anew, with randomness the record keeps. The record replays to the position she sees
// (record.Match.Final), and after the process dies without a word (the store closed under the
// room, as kill -9 leaves it) the match resumes from the store to the same position.
func TestTakebackReshufflesAndResumes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "arcade.db")
	db, err := storage.Open(path, storage.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	quiet := func(string, ...any) {}
	cfg := rooms.Config{Games: []rules.Game{lhexicon.Game}, Recorder: Recorder{Log: db}, BotDelay: -1,
		MoveLimit: -1, SeatGrace: time.Minute, Logf: quiet,
		NewSeed: func(string, int) uint64 { return 7 }, NewSalt: func() uint64 { return 42 }}
	hub := rooms.NewHub(cfg)
	defer hub.Shutdown("")
	ann := rooms.Player{ID: "SHA256:ann", Name: "ann"}
	r, err := hub.Create("lhexicon", nil, 2, ann)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := r.Join(ann, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := sub.AddBot(1, "easy"); err != nil {
		t.Fatal(err)
	}
	start := waitSnap(t, sub, "the match", func(s rooms.Snapshot) bool { return s.Phase == rooms.Playing })
	if start.ToMove[0] != 0 {
		t.Fatalf("seat %v moves first", start.ToMove)
	}
	v := start.View.(*lhexicon.View)
	hint, ok := v.Hint(context.Background())
	if !ok {
		t.Fatal("no first word")
	}
	word := hint.Move.String()
	play := func() rooms.Snapshot {
		t.Helper()
		if err := sub.Move(context.Background(), word); err != nil {
			t.Fatalf("ann plays %s: %v", word, err)
		}
		return waitSnap(t, sub, "the bot's reply", func(s rooms.Snapshot) bool { return len(s.Moves) == 2 })
	}
	seen := rackOf(play())
	if err := sub.TakeBack(); err != nil {
		t.Fatal(err)
	}
	back := waitSnap(t, sub, "the takeback", func(s rooms.Snapshot) bool { return len(s.Moves) == 0 })
	if !slices.Equal(rackOf(back), v.Rack) {
		t.Fatalf("after the takeback ann holds %v, before her word %v", rackOf(back), v.Rack)
	}
	again := play()
	if slices.Equal(rackOf(again), seen) {
		t.Fatalf("the same word drew the same tiles after the takeback: %v", seen)
	}

	// The record replays to what ann sees.
	open, damaged, err := db.Unfinished()
	if err != nil || len(damaged) != 0 || len(open) != 1 {
		t.Fatalf("unfinished: %v %v %v", open, damaged, err)
	}
	m := open[0]
	if want := []rules.Reshuffle{{Ply: 0, Salt: 42}}; !slices.Equal(m.Reshuffles, want) {
		t.Fatalf("recorded reshuffles %v, want %v", m.Reshuffles, want)
	}
	final, err := m.Final(lhexicon.Game)
	if err != nil {
		t.Fatal(err)
	}
	if got := final.View(0); !reflect.DeepEqual(got, again.View) {
		t.Fatalf("the record replays to\n%+v\nann sees\n%+v", got, again.View)
	}
	cur, err := record.NewCursor(m, lhexicon.Game)
	if err != nil {
		t.Fatal(err)
	}
	if got := cur.At(cur.Len()).View(0); !reflect.DeepEqual(got, again.View) {
		t.Fatal("the replay's last position is not what ann sees")
	}

	// kill -9: the store is closed under the room; a new process resumes from the file.
	db.Close()
	db2, err := storage.Open(path, storage.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	open, _, err = db2.Unfinished()
	if err != nil || len(open) != 1 {
		t.Fatalf("unfinished after the restart: %v %v", open, err)
	}
	cfg.Recorder = Recorder{Log: db2}
	hub2 := rooms.NewHub(cfg)
	defer hub2.Shutdown("")
	if err := Resume(hub2, open[0]); err != nil {
		t.Fatal(err)
	}
	r2, ok := hub2.Room(open[0].Code)
	if !ok {
		t.Fatal("the room did not come back")
	}
	sub2, err := r2.Join(ann, false)
	if err != nil {
		t.Fatal(err)
	}
	resumed := waitSnap(t, sub2, "the resumed match", func(s rooms.Snapshot) bool { return s.Phase == rooms.Playing })
	if !reflect.DeepEqual(resumed.View, again.View) {
		t.Fatalf("resumed to\n%+v\nann saw\n%+v", resumed.View, again.View)
	}
	// And the bank the bot draws from next is the same: the engines agree move for move.
	nextLive, err := final.Apply(0, "pass")
	if err != nil {
		t.Fatal(err)
	}
	if err := sub2.Move(context.Background(), "pass"); err != nil {
		t.Fatal(err)
	}
	after := waitSnap(t, sub2, "the pass", func(s rooms.Snapshot) bool { return len(s.Moves) >= 3 })
	if after.View.(*lhexicon.View).Bank != nextLive.View(0).(*lhexicon.View).Bank {
		t.Errorf("after the pass: bank %d, the record's %d", after.View.(*lhexicon.View).Bank, nextLive.View(0).(*lhexicon.View).Bank)
	}
}
