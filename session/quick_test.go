package session

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rooms"
)

// quickModel is a session of player on hub, as the lobby has it before a quick match.
func quickModel(hub *rooms.Hub, id, name string) Model {
	return New(Config{Hub: Local(hub), Boards: testBoards, Player: rooms.Player{ID: id, Name: name}, Width: 80, Height: 24,
		Send: func(tea.Msg) {}})
}

// found runs the command of a wait (the first of seek's batch) and returns its message.
func foundMsg(t *testing.T, cmd tea.Cmd) quickFoundMsg {
	t.Helper()
	batch, ok := cmd().(tea.BatchMsg)
	if !ok || len(batch) == 0 {
		t.Fatalf("seek returned %T", cmd())
	}
	msg, ok := batch[0]().(quickFoundMsg)
	if !ok {
		t.Fatalf("the wait ended with %T", msg)
	}
	return msg
}

// TestQuickMatchFromTheLobby: two players choose Quick match and a game from the lobby; the first
// waits, seeing the time waited; the second is paired with them, and both are sent to the same
// room.
func TestQuickMatchFromTheLobby(t *testing.T) {
	hub := rooms.NewHub(rooms.Config{Games: testGames, BotDelay: -1, Logf: t.Logf})
	t.Cleanup(func() { hub.Shutdown("test over") })
	ann := quickModel(hub, "SHA256:ann", "ann")
	ann = press(ann, "enter") // Quick match
	if out := plain(ann.View().Content); !strings.Contains(out, "Quick match") || !strings.Contains(out, "Stone Towers") {
		t.Fatalf("the quick match page:\n%s", out)
	}
	next, annCmd := ann.Update(keyPress("enter"))
	ann = next.(Model)
	if out := plain(ann.View().Content); !strings.Contains(out, "Looking for an opponent… 0:00") || strings.Contains(out, "play a") {
		t.Fatalf("the wait:\n%s", out)
	}
	if n := hub.Seeking()["stonetowers"]; n != 1 {
		t.Fatalf("%d waiting", n)
	}
	bob := quickModel(hub, "SHA256:bob", "bob")
	bobCmd := bob.seek("stonetowers")
	a, b := foundMsg(t, annCmd), foundMsg(t, bobCmd)
	if a.code == "" || a.code != b.code {
		t.Fatalf("ann and bob were not sent to one room: %q %q", a.code, b.code)
	}
	next, cmd := ann.Update(a)
	ann = next.(Model)
	if ann.quick != nil || cmd == nil {
		t.Fatal("the wait did not end with the room being joined")
	}
	if msg, ok := cmd().(joinedMsg); !ok || msg.err != nil || msg.sub.(*rooms.Sub).Room().Code() != a.code {
		t.Fatalf("joining the quick match's room: %+v", msg)
	}
}

// TestQuickMatchWaitAndCancel: after DefaultQuickWait the screen offers a bot (b), which opens a room
// with one; esc stops looking and leaves the queue, as does the end of the session.
func TestQuickMatchWaitAndCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hub := rooms.NewHub(rooms.Config{Games: testGames, BotDelay: -1, Logf: t.Logf})
		defer hub.Shutdown("test over")
		ann := quickModel(hub, "SHA256:ann", "ann")
		ann.seek("stonetowers")
		time.Sleep(DefaultQuickWait)
		if out := plain(ann.View().Content); !strings.Contains(out, "0:30") || !strings.Contains(out, "Press b to play a greedy bot now") ||
			!strings.Contains(out, "b play a bot now") {
			t.Errorf("no bot offered after the wait:\n%s", out)
		}
		next, cmd := ann.Update(keyPress("b"))
		ann = next.(Model)
		if ann.quick != nil || cmd == nil || len(hub.Seeking()) != 0 {
			t.Fatal("b did not stop the wait and open a room")
		}
		if msg, ok := cmd().(joinedMsg); !ok || msg.err != nil {
			t.Fatalf("the room with a bot: %+v", msg)
		} else if snap := <-msg.sub.Updates(); snap.Phase != rooms.Playing || snap.Seats[1].Bot != "greedy" {
			t.Errorf("the room with a bot: phase %v, seats %+v", snap.Phase, snap.Seats)
		}

		bob := quickModel(hub, "SHA256:bob", "bob")
		bob.seek("stonetowers")
		next, _ = bob.Update(keyPress("esc"))
		bob = next.(Model)
		if bob.quick != nil || len(hub.Seeking()) != 0 || !strings.Contains(plain(bob.View().Content), "Welcome") {
			t.Errorf("esc did not stop the wait: %v waiting", hub.Seeking())
		}
		carol := quickModel(hub, "SHA256:carol", "carol")
		carol.seek("stonetowers")
		carol.Close()
		if len(hub.Seeking()) != 0 {
			t.Errorf("a closed session still waits: %v", hub.Seeking())
		}
		synctest.Wait()
	})
}

