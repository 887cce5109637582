package rooms

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/arcade/arcade/rules"
)

// TestParseCorrespondenceClock: days a move, 1d to 14d, written back as days.
func TestParseCorrespondenceClock(t *testing.T) {
	for in, want := range map[string]time.Duration{"1d": Day, "3D": 3 * Day, "7d": 7 * Day, "14d": 14 * Day} {
		c, err := ParseClock(in)
		if err != nil || c != (Clock{Move: want}) || !c.Correspondence() {
			t.Errorf("ParseClock(%q) = %+v, %v", in, c, err)
		}
		if again, err := ParseClock(c.String()); err != nil || again != c {
			t.Errorf("%q is written %q, which reads %+v, %v", in, c.String(), again, err)
		}
	}
	for _, bad := range []string{"0d", "15d", "d", "1.5d", "-1d", "3d+1h", "1d+1d"} {
		if _, err := ParseClock(bad); !errors.Is(err, ErrBadClock) {
			t.Errorf("ParseClock(%q): %v", bad, err)
		}
	}
	if c, _ := ParseClock("24h"); !c.Correspondence() || c.String() != "1d" {
		t.Errorf("24h: %+v %q", c, c.String())
	}
	if c, _ := ParseClock("23h"); c.Correspondence() {
		t.Errorf("23h is a correspondence clock")
	}
}

// sleeper records the rooms that went to sleep, and wakes them from what it kept of them, as the
// store would.
type sleeper struct {
	mu     sync.Mutex
	slept  []string
	hub    *Hub
	resume map[string]Resume
}

func (s *sleeper) sleep(code string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.slept = append(s.slept, code)
}

func (s *sleeper) wake(code string) bool {
	s.mu.Lock()
	res, ok := s.resume[code]
	s.mu.Unlock()
	if !ok {
		return false
	}
	_, err := s.hub.Restore(res)
	return err == nil
}

func (s *sleeper) asleep() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.slept)
}

// TestCorrespondenceRoomSleeps: in a correspondence match a player who leaves keeps their seat
// with no countdown, the room sleeps once nobody has watched it for SleepAfter (its match not
// ended), and Find wakes it through Config.Wake.
func TestCorrespondenceRoomSleeps(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &recorder{}
		sl := &sleeper{resume: map[string]Resume{}}
		h, _ := newTestHub(t, Config{Recorder: rec, SleepAfter: time.Minute, Sleep: sl.sleep, Wake: sl.wake})
		sl.hub = h
		r, err := h.Create("race", rules.Options{"target": "10", ClockOption: "3d"}, 2, alice)
		if err != nil {
			t.Fatal(err)
		}
		a := mustJoin(t, r, alice, false)
		b := mustJoin(t, r, bob, false)
		waitFor(t, a, "the match", func(s Snapshot) bool { return s.Phase == Playing })
		mustMove(t, a, "1")
		a.LeaveByChoice()
		snap := waitFor(t, b, "alice gone", func(s Snapshot) bool { return !s.Seats[0].Connected })
		if !snap.Seats[0].GraceUntil.IsZero() || snap.Seats[0].Abandoned || snap.Clock.Ends != time.Now().Add(3*Day) {
			t.Errorf("alice's seat %+v, clock %+v", snap.Seats[0], snap.Clock)
		}
		time.Sleep(time.Hour) // no grace runs out
		synctest.Wait()
		if s := r.summary.Load(); s.Phase != Playing || len(s.Away) != 0 {
			t.Errorf("after an hour: %+v", s)
		}
		b.Leave()
		time.Sleep(time.Minute)
		<-r.Done()
		if got := sl.asleep(); !slices.Equal(got, []string{r.Code()}) {
			t.Fatalf("asleep: %v", got)
		}
		if k := rec.kinds(); slices.Contains(k, EventEnd) {
			t.Errorf("the match was ended: %v", k)
		}
		if _, ok := h.Room(r.Code()); ok {
			t.Error("the sleeping room is still open")
		}
		if _, err := h.Find(r.Code(), carol); !errors.Is(err, ErrNoRoom) {
			t.Errorf("a sleeping room the store does not know: %v", err)
		}
		sl.mu.Lock()
		sl.resume[r.Code()] = Resume{Code: r.Code(), GameID: "race", Options: rules.Options{"target": "10", ClockOption: "3d"},
			Seats:   []SeatInfo{{PlayerID: alice.ID, Name: alice.Name}, {PlayerID: bob.ID, Name: bob.Name}},
			Moves:   []MoveRecord{{Seat: 0, Move: "1", At: time.Now().Add(-time.Hour - time.Minute)}},
			Started: time.Now().Add(-2 * time.Hour)}
		sl.mu.Unlock()
		woken, err := h.Find(r.Code(), bob)
		if err != nil {
			t.Fatalf("wake: %v", err)
		}
		b = mustJoin(t, woken, bob, false)
		snap = waitFor(t, b, "the woken match", func(s Snapshot) bool { return s.Phase == Playing })
		// The turn began with alice's move: bob has 3 days from then, not from the wake.
		if want := time.Now().Add(3*Day - time.Hour - time.Minute); snap.Clock != (TurnClock{Seat: 1, Ends: want}) || snap.You != 1 {
			t.Errorf("woken: clock %+v, you %d", snap.Clock, snap.You)
		}
		if chatHas(snap, "", "restarted") {
			t.Errorf("a woken room says it restarted: %v", snap.Chat)
		}
	})
}

