package session

import (
	"runtime"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rooms"
)

// TestRoomWakesTheModel follows a room's snapshots into the model without a goroutine of the
// session's waiting for them: the first is taken on joining; the room's wake-ups
// (rooms.Sub.OnUpdate, a wakeMsg sent with Config.Send) bring the later ones; a wake-up with
// nothing waiting changes nothing; when the player opens the room from another terminal, the last
// snapshot (saying so) is taken before the room is left, and a wake-up after that, in the lobby,
// changes nothing.
func TestRoomWakesTheModel(t *testing.T) {
	hub := rooms.NewHub(rooms.Config{Games: testGames, BotDelay: -1, Logf: t.Logf})
	t.Cleanup(func() { hub.Shutdown("test over") })
	ann := rooms.Player{ID: "SHA256:ann", Name: "ann"}
	sent := make(chan tea.Msg) // as a program's Send: it waits until the message is taken
	m := New(Config{Hub: Local(hub), Boards: testBoards, Player: ann, Width: 80, Height: 24, Send: func(msg tea.Msg) { sent <- msg }})
	update := func(msg tea.Msg) {
		t.Helper()
		nm, _ := m.Update(msg)
		m = nm.(Model)
	}
	woken := func() {
		t.Helper()
		select {
		case msg := <-sent:
			if _, ok := msg.(wakeMsg); !ok {
				t.Fatalf("sent %T, want a wakeMsg", msg)
			}
			update(msg)
		case <-time.After(time.Minute):
			t.Fatal("the room never woke the model")
		}
	}

	update(m.open(Start{Mode: ModeNew, Game: "stonetowers", Seats: 2})())
	if m.room == nil || !m.room.have || m.room.snap.Phase != rooms.Waiting {
		t.Fatal("joining did not take the room's first snapshot: want a waiting room")
	}
	code := m.room.snap.Code

	// Bob takes the other seat: the match starts.
	room, err := hub.Find(code, rooms.Player{ID: "SHA256:bob", Name: "bob"})
	if err != nil {
		t.Fatal(err)
	}
	bob, err := room.Join(rooms.Player{ID: "SHA256:bob", Name: "bob"}, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(bob.Leave)
	for m.room.snap.Phase != rooms.Playing {
		woken()
	}
	seq := m.room.snap.Seq
	update(wakeMsg{}) // nothing waits
	if m.room == nil || m.room.snap.Seq != seq {
		t.Fatal("a wake-up with no snapshot waiting changed the room")
	}

	// Ann opens the room again elsewhere: this subscription ends.
	again, err := room.Join(ann, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(again.Leave)
	for m.room != nil {
		woken()
	}
	if !strings.Contains(m.lobby.msg, "another terminal") {
		t.Errorf("lobby message %q, want it to say the room was opened from another terminal", m.lobby.msg)
	}
	update(wakeMsg{})
	if m.room != nil || !strings.Contains(m.lobby.msg, "another terminal") {
		t.Fatal("a wake-up in the lobby changed it")
	}
}

// TestWakeCoalesces: the room's wake-ups given while a wakeMsg is on its way to the model send
// nothing more (one goroutine sends it, blocked here in Send as it is while the program is busy);
// once the model has received it, the next wake-up sends another, from the same goroutine.
func TestWakeCoalesces(t *testing.T) {
	hub := rooms.NewHub(rooms.Config{Games: testGames, BotDelay: -1, Logf: t.Logf})
	t.Cleanup(func() { hub.Shutdown("test over") })
	sent := make(chan tea.Msg)
	m := New(Config{Hub: Local(hub), Player: rooms.Player{ID: "SHA256:ann", Name: "ann"}, Width: 80, Height: 24,
		Send: func(msg tea.Msg) { sent <- msg }})
	receive := func() {
		t.Helper()
		select {
		case msg := <-sent:
			if _, ok := msg.(wakeMsg); !ok {
				t.Fatalf("sent %T, want a wakeMsg", msg)
			}
			nm, _ := m.Update(msg)
			m = nm.(Model)
		case <-time.After(time.Minute):
			t.Fatal("no wakeMsg was sent")
		}
	}
	base := senders() // those of earlier tests, which only end meanwhile
	for range 1000 {
		m.wake()
	}
	if n := senders() - base; n > 1 {
		t.Fatalf("%d goroutines sending a wakeMsg after 1000 wake-ups, want 1", n)
	}
	receive()
	m.wake()
	if n := senders() - base; n > 1 {
		t.Fatalf("%d goroutines sending a wakeMsg after a second wake-up, want the first's alone", n)
	}
	receive()
}

// TestWakerEnds: the waker's goroutine stays while wake-ups come less than wakeLinger apart, ends
// wakeLinger after the last, and the next wake-up starts it again.
func TestWakerEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sent := make(chan tea.Msg)
		m := New(Config{Hub: fakeHub{testGames}, Player: rooms.Player{ID: "SHA256:ann", Name: "ann"},
			Width: 80, Height: 24, Send: func(msg tea.Msg) { sent <- msg }})
		running := func() bool {
			m.waker.mu.Lock()
			defer m.waker.mu.Unlock()
			return m.waker.running
		}
		wake := func() {
			t.Helper()
			m.wake()
			if _, ok := (<-sent).(wakeMsg); !ok {
				t.Fatal("a wake-up sent something else than a wakeMsg")
			}
			nm, _ := m.Update(wakeMsg{})
			m = nm.(Model)
		}
		wake()
		time.Sleep(wakeLinger - time.Second)
		wake()
		time.Sleep(wakeLinger - time.Second)
		synctest.Wait()
		if !running() {
			t.Fatal("the waker ended less than wakeLinger after a wake-up")
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if running() {
			t.Fatal("the waker still runs wakeLinger after the last wake-up")
		}
		wake()
		if !running() {
			t.Fatal("a wake-up after the waker ended did not start it again")
		}
		time.Sleep(wakeLinger + time.Second) // the bubble ends with its goroutines
	})
}