// TestFrontPage: the lobby's menu says how many players are online and how many rooms wait for
// players, and p joins the newest of them.
func TestFrontPage(t *testing.T) {
	hub := rooms.NewHub(rooms.Config{Games: testGames, BotDelay: -1, Logf: t.Logf})
	t.Cleanup(func() { hub.Shutdown("test over") })
	bob := rooms.Player{ID: "SHA256:bob", Name: "bob"}
	r, err := hub.Create("stonetowers", nil, 2, bob)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Join(bob, false); err != nil {
		t.Fatal(err)
	}
	m := New(Config{Hub: Local(hub), Boards: testBoards, Player: rooms.Player{ID: "SHA256:ann", Name: "ann"}, Width: 80, Height: 24,
		Send: func(tea.Msg) {}, Online: func() int { return 7 }})
	out := plain(m.View().Content)
	for _, want := range []string{"7 players online · 1 room waits for players", "p: join " + r.Code() + ", Stone Towers with bob",
		"p join " + r.Code()} {
		if !strings.Contains(out, want) {
			t.Errorf("the front page lacks %q:\n%s", want, out)
		}
	}
	_, cmd := m.Update(keyPress("p"))
	if cmd == nil {
		t.Fatal("p does nothing")
	}
	if msg, ok := cmd().(joinedMsg); !ok || msg.err != nil || msg.sub.(*rooms.Sub).Room() != r || msg.sub.(*rooms.Sub).Seat() != 1 {
		t.Fatalf("p did not seat ann in bob's room: %+v", msg)
	}
}

// TestResignAndDrawKeys: R asks, enter resigns (another key plays on); = offers a draw, and
// the opponent's = accepts it; the panel shows the offer; the room's keys are in every game's
// rules.
func TestResignAndDrawKeys(t *testing.T) {
	hub := rooms.NewHub(rooms.Config{Games: testGames, BotDelay: -1, Logf: t.Logf})
	t.Cleanup(func() { hub.Shutdown("test over") })
	ann := rooms.Player{ID: "SHA256:ann", Name: "ann"}
	bob := rooms.Player{ID: "SHA256:bob", Name: "bob"}
	r, err := hub.Create("stonetowers", nil, 2, ann)
	if err != nil {
		t.Fatal(err)
	}
	screen := func(p rooms.Player) Model {
		sub, err := r.Join(p, false)
		if err != nil {
			t.Fatal(err)
		}
		m := newTestModel(80, 24)
		m.room = newRoomScreen(sub, p, testGames, testBoards)
		return m
	}
	a, b := screen(ann), screen(bob)
	take := func(m Model, ok func(rooms.Snapshot) bool) {
		t.Helper()
		for snap := range m.room.sub.Updates() {
			m.room.apply(snap)
			if ok(snap) {
				return
			}
		}
		t.Fatal("updates closed")
	}
	take(a, func(s rooms.Snapshot) bool { return s.Phase == rooms.Playing })
	take(b, func(s rooms.Snapshot) bool { return s.Phase == rooms.Playing })

	a = press(a, "R")
	if out := plain(a.View().Content); !strings.Contains(words(out), "Abort the match? Nobody has moved") {
		t.Fatalf("R before the first move does not ask to abort:\n%s", out)
	}
	a = press(a, "x")
	if a.room.prompt.asking() || !strings.Contains(plain(a.View().Content), "You play on.") {
		t.Fatal("another key does not call the resignation off")
	}

	next, cmd := a.Update(keyPress("="))
	a = next.(Model)
	if msg, ok := cmd().(actionMsg); !ok || msg.err != nil {
		t.Fatalf("offering a draw: %+v", msg)
	}
	take(b, func(s rooms.Snapshot) bool { return s.Seats[0].DrawOffer })
	if out := plain(b.View().Content); !strings.Contains(out, "offers a draw") {
		t.Errorf("bob's panel does not show ann's offer:\n%s", out)
	}
	next, cmd = b.Update(keyPress("="))
	b = next.(Model)
	if msg, ok := cmd().(actionMsg); !ok || msg.err != nil || !strings.Contains(plain(b.View().Content), "You accept the draw.") {
		t.Fatalf("accepting the draw: %+v", msg)
	}
	take(a, func(s rooms.Snapshot) bool { return s.Phase == rooms.Finished })
	if out := plain(a.View().Content); !strings.Contains(out, "draw") {
		t.Errorf("the end does not say draw:\n%s", out)
	}
	a = press(a, "?")
	a = press(a, "G")
	if out := plain(a.View().Content); !strings.Contains(out, "enter says yes") || !strings.Contains(out, "R       resign") {
		t.Errorf("the rules do not end with the room's keys:\n%s", out)
	}
}

