package session

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/games/gametest"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
)

// fakeHub serves the catalogue; the golden tests never open a room through it.
type fakeHub struct{ games []rules.Game }

func (h fakeHub) Games() []rules.Game { return h.games }
func (h fakeHub) Create(string, rules.Options, int, rooms.Player) (Room, error) {
	return nil, rooms.ErrTooManyRooms
}
func (h fakeHub) Find(string, rooms.Player) (Room, error) { return nil, rooms.ErrNoRoom }
func (h fakeHub) List() []rooms.Summary                   { return nil }
func (h fakeHub) Seek(rooms.Seek) (*rooms.Ticket, error)  { return nil, rooms.ErrShuttingDown }

var testGames = []rules.Game{stonetowers.Game}

// testBoards are the catalogue's board views: the golden rooms draw the real boards.
var testBoards = Boards(games.Boards())

func newTestModel(w, h int) Model {
	return New(Config{Hub: fakeHub{testGames}, Boards: testBoards, Player: rooms.Player{ID: "SHA256:x", Name: "ann"},
		Width: w, Height: h})
}

// plain is a screen without its styles, each line's trailing spaces cut.
func plain(s string) string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

func checkSize(t *testing.T, screen string, w, h int) {
	t.Helper()
	lines := strings.Split(screen, "\n")
	if len(lines) > h {
		t.Errorf("screen has %d lines, more than %d", len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got > w {
			t.Errorf("line %d is %d columns wide, more than %d: %q", i, got, w, ansi.Strip(l))
		}
	}
}

func press(m Model, keys ...string) Model {
	for _, k := range keys {
		next, _ := m.Update(keyPress(k))
		m = next.(Model)
	}
	return m
}

// keyPress is the message of a key: "enter", "down", "right", "esc", or one character.
func keyPress(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	}
	return tea.KeyPressMsg{Code: rune(k[0]), Text: k}
}

func TestLobbyGolden(t *testing.T) {
	m := newTestModel(80, 24)
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
}

// TestNewRoomFormKeepsChoices: the form is built when first opened (a lobby that never opens it
// holds none), and what was chosen in it is still there when it is opened again.
func TestNewRoomFormKeepsChoices(t *testing.T) {
	m := newTestModel(80, 24)
	if m.lobby.form.games != nil {
		t.Fatal("a new lobby holds the new-room form")
	}
	m = press(m, "down", "enter", "down", "right", "esc", "enter")
	if st := m.lobby.form.start(); st.Options["size"] != "13" {
		t.Errorf("form reopened gives %+v; want the size chosen before (13)", st)
	}
	if !strings.Contains(plain(m.View().Content), "13") {
		t.Errorf("the reopened form does not show the size chosen:\n%s", plain(m.View().Content))
	}
}

func TestNewRoomFormGolden(t *testing.T) {
	m := press(newTestModel(80, 24), "down", "enter", "down", "right", "down", "down", "right")
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
	st := m.lobby.form.start()
	if st.Game != "stonetowers" || st.Options["size"] != "13" || st.Bots != 1 || st.BotLevel != "greedy" {
		t.Errorf("form gives %+v", st)
	}
}

// TestTooSmallGolden: a window smaller than 60 x 20 gets a message, wrapped whole to its width.
func TestTooSmallGolden(t *testing.T) {
	m := newTestModel(36, 12)
	out := m.View().Content
	checkSize(t, out, 36, 12)
	golden.RequireEqual(t, plain(out))
	if !strings.Contains(words(plain(out)), "The arcade needs at least 60 x 20.") {
		t.Errorf("the message does not say the size needed:\n%s", plain(out))
	}
}

// playedSnapshot plays plies moves of a seeded 12 x 12 game with greedy bots and returns Red's
// snapshot of it.
func playedSnapshot(t *testing.T, plies int) rooms.Snapshot {
	t.Helper()
	state, moves := gametest.PlayBots(t, stonetowers.Game, rules.Options{"size": "12", "turns": "25"}, 2, 7,
		stonetowers.Greedy{}, func(i int, _ rules.Engine) bool { return plies >= 0 && i >= plies })
	return gametest.Snapshot("K7QXM", stonetowers.Game, state, moves, []string{"ann", "bob"}, defaultChat)
}

// defaultChat is the chat of the test rooms.
var defaultChat = []rooms.ChatLine{{Text: "ann sits down"}, {Text: "bob sits down"}, {From: "bob", Text: "good luck!"}}

func roomModel(t *testing.T, snap rooms.Snapshot) Model {
	m := newTestModel(80, 24)
	m.room = newRoomScreen(nil, m.cfg.Player, testGames, testBoards)
	m.room.apply(snap)
	return m
}

func TestRoomGolden(t *testing.T) {
	m := roomModel(t, playedSnapshot(t, 14))
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
}

func TestEndGolden(t *testing.T) {
	checkEndScreen(t, playedSnapshot(t, -1))
}

// checkEndScreen draws a finished match's room at 80 x 24 and compares it with the test's golden
// file; the screen must say GAME OVER and show every want.
func checkEndScreen(t *testing.T, snap rooms.Snapshot, want ...string) {
	t.Helper()
	if snap.Phase != rooms.Finished {
		t.Fatal("the game did not end")
	}
	m := roomModel(t, snap)
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
	for _, w := range append([]string{"GAME OVER"}, want...) {
		if !strings.Contains(out, w) {
			t.Errorf("the end screen lacks %q", w)
		}
	}
}