// TestWakerSendsTicks: the clock's ticks come from the waker's goroutine, the one that sends the
// wake-ups, not from a goroutine each; a tick armed again before its time is sent once, at the
// later time, with the later generation; the goroutine stays while a tick is armed, however far
// away, and ends wakeLinger after the last one it sent.
func TestWakerSendsTicks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sent := make(chan tea.Msg)
		w := &waker{send: func(msg tea.Msg) { sent <- msg }}
		running := func() bool {
			w.mu.Lock()
			defer w.mu.Unlock()
			return w.running
		}
		base := tickers()
		for gen := 1; gen <= 5; gen++ {
			w.armTick(time.Second, gen)
			start := time.Now()
			if msg := <-sent; msg != (tickMsg{gen: gen}) || time.Since(start) != time.Second {
				t.Fatalf("sent %+v after %v, want tick %d after 1s", msg, time.Since(start), gen)
			}
			if n := tickers() - base; n != 1 {
				t.Fatalf("%d goroutines send the ticks, want the waker's alone", n)
			}
		}
		w.armTick(time.Second, 6)
		time.Sleep(500 * time.Millisecond)
		w.armTick(2*wakeLinger, 7) // armed again: 6 never comes
		start := time.Now()
		if msg := <-sent; msg != (tickMsg{gen: 7}) || time.Since(start) != 2*wakeLinger {
			t.Errorf("sent %+v after %v, want tick 7 after %v", msg, time.Since(start), 2*wakeLinger)
		}
		time.Sleep(wakeLinger - time.Second)
		synctest.Wait()
		if !running() {
			t.Error("the waker ended less than wakeLinger after its last tick")
		}
		w.armTick(time.Second, 8)
		w.stopTick()
		time.Sleep(wakeLinger + time.Second)
		synctest.Wait()
		if running() {
			t.Error("the waker still runs wakeLinger after its last tick, with the next one stopped")
		}
		if len(sent) != 0 {
			t.Error("a stopped tick was sent")
		}
	})
}

// tickers counts the goroutines of wakers (started by armTick or wake).
func tickers() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Count(string(buf[:n]), "created by github.com/arcade/arcade/session.(*waker).start")
		}
		buf = make([]byte, 2*len(buf))
	}
}

// senders counts the goroutines that wake started and that have not ended (here, none of them
// ends before its wakeMsg is received).
func senders() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Count(string(buf[:n]), "created by github.com/arcade/arcade/session.(*waker).start")
		}
		buf = make([]byte, 2*len(buf))
	}
}

// outlast waits, in a synctest bubble, until w's goroutine has ended: the bubble ends only with
// its goroutines, and the waker's lingers wakeLinger after its last message.
func outlast(w *waker) {
	w.stopTick()
	time.Sleep(wakeLinger + time.Second)
	synctest.Wait()
}