// TestClockOption: new takes the room's clock, written as the room keeps it; a bad one is
// refused with the forms it takes.
func TestClockOption(t *testing.T) {
	st, err := ParseNew([]string{"stonetowers", "clock=10M+5S"}, testGames)
	if err != nil || st.Options[rooms.ClockOption] != "10m+5s" {
		t.Errorf("clock=10M+5S: %v %v", st.Options, err)
	}
	if _, err := ParseNew([]string{"stonetowers", "clock=soon"}, testGames); err == nil || !strings.Contains(err.Error(), "10m+5s") {
		t.Errorf("clock=soon: %v", err)
	}
}

// TestGameClockShown: with a game clock the panel shows every player's time, the running one's
// ticking.
func TestGameClockShown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		snap, _ := stoneSnapshot(t, 14)
		snap.TimeControl = rooms.Clock{Game: 10 * time.Minute, Increment: 5 * time.Second}
		snap.Times = []time.Duration{4*time.Minute + 31*time.Second, 3*time.Minute + 10*time.Second}
		snap.Clock = rooms.TurnClock{Seat: 0, Ends: time.Now().Add(4*time.Minute + 20*time.Second)}
		out := words(plain(roomModel(t, snap).View().Content))
		if !strings.Contains(out, "Red 4:20 · Blue 3:10") || !strings.Contains(out, "4:20 left for your turn") {
			t.Errorf("the players' times:\n%s", out)
		}
	})
}

// TestNewRoomFormClock: the form's Clock row sets the room's clock; auto sets none.
func TestNewRoomFormClock(t *testing.T) {
	m := press(newTestModel(80, 24), "down", "enter")
	for m.lobby.form.fields()[m.lobby.form.field].label != "Clock" {
		m = press(m, "down")
	}
	if _, ok := m.lobby.form.start().Options[rooms.ClockOption]; ok {
		t.Error("auto sets a clock")
	}
	m = press(m, "right", "right", "right", "right")
	if got := m.lobby.form.start().Options[rooms.ClockOption]; got != "2m" {
		t.Errorf("clock %q, want 2m", got)
	}
	if !strings.Contains(plain(m.View().Content), "Clock        ‹ 2m ›") {
		t.Errorf("the form:\n%s", plain(m.View().Content))
	}
}

// TestQuickWaitIsConfigured: Config.QuickWait (--quick-wait) sets when the bot is offered.
func TestQuickWaitIsConfigured(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hub := rooms.NewHub(rooms.Config{Games: testGames, BotDelay: -1, Logf: t.Logf})
		defer hub.Shutdown("test over")
		ann := New(Config{Hub: Local(hub), Boards: testBoards, Player: rooms.Player{ID: "SHA256:ann", Name: "ann"},
			Width: 80, Height: 24, QuickWait: 5 * time.Second, Send: func(tea.Msg) {}})
		ann.seek("stonetowers")
		time.Sleep(4 * time.Second)
		if out := plain(ann.View().Content); strings.Contains(out, "Press b") {
			t.Errorf("a bot offered before the wait:\n%s", out)
		}
		time.Sleep(time.Second)
		if out := plain(ann.View().Content); !strings.Contains(out, "Press b to play a greedy bot now") {
			t.Errorf("no bot offered after the configured wait:\n%s", out)
		}
		ann.Close()
	})
}
