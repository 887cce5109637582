package session

import (
	"slices"
	"strings"
	"testing"
)

// TestViewLinesMatchView: the lines a model gives the renderer (as lines, or in pieces) are its
// View's text, split, in the room (at a prompt, in the rules, after a new snapshot), in ASCII
// mode, and in the lobby.
func TestViewLinesMatchView(t *testing.T) {
	check := func(what string, m Model) {
		t.Helper()
		v, lines := m.ViewLines()
		want := strings.Split(m.View().Content, "\n")
		if !slices.Equal(lines, want) {
			t.Errorf("%s: ViewLines differs from View:\n%q\nwant\n%q", what, lines, want)
		}
		if v.Content != "" && v.Content != m.View().Content || !v.AltScreen {
			t.Errorf("%s: view %+v", what, v)
		}
		for range 2 { // the second time from the pieces the first left
			_, pieces := m.ViewPieces()
			joined := make([]string, len(pieces))
			for i, p := range pieces {
				joined[i] = strings.Join(p, "")
			}
			if !slices.Equal(joined, want) {
				t.Errorf("%s: ViewPieces differs from View:\n%q\nwant\n%q", what, joined, want)
			}
		}
	}
	check("lobby", newTestModel(80, 24))
	snap := playedSnapshot(t, 14)
	m := roomModel(t, snap)
	check("room", m)
	m = press(m, ":", "b", "u")
	check("move prompt", m)
	m = press(m, "esc", "?")
	check("rules", m)
	m.room.apply(playedSnapshot(t, 15))
	check("next snapshot", m)
	ascii := newTestModel(80, 24)
	ascii.cfg.ASCII = true
	ascii.room = newRoomScreen(nil, ascii.cfg.Player, testGames, testBoards)
	ascii.room.apply(snap)
	check("ascii room", ascii)
	small := roomModel(t, snap)
	small.width = 60
	check("too small", small)
}
