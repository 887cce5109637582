package session

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
)

// movableSub is a subscription whose room can move (MovedSub): the test gives it snapshots and
// ends it, saying the room's server stopped; it records the moves it is asked to send.
type movableSub struct {
	ch    chan rooms.Snapshot
	moved bool

	mu    sync.Mutex
	moves []string
	chats []string
	left  bool
}

func newMovableSub(snap rooms.Snapshot) *movableSub {
	s := &movableSub{ch: make(chan rooms.Snapshot, 1)}
	s.ch <- snap
	return s
}

// stop ends the subscription as a remote one does when the room's server stops answering.
func (s *movableSub) stop() { s.moved = true; close(s.ch) }

func (s *movableSub) Updates() <-chan rooms.Snapshot { return s.ch }
func (s *movableSub) OnUpdate(func())                {}
func (s *movableSub) Move(_ context.Context, mv string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.moves = append(s.moves, mv)
	return nil
}
func (s *movableSub) sent() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.moves...)
}
func (s *movableSub) Chat(text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chats = append(s.chats, text)
	return nil
}
func (s *movableSub) said() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.chats...)
}
func (s *movableSub) AddBot(rules.Seat, string) error { return nil }
func (s *movableSub) EndMatch() error                 { return nil }
func (s *movableSub) Rematch() error                  { return nil }
func (s *movableSub) Resign() error                   { return nil }
func (s *movableSub) OfferDraw() error                { return nil }
func (s *movableSub) TakeBack() error                 { return nil }
func (s *movableSub) Leave() {
	s.mu.Lock()
	s.left = true
	s.mu.Unlock()
}
func (s *movableSub) Moved() bool { return s.moved }

// movingHub is a cluster's hub as a session sees it: the room of its code is moving for the first
// `moving` Finds, then found on its new server, where a Join gets next (and records whether it
// watches). With moving < 0 the room never comes back.
type movingHub struct {
	fakeHub
	code string
	next *movableSub

	mu      sync.Mutex
	moving  int
	finds   int
	watched []bool
	// release, when set, holds FindMoving after it has called moving, until it is closed.
	release chan struct{}
}

func (h *movingHub) Find(code string, _ rooms.Player) (Room, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.finds++
	if code != h.code {
		return nil, rooms.ErrNoRoom
	}
	if h.moving < 0 || h.finds <= h.moving {
		return nil, ErrMoving
	}
	return movedRoom{h}, nil
}

func (h *movingHub) FindMoving(code string, by rooms.Player, wait func() bool) (Room, error) {
	if h.release != nil {
		wait()
		<-h.release
	}
	room, err := h.Find(strings.ToUpper(code), by)
	if errors.Is(err, ErrMoving) && !wait() {
		return nil, err
	}
	return room, err
}

type movedRoom struct{ h *movingHub }

func (r movedRoom) Code() string { return r.h.code }
func (r movedRoom) Join(_ rooms.Player, watch bool) (Sub, error) {
	r.h.mu.Lock()
	defer r.h.mu.Unlock()
	r.h.watched = append(r.h.watched, watch)
	return r.h.next, nil
}

// movingModel is ann's session seated in snap's room through sub, on hub.
func movingModel(t *testing.T, hub Hub, sub Sub) Model {
	t.Helper()
	m := New(Config{Hub: hub, Boards: testBoards, Player: rooms.Player{ID: "SHA256:x", Name: "ann"},
		Width: 80, Height: 24, Send: func(tea.Msg) {}})
	next, _ := m.Update(joinedMsg{sub: sub})
	return next.(Model)
}

// stopRoom ends the session's subscription as when the room's server stops, and returns the
// command that follows the room.
func stopRoom(t *testing.T, m Model, sub *movableSub) tea.Cmd {
	t.Helper()
	sub.stop()
	_, cmd := m.Update(wakeMsg{})
	if cmd == nil || m.room == nil || m.room.moving == nil {
		t.Fatal("the session does not follow its room when the room's server stops")
	}
	return cmd
}