// TestCorrespondenceDeadlinePassedWhileAsleep: a room woken after its turn's deadline runs out
// at once: the player to move loses, rated, and the end is recorded once.
func TestCorrespondenceDeadlinePassedWhileAsleep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &recorder{}
		h, _ := newTestHub(t, Config{Recorder: rec})
		r, err := h.Restore(Resume{Code: "K7QXM", GameID: "race", Options: rules.Options{"target": "10", ClockOption: "1d"},
			Seats:   []SeatInfo{{PlayerID: alice.ID, Name: alice.Name}, {PlayerID: bob.ID, Name: bob.Name}},
			Moves:   []MoveRecord{{Seat: 0, Move: "2", At: time.Now().Add(-25 * time.Hour)}},
			Started: time.Now().Add(-26 * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		s := r.summary.Load()
		if s.Phase != Finished {
			t.Fatalf("phase %v", s.Phase)
		}
		var ends []Event
		for _, e := range rec.events {
			if e.Kind == EventEnd {
				ends = append(ends, e)
			}
		}
		if len(ends) != 1 || ends[0].Unrated || !slices.Equal(ends[0].Outcome.Ranks, []int{1, 2}) || ends[0].Outcome.Reason != "bob ran out of time" {
			t.Errorf("ends %+v", ends)
		}
		time.Sleep(time.Minute) // nobody comes: the finished room closes
		<-r.Done()
	})
}

// TestCorrespondenceTurnsRecorded: a correspondence match's start and moves carry the turn they
// begin (the seats to move and their deadline), for the store's index; a live match's do not.
func TestCorrespondenceTurnsRecorded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &recorder{}
		h, _ := newTestHub(t, Config{Recorder: rec})
		r, err := h.Create("race", rules.Options{"target": "4", ClockOption: "2d"}, 2, alice)
		if err != nil {
			t.Fatal(err)
		}
		a := mustJoin(t, r, alice, false)
		b := mustJoin(t, r, bob, false)
		waitFor(t, a, "the match", func(s Snapshot) bool { return s.Phase == Playing })
		time.Sleep(time.Hour)
		mustMove(t, a, "2")
		mustMove(t, b, "2") // the end
		rec.mu.Lock()
		defer rec.mu.Unlock()
		start, move, last := rec.events[0], rec.events[1], rec.events[2]
		if start.Kind != EventStart || !slices.Equal(start.ToMove, []rules.Seat{0}) || !start.Due.Equal(time.Now().Add(2*Day-time.Hour)) {
			t.Errorf("start %+v", start)
		}
		if move.Kind != EventMove || !slices.Equal(move.ToMove, []rules.Seat{1}) || !move.Due.Equal(time.Now().Add(2*Day)) {
			t.Errorf("move %+v", move)
		}
		if last.Kind != EventMove || last.ToMove != nil || !last.Due.IsZero() {
			t.Errorf("the last move %+v", last)
		}
		live := &recorder{}
		h2, _ := newTestHub(t, Config{Recorder: live})
		startPair(t, h2, 10)
		if e := live.events[0]; e.ToMove != nil || !e.Due.IsZero() {
			t.Errorf("a live start %+v", e)
		}
	})
}

// notices collects the turn notices of a hub.
type notices struct {
	mu  sync.Mutex
	got []string // player ID and room code
	n   []TurnNotice
}

func (n *notices) notify(id string, tn TurnNotice) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.got = append(n.got, id+" "+tn.Code)
	n.n = append(n.n, tn)
}

