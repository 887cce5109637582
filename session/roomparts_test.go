package session

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/session/draw"
)

// freshLines draws r's screen as a room screen that has drawn nothing before would: with every
// part's lines, the panel's chat and labels and the help lines forgotten. r is left as it was.
func freshLines(r *roomScreen, st draw.Styles, w, h int) []string {
	c := *r
	c.parts = roomParts{}
	c.side.chat, c.side.labels = chatCache{}, nil
	c.helped = helpCache{}
	return c.viewLines(st, w, h)
}

// checkFresh fails the test when the screen r draws from its parts differs from a fresh
// drawing of it.
func checkFresh(t *testing.T, what string, r *roomScreen, st draw.Styles, w, h int) {
	t.Helper()
	got := r.viewLines(st, w, h)
	want := freshLines(r, st, w, h)
	if !slices.Equal(got, want) {
		var diff []string
		for i := range max(len(got), len(want)) {
			g, f := lineAt(got, i), lineAt(want, i)
			if g != f {
				diff = append(diff, fmt.Sprintf("line %d:\n  kept  %q\n  fresh %q", i, g, f))
			}
		}
		t.Fatalf("%s: the screen drawn from its parts differs from a fresh drawing:\n%s", what, strings.Join(diff, "\n"))
	}
}

// idleSub is a subscription whose room never answers: the commands of the room's keys are made,
// never run.
type idleSub struct{ Sub }

func (idleSub) EndMatch() error  { return nil }
func (idleSub) Rematch() error   { return nil }
func (idleSub) Resign() error    { return nil }
func (idleSub) OfferDraw() error { return nil }
func (idleSub) TakeBack() error  { return nil }

// partsGame is a game's snapshots for the parts' property test: a few moves in a row of one
// match, and its end.
type partsGame struct {
	name  string
	snaps []rooms.Snapshot
}

func partsGames(t *testing.T) []partsGame {
	var stone, disc, colo, lhex []rooms.Snapshot
	for p := 12; p < 16; p++ {
		s, _ := stoneSnapshot(t, p)
		stone = append(stone, s)
		d, _ := disconSnapshot(t, p-2)
		disc = append(disc, d)
		l, _ := lhexSnapshot(t, nil, 2, 5, p+20)
		lhex = append(lhex, l)
	}
	for _, p := range []int{20, 30, 40} {
		c, _ := colorettaMid(t, 3, p)
		colo = append(colo, c)
	}
	stoneEnd, _ := stoneSnapshot(t, 1000)
	discEnd, _ := disconSnapshot(t, -1)
	lhexEnd, _ := lhexSnapshot(t, nil, 2, 5, -1)
	return []partsGame{
		{"stonetowers", append(stone, stoneEnd)},
		{"discon", append(disc, discEnd)},
		{"coloretta", colo},
		{"lhexicon", append(lhex, lhexEnd)},
		{"flicflac", []rooms.Snapshot{flicflacMid(t, 30), flicflacMid(t, 40), flicflacEnd(t)}},
	}
}

