package session

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session/draw"
)

// pagerKey is the message of a key by its name as the pager's key map spells it.
func pagerKey(k string) tea.KeyPressMsg {
	switch k {
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "G":
		return tea.KeyPressMsg{Code: 'g', ShiftedCode: 'G', Mod: tea.ModShift, Text: "G"}
	}
	return keyPress(k)
}

// TestPagerKeys: every pager key moves the window of a text, and a list's selection, within the
// lines; the window follows a list's selection.
func TestPagerKeys(t *testing.T) {
	var text []string
	for i := range 100 {
		text = append(text, fmt.Sprintf("line %d", i))
	}
	p := newTextPager(strings.Join(text, "\n"))
	p.setSize(40, 20)
	for _, c := range []struct {
		key string
		top int
	}{{"space", 20}, {"pgdown", 40}, {"pgup", 20}, {"j", 21}, {"down", 22}, {"k", 21}, {"up", 20},
		{"G", 80}, {"space", 80}, {"g", 0}, {"pgup", 0}, {"end", 80}, {"home", 0}} {
		if !p.update(pagerKey(c.key)) {
			t.Errorf("%s is not a pager key", c.key)
		}
		if p.top != c.top {
			t.Errorf("after %s the text starts at line %d, want %d", c.key, p.top, c.top)
		}
	}
	if got := p.view(draw.PlainPaint); len(got) != 20 || strings.TrimSpace(got[0]) != "line 0" {
		t.Errorf("view shows %q", got)
	}
	if p.update(keyPress("x")) {
		t.Error("x is taken as a pager key")
	}

	l := newListPager(text, 0, -1)
	l.setSize(40, 10)
	for _, c := range []struct {
		key      string
		sel, top int
	}{{"down", 1, 0}, {"space", 11, 2}, {"G", 99, 90}, {"up", 98, 90}, {"pgup", 88, 88}, {"home", 0, 0}, {"up", 0, 0}} {
		l.update(pagerKey(c.key))
		if l.sel != c.sel || l.top != c.top {
			t.Errorf("list after %s: item %d selected, from %d; want %d from %d", c.key, l.sel, l.top, c.sel, c.top)
		}
	}
}

// TestListOfLongItems: an item wider than the list goes on over more lines, under its last
// column; the selection is the whole item, and the window shows it whole.
func TestListOfLongItems(t *testing.T) {
	var items []string
	for i := range 10 {
		items = append(items, fmt.Sprintf("item%d  %s", i, strings.Repeat("word ", i%3*6)))
	}
	l := newListPager(items, 0, 7)
	l.setSize(30, 5)
	if len(l.lines) <= len(items) {
		t.Fatalf("items not wrapped: %q", l.lines)
	}
	for _, line := range l.lines {
		if len(line) > 30 {
			t.Errorf("line %q is wider than the list", line)
		}
	}
	for range 9 {
		l.update(pagerKey("down"))
		first, end := l.starts[l.sel], l.starts[l.sel+1]
		if first < l.top || end > l.top+l.height {
			t.Errorf("item %d (lines %d-%d) is not whole in the window from %d", l.sel, first, end-1, l.top)
		}
		got := l.view(draw.PlainPaint)
		if !strings.HasPrefix(got[first-l.top], fmt.Sprintf("item%d", l.sel)) ||
			(end-first > 1 && !strings.HasPrefix(got[first-l.top+1], "       word")) {
			t.Errorf("item %d drawn as %q", l.sel, got)
		}
	}
	l.update(pagerKey("pgup"))
	if l.sel >= 9 || l.top > l.starts[l.sel] {
		t.Errorf("pgup from the last item selects %d, window from %d", l.sel, l.top)
	}
}

