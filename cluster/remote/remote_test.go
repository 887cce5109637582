package remote_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/arcade/arcade/cluster/remote"
	"github.com/arcade/arcade/cluster/wire"
	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon"
	"github.com/arcade/arcade/session"
)

const seed = 5

// patience bounds every wait; it guards against hanging and measures nothing.
const patience = time.Minute

// opt is every node's: a ping timeout short enough for the liveness tests to see a node go in a
// second, long enough (four pings missed in a row) that a busy machine does not make one go.
var opt = remote.Options{Timeout: 2 * time.Second, PingTimeout: time.Second}

var (
	ann   = rooms.Player{ID: "SHA256:ann", Name: "ann"}
	bob   = rooms.Player{ID: "SHA256:bob", Name: "bob"}
	carol = rooms.Player{ID: "SHA256:carol", Name: "carol"}
)

func init() {
	if err := wire.Register(games.Rules()); err != nil {
		panic(err)
	}
}

// startNATS starts an in-process NATS server and returns its URL.
func startNATS(t *testing.T) string {
	t.Helper()
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(patience) {
		t.Fatal("nats-server not ready")
	}
	t.Cleanup(s.Shutdown)
	return s.ClientURL()
}

func connect(t *testing.T, url string) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// cluster is a host node (hub, host connection) and the other node's connection.
type cluster struct {
	hub      *rooms.Hub
	url      string
	hostNC   *nats.Conn
	otherNC  *nats.Conn
	room     *rooms.Room
	host     *remote.Host
	state    rules.Engine // the match as the room plays it (the same seed), once started
	gameOpts rules.Options
}

func newCluster(t *testing.T, game string, seats int) *cluster {
	t.Helper()
	c := &cluster{url: startNATS(t)}
	c.hostNC, c.otherNC = connect(t, c.url), connect(t, c.url)
	c.hub = rooms.NewHub(rooms.Config{Games: games.Rules(), BotDelay: -1, MoveLimit: -1, SeatGrace: time.Minute,
		NewSeed: func(string, int) uint64 { return seed }, Logf: t.Logf})
	t.Cleanup(func() { c.hub.Shutdown("test over") })
	var err error
	if c.room, err = c.hub.Create(game, nil, seats, ann); err != nil {
		t.Fatal(err)
	}
	if c.host, err = remote.Serve(c.hostNC, c.room, "host", opt); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.host.Close)
	return c
}

// join joins p to the room from the other node.
func (c *cluster) join(t *testing.T, nc *nats.Conn, p rooms.Player, watch bool) session.Sub {
	t.Helper()
	s, err := remote.Dial(nc, c.room.Code(), "host", opt).Join(p, watch)
	if err != nil {
		t.Fatalf("%s joins: %v", p.Name, err)
	}
	t.Cleanup(s.Leave)
	return s
}

// startState makes the engine of the room's match (the seed is fixed).
func (c *cluster) startState(t *testing.T, snap rooms.Snapshot) {
	t.Helper()
	g, _ := c.hub.Game(snap.GameID)
	var err error
	if c.state, err = g.New(maps.Clone(snap.Options), len(snap.Seats), seed); err != nil {
		t.Fatal(err)
	}
}

// play plays the first legal move of seat through s and on the shadow state; it returns the move.
func (c *cluster) play(t *testing.T, s session.Sub, seat rules.Seat) string {
	t.Helper()
	mv := c.state.Legal(seat)[0]
	if err := s.Move(context.Background(), mv); err != nil {
		t.Fatalf("seat %d plays %q: %v", seat, mv, err)
	}
	next, err := c.state.Apply(seat, mv)
	if err != nil {
		t.Fatal(err)
	}
	c.state = next
	return mv
}

// await reads s's snapshots until one satisfies ok, failing t if the channel closes or patience
// runs out.
func await(t *testing.T, s session.Sub, what string, ok func(rooms.Snapshot) bool) rooms.Snapshot {
	t.Helper()
	deadline := time.After(patience)
	for {
		select {
		case snap, open := <-s.Updates():
			if !open {
				t.Fatalf("updates closed while waiting for %s", what)
			}
			if ok(snap) {
				return snap
			}
		case <-deadline:
			t.Fatalf("no snapshot with %s", what)
		}
	}
}