// TestRoomPartsFollowTheirInputs: whatever comes (a move's snapshot, a chat line, a watcher, a
// player who drops and the countdown of their seat, a timed turn and the clock's ticks, keys for
// the board, the prompt, the chat, the panel and the rules, a resize, other styles), the screen
// drawn from the parts kept is the screen a fresh drawing gives: every input a part's lines
// depend on is in its key. Random sequences of those messages, from a seed, for every game.
func TestRoomPartsFollowTheirInputs(t *testing.T) {
	games := partsGames(t)
	themes := []draw.Styles{*draw.NewStyles(false, false), *draw.NewStyles(true, false), *draw.NewStyles(false, true),
		*draw.NewStyles(true, true)}
	sizes := [][2]int{{80, 24}, {100, 30}, {81, 25}, {120, 40}, {200, 50}, {80, 30}, // and the compact layouts'
		{60, 20}, {70, 22}, {64, 21}, {120, 20}, {60, 30}, {59, 19}}
	keys := []string{"left", "right", "up", "down", "enter", ":", "a", "1", "backspace", "esc", "t", "tab", "?", "R",
		"=", "b", "B", "x", "u", "U", " ", "c", "p", "e"}
	for _, g := range games {
		for seed := range uint64(4) {
			t.Run(fmt.Sprintf("%s/%d", g.name, seed), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					rng := rand.New(rand.NewPCG(seed, 33))
					m := roomModel(t, g.snaps[0])
					m.room.sub = idleSub{}
					st := *m.st
					snap := g.snaps[0]
					var log []string
					for step := range 150 {
						var what string
						switch n := rng.IntN(20); {
						case n < 3: // a move, or a takeback
							snap = withRoom(g.snaps[rng.IntN(len(g.snaps))], snap)
							m.room.apply(snap)
							what = "move"
						case n == 3: // a chat line, a player's or a spectator's
							line := rooms.ChatLine{From: "bob", Text: fmt.Sprintf("line %d of the chat, long enough to wrap in the panel", step),
								At: time.Now()}
							if rng.IntN(2) == 0 {
								snap.Chat = append(slices.Clone(snap.Chat), line)
								what = "chat"
							} else {
								line.From, line.Spectator = "dave", true
								snap.SpectatorChat = append(slices.Clone(snap.SpectatorChat), line)
								what = "spectators' chat"
							}
							m.room.apply(snap)
						case n == 4: // a watcher comes or goes
							snap.Spectators = rng.IntN(3)
							m.room.apply(snap)
							what = "watchers"
						case n == 5: // a player drops, or comes back
							snap.Seats = slices.Clone(snap.Seats)
							if len(snap.Seats) > 1 {
								s := &snap.Seats[1]
								s.Connected = !s.Connected
								s.GraceUntil = time.Time{}
								if !s.Connected {
									s.GraceUntil = time.Now().Add(time.Duration(30+rng.IntN(90)) * time.Second)
								}
							}
							m.room.apply(snap)
							what = "away"
						case n == 6: // a timed turn, or none
							snap.Clock = rooms.TurnClock{}
							if rng.IntN(3) > 0 && len(snap.ToMove) > 0 {
								snap.Clock = rooms.TurnClock{Seat: snap.ToMove[0], Ends: time.Now().Add(time.Duration(5+rng.IntN(200)) * time.Second)}
							}
							m.room.apply(snap)
							what = "clock"
						case n < 9: // time passes; the clock ticks
							time.Sleep(time.Duration(rng.IntN(2500)) * time.Millisecond)
							next, _ := m.Update(tickMsg{gen: m.room.clock.gen})
							m = next.(Model)
							what = "tick"
						case n == 9:
							sz := sizes[rng.IntN(len(sizes))]
							next, _ := m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
							m = next.(Model)
							m.room.resize(m.width, m.height)
							what = fmt.Sprintf("resize %dx%d", sz[0], sz[1])
						case n == 10:
							st = themes[rng.IntN(len(themes))]
							what = fmt.Sprintf("styles %v %v", st.NoColor, st.ASCII)
						default:
							k := keys[rng.IntN(len(keys))]
							r := m.room
							if k == "esc" && r.focus == focusBoard && !r.prompt.asking() && !r.playing() && !r.boardTakes(escKey) {
								k = "left" // esc would leave the room
							}
							if k == "enter" && r.prompt.askingLeave() {
								k = "left" // enter would leave the room
							}
							m = press(m, k)
							what = "key " + k
						}
						log = append(log, what)
						if m.room == nil {
							t.Fatalf("left the room after %s", strings.Join(log, ", "))
						}
						checkFresh(t, strings.Join(log[max(0, len(log)-8):], ", "), m.room, st, m.width, m.height)
					}
				})
			})
		}
	}
}

// withRoom is snap (another move of the match) with what the room says beside the match as in
// cur: the chat, the watchers, the seats' connections and the clock.
func withRoom(snap, cur rooms.Snapshot) rooms.Snapshot {
	snap.Chat, snap.SpectatorChat, snap.Spectators = cur.Chat, cur.SpectatorChat, cur.Spectators
	snap.Seats = slices.Clone(snap.Seats)
	for i := range min(len(snap.Seats), len(cur.Seats)) {
		snap.Seats[i].Connected, snap.Seats[i].GraceUntil = cur.Seats[i].Connected, cur.Seats[i].GraceUntil
	}
	if snap.Phase == rooms.Playing {
		snap.Clock = cur.Clock
	}
	return snap
}

// TestRoomPartsDrawOnlyWhatChanged: a frame draws again only the parts whose input changed: a
// clock's tick only the clock's lines, a chat line only the panel's foot, a frame after nothing
// changed nothing, and a move's snapshot the board and the parts that show the match, not the
// header or the chat.
func TestRoomPartsDrawOnlyWhatChanged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		snap, _ := stoneSnapshot(t, 14)
		snap.Clock = rooms.TurnClock{Seat: 0, Ends: time.Now().Add(time.Minute)}
		m := roomModel(t, snap)
		r := m.room
		st := *m.st
		r.viewLines(st, 80, 24)
		type vers struct{ board, header, head, clock, status, tail, prompt, help uint64 }
		now := func() vers {
			p := &r.parts
			return vers{p.board.ver, p.header.ver, p.head.ver, p.clock.ver, p.status.ver, p.tail.ver, p.prompt.ver, p.help.ver}
		}
		check := func(what string, want vers) {
			t.Helper()
			before := now()
			r.viewLines(st, 80, 24)
			after := now()
			got := vers{after.board - before.board, after.header - before.header, after.head - before.head,
				after.clock - before.clock, after.status - before.status, after.tail - before.tail, after.prompt - before.prompt,
				after.help - before.help}
			if got != want {
				t.Errorf("%s: parts drawn %+v, want %+v", what, got, want)
			}
		}
		check("nothing changed", vers{})
		time.Sleep(2 * time.Second)
		r.update(tickMsg{gen: r.clock.gen})
		check("a tick", vers{clock: 1})
		chat := snap
		chat.Chat = append(slices.Clone(snap.Chat), rooms.ChatLine{From: "bob", Text: "hi"})
		chat.Seq++
		r.apply(chat)
		check("a chat line", vers{tail: 1})
		moved, _ := stoneSnapshot(t, 15)
		moved.Chat, moved.Clock = chat.Chat, rooms.TurnClock{Seat: 1, Ends: time.Now().Add(time.Minute)}
		r.apply(moved)
		check("a move", vers{board: 1, head: 1, clock: 1, status: 1, help: 1}) // the header says the same
		r.prompt.fail("Not a move.")
		check("an error", vers{prompt: 1})
		if got := plain(strings.Join(r.viewLines(st, 80, 24), "\n")); !strings.Contains(got, "Not a move.") {
			t.Errorf("the error is not shown:\n%s", got)
		}
	})
}

