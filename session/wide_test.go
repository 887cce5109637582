package session

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/rooms"
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
	checkCentred(t, out, 160)
}

func TestWideColorettaGolden(t *testing.T) {
	snap, _ := colorettaMid(t, 3, 30)
	out := wideScreen(t, snap, 160, 50)
	golden.RequireEqual(t, out)
	checkCentred(t, out, 160)
}

// checkCentred fails when the body's lines leave much more room on one side than on the other, or
// when one is cut with "…".
func checkCentred(t *testing.T, out string, w int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	left, right := w, w
	for _, l := range lines[1 : len(lines)-2] {
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
