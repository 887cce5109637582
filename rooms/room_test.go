package rooms

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/arcade/arcade/rules"
)

func TestPlayToTheEnd(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	r, a, b := startPair(t, h, 5)
	_ = r
	// alice 2, bob 1, alice 2: total 5, alice wins.
	mustMove(t, a, "2")
	mustMove(t, b, "1")
	mustMove(t, a, "2")
	for _, s := range []*Sub{a, b} {
		snap := waitFor(t, s, "the end", func(s Snapshot) bool { return s.Phase == Finished })
		if !snap.Outcome.Over || !slices.Equal(snap.Outcome.Ranks, []int{1, 2}) || !slices.Equal(snap.Outcome.Scores, []int{4, 1}) ||
			snap.Unrated || len(snap.ToMove) != 0 {
			t.Errorf("%s: outcome %+v", s.Player().Name, snap.Outcome)
		}
		want := []MoveRecord{{Seat: 0, Move: "2", Name: "alice"}, {Seat: 1, Move: "1", Name: "bob"}, {Seat: 0, Move: "2", Name: "alice"}}
		if !slices.Equal(untimed(snap.Moves), want) {
			t.Errorf("%s: moves %v", s.Player().Name, snap.Moves)
		}
		if v := snap.View.(raceView); v.Total != 5 || v.Viewer != s.Seat() {
			t.Errorf("%s: view %+v", s.Player().Name, v)
		}
		if !chatHas(snap, "", "alice wins 4-1 (reached 5)") {
			t.Errorf("%s: no result line in %v", s.Player().Name, snap.Chat)
		}
	}
	if err := b.Move(context.Background(), "1"); !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("move after the end: %v", err)
	}
	if st := h.Stats(); st.Moves != 3 || st.Matches != 1 {
		t.Errorf("Stats = %+v", st)
	}
}

func TestIllegalMoveChangesNothing(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	_, a, b := startPair(t, h, 10)
	before := h.Stats().Moves
	if err := a.Move(context.Background(), "3"); err == nil || err.Error() != "you may add 1 or 2" {
		t.Errorf("illegal move: %v", err)
	}
	if err := b.Move(context.Background(), "1"); !errors.Is(err, rules.ErrNotYourTurn) || err.Error() != "it is not your turn: seat 1 is to move" {
		t.Errorf("out of turn: %v", err)
	}
	if err := a.Move(context.Background(), "x\x1b[31m"); !errors.Is(err, rules.ErrBadNotation) || strings.Contains(err.Error(), "\x1b") {
		t.Errorf("garbage: %v", err)
	}
	for _, s := range []*Sub{a, b} {
		if snap, ok := pending(s); ok {
			t.Errorf("%s got a snapshot after illegal moves: %+v", s.Player().Name, snap)
		}
	}
	if h.Stats().Moves != before {
		t.Error("moves counted")
	}
	mustMove(t, a, "1")
	if snap := next(t, b); len(snap.Moves) != 1 || snap.View.(raceView).Total != 1 || !slices.Equal(snap.ToMove, []rules.Seat{1}) {
		t.Errorf("after a legal move: %+v", snap)
	}
}

