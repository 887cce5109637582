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

// widthCorpus are strings textWidth must measure as lipgloss does: the screens' glyphs beside
// ASCII, and what it must leave to lipgloss (combining marks and variation selectors after known
// glyphs, joiners, wide characters, emoji, other escapes, controls).
var widthCorpus = []string{
	"", " ", "abc", "a\nbcd\n", "\n\n", "·", "a·b", "▶ ann", "✓again", "✗ no", "╭──╮", "│ x │", "░░", "R×6",
	"‹ Stone Towers ›", "←→", "a…", "• x", "e\u0301", "·\u0301", "▶\ufe0f", "✓\ufe0f", "✗\u200d✓", "▶\u200d▶",
	"a\u200db", "日本語", "a日b", "房间 room", "👍", "👍🏽", "👨\u200d👩\u200d👧", "🇫🇷", "ｗｉｄｅ", "\u00ad",
	"\x1b[1mbold\x1b[m", "\x1b[38;2;255;95;95;1mR\x1b[m·", "\x1b]8;;http://x\x07link\x1b]8;;\x07",
	"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "\x1b7saved\x1b8", "\x1b(Bx", "\x1b[", "\x1b", "a\x1b[1", "a\x07b",
	"a\tb", "a\rb", "a\x7fb", "\x1b[1\x07m", "\x1b[?25lx", "\x1b[1 qx", "\x1b]0;title", "\xff", "a\xc2",
	"·\xe2\x94", "\u0085", "ä", "\u2500\u259f\u25a0", "\xe0\x82\xb7", "\xc1\xb7", "\xe2\x80", "\xe2\x80\xa6\xa6",
	"\xed\xa0\x80", "\u2028", "\u200b", "\u00a0",
}

// TestTextWidth: textWidth measures every line of every golden file, every line of the screens
// at colour on and off, and the tricky strings as lipgloss.Width does.
func TestTextWidth(t *testing.T) {
	check := func(where, s string) {
		t.Helper()
		if got, want := draw.TextWidth(s), lipgloss.Width(s); got != want {
			t.Errorf("%s: textWidth(%q) = %d, lipgloss.Width %d", where, s, got, want)
		}
	}
	for _, s := range widthCorpus {
		check("corpus", s)
		for _, around := range []string{"a%sb", "%s%s", "\x1b[1m%s\x1b[m ", "·%s·"} {
			check("corpus", strings.ReplaceAll(around, "%s", s))
		}
	}
	known := 0
	for r := rune(0); r < 0x3000; r++ {
		if r >= 0x80 && narrowGlyph(r) {
			known++
			if w := lipgloss.Width(string(r)); w != 1 {
				t.Errorf("%q is %d columns wide, not one", r, w)
			}
			check("glyph", "a"+string(r)+"b")
		}
	}
	want := 0x259f - 0x2500 + 1 // box drawing and blocks, and asciiGlyphs' keys outside them
	for r := range asciiGlyphs {
		if r < 0x2500 || r > 0x259f {
			want++
		}
	}
	if known != want {
		t.Errorf("textWidth knows %d glyphs, want %d", known, want)
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
	cfg := Config{Hub: fakeHub{testGames}, Records: fakeRecords{}, Player: rooms.Player{ID: "SHA256:x", Name: "ann"},
		Width: 80, Height: 24, NoColor: noColor, ASCII: ascii}
	room := func(snap rooms.Snapshot) string {
		m := New(cfg)
		m.room = newRoomScreen(nil, cfg.Player, testGames)
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
	out["leaderboard"] = press(New(cfg), "down", "down", "down", "enter").View().Content
	out["my matches"] = press(New(cfg), "down", "down", "down", "down", "enter").View().Content
	out["new room"] = press(New(cfg), "down", "enter").View().Content
	small := cfg
	small.Width, small.Height = 60, 20
	out["too small"] = New(small).View().Content
	return out
}

// wrapSlow is wrap without its one-line shortcut: what wrap must return.
func wrapSlow(s string, width int) []string {
	var out []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			switch {
			case line == "":
				line = word
			case lipgloss.Width(line)+1+lipgloss.Width(word) <= width:
				line += " " + word
			default:
				out = append(out, line)
				line = word
			}
		}
		out = append(out, line)
	}
	return out
}

// TestWrap: wrap breaks text as the plain word-by-word algorithm does, whether or not it takes
// its one-line shortcut.
func TestWrap(t *testing.T) {
	texts := append([]string{"good luck!", "  lead", "trail ", "two  spaces", "a\tb", "x\u00a0y", "a\u0085b",
		"\x1b[2m· \x1b[mann sits down", "\x1b[1mbob:\x1b[m good luck!", "took 3, destroyed 1 castle in 2 waves",
		"a \u0301b", "▶ go", "\x1b[1 qa b", strings.Repeat("word ", 12) + "end", "日本 語", "one\ntwo"}, widthCorpus...)
	for _, s := range texts {
		for _, width := range []int{0, 1, 5, 10, 28, 80} {
			got, want := draw.Wrap(s, width), wrapSlow(s, width)
			if strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) != len(want) {
				t.Errorf("wrap(%q, %d) = %q, want %q", s, width, got, want)
			}
		}
	}
}