func (n *notices) list() ([]string, []TurnNotice) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.got), slices.Clone(n.n)
}

// TestTurnNotice: a move tells the player to move, who is not connected to the room, that it is
// their move, with the mover's name and the deadline; a player connected to it is told nothing;
// a table of a correspondence clock is refused (its match begins in the store).
func TestTurnNotice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tn := &notices{}
		h, _ := newTestHub(t, Config{TurnNotice: tn.notify, SleepAfter: -1})
		r, err := h.Create("race", rules.Options{"target": "10", ClockOption: "3d"}, 2, alice)
		if err != nil {
			t.Fatal(err)
		}
		a := mustJoin(t, r, alice, false)
		b := mustJoin(t, r, bob, false)
		snap := waitFor(t, a, "the match", func(s Snapshot) bool { return s.Phase == Playing })
		first, other := a, b
		if snap.ToMove[0] != snap.You {
			first, other = b, a
		}
		mustMove(t, first, "1")
		if got, _ := tn.list(); len(got) != 0 {
			t.Fatalf("a connected player was told: %v", got)
		}
		first.Leave()
		time.Sleep(time.Hour)
		mustMove(t, other, "1")
		got, n := tn.list()
		if !slices.Equal(got, []string{first.Player().ID + " " + r.Code()}) || n[0].By != other.Player().Name ||
			!n[0].Ends.Equal(time.Now().Add(3*Day)) || n[0].GameName != "Race" {
			t.Errorf("notices %v %+v", got, n)
		}
		if _, err := h.OpenTable(Table{Game: "race", Options: rules.Options{ClockOption: "3d"}, Players: []Player{alice, bob}}); !errors.Is(err, ErrTableClock) {
			t.Errorf("a table of a correspondence clock: %v", err)
		}
		if _, err := h.OpenTable(Table{Game: "race", Players: []Player{alice, alice}}); !errors.Is(err, ErrTableSeats) {
			t.Errorf("a table of alice twice: %v", err)
		}
		if _, err := h.OpenTable(Table{Game: "race", Players: []Player{alice, dave}}); !errors.Is(err, ErrTableSeats) {
			t.Errorf("a table with a guest: %v", err)
		}
	})
}

// TestLiveTable: a table of a live clock waits with each seat kept for its player: nobody else
// sits there, and the match starts when both have joined.
func TestLiveTable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _ := newTestHub(t, Config{})
		r, err := h.OpenTable(Table{Game: "race", Options: rules.Options{"target": "10"}, Players: []Player{alice, bob}})
		if err != nil {
			t.Fatal(err)
		}
		if s := r.summary.Load(); s.Phase != Waiting || s.SeatOf(alice.ID) != 0 || s.SeatOf(bob.ID) != 1 {
			t.Fatalf("summary %+v", s)
		}
		c := mustJoin(t, r, carol, false)
		if snap := next(t, c); snap.You != rules.Spectator {
			t.Errorf("carol took a kept seat: %d", snap.You)
		}
		b := mustJoin(t, r, bob, false)
		if snap := next(t, b); snap.You != 1 || snap.Phase != Waiting {
			t.Errorf("bob: you %d, phase %v", snap.You, snap.Phase)
		}
		b.Leave()
		b = mustJoin(t, r, bob, false)
		a := mustJoin(t, r, alice, false)
		if snap := waitFor(t, a, "the match", func(s Snapshot) bool { return s.Phase == Playing }); snap.You != 0 {
			t.Errorf("alice: you %d", snap.You)
		}
	})
}

// TestUnfinishedShareCountsSleepingMatches: the share of unfinished matches counts the
// correspondence matches a player sits in (Config.Asleep), with the rooms they opened, each once.
func TestUnfinishedShareCountsSleepingMatches(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var asleep []string
		h, _ := newTestHub(t, Config{Shares: Shares{Unfinished: 3}, Asleep: func(id string) []string {
			if id == alice.ID {
				return asleep
			}
			return nil
		}})
		r := mustCreate(t, h, rules.Options{ClockOption: "3d"}, 2)
		asleep = []string{r.Code(), "ZZZZ2"} // one open, one asleep
		mustCreate(t, h, nil, 2)
		if _, err := h.Create("race", nil, 2, alice); !errors.Is(err, ErrUnfinishedShare) {
			t.Errorf("alice's fourth: %v", err)
		}
		if _, err := h.Create("race", nil, 2, bob); err != nil {
			t.Errorf("bob's first: %v", err)
		}
	})
}