func TestSpectators(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	r, a, b := startPair(t, h, 10)
	c := mustJoin(t, r, carol, false) // the table is full: carol watches
	d := mustJoin(t, r, dave, true)
	if c.Seat() != rules.Spectator || d.Seat() != rules.Spectator {
		t.Fatalf("seats %d %d", c.Seat(), d.Seat())
	}
	mustMove(t, a, "2")
	for _, s := range []*Sub{c, d} {
		snap := waitFor(t, s, "the move", func(s Snapshot) bool { return len(s.Moves) == 1 })
		if snap.You != rules.Spectator || snap.Spectators != 2 || snap.View.(raceView).Viewer != rules.Spectator ||
			snap.View.(raceView).Total != 2 {
			t.Errorf("%s: %+v", s.Player().Name, snap)
		}
		if err := s.Move(context.Background(), "1"); !errors.Is(err, ErrNotSeated) {
			t.Errorf("%s moves: %v", s.Player().Name, err)
		}
		if err := s.Rematch(); !errors.Is(err, ErrNotFinished) {
			t.Errorf("%s rematch: %v", s.Player().Name, err)
		}
		if err := s.EndMatch(); !errors.Is(err, ErrNotSeated) {
			t.Errorf("%s ends the match: %v", s.Player().Name, err)
		}
	}
	if snap := waitFor(t, b, "the move", func(s Snapshot) bool { return len(s.Moves) == 1 }); snap.Spectators != 2 {
		t.Errorf("bob sees %d spectators", snap.Spectators)
	}
	d.Leave()
	d.Leave() // idempotent
	if _, ok := closedAfter(t, d); ok {
		t.Log("dave had a snapshot pending")
	}
	if err := d.Chat("hi"); !errors.Is(err, ErrLeft) {
		t.Errorf("chat after Leave: %v", err)
	}
	if snap := waitFor(t, a, "dave leaving", func(s Snapshot) bool { return s.Spectators == 1 }); !chatHas(snap, "", "dave stopped watching") {
		t.Errorf("chat: %v", snap.Chat)
	}
}

func TestChat(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	r, a, b := startPair(t, h, 10)
	d := mustJoin(t, r, dave, true)
	if err := a.Chat("  hello \x1b[2J\x1b]0;pwned\x07there\r\n  "); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Sub{a, b, d} {
		snap := waitFor(t, s, "the chat line", func(s Snapshot) bool { return chatHas(s, "alice", "") })
		if last := snap.Chat[len(snap.Chat)-1]; last.From != "alice" || last.Text != "hello there" || last.At.IsZero() {
			t.Errorf("%s: chat line %+v", s.Player().Name, last)
		}
	}
	if err := b.Chat(strings.Repeat("é", 500)); err != nil {
		t.Fatal(err)
	}
	snap := waitFor(t, a, "bob's line", func(s Snapshot) bool { return chatHas(s, "bob", "") })
	if got := []rune(snap.Chat[len(snap.Chat)-1].Text); len(got) != MaxChat {
		t.Errorf("long line kept %d runes", len(got))
	}
	for _, empty := range []string{"", "   ", "\x1b[31m\x07"} {
		if err := a.Chat(empty); !errors.Is(err, ErrEmptyChat) {
			t.Errorf("Chat(%q) = %v", empty, err)
		}
	}
	// System lines: joins and the start.
	for _, want := range []string{"alice sits down", "bob sits down", "the match begins: alice vs bob", "dave is watching"} {
		if !chatHas(snap, "", want) {
			t.Errorf("no system line %q in %v", want, snap.Chat)
		}
	}
}

// TestSpectatorChat: while a match is played, a spectator's line goes to the spectators' chat,
// which every subscriber receives (a player's screen shows it when asked) and the room's chat
// does not hold; a player's line goes to the room's chat, which everybody reads. When the match
// ends, the spectators' lines join the room's chat where they were said, marked as a
// spectator's, before the result; between matches a spectator's line goes to the room's chat.
func TestSpectatorChat(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	r, a, b := startPair(t, h, 5)
	d := mustJoin(t, r, dave, true)
	spectators := func(s Snapshot) []string {
		var out []string
		for _, l := range s.SpectatorChat {
			out = append(out, l.From+": "+l.Text)
		}
		return out
	}
	if err := d.Chat("bob should play 2"); err != nil {
		t.Fatal(err)
	}
	if err := a.Chat("good luck"); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Sub{a, b, d} {
		snap := waitFor(t, s, "both lines", func(s Snapshot) bool { return chatHas(s, "alice", "good luck") })
		if got := spectators(snap); !slices.Equal(got, []string{"dave: bob should play 2"}) || !snap.SpectatorChat[0].Spectator {
			t.Errorf("%s: spectators' chat %q (%+v)", s.Player().Name, got, snap.SpectatorChat)
		}
		if chatHas(snap, "dave", "") {
			t.Errorf("%s: dave's line is in the room's chat: %v", s.Player().Name, snap.Chat)
		}
	}
	mustMove(t, a, "2")
	mustMove(t, b, "1")
	mustMove(t, a, "2") // 5: alice wins
	for _, s := range []*Sub{a, b, d} {
		snap := waitFor(t, s, "the end", func(s Snapshot) bool { return s.Phase == Finished })
		if len(snap.SpectatorChat) != 0 {
			t.Errorf("%s: the spectators' chat is still apart after the end: %v", s.Player().Name, snap.SpectatorChat)
		}
		var order []string
		for _, l := range snap.Chat {
			if l.From != "" || strings.HasPrefix(l.Text, "game over") {
				order = append(order, l.From+": "+l.Text)
			}
		}
		want := []string{"dave: bob should play 2", "alice: good luck", ": game over: alice wins 4-1 (reached 5)"}
		if !slices.Equal(order, want) {
			t.Errorf("%s: chat after the end %q, want %q", s.Player().Name, order, want)
		}
		if i := slices.IndexFunc(snap.Chat, func(l ChatLine) bool { return l.From == "dave" }); i < 0 || !snap.Chat[i].Spectator {
			t.Errorf("%s: dave's line is not marked a spectator's: %+v", s.Player().Name, snap.Chat)
		}
	}
	if err := d.Chat("well played"); err != nil {
		t.Fatal(err)
	}
	if snap := waitFor(t, a, "dave's line after the match", func(s Snapshot) bool { return chatHas(s, "dave", "well played") }); len(snap.SpectatorChat) != 0 {
		t.Errorf("a spectator's line between matches went apart: %v", snap.SpectatorChat)
	}
}