// awaitClosed reads s's snapshots until the channel closes and returns the last one.
func awaitClosed(t *testing.T, s session.Sub, what string) rooms.Snapshot {
	t.Helper()
	deadline := time.After(patience)
	var last rooms.Snapshot
	for {
		select {
		case snap, open := <-s.Updates():
			if !open {
				return last
			}
			last = snap
		case <-deadline:
			t.Fatalf("updates not closed: %s", what)
		}
	}
}

// eventually polls cond until it holds, failing t after patience.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestRemoteMatch: bob, on the other node, plays against ann, who is local; each sees the other's
// moves; the room's errors keep their text and identity; a remote spectator may chat, not move.
func TestRemoteMatch(t *testing.T) {
	t.Parallel()
	c := newCluster(t, "stonetowers", 2)
	annSub, err := c.room.Join(ann, false)
	if err != nil {
		t.Fatal(err)
	}
	bobSub := c.join(t, c.otherNC, bob, false)
	snap := await(t, bobSub, "the match playing", func(s rooms.Snapshot) bool { return s.Phase == rooms.Playing })
	if snap.You != 1 || snap.Code != c.room.Code() {
		t.Fatalf("bob's snapshot: You %d, code %s; want seat 1 of %s", snap.You, snap.Code, c.room.Code())
	}
	c.startState(t, snap)

	mv := c.play(t, annSub, 0)
	await(t, bobSub, "ann's move", func(s rooms.Snapshot) bool { return len(s.Moves) == 1 && s.Moves[0].Move == mv })

	// Out of turn: after ann's move it is bob's, so ann tries again... from bob's side, the
	// engine's message for a move of seat 1 when seat 0 is to move.
	mv = c.play(t, bobSub, 1)
	got := await(t, annSub, "bob's move", func(s rooms.Snapshot) bool { return len(s.Moves) == 2 })
	if got.Moves[1].Move != mv || got.Moves[1].Seat != 1 {
		t.Errorf("ann sees move %+v, want bob's %q", got.Moves[1], mv)
	}
	illegal := c.state.Legal(0)[0]
	_, want := c.state.Apply(1, illegal)
	err = bobSub.Move(context.Background(), illegal)
	if !errors.Is(err, rules.ErrNotYourTurn) || err.Error() != want.Error() {
		t.Errorf("bob's move out of turn: %v, want %v (rules.ErrNotYourTurn)", err, want)
	}
	bobSnap := await(t, bobSub, "bob's own move", func(s rooms.Snapshot) bool { return len(s.Moves) == 2 })
	if bobSnap.You != 1 {
		t.Errorf("bob's snapshot says seat %d", bobSnap.You)
	}

	carolSub := c.join(t, c.otherNC, carol, true)
	if err := carolSub.Move(context.Background(), illegal); !errors.Is(err, rooms.ErrNotSeated) ||
		err.Error() != rooms.ErrNotSeated.Error() {
		t.Errorf("a remote spectator's move: %v, want rooms.ErrNotSeated", err)
	}
	if err := carolSub.Chat("  "); !errors.Is(err, rooms.ErrEmptyChat) {
		t.Errorf("an empty chat line: %v, want rooms.ErrEmptyChat", err)
	}
	if err := bobSub.Chat("good luck, ann"); err != nil {
		t.Fatal(err)
	}
	await(t, annSub, "bob's chat", func(s rooms.Snapshot) bool {
		return len(s.Chat) > 0 && s.Chat[len(s.Chat)-1].From == "bob" && s.Chat[len(s.Chat)-1].Text == "good luck, ann"
	})
	await(t, carolSub, "bob's chat", func(s rooms.Snapshot) bool {
		return len(s.Chat) > 0 && s.Chat[len(s.Chat)-1].Text == "good luck, ann" && s.You == rules.Spectator
	})
}

