package session

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/discon"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/session/draw"
)

// wideScreen draws snap's room on a w x h window and checks its size.
func wideScreen(t *testing.T, snap rooms.Snapshot, w, h int) string {
	t.Helper()
	m := newTestModel(w, h)
	m.room = newRoomScreen(nil, m.cfg.Player, testGames, testBoards)
	m.room.apply(snap)
	out := m.View().Content
	checkSize(t, out, w, h)
	return plain(out)
}

// TestWideRoomGolden: on a 160 x 50 window the board and the panel are one block in the middle
// of the screen, the panel wider, and nothing is cut.
func TestWideRoomGolden(t *testing.T) {
	out := wideScreen(t, playedSnapshot(t, 14), 160, 50)
	golden.RequireEqual(t, out)
	checkCentred(t, out, 160, 2)
}

func TestWideColorettaGolden(t *testing.T) {
	snap, _ := colorettaMid(t, 3, 30)
	out := wideScreen(t, snap, 160, 50)
	golden.RequireEqual(t, out)
	checkCentred(t, out, 160, 2)
}

// checkCentred fails when the body's lines (all but the header and the foot lines under them) leave much more room on one side than on the other, or
// when one is cut with "…".
func checkCentred(t *testing.T, out string, w, foot int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	left, right := w, w
	for _, l := range lines[1 : len(lines)-foot] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		left = min(left, len(l)-len(strings.TrimLeft(l, " ")))
		right = min(right, w-len([]rune(l)))
	}
	if d := left - right; d > 4 || d < -4 {
		t.Errorf("the body is not centred: %d columns free on the left, %d on the right\n%s", left, right, out)
	}
	if strings.Contains(out, "…") {
		t.Errorf("a line is cut:\n%s", out)
	}
}

// TestWideReplayGolden: a replay on a wide window is laid out as a room is: board and panel in
// the middle. At 80 x 24 the line of who played wraps instead of cutting a bot's name.
func TestWideReplayGolden(t *testing.T) {
	snap := playedSnapshot(t, 12)
	m := record.Match{ID: "2kq8xm4a7b2", Game: "stonetowers", Options: rules.Options{"size": "12", "turns": "25"},
		Seed: 7, Started: when, Seats: []record.Seat{{PlayerID: "SHA256:x", Name: "annabelle"},
			{Name: "Bo (greedy bot)", Bot: "greedy"}}}
	for _, mv := range snap.Moves {
		m.Moves = append(m.Moves, record.Move{Seat: mv.Seat, Move: mv.Move})
	}
	r := replayOf(t, m, stonetowers.Game)
	r.update(keyPress("G"))
	wide := r.view(*draw.NewStyles(false, false), 160, 50)
	checkSize(t, wide, 160, 50)
	golden.RequireEqual(t, plain(wide))
	checkCentred(t, plain(wide), 160, 3)
	narrow := plain(r.view(*draw.NewStyles(false, false), 80, 24))
	checkSize(t, narrow, 80, 24)
	if strings.Contains(narrow, "…") || !strings.Contains(narrow, "Bo (greedy bot)") {
		t.Errorf("a name is cut at 80 x 24:\n%s", narrow)
	}
}

// TestWideClickPicks: on a wide window, where the board stands right of a margin, a click on a
// piece picks it as it does at 80 x 24.
func TestWideClickPicks(t *testing.T) {
	hint := func(w, h int) string {
		snap, _ := disconSnapshot(t, 12)
		v, _ := draw.ViewRef[discon.View](&snap)
		m := newTestModel(w, h)
		m.room = newRoomScreen(nil, m.cfg.Player, testGames, testBoards)
		m.room.apply(snap)
		_ = m.View()
		from := v.Legal[0].From
		next, _ := m.Update(tea.MouseClickMsg{X: m.room.boardX + disconLeft + disconCell*from.Col(),
			Y: 1 + disconTop + from.Row(), Button: tea.MouseLeft})
		lines := strings.Split(plain(next.(Model).View().Content), "\n")
		return strings.TrimSpace(lines[14]) // the board's line under its cursor's
	}
	narrow, wide := hint(80, 24), hint(160, 50)
	if narrow == "" || !strings.HasPrefix(wide, narrow[:20]) {
		t.Errorf("a click at 160 columns says %q; at 80 %q", wide, narrow)
	}
}

// TestWideLobbyIsCentred: on a 160 x 50 window the lobby is a column of lobbyWidth in the middle:
// its header ends with the player's name at the column's right edge, and every line starts at its
// left edge or right of it.
func TestWideLobbyIsCentred(t *testing.T) {
	m := newTestModel(160, 50)
	out := plain(m.View().Content)
	checkSize(t, out, 160, 50)
	margin := (160 - lobbyWidth) / 2
	lines := strings.Split(out, "\n")
	if h := strings.TrimRight(lines[0], " "); len([]rune(h)) != margin+lobbyWidth || !strings.HasSuffix(h, m.cfg.Player.Name) {
		t.Errorf("the header does not end at the column's right edge (%d):\n%s", margin+lobbyWidth, out)
	}
	for i, l := range lines {
		if strings.TrimSpace(l) != "" && len(l)-len(strings.TrimLeft(l, " ")) < margin {
			t.Fatalf("line %d starts left of the column:\n%s", i, out)
		}
	}
	if !strings.Contains(out, "New room") {
		t.Errorf("no menu:\n%s", out)
	}
}