func TestChatKeepsTheLastLines(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	r := mustCreate(t, h, nil, 0)
	subs := make([]*Sub, 20)
	for i := range subs {
		subs[i] = mustJoin(t, r, Player{ID: "guest-" + string(rune('a'+i)), Name: "g"}, true)
	}
	for i := range 60 {
		if err := subs[i%20].Chat("line " + string(rune('A'+i))); err != nil {
			t.Fatal(err)
		}
	}
	snap := waitFor(t, subs[0], "the last line", func(s Snapshot) bool { return chatHas(s, "g", "line "+string(rune('A'+59))) })
	if len(snap.Chat) != ChatLines || snap.Chat[0].Text != "line "+string(rune('A'+10)) {
		t.Errorf("chat has %d lines from %q", len(snap.Chat), snap.Chat[0].Text)
	}
}

func TestRejoinReplacesTheOlderConnection(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	r, a, b := startPair(t, h, 10)
	mustMove(t, a, "1")
	a2 := mustJoin(t, r, alice, false)
	if a2.Seat() != 0 {
		t.Fatalf("alice's new connection sits on %d", a2.Seat())
	}
	last, ok := closedAfter(t, a)
	if !ok || !last.Replaced || last.You != 0 {
		t.Errorf("old connection's last snapshot (%v): %+v", ok, last)
	}
	if err := a.Move(context.Background(), "1"); !errors.Is(err, ErrReplaced) {
		t.Errorf("old connection moves: %v", err)
	}
	a.Leave() // does nothing to the new one
	snap := next(t, a2)
	if snap.You != 0 || len(snap.Moves) != 1 || snap.Spectators != 0 || !snap.Seats[0].Connected {
		t.Errorf("new connection: %+v", snap)
	}
	mustMove(t, b, "2")
	mustMove(t, a2, "2")
	waitFor(t, b, "alice's move", func(s Snapshot) bool { return len(s.Moves) == 3 })
	if got := h.Stats().Subscribers; got != 2 {
		t.Errorf("Subscribers = %d", got)
	}
	// Watching does not replace.
	aw := mustJoin(t, r, alice, true)
	if aw.Seat() != rules.Spectator {
		t.Error("alice watching got a seat")
	}
	if _, ok := pending(a2); !ok {
		t.Error("no snapshot for alice's seat")
	}
}