// TestRemoteSpectatorChat: a spectator on another node chats to the spectators' chat during the
// match: the room puts the line there (it knows the subscription watches), a local player and a
// remote player receive it in SpectatorChat, not in Chat; a remote player's line goes to
// everyone's chat, the remote spectator's included; and the room of a casual setting says so
// across the nodes.
func TestRemoteSpectatorChat(t *testing.T) {
	t.Parallel()
	c := newCluster(t, "stonetowers", 2)
	annSub, err := c.room.Join(ann, false)
	if err != nil {
		t.Fatal(err)
	}
	bobSub := c.join(t, c.otherNC, bob, false)
	carolSub := c.join(t, c.otherNC, carol, true)
	await(t, carolSub, "the match playing", func(s rooms.Snapshot) bool { return s.Phase == rooms.Playing })
	if err := carolSub.Chat("bob should build on e5"); err != nil {
		t.Fatal(err)
	}
	heard := func(s rooms.Snapshot) bool {
		return len(s.SpectatorChat) == 1 && s.SpectatorChat[0].From == "carol" && s.SpectatorChat[0].Spectator
	}
	for name, sub := range map[string]session.Sub{"ann": annSub, "bob": bobSub, "carol": carolSub} {
		snap := await(t, sub, "carol's line in the spectators' chat", heard)
		for _, l := range snap.Chat {
			if l.From == "carol" {
				t.Errorf("%s: carol's line is in the room's chat: %+v", name, snap.Chat)
			}
		}
	}
	if err := bobSub.Chat("thanks, but no"); err != nil {
		t.Fatal(err)
	}
	await(t, carolSub, "bob's line", func(s rooms.Snapshot) bool {
		return len(s.Chat) > 0 && s.Chat[len(s.Chat)-1].From == "bob" && heard(s)
	})
}

