package rooms

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arcade/arcade/rules"
)

// TestResignBeforeTheFirstMoveAborts: resigning before anyone moved aborts the match, unrated.
func TestResignBeforeTheFirstMoveAborts(t *testing.T) {
	rec := &recorder{}
	h, _ := newTestHub(t, Config{Recorder: rec})
	_, a, b := startPair(t, h, 10)
	if err := a.Resign(); err != nil {
		t.Fatal(err)
	}
	snap := waitFor(t, b, "the end", func(s Snapshot) bool { return s.Phase == Finished })
	if !snap.Unrated || snap.Outcome.Ranks != nil || !strings.Contains(snap.Outcome.Reason, "alice aborted the match") {
		t.Errorf("abort: unrated %v, outcome %+v", snap.Unrated, snap.Outcome)
	}
	if ev := rec.events[len(rec.events)-1]; ev.Kind != EventEnd || !ev.Unrated {
		t.Errorf("recorded end %+v", ev)
	}
}

// TestResignTwoPlayers: after a move, resigning gives the opponent the win, rated.
func TestResignTwoPlayers(t *testing.T) {
	rec := &recorder{}
	h, _ := newTestHub(t, Config{Recorder: rec})
	_, a, b := startPair(t, h, 10)
	mustMove(t, a, "2")
	if err := a.Resign(); err != nil {
		t.Fatal(err)
	}
	snap := waitFor(t, b, "the end", func(s Snapshot) bool { return s.Phase == Finished })
	if snap.Unrated || !slices.Equal(snap.Outcome.Ranks, []int{2, 1}) || snap.Outcome.Reason != "alice resigned" ||
		!chatHas(snap, "", "game over: bob wins (alice resigned)") {
		t.Errorf("resigned: unrated %v, outcome %+v, chat %v", snap.Unrated, snap.Outcome, snap.Chat)
	}
	if ev := rec.events[len(rec.events)-1]; ev.Kind != EventEnd || ev.Unrated || !slices.Equal(ev.Outcome.Ranks, []int{2, 1}) {
		t.Errorf("recorded end %+v", ev)
	}
	if err := b.Resign(); !errors.Is(err, ErrNotPlaying) {
		t.Errorf("resigning a finished match: %v", err)
	}
}

// TestDrawByAgreement: an offer stands until the opponent moves; the opponent's offer accepts
// it, and the match ends drawn, rated. Draws need two players, both people.
func TestDrawByAgreement(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	_, a, b := startPair(t, h, 20)
	mustMove(t, a, "1")
	if err := a.OfferDraw(); err != nil {
		t.Fatal(err)
	}
	snap := waitFor(t, b, "the offer", func(s Snapshot) bool { return s.Seats[0].DrawOffer })
	if !chatHas(snap, "", "alice offers a draw") {
		t.Errorf("chat %v", snap.Chat)
	}
	mustMove(t, b, "1") // declines
	snap = waitFor(t, a, "bob's move", func(s Snapshot) bool { return len(s.Moves) == 2 })
	if snap.Seats[0].DrawOffer || snap.Phase != Playing {
		t.Fatalf("the offer stands after bob's move: %+v", snap.Seats[0])
	}
	if err := b.OfferDraw(); err != nil {
		t.Fatal(err)
	}
	if err := a.OfferDraw(); err != nil {
		t.Fatal(err)
	}
	snap = waitFor(t, b, "the end", func(s Snapshot) bool { return s.Phase == Finished })
	if snap.Unrated || !slices.Equal(snap.Outcome.Ranks, []int{1, 1}) || !chatHas(snap, "", "a draw (drawn by agreement)") {
		t.Errorf("draw: unrated %v, outcome %+v, chat %v", snap.Unrated, snap.Outcome, snap.Chat)
	}

	// Against a bot, with three seats, or from a spectator: refused.
	r := mustCreate(t, h, rules.Options{"target": "10"}, 2)
	c := mustJoin(t, r, carol, false)
	if err := c.AddBot(1, "easy"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, c, "the match", func(s Snapshot) bool { return s.Phase == Playing })
	if err := c.OfferDraw(); !errors.Is(err, ErrBotPlaysOn) {
		t.Errorf("a draw offered to a bot: %v", err)
	}
	if err := mustJoin(t, r, dave, true).OfferDraw(); !errors.Is(err, ErrNotSeated) {
		t.Errorf("a draw offered by a spectator: %v", err)
	}
	r3 := mustCreate(t, h, rules.Options{"target": "10"}, 3)
	x := mustJoin(t, r3, alice, false)
	mustJoin(t, r3, bob, false)
	mustJoin(t, r3, carol, false)
	waitFor(t, x, "the match", func(s Snapshot) bool { return s.Phase == Playing })
	if err := x.OfferDraw(); !errors.Is(err, ErrDrawTwoPlayers) {
		t.Errorf("a draw offered at a table of three: %v", err)
	}
}