// TestWrapText: a line wider than the pager is broken at spaces, its continuations under its text;
// lines that fit, tables among them, are kept as they are.
func TestWrapText(t *testing.T) {
	text := []string{
		"  advanced    premium; a two-colour tower whose colours strictly alternate scores 3 times.",
		"  violet     2   4   6",
		"A TURN  is two moves; the same piece may move twice.",
	}
	got := wrapText(text, 40)
	want := []string{
		"  advanced    premium; a two-colour",
		"              tower whose colours",
		"              strictly alternate scores",
		"              3 times.",
		"  violet     2   4   6",
		"A TURN  is two moves; the same piece may",
		"        move twice.",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("wrapped:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// everyGame is the catalogue's games, for the screens every game must get right.
var everyGame = games.Rules()

// rulesRoom is a room of game g at w x h with its rules open.
func rulesRoom(t *testing.T, g rules.Game, w, h int) Model {
	t.Helper()
	m := New(Config{Hub: fakeHub{everyGame}, Boards: testBoards, Player: rooms.Player{ID: "SHA256:x", Name: "ann"},
		Width: w, Height: h})
	m.room = newRoomScreen(nil, m.cfg.Player, everyGame, testBoards)
	m.room.apply(rooms.Snapshot{Code: "K7QXM", GameID: g.ID, GameName: g.Name, Phase: rooms.Waiting,
		Seats: []rooms.SeatInfo{{Name: "ann", Connected: true}, {Empty: true}}})
	return press(m, "?")
}

// TestRulesReadWhole: every game's rules, paged through in a room at 80 x 24, show every line of
// the rules whole (no line cut with "…"), and the last page ends with the rules' last line.
func TestRulesReadWhole(t *testing.T) {
	for _, g := range everyGame {
		m := rulesRoom(t, g, 80, 24)
		seen := map[string]bool{}
		for range 20 {
			out := plain(m.View().Content)
			checkSize(t, m.View().Content, 80, 24)
			if strings.Contains(out, "…") {
				t.Errorf("%s: the rules are cut:\n%s", g.ID, out)
				break
			}
			for _, l := range strings.Split(out, "\n") {
				seen[strings.TrimSpace(l)] = true
			}
			m = press(m, " ")
		}
		for _, l := range strings.Split(g.Rules, "\n") {
			if l = strings.TrimSpace(l); l != "" && !seen[l] {
				t.Errorf("%s: the rules' line %q is never shown whole", g.ID, l)
			}
		}
		m = press(m, "g")
		if out := plain(m.View().Content); !strings.Contains(out, strings.SplitN(g.Rules, "\n", 2)[0]) {
			t.Errorf("%s: g does not go back to the first line:\n%s", g.ID, out)
		}
	}
}

// TestRoomRulesGolden: DISCON's rules in the room, at 80 x 24, on the page of its scoring table.
func TestRoomRulesGolden(t *testing.T) {
	m := rulesRoom(t, findGame(t, "discon"), 80, 24)
	m = press(m, " ", " ")
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
}

// TestLobbyRulesGolden: the lobby's rules page uses the whole height and pages with space.
func TestLobbyRulesGolden(t *testing.T) {
	m := New(Config{Hub: fakeHub{everyGame}, Boards: testBoards, Player: rooms.Player{ID: "SHA256:x", Name: "ann"},
		Width: 80, Height: 24})
	m = press(m, "down", "down", "down", "down", "down", "down", "enter") // Help and rules
	for i, g := range everyGame {
		if g.ID == "discon" {
			for range i {
				m = press(m, "down")
			}
		}
	}
	m = press(m, "enter", " ")
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
}

func findGame(t *testing.T, id string) rules.Game {
	t.Helper()
	g, ok := rules.FindGame(everyGame, id)
	if !ok {
		t.Fatalf("no game %s", id)
	}
	return g
}

// TestLobbyHelpGolden: the help page shows every game's summary whole at 80 x 24, a long one
// going on under itself.
func TestLobbyHelpGolden(t *testing.T) {
	m := New(Config{Hub: fakeHub{everyGame}, Boards: testBoards, Player: rooms.Player{ID: "SHA256:x", Name: "ann"},
		Width: 80, Height: 24})
	m = press(m, "down", "down", "down", "down", "down", "down", "enter", "down")
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
	for _, g := range everyGame {
		if !strings.Contains(words(plain(out)), g.Summary) {
			t.Errorf("the summary of %s is not shown whole", g.Name)
		}
	}
}

// listHub lists n open rooms, the last with four long names.
type listHub struct {
	fakeHub
	n int
}

func (h listHub) List() []rooms.Summary {
	out := make([]rooms.Summary, h.n)
	for i := range out {
		out[i] = rooms.Summary{Code: fmt.Sprintf("R%04d", i), GameName: "DISCON", Phase: rooms.Waiting,
			Seats: []string{fmt.Sprintf("player%d", i), ""}, Free: 1}
	}
	out[h.n-1].Seats = []string{"a-rather-long-name", "another-long-name", "yet-another-name", "and-the-last-one"}
	return out
}

// TestOpenRoomsPage: a long list of rooms fills the screen's height and pages; the last room,
// whose players take two lines, is shown whole, and enter joins the room selected.
func TestOpenRoomsPage(t *testing.T) {
	m := New(Config{Hub: listHub{fakeHub{everyGame}, 40}, Boards: testBoards, Player: rooms.Player{ID: "SHA256:x", Name: "ann"},
		Width: 80, Height: 24})
	m = press(m, "down", "down", "down", "enter")
	out := plain(m.View().Content)
	checkSize(t, m.View().Content, 80, 24)
	if !strings.Contains(out, "R0016") || strings.Contains(out, "R0017") {
		t.Errorf("the first page does not show rooms 0 to 16, the whole height:\n%s", out)
	}
	m = press(m, " ")
	if m.lobby.sel != 17 {
		t.Errorf("space selects room %d, want 17", m.lobby.sel)
	}
	m = press(m, "G")
	out = plain(m.View().Content)
	if !strings.Contains(out, "R0039") || !strings.Contains(words(out), "yet-another-name, and-the-last-one") {
		t.Errorf("G does not show the last room whole:\n%s", out)
	}
	next, cmd := m.Update(keyPress("enter"))
	m = next.(Model)
	if cmd == nil || !m.busy {
		t.Error("enter on the last room does not join it")
	}
}
