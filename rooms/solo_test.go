package rooms

import (
	"slices"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon"
)

// soloSeed is the seed of every match of the solo tests.
const soloSeed = 7

// newSoloHub returns a hub for Lhex-i'-con, the game that may be played alone, with every match
// on soloSeed.
func newSoloHub(t *testing.T, cfg Config) *Hub {
	t.Helper()
	cfg.Games = []rules.Game{lhexicon.Game}
	cfg.NewSeed = func(string, int) uint64 { return soloSeed }
	h, _ := newTestHub(t, cfg)
	return h
}

// firstPlay returns the first legal play of the solo match on soloSeed, and the score it makes.
func firstPlay(t *testing.T) (string, int) {
	t.Helper()
	opts, err := lhexicon.Game.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := lhexicon.Game.New(opts, 1, soloSeed)
	if err != nil {
		t.Fatal(err)
	}
	mv := e.Legal(0)[0]
	if e, err = e.Apply(0, mv); err != nil {
		t.Fatal(err)
	}
	return mv, e.Outcome().Scores[0]
}

// TestSoloRoom: a room of one seat starts its match as soon as its player sits, and the player
// ends it ("end"): the room says the score, not a winner, and records the end with it.
func TestSoloRoom(t *testing.T) {
	rec := &recorder{}
	h := newSoloHub(t, Config{Recorder: rec})
	r, err := h.Create("lhexicon", nil, 1, alice)
	if err != nil {
		t.Fatal(err)
	}
	a := mustJoin(t, r, alice, false)
	snap := next(t, a)
	if snap.Phase != Playing || snap.You != 0 || !slices.Equal(snap.ToMove, []rules.Seat{0}) {
		t.Fatalf("alice alone at the table: phase %v, you %d, to move %v; want the match begun, her turn",
			snap.Phase, snap.You, snap.ToMove)
	}
	if !chatHas(snap, "", "the match begins: alice plays alone") {
		t.Errorf("chat %v", snap.Chat)
	}
	play, score := firstPlay(t)
	mustMove(t, a, play)
	mustMove(t, a, "end")
	snap = waitFor(t, a, "the end", func(s Snapshot) bool { return s.Phase == Finished })
	if snap.Unrated || len(snap.Outcome.Scores) != 1 || snap.Outcome.Scores[0] != score || score == 0 {
		t.Errorf("outcome %+v, unrated %v; want alice's score %d", snap.Outcome, snap.Unrated, score)
	}
	want := "game over: alice scored " + strconv.Itoa(score) + " (the player ended the game)"
	if !chatHas(snap, "", want) || chatHas(snap, "", "wins") || chatHas(snap, "", "draw") {
		t.Errorf("chat %v; want %q and no winner", snap.Chat, want)
	}
	if k := rec.kinds(); !slices.Equal(k, []EventKind{EventStart, EventMove, EventMove, EventEnd}) {
		t.Errorf("recorded %v", k)
	}
	rec.mu.Lock()
	end := rec.events[len(rec.events)-1]
	rec.mu.Unlock()
	if end.Unrated || end.Outcome.Scores[0] != score || len(end.Seats) != 1 || end.Seats[0].PlayerID != alice.ID {
		t.Errorf("recorded end %+v", end)
	}
	// A rematch alone starts at once too.
	if err := a.Rematch(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, "the rematch", func(s Snapshot) bool { return s.Phase == Playing && s.Match == 2 })
}

// TestSoloRoomGrace: a solo player who drops has the usual seat grace and takes the seat back;
// one who does not come back ends the match without a score, and the room closes.
func TestSoloRoomGrace(t *testing.T) {
	firstPlay(t) // the dictionary loads outside the bubble
	synctest.Test(t, func(t *testing.T) {
		rec := &recorder{}
		h := newSoloHub(t, Config{Recorder: rec, SeatGrace: 2 * time.Minute})
		r, err := h.Create("lhexicon", nil, 1, alice)
		if err != nil {
			t.Fatal(err)
		}
		a := mustJoin(t, r, alice, false)
		d := mustJoin(t, r, dave, true)
		a.Leave()
		snap := waitFor(t, d, "alice dropping", func(s Snapshot) bool { return !s.Seats[0].Connected })
		if snap.Phase != Playing || !chatHas(snap, "", "alice dropped; their seat waits 2 minutes") {
			t.Errorf("alice dropped: phase %v, chat %v", snap.Phase, snap.Chat)
		}
		time.Sleep(time.Minute)
		a = mustJoin(t, r, alice, false)
		snap = waitFor(t, a, "alice back", func(s Snapshot) bool { return s.Seats[0].Connected })
		if snap.You != 0 || snap.Phase != Playing || !chatHas(snap, "", "alice is back") {
			t.Errorf("alice back: you %d, phase %v, chat %v", snap.You, snap.Phase, snap.Chat)
		}
		a.Leave()
		time.Sleep(2*time.Minute + time.Second)
		last, _ := closedAfter(t, d)
		if last.Phase != Closed || !chatHas(last, "", "the match ended without a score: abandoned") {
			t.Errorf("alice gone: phase %v, chat %v", last.Phase, last.Chat)
		}
		rec.mu.Lock()
		end := rec.events[len(rec.events)-1]
		rec.mu.Unlock()
		if end.Kind != EventEnd || !end.Unrated {
			t.Errorf("recorded last %+v; want an unrated end", end)
		}
	})
}

// TestSoloRestore: a solo match comes back after a restart with its moves; its player takes the
// seat back and ends it.
func TestSoloRestore(t *testing.T) {
	h := newSoloHub(t, Config{})
	play, score := firstPlay(t)
	r, err := h.Restore(Resume{Code: "K7QXM", GameID: "lhexicon", Seed: soloSeed,
		Seats: []SeatInfo{{PlayerID: alice.ID, Name: alice.Name}}, Moves: []MoveRecord{{Seat: 0, Move: play}}})
	if err != nil {
		t.Fatal(err)
	}
	a := mustJoin(t, r, alice, false)
	snap := waitFor(t, a, "the restored match", func(s Snapshot) bool { return s.Phase == Playing })
	if snap.You != 0 || len(snap.Moves) != 1 || snap.Outcome.Scores[0] != score {
		t.Fatalf("restored: you %d, moves %v, outcome %+v", snap.You, snap.Moves, snap.Outcome)
	}
	mustMove(t, a, "end")
	snap = waitFor(t, a, "the end", func(s Snapshot) bool { return s.Phase == Finished })
	if !chatHas(snap, "", "game over: alice scored "+strconv.Itoa(score)) {
		t.Errorf("chat %v", snap.Chat)
	}
}