// TestRemoteCasualRoom: a remote player sees that a room of settings that are not standard is
// casual, as a local one does.
func TestRemoteCasualRoom(t *testing.T) {
	t.Parallel()
	c := newCluster(t, "stonetowers", 2)
	casual, err := c.hub.Create("stonetowers", rules.Options{"size": "8"}, 2, ann)
	if err != nil {
		t.Fatal(err)
	}
	host, err := remote.Serve(c.hostNC, casual, "host", opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(host.Close)
	s, err := remote.Dial(c.otherNC, casual.Code(), "host", opt).Join(bob, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Leave)
	if snap := await(t, s, "a snapshot", func(rooms.Snapshot) bool { return true }); !snap.Casual {
		t.Error("the remote snapshot of a casual room does not say so")
	}
}

// TestRemoteHiddenView: a remote seat gets its own view of a game with hidden information (its
// rack), a remote spectator the public one.
func TestRemoteHiddenView(t *testing.T) {
	t.Parallel()
	c := newCluster(t, "lhexicon", 2)
	annSub, err := c.room.Join(ann, false)
	if err != nil {
		t.Fatal(err)
	}
	defer annSub.Leave()
	bobSub := c.join(t, c.otherNC, bob, false)
	carolSub := c.join(t, c.otherNC, carol, true)
	playing := func(s rooms.Snapshot) bool { return s.Phase == rooms.Playing && s.View != nil }
	b := await(t, bobSub, "the match", playing)
	// carol joined after the start: her first snapshot is of the match.
	cs := await(t, carolSub, "the match", playing)
	bv, ok := b.View.(*lhexicon.View)
	if !ok {
		t.Fatalf("bob's view is a %T", b.View)
	}
	cv := cs.View.(*lhexicon.View)
	if bv.Viewer != 1 || len(bv.Rack) == 0 {
		t.Errorf("bob's view: viewer %d, rack %v; want his own rack", bv.Viewer, bv.Rack)
	}
	if cv.Viewer != rules.Spectator || len(cv.Rack) != 0 {
		t.Errorf("carol's view: viewer %d, rack %v; want a spectator's, without a rack", cv.Viewer, cv.Rack)
	}
	c.startState(t, b)
	want := c.state.View(1).(*lhexicon.View)
	if fmt.Sprint(want.Rack) != fmt.Sprint(bv.Rack) {
		t.Errorf("bob's rack %v, want %v", bv.Rack, want.Rack)
	}
}

// TestRemoteLeave: bob's Leave, while Waiting, frees his seat and closes his Updates; the host
// forgets him; a second Leave does nothing and later requests say he left.
func TestRemoteLeave(t *testing.T) {
	t.Parallel()
	c := newCluster(t, "stonetowers", 2)
	annSub, err := c.room.Join(ann, true)
	if err != nil {
		t.Fatal(err)
	}
	defer annSub.Leave()
	bobSub := c.join(t, c.otherNC, bob, false)
	if s := await(t, bobSub, "a seat", func(rooms.Snapshot) bool { return true }); s.You != 0 || s.Phase != rooms.Waiting {
		t.Fatalf("bob: seat %d, phase %v", s.You, s.Phase)
	}
	await(t, annSub, "bob seated", func(s rooms.Snapshot) bool { return s.Seats[0].Name == "bob" })
	bobSub.Leave()
	if _, open := <-bobSub.Updates(); open {
		for range bobSub.Updates() {
		}
	}
	await(t, annSub, "bob's seat free", func(s rooms.Snapshot) bool { return s.Seats[0].Empty })
	eventually(t, "the host forgets bob", func() bool { return c.host.Subs() == 0 })
	bobSub.Leave()
	if err := bobSub.Chat("still here?"); !errors.Is(err, rooms.ErrLeft) {
		t.Errorf("chat after Leave: %v, want rooms.ErrLeft", err)
	}
	if bobSub.(session.MovedSub).Moved() {
		t.Error("a subscription left says its room moved: the session would follow it")
	}
}

// TestRemoteRoomEnds: the host's room ending (shutdown) ends the remote subscription, after the
// room's last snapshot with its notice.
func TestRemoteRoomEnds(t *testing.T) {
	t.Parallel()
	c := newCluster(t, "discon", 2)
	bobSub := c.join(t, c.otherNC, bob, false)
	c.hub.Shutdown("the server is going down")
	last := awaitClosed(t, bobSub, "after the shutdown")
	if last.Phase != rooms.Closed || last.Notice != "the server is going down" {
		t.Errorf("last snapshot: phase %v, notice %q", last.Phase, last.Notice)
	}
	if err := bobSub.Chat("hello?"); !errors.Is(err, rooms.ErrRoomClosed) {
		t.Errorf("chat after the end: %v, want rooms.ErrRoomClosed", err)
	}
	eventually(t, "the host stops serving", func() bool {
		_, err := remote.Dial(c.otherNC, c.room.Code(), "host", opt).Join(carol, true)
		return errors.Is(err, rooms.ErrNoRoom)
	})
}

// TestNoRoom: a code nobody serves is rooms.ErrNoRoom, with its text.
func TestNoRoom(t *testing.T) {
	t.Parallel()
	url := startNATS(t)
	nc := connect(t, url)
	for _, code := range []string{"NOPE1", "A.B", ""} {
		_, err := remote.Dial(nc, code, "host", opt).Join(bob, false)
		if !errors.Is(err, rooms.ErrNoRoom) || err.Error() != rooms.ErrNoRoom.Error() {
			t.Errorf("join %q: %v, want rooms.ErrNoRoom", code, err)
		}
	}
}

// TestSilentClientIsLeft: a node that stops pinging (its connection closed) has its
// subscriptions left by the host after PingTimeout: bob's seat waits its grace.
func TestSilentClientIsLeft(t *testing.T) {
	t.Parallel()
	c := newCluster(t, "stonetowers", 2)
	annSub, err := c.room.Join(ann, false)
	if err != nil {
		t.Fatal(err)
	}
	defer annSub.Leave()
	bobNC := connect(t, c.url)
	bobSub := c.join(t, bobNC, bob, false)
	await(t, bobSub, "the match", func(s rooms.Snapshot) bool { return s.Phase == rooms.Playing })
	await(t, annSub, "bob connected", func(s rooms.Snapshot) bool { return s.Phase == rooms.Playing && s.Seats[1].Connected })
	bobNC.Close()
	s := await(t, annSub, "bob dropped", func(s rooms.Snapshot) bool { return !s.Seats[1].Connected })
	if s.Seats[1].GraceUntil.IsZero() {
		t.Errorf("bob's seat has no grace: %+v", s.Seats[1])
	}
	eventually(t, "the host forgets bob", func() bool { return c.host.Subs() == 0 })
}

// TestDeadHost: when the host's node is gone (its connection closed), the client ends the
// subscription after PingTimeout with the notice; when the host stops serving (Host.Close), at
// once with the same notice.
func TestDeadHost(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"connection closed", "Host.Close"} {
		t.Run(strings.ReplaceAll(how, " ", "_"), func(t *testing.T) {
			c := newCluster(t, "stonetowers", 2)
			bobSub := c.join(t, c.otherNC, bob, false)
			var woke = make(chan struct{}, 100)
			bobSub.OnUpdate(func() {
				select {
				case woke <- struct{}{}:
				default:
				}
			})
			if how == "Host.Close" {
				c.host.Close()
			} else {
				c.hostNC.Close()
			}
			last := awaitClosed(t, bobSub, "after the host died")
			want := fmt.Sprintf("The room's server stopped. Room %s is moving to another server.", c.room.Code())
			if last.Notice != want || last.Code != c.room.Code() || last.You != 0 {
				t.Errorf("last snapshot: notice %q, code %s, seat %d; want %q", last.Notice, last.Code, last.You, want)
			}
			if m, ok := bobSub.(session.MovedSub); !ok || !m.Moved() {
				t.Error("the subscription does not say it moved: the session would not follow the room")
			}
			select { // the function is called after the snapshot is offered, maybe later
			case <-woke:
			case <-time.After(patience):
				t.Error("OnUpdate's function was not called")
			}
			if err := bobSub.Chat("hello?"); !errors.Is(err, session.ErrMoving) {
				t.Errorf("chat after the end: %v, want the room moving", err)
			}
		})
	}
}