// TestFollowsItsRoom: when the room's server stops, the room screen stays and says the room is
// moving; a move made meanwhile is refused, saying why, and never sent; the session finds the room
// on its new server and joins it again, seated as before, and shows it; moves go there.
func TestFollowsItsRoom(t *testing.T) {
	snap := playedSnapshot(t, 14)
	first := newMovableSub(snap)
	after := snap
	after.Seq++
	after.Chat = append(after.Chat, rooms.ChatLine{Text: "the room is back"})
	hub := &movingHub{fakeHub: fakeHub{testGames}, code: snap.Code, moving: 2, next: newMovableSub(after)}
	m := movingModel(t, hub, first)
	follow := stopRoom(t, m, first)

	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
	if want := "Room K7QXM is moving to another server…"; !strings.Contains(plain(out), want) {
		t.Errorf("the screen does not say %q:\n%s", want, plain(out))
	}

	next, _ := m.Update(m.room.move("a1")())
	m = next.(Model)
	if want := "moving to another server: that was not sent"; !strings.Contains(plain(m.View().Content), want) {
		t.Errorf("a move while the room moves: the screen does not say %q:\n%s", want, plain(m.View().Content))
	}
	if len(first.sent()) != 0 || len(hub.next.sent()) != 0 {
		t.Errorf("a move made while the room moved was sent: %v, %v", first.sent(), hub.next.sent())
	}

	msg := follow()
	next, _ = m.Update(msg)
	m = next.(Model)
	if m.room == nil || m.room.moving != nil {
		t.Fatalf("the room screen after the move: %+v", msg)
	}
	screen := plain(m.View().Content)
	if strings.Contains(screen, "moving") || !strings.Contains(screen, "the room is back") || !strings.Contains(screen, "you: ann") {
		t.Errorf("the room is not shown again, seated, after it moved:\n%s", screen)
	}
	if len(hub.watched) != 1 || hub.watched[0] {
		t.Errorf("joins after the move (watching?): %v, want one, seated", hub.watched)
	}
	next, _ = m.Update(m.room.move("c3")())
	m = next.(Model)
	if got := hub.next.sent(); len(got) != 1 || got[0] != "c3" {
		t.Errorf("moves sent to the room on its new server: %v, want [c3]", got)
	}
	if got := first.sent(); len(got) != 0 {
		t.Errorf("moves sent to the stopped server: %v", got)
	}

	// A chat line goes to the room where it is now, not to the subscription the room was
	// entered with.
	m = press(m, "t", "h", "i")
	next, cmd := m.Update(keyPress("enter"))
	m = next.(Model)
	for range 3 { // the typed line to the session, the session's send, its answer
		if cmd == nil {
			break
		}
		if next, cmd = m.Update(cmd()); next != nil {
			m = next.(Model)
		}
	}
	if got := hub.next.said(); len(got) != 1 || got[0] != "hi" {
		t.Errorf("chat sent to the room on its new server: %v, want [hi]", got)
	}
	if got := first.said(); len(got) != 0 {
		t.Errorf("chat sent to the stopped server: %v", got)
	}
}

// TestFollowsAsSpectator: a spectator follows the room watching.
func TestFollowsAsSpectator(t *testing.T) {
	snap := playedSnapshot(t, 4)
	snap.You = rules.Spectator
	first := newMovableSub(snap)
	hub := &movingHub{fakeHub: fakeHub{testGames}, code: snap.Code, next: newMovableSub(snap)}
	m := movingModel(t, hub, first)
	next, _ := m.Update(stopRoom(t, m, first)())
	m = next.(Model)
	if m.room == nil || len(hub.watched) != 1 || !hub.watched[0] {
		t.Errorf("the spectator after the move: screen %v, joins (watching?) %v", m.room != nil, hub.watched)
	}
}