func TestWaitingLeaveFreesTheSeat(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	r := mustCreate(t, h, nil, 3)
	a := mustJoin(t, r, alice, false)
	b := mustJoin(t, r, bob, false)
	b.Leave()
	snap := waitFor(t, a, "bob leaving", func(s Snapshot) bool { return s.Seats[1].Empty })
	if !chatHas(snap, "", "bob left") {
		t.Errorf("chat %v", snap.Chat)
	}
	c := mustJoin(t, r, carol, false)
	if c.Seat() != 1 {
		t.Errorf("carol sits on %d", c.Seat())
	}
	b = mustJoin(t, r, bob, false)
	if b.Seat() != 2 {
		t.Errorf("bob sits on %d", b.Seat())
	}
	waitFor(t, a, "the match", func(s Snapshot) bool { return s.Phase == Playing })
}

func TestRematchRotatesSeats(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	r := mustCreate(t, h, map[string]string{"target": "3"}, 3)
	a := mustJoin(t, r, alice, false)
	b := mustJoin(t, r, bob, false)
	if err := a.Rematch(); !errors.Is(err, ErrNotFinished) {
		t.Errorf("rematch while waiting: %v", err)
	}
	if err := b.AddBot(2, "easy"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, "the match", func(s Snapshot) bool { return s.Phase == Playing })
	mustMove(t, a, "1")
	mustMove(t, b, "1")
	// the bot adds 1: total 3, the bot wins.
	waitFor(t, a, "the end", func(s Snapshot) bool { return s.Phase == Finished })
	if err := a.Rematch(); err != nil {
		t.Fatal(err)
	}
	if err := a.Rematch(); err != nil { // twice is once
		t.Fatal(err)
	}
	snap := waitFor(t, b, "alice's vote", func(s Snapshot) bool { return s.Seats[0].Rematch })
	if snap.Phase != Finished || snap.Seats[1].Rematch || !snap.Seats[2].Rematch || !chatHas(snap, "", "alice wants a rematch") {
		t.Errorf("after one vote: %+v", snap)
	}
	if err := b.Rematch(); err != nil {
		t.Fatal(err)
	}
	snap = waitFor(t, a, "the rematch", func(s Snapshot) bool { return s.Phase == Playing })
	names := []string{snap.Seats[0].Name, snap.Seats[1].Name, snap.Seats[2].Name}
	if !slices.Equal(names, []string{"bob", "Cy (easy bot)", "alice"}) || snap.Match != 2 || len(snap.Moves) != 0 ||
		snap.You != 2 || a.Seat() != 2 || b.Seat() != 0 || slices.ContainsFunc(snap.Seats, func(s SeatInfo) bool { return s.Rematch }) {
		t.Errorf("rematch seats %v, match %d, alice on %d/%d, bob on %d", names, snap.Match, snap.You, a.Seat(), b.Seat())
	}
	mustMove(t, b, "1") // bob moves first now
	waitFor(t, a, "alice's turn", func(s Snapshot) bool { return slices.Equal(s.ToMove, []rules.Seat{2}) })
	mustMove(t, a, "1")
	snap = waitFor(t, b, "the end", func(s Snapshot) bool { return s.Phase == Finished })
	if !slices.Equal(snap.Outcome.Ranks, []int{2, 2, 1}) {
		t.Errorf("ranks %v", snap.Outcome.Ranks)
	}
	if st := h.Stats(); st.Matches != 2 {
		t.Errorf("Matches = %d", st.Matches)
	}
}

func TestRematchWithoutAPlayerWhoLeft(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	_, a, b := startPair(t, h, 3)
	mustMove(t, a, "2")
	mustMove(t, b, "1")
	waitFor(t, a, "the end", func(s Snapshot) bool { return s.Phase == Finished })
	b.Leave()
	if err := a.Rematch(); err != nil {
		t.Fatal(err)
	}
	snap := waitFor(t, a, "bob leaving", func(s Snapshot) bool { return !s.Seats[1].Connected })
	if snap.Phase != Finished || !snap.Seats[1].GraceUntil.IsZero() {
		t.Fatalf("after bob left: %+v", snap)
	}
	if err := a.AddBot(0, "easy"); !errors.Is(err, ErrSeatTaken) {
		t.Errorf("bot on alice's own seat: %v", err)
	}
	if err := a.AddBot(1, "easy"); err != nil {
		t.Fatal(err)
	}
	// The bot moves first in the rematch, then it is alice's turn.
	snap = waitFor(t, a, "the rematch", func(s Snapshot) bool { return s.Phase == Playing && len(s.Moves) == 1 })
	if snap.Seats[0].Bot != "easy" || snap.Seats[1].Name != "alice" || snap.You != 1 || snap.Match != 2 ||
		!slices.Equal(snap.ToMove, []rules.Seat{1}) {
		t.Errorf("rematch: %+v", snap)
	}
}