// checkedModel is a session's model that, at every frame the program asks for, compares the room
// screen drawn from its parts with a fresh drawing, and keeps the frame's text for the test to
// read.
type checkedModel struct {
	Model
	t      *testing.T
	mu     *sync.Mutex
	screen *string
	frames *int // frames of the room checked
}

func (c checkedModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := c.Model.Update(msg)
	c.Model = next.(Model)
	return c, cmd
}

func (c checkedModel) View() tea.View {
	c.check()
	return c.Model.View()
}

func (c checkedModel) ViewLines() (tea.View, []string) {
	c.check()
	return c.Model.ViewLines()
}

func (c checkedModel) ViewPieces() (tea.View, [][]string) {
	c.check()
	return c.Model.ViewPieces()
}

func (c checkedModel) check() {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.Model
	if m.roomShown() && m.room.have {
		got := m.room.viewLines(*m.st, m.width, m.height)
		if want := freshLines(m.room, *m.st, m.width, m.height); !slices.Equal(got, want) {
			c.t.Errorf("frame %d: the screen drawn from its parts differs from a fresh drawing:\n%s\nfresh:\n%s", *c.frames,
				plain(strings.Join(got, "\n")), plain(strings.Join(want, "\n")))
		}
		*c.frames++
	}
	*c.screen = plain(m.View().Content)
}

// TestRoomPartsInAPlayedMatch: in a match played through the program against a bot of a real
// hub (moves with the board's keys and the prompt, the bot's answers, chat lines, the moves'
// list, the rules, a resize), every frame the program draws of the room is the one a fresh
// drawing gives.
func TestRoomPartsInAPlayedMatch(t *testing.T) {
	hub := rooms.NewHub(rooms.Config{Games: testGames, BotDelay: -1, Logf: t.Logf})
	t.Cleanup(func() { hub.Shutdown("test over") })
	var tm *teatest.TestModel
	var mu sync.Mutex
	var screen string
	frames := 0
	m := New(Config{Hub: Local(hub), Boards: testBoards, Player: rooms.Player{ID: "SHA256:ann", Name: "ann"}, Width: 80,
		Height: 24, Send: func(msg tea.Msg) { tm.Send(msg) }})
	tm = teatest.NewTestModel(t, checkedModel{Model: m, t: t, mu: &mu, screen: &screen, frames: &frames},
		teatest.WithInitialTermSize(80, 24))
	waitFor := func(want string) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for {
			mu.Lock()
			s := screen
			mu.Unlock()
			if strings.Contains(s, want) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the screen never showed %q:\n%s", want, s)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	send := func(keys ...string) {
		for _, k := range keys {
			tm.Send(keyPress(k))
		}
	}
	waitFor("Welcome")
	send("down", "enter", "down", "down", "down", "right") // a new room, one bot
	waitFor("Bot level")
	send("enter")
	waitFor("playing")
	send("enter") // build in the middle
	waitFor("Turns left: R 24 · B 24")
	send("t", "h", "i", "enter")
	waitFor("ann: hi")
	// In a corner, far from the bot's stones: ann may build there whatever the bot did.
	send("left", "left", "left", "left", "left", "left", "up", "up", "up", "up", "up", "up")
	waitFor("a1 unowned")
	send("enter")
	waitFor("Turns left: R 23 · B 23")
	send("tab")
	waitFor("moves · tab: chat")
	send(":", "a", "1")
	waitFor("move: a1")
	send("esc", "?")
	waitFor("Stone Towers rules")
	send("down", "?")
	tm.Send(tea.WindowSizeMsg{Width: 100, Height: 30})
	// The far corner: the bot builds near the stones on the board, and may have taken c1 by now.
	send("tab")
	for range 11 {
		send("right", "down")
	}
	waitFor("l12 unowned")
	send("enter")
	waitFor("Turns left: R 22 · B 22")
	send("esc")
	waitFor("Leave the room?")
	send("enter")
	waitFor("Welcome")
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	tm.WaitFinished(t, teatest.WithFinalTimeout(time.Minute))
	mu.Lock()
	defer mu.Unlock()
	if frames < 10 {
		t.Errorf("%d frames of the room checked, want at least 10", frames)
	}
}
