package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/coloretta"
	"github.com/arcade/arcade/session/draw"
)

// TestTextWidth: draw.TextWidth measures every line of every golden file and every line of the
// screens at colour on and off as lipgloss.Width does.
func TestTextWidth(t *testing.T) {
	check := func(where, s string) {
		t.Helper()
		if got, want := draw.TextWidth(s), lipgloss.Width(s); got != want {
			t.Errorf("%s: TextWidth(%q) = %d, lipgloss.Width %d", where, s, got, want)
		}
	}
	files, err := filepath.Glob(filepath.Join("testdata", "*.golden"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		check(f, string(data))
		for _, line := range strings.Split(string(data), "\n") {
			check(f, line)
		}
	}
	for _, noColor := range []bool{false, true} {
		for _, ascii := range []bool{false, true} {
			for name, screen := range allScreens(t, noColor, ascii) {
				check(name, screen)
				for _, line := range strings.Split(screen, "\n") {
					check(name, line)
				}
			}
		}
	}
}

// allScreens draws the screens the golden tests draw, with their styles: lobby, room and end
// (screens), the waiting room, DISCON and Coloretta rooms mid-game and at the end, the records'
// screens, a replay and the too-small screen.
func allScreens(t *testing.T, noColor, ascii bool) map[string]string {
	t.Helper()
	out := screens(t, noColor, ascii)
	cfg := Config{Hub: fakeHub{testGames}, Boards: testBoards, Records: fakeRecords{}, Player: rooms.Player{ID: "SHA256:x", Name: "ann"},
		Width: 80, Height: 24, NoColor: noColor, ASCII: ascii}
	room := func(snap rooms.Snapshot) string {
		m := New(cfg)
		m.room = newRoomScreen(nil, cfg.Player, testGames, testBoards)
		m.room.apply(snap)
		return m.View().Content
	}
	out["waiting"] = room(rooms.Snapshot{Code: "K7QXM", GameID: "stonetowers", GameName: "Stone Towers",
		Phase: rooms.Waiting, Seats: []rooms.SeatInfo{{Name: "ann", Connected: true}, {Empty: true}}})
	discon, _ := disconSnapshot(t, 12)
	out["discon"] = room(discon)
	discon, _ = disconSnapshot(t, -1)
	out["discon end"] = room(discon)
	col, _ := colorettaMid(t, 3, 30)
	out["coloretta"] = room(col)
	col, _ = colorettaMid(t, 5, 22)
	out["coloretta 5"] = room(col)
	col, _ = colorettaPlay(t, 3, nil, func(_ int, v coloretta.View) bool { return v.RoundEnded })
	out["coloretta round end"] = room(col)
	col, _ = colorettaPlay(t, 4, rules.Options{"rounds": "2"}, func(int, coloretta.View) bool { return false })
	out["coloretta end"] = room(col)
	out["leaderboard"] = press(New(cfg), "down", "down", "down", "down", "enter").View().Content
	out["my matches"] = press(New(cfg), "down", "down", "down", "down", "down", "enter").View().Content
	out["new room"] = press(New(cfg), "down", "down", "enter").View().Content
	small := cfg
	small.Width, small.Height = 60, 20
	out["too small"] = New(small).View().Content
	return out
}