// TestTooLarge: a request over remote.MaxRequest is refused with a clear error.
func TestTooLarge(t *testing.T) {
	t.Parallel()
	c := newCluster(t, "stonetowers", 2)
	bobSub := c.join(t, c.otherNC, bob, false)
	err := bobSub.Chat(strings.Repeat("x", remote.MaxRequest))
	if !strings.Contains(fmt.Sprint(err), "request too large") {
		t.Errorf("a chat of %d bytes: %v", remote.MaxRequest, err)
	}
	if err := bobSub.Chat("short"); err != nil {
		t.Errorf("a short chat after: %v", err)
	}
}

// TestJoinWaitsForTheHost: a join sent a moment before the room's host serves it (its
// subscriptions not yet known to the joiner's server) goes through once it does.
func TestJoinWaitsForTheHost(t *testing.T) {
	t.Parallel()
	c := &cluster{url: startNATS(t)}
	c.hostNC, c.otherNC = connect(t, c.url), connect(t, c.url)
	c.hub = rooms.NewHub(rooms.Config{Games: games.Rules(), BotDelay: -1, MoveLimit: -1, Logf: t.Logf})
	t.Cleanup(func() { c.hub.Shutdown("test over") })
	room, err := c.hub.Create("stonetowers", nil, 2, ann)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		h, err := remote.Serve(c.hostNC, room, "host", opt)
		if err != nil {
			t.Error(err)
			return
		}
		t.Cleanup(h.Close)
	}()
	sub, err := remote.Dial(c.otherNC, room.Code(), "host", opt).Join(bob, false)
	if err != nil {
		t.Fatalf("join before the host served the room: %v", err)
	}
	sub.Leave()
}

// TestRemoteLeaveByChoice: a remote player who chooses to leave during a match is "left" to the
// others, as on the host's node; one whose subscription just ends is "dropped".
func TestRemoteLeaveByChoice(t *testing.T) {
	t.Parallel()
	for _, chosen := range []bool{true, false} {
		c := newCluster(t, "stonetowers", 2)
		annSub, err := c.room.Join(ann, false)
		if err != nil {
			t.Fatal(err)
		}
		bobSub := c.join(t, c.otherNC, bob, false)
		await(t, bobSub, "the match playing", func(s rooms.Snapshot) bool { return s.Phase == rooms.Playing })
		if chosen {
			bobSub.(interface{ LeaveByChoice() }).LeaveByChoice()
		} else {
			bobSub.Leave()
		}
		said, not := "bob dropped; their seat waits", "bob left"
		if chosen {
			said, not = "bob left; their seat waits", "bob dropped"
		}
		snap := await(t, annSub, "the room's notice of bob", func(s rooms.Snapshot) bool {
			for _, l := range s.Chat {
				if l.From == "" && strings.Contains(l.Text, said) {
					return true
				}
			}
			return false
		})
		for _, l := range snap.Chat {
			if l.From == "" && strings.Contains(l.Text, not) {
				t.Errorf("chosen %v: the room also says %q", chosen, l.Text)
			}
		}
		annSub.Leave()
	}
}