func TestStuckSubscriberDoesNotSlowTheOthers(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	const target = 100
	r, a, b := startPair(t, h, target)
	stuck := mustJoin(t, r, carol, true) // never reads
	var wg sync.WaitGroup
	// Each player reads every snapshot: after each move of theirs, the other sees it.
	for i, s := range []*Sub{a, b} {
		wg.Go(func() {
			for {
				snap := waitFor(t, s, "my turn or the end", func(snap Snapshot) bool {
					return snap.Phase == Finished || slices.Contains(snap.ToMove, rules.Seat(i))
				})
				if snap.Phase == Finished {
					return
				}
				if err := s.Move(context.Background(), "1"); err != nil {
					t.Errorf("%s: %v", s.Player().Name, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	// The stuck subscriber holds exactly one snapshot: the newest.
	snap, ok := pending(stuck)
	if !ok || snap.Phase != Finished || len(snap.Moves) != target {
		t.Errorf("stuck subscriber holds %v: phase %v, %d moves", ok, snap.Phase, len(snap.Moves))
	}
	if _, ok := pending(stuck); ok {
		t.Error("more than one snapshot held")
	}
}

// TestSnapshotsAreCopies: what one change's snapshots share is made for that change; a receiver
// that broke the read-only contract would not change the room's later snapshots.
func TestSnapshotsAreCopies(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	_, a, b := startPair(t, h, 10)
	mustMove(t, a, "1")
	snap := next(t, a)
	snap.Seats[0].Name = "mallory"
	snap.ToMove[0] = 0
	snap.Outcome.Scores[0] = 99
	mustMove(t, b, "1")
	got := next(t, b)
	if got.Seats[0].Name != "alice" || got.Options["target"] != "10" || got.Outcome.Scores[0] != 1 || !slices.Equal(got.ToMove, []rules.Seat{0}) {
		t.Errorf("a receiver changed the room: %+v", got)
	}
	if got.Seq <= snap.Seq {
		t.Errorf("Seq %d after %d", got.Seq, snap.Seq)
	}
}

// recorder records events and can refuse moves.
type recorder struct {
	mu     sync.Mutex
	events []Event
	refuse bool
	down   bool // refuse every move with ErrStorageDown
}

func (r *recorder) Record(code string, e Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.down && e.Kind == EventMove {
		return fmt.Errorf("%w: fdatasync: input/output error", ErrStorageDown)
	}
	if r.refuse && e.Kind == EventMove {
		return errors.New("disk full")
	}
	r.events = append(r.events, e)
	return nil
}

func (r *recorder) kinds() []EventKind {
	r.mu.Lock()
	defer r.mu.Unlock()
	var k []EventKind
	for _, e := range r.events {
		k = append(k, e.Kind)
	}
	return k
}

func TestRecorder(t *testing.T) {
	rec := &recorder{}
	h, _ := newTestHub(t, Config{Recorder: rec})
	_, a, b := startPair(t, h, 3)
	mustMove(t, a, "1")
	rec.mu.Lock()
	rec.refuse = true
	rec.mu.Unlock()
	if err := b.Move(context.Background(), "1"); !errors.Is(err, ErrNotSaved) {
		t.Errorf("refused move: %v", err)
	}
	if _, ok := pending(b); !ok {
		t.Error("bob had no snapshot of alice's move")
	}
	if snap, ok := pending(b); ok {
		t.Errorf("a refused move was broadcast: %+v", snap)
	}
	rec.mu.Lock()
	rec.refuse = false
	rec.mu.Unlock()
	mustMove(t, b, "02") // recorded in canonical notation, "2"
	waitFor(t, a, "the end", func(s Snapshot) bool { return s.Phase == Finished })
	want := []EventKind{EventStart, EventMove, EventMove, EventEnd}
	if got := rec.kinds(); !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	start, mv, end := rec.events[0], rec.events[2], rec.events[3]
	if start.GameID != "race" || start.Match != 1 || start.Seed != 1 || start.Options["target"] != "3" || len(start.Seats) != 2 ||
		start.Seats[1].PlayerID != bob.ID {
		t.Errorf("start: %+v", start)
	}
	if mv.Ply != 1 || mv.Seat != 1 || mv.Move != "2" || !mv.Outcome.Over {
		t.Errorf("move: %+v", mv)
	}
	if !end.Outcome.Over || end.Unrated || end.Ply != 2 {
		t.Errorf("end: %+v", end)
	}
}

func TestChatRateLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _ := newTestHub(t, Config{})
		r := mustCreate(t, h, nil, 0)
		a := mustJoin(t, r, alice, false)
		d := mustJoin(t, r, dave, true)
		for i := range ChatBurst {
			if err := a.Chat("spam"); err != nil {
				t.Fatalf("line %d: %v", i, err)
			}
			time.Sleep(100 * time.Millisecond)
		}
		if err := a.Chat("spam"); !errors.Is(err, ErrSlowDown) {
			t.Errorf("line %d: %v", ChatBurst+1, err)
		}
		if err := d.Chat("others may talk"); err != nil {
			t.Errorf("dave: %v", err)
		}
		time.Sleep(ChatWindow - 450*time.Millisecond) // only the first line is out of the window now
		if err := a.Chat("again"); err != nil {
			t.Errorf("after the window: %v", err)
		}
		if err := a.Chat("and again"); !errors.Is(err, ErrSlowDown) {
			t.Errorf("second line after the window: %v", err)
		}
	})
}

// flakyRecorder refuses the first n moves.
type flakyRecorder struct{ refusals atomic.Int32 }

func (f *flakyRecorder) Record(code string, e Event) error {
	if e.Kind == EventMove && f.refusals.Add(-1) >= 0 {
		return errors.New("disk busy")
	}
	return nil
}

func TestBotRetriesARefusedMove(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &flakyRecorder{}
		rec.refusals.Store(2)
		h, l := newTestHub(t, Config{Recorder: rec})
		r := mustCreate(t, h, rules.Options{"target": "10"}, 2)
		d := mustJoin(t, r, dave, true)
		if err := d.AddBot(0, "easy"); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		a := mustJoin(t, r, alice, false) // the match starts; the bot moves first
		snap := waitFor(t, a, "the bot's move", func(s Snapshot) bool { return len(s.Moves) == 1 })
		if took := time.Since(start); took != 2*botRetry {
			t.Errorf("the bot's move came after %v, want two retries", took)
		}
		if snap.Moves[0].Seat != 0 || !l.contains("recording move 0: disk busy") {
			t.Errorf("moves %v", snap.Moves)
		}
	})
}

// TestStorageDown: a Recorder that can save nothing more until the restart refuses the move with
// ErrStorageDown, which the player sees; nothing changes, and a bot does not try again.
func TestStorageDown(t *testing.T) {
	rec := &recorder{}
	h, l := newTestHub(t, Config{Recorder: rec})
	_, a, b := startPair(t, h, 3)
	rec.mu.Lock()
	rec.down = true
	rec.mu.Unlock()
	if err := a.Move(context.Background(), "1"); !errors.Is(err, ErrStorageDown) {
		t.Errorf("move with the storage down: %v", err)
	}
	if snap, ok := pending(b); ok {
		t.Errorf("a refused move was broadcast: %+v", snap)
	}
	if !l.contains("recording move 0: " + ErrStorageDown.Error()) {
		t.Error("the refusal was not logged")
	}
}

// countingRecorder refuses every move with ErrStorageDown and counts the tries.
type countingRecorder struct{ tries atomic.Int32 }

func (c *countingRecorder) Record(code string, e Event) error {
	if e.Kind == EventMove {
		c.tries.Add(1)
		return fmt.Errorf("%w: sync failed", ErrStorageDown)
	}
	return nil
}

func TestBotWaitsWhileStorageIsDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &countingRecorder{}
		h, _ := newTestHub(t, Config{Recorder: rec})
		r := mustCreate(t, h, rules.Options{"target": "10"}, 2)
		d := mustJoin(t, r, dave, true)
		if err := d.AddBot(0, "easy"); err != nil {
			t.Fatal(err)
		}
		mustJoin(t, r, alice, false) // the match starts; the bot moves first
		time.Sleep(10 * botRetry)
		synctest.Wait()
		if n := rec.tries.Load(); n != 1 {
			t.Errorf("the bot tried %d times, want once: nothing can be saved until the restart", n)
		}
	})
}