// TestFollowGivesUpGolden: a room that no server takes over ends the wait after followWait, and
// the lobby says so; the room is not joined.
func TestFollowGivesUpGolden(t *testing.T) {
	snap := playedSnapshot(t, 14)
	synctest.Test(t, func(t *testing.T) {
		first := newMovableSub(snap)
		hub := &movingHub{fakeHub: fakeHub{testGames}, code: snap.Code, moving: -1, next: newMovableSub(snap)}
		m := movingModel(t, hub, first)
		msg := stopRoom(t, m, first)()
		if f, ok := msg.(followedMsg); !ok || !errors.Is(f.err, ErrMoving) {
			t.Fatalf("the wait for a room nobody takes over ended with %+v", msg)
		}
		next, _ := m.Update(msg)
		m = next.(Model)
		if m.room != nil || len(hub.watched) != 0 {
			t.Fatalf("a room nobody took over: screen %v, joins %v", m.room != nil, hub.watched)
		}
		out := plain(m.View().Content)
		golden.RequireEqual(t, out)
		if want := "Room K7QXM did not come back"; !strings.Contains(out, want) {
			t.Errorf("the lobby does not say %q:\n%s", want, out)
		}
	})
}

// TestLeaveWhileMoving: a player who leaves the room while it moves is not put back in it.
func TestLeaveWhileMoving(t *testing.T) {
	snap := playedSnapshot(t, 14)
	first := newMovableSub(snap)
	hub := &movingHub{fakeHub: fakeHub{testGames}, code: snap.Code, moving: 1, next: newMovableSub(snap)}
	m := movingModel(t, hub, first)
	follow := stopRoom(t, m, first)
	m = press(m, "q", "enter")
	if m.room != nil {
		t.Fatal("q while the room moves does not leave it")
	}
	next, _ := m.Update(follow())
	m = next.(Model)
	if m.room != nil {
		t.Error("the room left while it moved is shown again")
	}
	hub.next.mu.Lock()
	left := hub.next.left
	hub.next.mu.Unlock()
	if len(hub.watched) > 0 && !left {
		t.Error("the room left while it moved was joined again and is still held")
	}
}

// TestClosedWhileMoving: a session that ends while its room moves does not join it again: the
// player may be in it from another terminal already, and would lose that seat.
func TestClosedWhileMoving(t *testing.T) {
	snap := playedSnapshot(t, 14)
	for _, moving := range []int{0, 1} {
		first := newMovableSub(snap)
		hub := &movingHub{fakeHub: fakeHub{testGames}, code: snap.Code, moving: moving, next: newMovableSub(snap)}
		m := movingModel(t, hub, first)
		follow := stopRoom(t, m, first)
		m.Close()
		if msg := follow(); msg.(followedMsg).sub != nil || len(hub.watched) != 0 {
			t.Errorf("moving %d: the room was joined again after the session ended: %+v, joins %v", moving, msg, hub.watched)
		}
	}
}

// TestJoinWaitGolden: a join of a room that is moving says so while it waits, then shows the
// room.
func TestJoinWaitGolden(t *testing.T) {
	snap := playedSnapshot(t, 14)
	hub := &movingHub{fakeHub: fakeHub{testGames}, code: snap.Code, next: newMovableSub(snap),
		release: make(chan struct{})}
	sent := make(chan tea.Msg, 10)
	m := New(Config{Hub: hub, Boards: testBoards, Player: rooms.Player{ID: "SHA256:x", Name: "ann"},
		Start: Start{Mode: ModeJoin, Code: "k7qxm"}, Width: 80, Height: 24, Send: func(msg tea.Msg) { sent <- msg }})
	open := m.Init()
	joined := make(chan tea.Msg, 1)
	go func() { joined <- open() }()
	next, _ := m.Update(<-sent)
	m = next.(Model)
	out := plain(m.View().Content)
	golden.RequireEqual(t, out)
	if want := "waiting for room K7QXM to come back"; !strings.Contains(out, want) {
		t.Errorf("the join's wait does not say %q:\n%s", want, out)
	}
	close(hub.release)
	next, _ = m.Update(<-joined)
	m = next.(Model)
	if out := plain(m.View().Content); m.room == nil || !strings.Contains(out, "you: ann") {
		t.Errorf("the room is not shown after the wait:\n%s", out)
	}
}
