package session

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/session/draw"
)

// colourSGR matches an SGR sequence that sets a foreground or background colour.
var colourSGR = regexp.MustCompile(`\x1b\[[0-9;]*(3[0-9]|4[0-9]|9[0-7]|10[0-7])(;[0-9;]*)?m`)

func screens(t *testing.T, noColor, ascii bool) map[string]string {
	t.Helper()
	cfg := Config{Hub: fakeHub{testGames}, Boards: testBoards, Player: rooms.Player{ID: "SHA256:x", Name: "ann"},
		Width: 80, Height: 24, NoColor: noColor, ASCII: ascii}
	lobby := New(cfg)
	room := New(cfg)
	room.room = newRoomScreen(nil, cfg.Player, testGames, testBoards)
	room.room.apply(playedSnapshot(t, 14))
	end := New(cfg)
	end.room = newRoomScreen(nil, cfg.Player, testGames, testBoards)
	end.room.apply(playedSnapshot(t, -1))
	return map[string]string{"lobby": lobby.View().Content, "room": room.View().Content, "end": end.View().Content}
}

// TestASCIIMode: with ASCII on, every screen is pure ASCII and keeps its layout.
func TestASCIIMode(t *testing.T) {
	plainScreens := screens(t, true, false)
	for name, s := range screens(t, true, true) {
		for i, r := range s {
			if r >= utf8.RuneSelf {
				t.Errorf("%s: non-ASCII %q at byte %d", name, r, i)
				break
			}
		}
		a, b := strings.Split(ansi.Strip(s), "\n"), strings.Split(ansi.Strip(plainScreens[name]), "\n")
		for i := range min(len(a), len(b)) {
			if ansi.StringWidth(a[i]) != ansi.StringWidth(b[i]) {
				t.Errorf("%s line %d changed width in ASCII mode: %q vs %q", name, i, a[i], b[i])
			}
		}
	}
	if got := draw.ASCIIOnly("名前 ok ·"); got != "???? ok ." {
		t.Errorf("asciiOnly = %q", got)
	}
}

// TestNoColor: with NO_COLOR, no screen sets a colour; letters carry the meaning.
func TestNoColor(t *testing.T) {
	for name, s := range screens(t, true, false) {
		if m := colourSGR.FindString(s); m != "" {
			t.Errorf("%s sets a colour with NO_COLOR: %q", name, m)
		}
	}
	if s := screens(t, false, false)["room"]; !colourSGR.MatchString(s) {
		t.Error("the colour room screen has no colour: the test would prove nothing")
	}
}

// TestHugeWindow: a client claiming an enormous window gets a frame of bounded size.
func TestHugeWindow(t *testing.T) {
	m := newTestModel(80, 24)
	next, _ := m.Update(tea.WindowSizeMsg{Width: 100000, Height: 100000})
	out := next.(Model).View().Content
	checkSize(t, out, maxWidth, maxHeight)
}

// TestASCIIFooterSeparator: in ASCII mode the help line's keys are set apart by a bar, not by the
// bullet's stand-in '*', which means something on the boards.
func TestASCIIFooterSeparator(t *testing.T) {
	for name, s := range screens(t, true, true) {
		lines := strings.Split(strings.TrimRight(ansi.Strip(s), "\n "), "\n")
		foot := lines[len(lines)-1]
		if strings.Contains(foot, " * ") || !strings.Contains(foot, " | ") {
			t.Errorf("%s: the help line is not set apart by bars: %q", name, foot)
		}
	}
}