func TestMoveWithADoneContext(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	_, a, b := startPair(t, h, 10)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := a.Move(ctx, "1"); !errors.Is(err, context.Canceled) {
		t.Errorf("Move: %v", err)
	}
	if _, ok := pending(b); ok {
		t.Error("the move was played")
	}
	for p, want := range map[Phase]string{Waiting: "waiting", Playing: "playing", Finished: "finished", Closed: "closed", 9: "unknown"} {
		if p.String() != want {
			t.Errorf("Phase(%d) = %q", p, p)
		}
	}
	if g := h.Games(); len(g) != 1 || g[0].ID != "race" || a.Room().Game().ID != "race" {
		t.Errorf("Games: %v", g)
	}
}

// publicRace is the race game with a view that is the same for every viewer, and says so.
type publicRace struct{ race }

func (g publicRace) PublicView() {}

func (g publicRace) Apply(seat rules.Seat, move string) (rules.Engine, error) {
	next, err := g.race.Apply(seat, move)
	if err != nil {
		return nil, err
	}
	return publicRace{next.(race)}, nil
}

func (g publicRace) View(rules.Seat) any { return &g.race } // a new pointer at every call

// TestPublicViewComputedOnce: for an engine whose view is public, every subscriber gets the
// same view value, computed once per state.
func TestPublicViewComputedOnce(t *testing.T) {
	g := raceGame
	g.ID = "publicrace"
	g.New = func(opts rules.Options, seats int, seed uint64) (rules.Engine, error) {
		e, err := raceGame.New(opts, seats, seed)
		if err != nil {
			return nil, err
		}
		return publicRace{e.(race)}, nil
	}
	h, _ := newTestHub(t, Config{Games: []rules.Game{g}})
	r, err := h.Create("publicrace", rules.Options{"target": "10"}, 2, alice)
	if err != nil {
		t.Fatal(err)
	}
	a := mustJoin(t, r, alice, false)
	b := mustJoin(t, r, bob, false)
	c := mustJoin(t, r, carol, false)
	waitFor(t, a, "the match", func(s Snapshot) bool { return s.Phase == Playing })
	mustMove(t, a, "2")
	var views []any
	for _, s := range []*Sub{a, b, c} {
		views = append(views, waitFor(t, s, "the move", func(s Snapshot) bool { return len(s.Moves) == 1 }).View)
	}
	if views[0] != views[1] || views[1] != views[2] {
		t.Errorf("players and spectator got different view values: %p %p %p", views[0], views[1], views[2])
	}
}

