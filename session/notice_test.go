package session

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/rooms"
)

// Notices as sshd gives them: the longest run to four lines at 80 columns.
const (
	takenNotice = "The name zoe belongs to another key, so you play as guest ~zoe (unranked). " +
		"Pick another name: ssh NAME@host."
	badNameNotice = `The name "ａｌｉｃｅ" is not allowed: it holds U+FF41 (ａ), which is not one of a-z, 0-9, - ` +
		"and _. Names are 1 to 16 of a-z, 0-9, - and _, starting and ending with a letter or digit. " +
		"You play as guest ~guest-3f9a (unranked). Pick a name: ssh NAME@host."
)

// words is text with every run of white space as one space: a notice wrapped over lines reads
// as the notice itself.
func words(s string) string { return strings.Join(strings.Fields(s), " ") }

// showsWhole fails unless the screen, at most 80 x 24, shows notice whole.
func showsWhole(t *testing.T, screen, notice string) {
	t.Helper()
	checkSize(t, screen, 80, 24)
	if !strings.Contains(words(plain(screen)), words(notice)) {
		t.Errorf("the screen does not show the notice whole:\n%s\nwant:\n%s", plain(screen), notice)
	}
}

// TestLobbyShowsNoticeWhole: the lobby shows the session's notice wrapped, not cut at the width.
func TestLobbyShowsNoticeWhole(t *testing.T) {
	for _, notice := range []string{takenNotice, badNameNotice} {
		m := New(Config{Hub: fakeHub{testGames}, Boards: testBoards, Notice: notice, Width: 80, Height: 24,
			Player: rooms.Player{ID: "guest-1", Name: "~zoe", Guest: true}})
		showsWhole(t, m.View().Content, notice)
	}
}

func TestLobbyNoticeGolden(t *testing.T) {
	m := New(Config{Hub: fakeHub{testGames}, Boards: testBoards, Notice: badNameNotice, Width: 80, Height: 24,
		Player: rooms.Player{ID: "guest-3f9a0000", Name: "~guest-3f9a", Guest: true}})
	golden.RequireEqual(t, plain(m.View().Content))
}

// TestNoticeBeforeTheRoom: a session whose command line opens a room (new, join, watch) shows its
// notice whole in front of the room; the first key only puts it away, and the room is there.
func TestNoticeBeforeTheRoom(t *testing.T) {
	hub := rooms.NewHub(rooms.Config{Games: testGames, BotDelay: -1, Logf: t.Logf})
	t.Cleanup(func() { hub.Shutdown("test over") })
	host, err := hub.Create("stonetowers", nil, 2, rooms.Player{ID: "SHA256:ann", Name: "ann"})
	if err != nil {
		t.Fatal(err)
	}
	ann, err := host.Join(rooms.Player{ID: "SHA256:ann", Name: "ann"}, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ann.Leave)
	code := host.Code()
	for i, start := range []Start{
		{Mode: ModeNew, Game: "stonetowers", Seats: 2, Bots: 1, BotLevel: "greedy"},
		{Mode: ModeJoin, Code: code},
		{Mode: ModeWatch, Code: code},
	} {
		zoe := rooms.Player{ID: "guest-" + string(rune('a'+i)), Name: "~zoe", Guest: true}
		m := New(Config{Hub: Local(hub), Boards: testBoards, Notice: takenNotice, Player: zoe, Start: start,
			Width: 80, Height: 24, Send: func(tea.Msg) {}})
		next, _ := m.Update(m.Init()())
		m = next.(Model)
		if m.room == nil {
			t.Fatalf("mode %v: the room did not open", start.Mode)
		}
		showsWhole(t, m.View().Content, takenNotice)
		if _, lines := m.ViewLines(); !strings.Contains(words(plain(strings.Join(lines, "\n"))), words(takenNotice)) {
			t.Errorf("mode %v: ViewLines does not show the notice", start.Mode)
		}
		if i == 0 {
			golden.RequireEqual(t, plain(m.View().Content))
		}
		m = press(m, "q") // q would leave the room: here it only puts the notice away
		if m.room == nil {
			t.Fatalf("mode %v: the key that put the notice away left the room", start.Mode)
		}
		screen := plain(m.View().Content)
		if strings.Contains(screen, "belongs to another key") || !strings.Contains(screen, "Stone Towers · room") {
			t.Errorf("mode %v: after a key, the screen is not the room:\n%s", start.Mode, screen)
		}
		m.Close()
	}
}