func TestWaitingGolden(t *testing.T) {
	snap := rooms.Snapshot{Code: "K7QXM", GameID: "stonetowers", GameName: "Stone Towers", Phase: rooms.Waiting,
		Seats: []rooms.SeatInfo{{Name: "ann", Connected: true}, {Empty: true}}, You: 0,
		Chat: []rooms.ChatLine{{Text: "ann sits down"}}}
	m := roomModel(t, snap)
	golden.RequireEqual(t, plain(m.View().Content))
}

// TestRoomBodyCache: typing at the open prompt reuses the drawn body; a key the board takes draws it
// again (the cursor's square shows in the line under the board).
func TestRoomBodyCache(t *testing.T) {
	m := roomModel(t, playedSnapshot(t, 4))
	if !strings.Contains(plain(m.View().Content), "g7 ") {
		t.Fatal("the cursor does not start on g7")
	}
	m = press(m, ":") // opening the prompt draws the notation under the board
	_ = m.View()
	b := &countingBoard{Board: m.room.board}
	m.room.board = b
	m = press(m, "b", " ", "e")
	_ = m.View()
	if b.views != 0 {
		t.Errorf("typing at the prompt drew the board %d times, want 0", b.views)
	}
	m = press(m, "esc")
	next, _ := m.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
	m = next.(Model)
	if out := plain(m.View().Content); !strings.Contains(out, "f7 ") {
		t.Errorf("after left the cursor line does not show f7:\n%s", out)
	}
}

// TestChatFollowsSnapshots: the panel's chat, wrapped once and kept, shows a new line as soon as a
// snapshot brings one, stays on a larger screen, and is wrapped again for another width.
func TestChatFollowsSnapshots(t *testing.T) {
	snap := rooms.Snapshot{Code: "K7QXM", GameID: "stonetowers", GameName: "Stone Towers", Phase: rooms.Waiting,
		Seats: []rooms.SeatInfo{{Name: "ann", Connected: true}, {Empty: true}}, You: 0,
		Chat: []rooms.ChatLine{{Text: "ann sits down"}}}
	m := roomModel(t, snap)
	first := plain(m.View().Content)
	if !strings.Contains(first, "ann sits down") {
		t.Fatalf("no chat line:\n%s", first)
	}
	again := snap
	again.Chat = append(slices.Clone(snap.Chat), rooms.ChatLine{From: "bob", Text: "hello there"})
	m.room.apply(again)
	if out := plain(m.View().Content); !strings.Contains(out, "bob: hello there") || !strings.Contains(out, "ann sits down") {
		t.Errorf("the new chat line is not shown:\n%s", out)
	}
	wide := newTestModel(120, 30)
	wide.room = m.room
	if out := plain(wide.View().Content); !strings.Contains(out, "bob: hello there") {
		t.Errorf("the chat is gone at a new width:\n%s", out)
	}
	if got := m.room.side.chatLines(*m.st, panelWidth); len(got) != 2 {
		t.Errorf("chat lines %q, want 2", got)
	}
	if got := m.room.side.chatLines(*m.st, 8); len(got) <= 2 {
		t.Errorf("chat wrapped to 8 columns: %q, want more than 2 lines", got)
	}
	if got := m.room.side.chatLines(*m.st, panelWidth); len(got) != 2 {
		t.Errorf("chat back at the panel's width: %q, want 2 lines", got)
	}
}

// TestSessionsShareWhatNeverChanges: the styles and the key maps are the same for every session
// (with the same NO_COLOR and ASCII choices), so sessions point to one copy of each instead of
// holding their own, which every collection would scan.
func TestSessionsShareWhatNeverChanges(t *testing.T) {
	a, b := newTestModel(80, 24), newTestModel(100, 30)
	if a.st != b.st || a.lobby.keys != b.lobby.keys {
		t.Error("two sessions hold copies of the styles or the lobby's keys")
	}
	if c := New(Config{Hub: fakeHub{testGames}, NoColor: true}); c.st == a.st {
		t.Error("a NO_COLOR session shares the coloured styles")
	}
	if r1, r2 := newRoomScreen(nil, rooms.Player{}, nil, nil), newRoomScreen(nil, rooms.Player{}, nil, nil); r1.keys != r2.keys {
		t.Error("two room screens hold copies of the room's keys")
	}
}

// TestEndRatingsGolden: the end of a rated match shows each player's rating change, the match's
// ID and the key of its replay.
func TestEndRatingsGolden(t *testing.T) {
	snap := playedSnapshot(t, -1)
	snap.Result = rooms.EndResult{MatchID: "49jvyf2yr3d", Ratings: []rooms.RatingChange{
		{Rated: true, Before: 1662.4, After: 1650.2, BeforeProvisional: true, Provisional: true},
		{Rated: true, Before: 1540, After: 1552.3}}}
	checkEndScreen(t, snap, "1662? → 1650? (-12)", "1540 → 1552 (+12)", "match 49jvyf2yr3d · v replay", "v replay")
}