// TestNewSeedGetsCodeAndMatch: a room asks for each match's seed with its code and the match's
// number in the room.
func TestNewSeedGetsCodeAndMatch(t *testing.T) {
	var mu sync.Mutex
	var calls []string
	h, _ := newTestHub(t, Config{NewSeed: func(code string, match int) uint64 {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, code+"/"+strconv.Itoa(match))
		return uint64(match)
	}})
	r, _, _ := startPair(t, h, 10)
	mu.Lock()
	defer mu.Unlock()
	if want := []string{r.Code() + "/1"}; !slices.Equal(calls, want) {
		t.Errorf("NewSeed calls %v, want %v", calls, want)
	}
}

// holdingRecorder records events, holding the end of a match until released.
type holdingRecorder struct {
	recorder
	ending  chan struct{} // closed when the end arrives
	release chan struct{}
}

func (r *holdingRecorder) Record(code string, e Event) error {
	if e.Kind == EventEnd {
		close(r.ending)
		<-r.release
	}
	return r.recorder.Record(code, e)
}

// TestLastMoveSeenBeforeEndRecorded: the move that ends a match is on disk before anyone sees it,
// and the players see it, with the result, without waiting for the end to be recorded.
func TestLastMoveSeenBeforeEndRecorded(t *testing.T) {
	rec := &holdingRecorder{ending: make(chan struct{}), release: make(chan struct{})}
	h, _ := newTestHub(t, Config{Recorder: rec})
	_, a, b := startPair(t, h, 3)
	mustMove(t, a, "1")
	moved := make(chan error, 1)
	go func() { moved <- b.Move(context.Background(), "2") }()
	<-rec.ending
	snap := waitFor(t, a, "the end", func(s Snapshot) bool { return s.Phase == Finished })
	if len(snap.Moves) != 2 || !snap.Outcome.Over || !chatHas(snap, "", "wins") {
		t.Errorf("alice's last snapshot: %+v", snap)
	}
	if got := rec.kinds(); !slices.Equal(got, []EventKind{EventStart, EventMove, EventMove}) {
		t.Errorf("events before the end is recorded: %v", got)
	}
	close(rec.release)
	if err := <-moved; err != nil {
		t.Fatal(err)
	}
	if got := rec.kinds(); !slices.Equal(got, []EventKind{EventStart, EventMove, EventMove, EventEnd}) {
		t.Errorf("events: %v", got)
	}
}

