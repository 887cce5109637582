package session

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/discon"
	"github.com/arcade/arcade/rules/stonetowers"
)

// firstLastKeys are the two ways to the first item of a list and to its last: g and G, Home and
// End.
var firstLastKeys = [][2]string{{"g", "G"}, {"home", "end"}}

// pressAll sends keys by name (pagerKey's: "home", "end", "up", "G", or keyPress's) to m.
func pressAll(m Model, keys ...string) Model {
	for _, k := range keys {
		next, _ := m.Update(pagerKey(k))
		m = next.(Model)
	}
	return m
}

// TestMenuFirstAndLast: on the lobby's menu g and Home go to the first of Your games (the menu's
// first item when the player has none), G and End to the menu's last item, from anywhere.
func TestMenuFirstAndLast(t *testing.T) {
	for _, n := range []int{0, 3} {
		for _, fl := range firstLastKeys {
			m, _ := yourGamesModel(80, 24, n)
			m = pressAll(m, "down", fl[1])
			if l := m.lobby; l.yours.focused() || l.menu != len(menuItems)-1 {
				t.Errorf("%d games, %s: games' cursor %d, menu item %d; want the last item", n, fl[1], l.yours.sel, l.menu)
			}
			if !strings.Contains(plain(m.View().Content), "enter choose") {
				t.Errorf("%d games, %s: the menu's help line does not say enter chooses:\n%s", n, fl[1], plain(m.View().Content))
			}
			m = pressAll(m, "up", fl[0])
			switch l := m.lobby; {
			case n == 0 && (l.yours.focused() || l.menu != 0):
				t.Errorf("no games, %s: menu item %d; want the first", fl[0], l.menu)
			case n > 0 && l.yours.sel != 0:
				t.Errorf("%d games, %s: games' cursor %d; want the first game", n, fl[0], l.yours.sel)
			}
		}
	}
}

// TestFormFirstAndLast: in the new-room form g and Home go to the first field (the game), G and
// End to the last (the clock).
func TestFormFirstAndLast(t *testing.T) {
	for _, fl := range firstLastKeys {
		m := pressAll(newTestModel(80, 24), "down", "enter", "down", fl[1])
		fields := m.lobby.form.fields()
		if f := m.lobby.form.field; f != len(fields)-1 || fields[f].label != "Clock" {
			t.Errorf("%s: field %d, want the last, the clock", fl[1], f)
		}
		if m = pressAll(m, fl[0]); m.lobby.form.field != 0 {
			t.Errorf("%s: field %d, want the first, the game", fl[0], m.lobby.form.field)
		}
	}
}

// TestLeaderboardFirstAndLast: on the leaderboards g and Home show the first game's, G and End
// the last game's.
func TestLeaderboardFirstAndLast(t *testing.T) {
	for _, fl := range firstLastKeys {
		m := pressAll(recordsModel(), "down", "down", "down", "down", "enter", fl[1])
		if g := m.lobby.game; g != len(m.lobby.games)-1 {
			t.Errorf("%s: game %d, want the last", fl[1], g)
		}
		if m = pressAll(m, fl[0]); m.lobby.game != 0 {
			t.Errorf("%s: game %d, want the first", fl[0], m.lobby.game)
		}
	}
}

// TestListsFirstAndLast: every list the lobby scrolls (the help's games, the quick match's, the
// rules, my matches) goes to its first and its last item with g/G and Home/End, and the rules in
// a room to their start and end.
func TestListsFirstAndLast(t *testing.T) {
	games := append([]rules.Game{}, testGames...)
	games = append(games, discon.Game, stonetowers.Game)
	for _, fl := range firstLastKeys {
		for _, page := range []struct {
			name string
			keys []string
		}{
			{"quick match", []string{"enter"}},
			{"help", []string{"up", "up", "enter"}},
			{"my matches", []string{"down", "down", "down", "down", "down", "enter"}},
		} {
			m := recordsModel()
			m.lobby.games = games
			m = pressAll(m, append(page.keys, fl[1])...)
			p := &m.lobby.pager
			if len(p.text) < 2 {
				t.Fatalf("%s: a list of %d items", page.name, len(p.text))
			}
			if p.selected() != len(p.text)-1 {
				t.Errorf("%s, %s: item %d of %d selected, want the last", page.name, fl[1], p.selected(), len(p.text))
			}
			if m = pressAll(m, fl[0]); m.lobby.pager.selected() != 0 {
				t.Errorf("%s, %s: item %d selected, want the first", page.name, fl[0], m.lobby.pager.selected())
			}
		}
		m := pressAll(roomModel(t, playedSnapshot(t, 14)), "?", fl[1])
		if p := &m.room.rules; p.top == 0 || p.top != len(p.lines)-p.height {
			t.Errorf("the room's rules, %s: from line %d of %d (%d shown), want the end", fl[1], p.top, len(p.lines), p.height)
		}
		if m = pressAll(m, fl[0]); m.room.rules.top != 0 {
			t.Errorf("the room's rules, %s: from line %d, want the start", fl[0], m.room.rules.top)
		}
	}
}

// TestReplayFirstLastAndBack: a replay goes to its start and end with g/G and Home/End, and its
// help line says where esc goes: back to the room it was opened from, to My matches, or to the
// lobby.
func TestReplayFirstLastAndBack(t *testing.T) {
	match := stoneMatch(t)
	r := replayOf(t, match, stonetowers.Game)
	for _, fl := range firstLastKeys {
		if r.update(pagerKey(fl[1])); r.at != r.cur.Len() {
			t.Errorf("%s: at move %d, want the last, %d", fl[1], r.at, r.cur.Len())
		}
		if r.update(pagerKey(fl[0])); r.at != 0 {
			t.Errorf("%s: at move %d, want the start", fl[0], r.at)
		}
	}

	opened := func(m Model) string {
		next, _ := m.Update(replayMsg{screen: replayOf(t, match, stonetowers.Game)})
		return helpOf(t, next.(Model).View().Content)
	}
	room := roomModel(t, playedSnapshot(t, -1))
	mine := pressAll(recordsModel(), "down", "down", "down", "down", "down", "enter")
	for _, c := range []struct {
		name string
		m    Model
		want string
	}{
		{"from the room", room, "esc room"},
		{"from my matches", mine, "esc matches"},
		{"from the command line", newTestModel(80, 24), "esc lobby"},
	} {
		if got := opened(c.m); !strings.HasSuffix(got, c.want) {
			t.Errorf("a replay opened %s: the help line %q does not end %q", c.name, got, c.want)
		}
	}
	// esc from a replay opened in the room goes back to the room.
	next, _ := room.Update(replayMsg{screen: replayOf(t, match, stonetowers.Game)})
	next, _ = next.(Model).Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if m := next.(Model); m.replay != nil || m.room == nil {
		t.Errorf("esc from the replay: replay %v, room %v; want the room again", m.replay != nil, m.room != nil)
	}
}
