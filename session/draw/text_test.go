package draw

import (
	"slices"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

// widthCorpus are strings TextWidth must measure as lipgloss does: the screens' glyphs beside
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

// TestTextWidth: TextWidth measures the tricky strings and every glyph it counts itself as
// lipgloss.Width does (session's TestTextWidth measures the screens).
func TestTextWidth(t *testing.T) {
	check := func(where, s string) {
		t.Helper()
		if got, want := TextWidth(s), lipgloss.Width(s); got != want {
			t.Errorf("%s: TextWidth(%q) = %d, lipgloss.Width %d", where, s, got, want)
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
			got, want := Wrap(s, width), wrapSlow(s, width)
			if strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) != len(want) {
				t.Errorf("wrap(%q, %d) = %q, want %q", s, width, got, want)
			}
		}
	}
}

// TestEntries: a legend's entries, two spaces apart, as many on a line as fit; one too wide for
// the width on a line of its own.
func TestEntries(t *testing.T) {
	got := Entries([]string{"(B) cylinder", "[B] block", "r red hex", "· black", "a very long entry indeed"}, 24)
	want := []string{"(B) cylinder  [B] block", "r red hex  · black", "a very long entry indeed"}
	if !slices.Equal(got, want) {
		t.Errorf("Entries gives %q, want %q", got, want)
	}
}