// TestOnUpdate: the function a subscriber sets with OnUpdate is called after each snapshot the
// room leaves on Updates, with the snapshot already there, and once more after Updates closes;
// a later OnUpdate replaces it.
func TestOnUpdate(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	_, a, b := startPair(t, h, 10)
	const closed = -1
	woken := make(chan int64, 64) // the Seq waiting on Updates when called, or closed
	a.OnUpdate(func() {
		select {
		case snap, ok := <-a.Updates():
			if !ok {
				woken <- closed
				return
			}
			woken <- int64(snap.Seq)
		default:
			t.Error("called with nothing waiting on Updates")
			woken <- 0
		}
	})
	next := func() int64 {
		t.Helper()
		select {
		case seq := <-woken:
			return seq
		case <-time.After(patience):
			t.Fatal("OnUpdate's function was not called")
			return 0
		}
	}
	mustMove(t, a, "1")
	if seq := next(); seq <= 0 {
		t.Fatalf("called with %d waiting; want the move's snapshot", seq)
	}
	a.Leave()
	for next() != closed {
	}
	replaced := make(chan struct{}, 8)
	b.OnUpdate(func() { replaced <- struct{}{} })
	b.OnUpdate(func() {})
	b.Leave()
	select {
	case <-replaced:
		t.Error("a replaced OnUpdate function was called")
	case <-time.After(100 * time.Millisecond):
	}
}

// TestBotNames: bots are named, with their level, and no two in a room share a name, even when
// they stand on the seats whose names they would take first.
func TestBotNames(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	a := mustJoin(t, mustCreate(t, h, rules.Options{"target": "10"}, 4), alice, false)
	for _, seat := range []rules.Seat{1, 2} {
		if err := a.AddBot(seat, "easy"); err != nil {
			t.Fatal(err)
		}
	}
	snap := waitFor(t, a, "two bots", func(s Snapshot) bool { return !s.Seats[2].Empty })
	if snap.Seats[1].Name != "Bo (easy bot)" || snap.Seats[2].Name != "Cy (easy bot)" {
		t.Fatalf("bots %q and %q", snap.Seats[1].Name, snap.Seats[2].Name)
	}
	r := &Room{seats: []*seatState{{}, {}, {}}}
	r.seatBot(r.seats[0], rules.BotLevel{Name: "easy"}, "Bo (easy bot)")
	r.seatBot(r.seats[1], rules.BotLevel{Name: "easy"}, "")
	r.seatBot(r.seats[2], rules.BotLevel{Name: "easy"}, "Bo (easy bot)")
	if got := []string{r.seats[0].name(), r.seats[1].name(), r.seats[2].name()}; got[0] != "Bo (easy bot)" ||
		got[1] == got[0] || got[2] == got[0] || got[2] == got[1] {
		t.Errorf("names %q: want them distinct, the first kept", got)
	}
}