// TestResignAtATableOfThree: a bot plays the seat on, the player watches, and the seat is ranked
// last at the end whatever its score.
func TestResignAtATableOfThree(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	r := mustCreate(t, h, rules.Options{"target": "12"}, 3)
	a := mustJoin(t, r, alice, false)
	b := mustJoin(t, r, bob, false)
	c := mustJoin(t, r, carol, false)
	waitFor(t, a, "the match", func(s Snapshot) bool { return s.Phase == Playing })
	mustMove(t, a, "1")
	mustMove(t, b, "2")
	if err := b.Resign(); err != nil {
		t.Fatal(err)
	}
	snap := waitFor(t, b, "the takeover", func(s Snapshot) bool { return s.Seats[1].Bot != "" })
	if snap.You != rules.Spectator || !snap.Seats[1].Resigned || !chatHas(snap, "", "bob resigned; ") {
		t.Fatalf("after bob resigned: you %d, seat %+v, chat %v", snap.You, snap.Seats[1], snap.Chat)
	}
	// carol, alice and the bot play on: carol 1, the bot (random) ..., until someone reaches 12.
	for snap.Phase == Playing {
		snap = waitFor(t, a, "a move", func(s Snapshot) bool { return true })
		if snap.Phase != Playing || len(snap.ToMove) == 0 || snap.ToMove[0] == 1 {
			continue
		}
		p := map[rules.Seat]*Sub{0: a, 2: c}[snap.ToMove[0]]
		_ = p.Move(t.Context(), "2") // may be stale; the next snapshot tells
	}
	if snap.Outcome.Ranks[1] != 3 || slices.Contains(snap.Outcome.Ranks[:1], 3) || snap.Outcome.Ranks[2] == 3 {
		t.Errorf("ranks %v: bob's seat should be last (3)", snap.Outcome.Ranks)
	}
}

// endRecorder is a recorder that says what each end did.
type endRecorder struct {
	recorder
	ends int
}

func (r *endRecorder) RecordEnd(code string, e Event) (EndResult, error) {
	if err := r.Record(code, e); err != nil {
		return EndResult{}, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ends++
	return EndResult{MatchID: "m" + strconv.Itoa(r.ends), Ratings: []RatingChange{{Rated: true, Before: 1500, After: 1600}, {}}}, nil
}

// TestEndResultInSnapshots: with an EndRecorder, the snapshots of a finished match carry what
// recording its end did, whether the last move or a resignation ended it; a rematch clears it.
func TestEndResultInSnapshots(t *testing.T) {
	rec := &endRecorder{}
	h, _ := newTestHub(t, Config{Recorder: rec})
	_, a, b := startPair(t, h, 3)
	mustMove(t, a, "2")
	mustMove(t, b, "1")
	snap := waitFor(t, b, "the result", func(s Snapshot) bool { return s.Result.MatchID != "" })
	if snap.Phase != Finished || snap.Result.MatchID != "m1" || !snap.Result.Ratings[0].Rated {
		t.Errorf("result %+v in phase %v", snap.Result, snap.Phase)
	}
	if err := a.Rematch(); err != nil {
		t.Fatal(err)
	}
	if err := b.Rematch(); err != nil {
		t.Fatal(err)
	}
	snap = waitFor(t, b, "the rematch", func(s Snapshot) bool { return s.Phase == Playing })
	if snap.Result.MatchID != "" {
		t.Errorf("the rematch carries the last result: %+v", snap.Result)
	}
	mustMove(t, snap2sub(snap, a, b), "1")
	if err := a.Resign(); err != nil {
		t.Fatal(err)
	}
	if snap = waitFor(t, b, "the end", func(s Snapshot) bool { return s.Phase == Finished }); snap.Result.MatchID != "m2" {
		t.Errorf("after a resignation: %+v", snap.Result)
	}
}

// snap2sub returns whichever of a and b is to move in snap.
func snap2sub(snap Snapshot, a, b *Sub) *Sub {
	if snap.ToMove[0] == a.Seat() {
		return a
	}
	return b
}
