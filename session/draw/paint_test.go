package draw

import (
	"testing"

	"charm.land/lipgloss/v2"
)

// paintCorpus are the texts the paint test draws: empty, spaces, ASCII, the screens' glyphs, wide
// characters, embedded styles, and the characters lipgloss treats apart (newline, tab, CR).
var paintCorpus = []string{
	"", " ", "   ", "a", "arcade", "R2", " room ", "a b c", "·", "▶", "· ", "─────", "room 房间",
	"日本語", "\x1b[1mbold\x1b[m", "x\x1b[38;2;1;2;3my\x1b[0mz", "two\nlines", "\n", "tab\there", "\t",
	"cr\rhere", "crlf\r\nend", "trailing ", " leading", "✓again", "e\u0301", "👍🏽",
}

// namedPaints lists every paint of st with a name for failures.
func namedPaints(st Styles) map[string]Paint {
	ps := map[string]Paint{
		"title": st.Title, "dim": st.Dim, "bold": st.Bold, "err": st.Err, "ok": st.OK, "key": st.Key,
		"sel": st.Sel, "cursor": st.Cursor, "changed": st.Changed, "acted": st.Acted, "plain": PlainPaint,
		"zero": {},
	}
	for i, p := range st.seat {
		ps["seat"+SeatName(i)] = p
	}
	for name, p := range st.named {
		ps["named"+name] = p
	}
	for name, p := range map[string]Paint{"dim": st.Dim, "bold": st.Bold, "seat": st.seat[0]} {
		ps["bold "+name] = p.Bold(true)
	}
	return ps
}

// TestPaintMatchesLipgloss: a paint draws every text byte for byte as its lipgloss style does,
// one text or several, for every style of the four combinations of colour and ASCII.
func TestPaintMatchesLipgloss(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		for _, ascii := range []bool{false, true} {
			for name, p := range namedPaints(*NewStyles(noColor, ascii)) {
				style := p.Style()
				for _, s := range paintCorpus {
					if got, want := p.Render(s), style.Render(s); got != want {
						t.Errorf("noColor %v ascii %v %s: Render(%q) = %q, lipgloss %q", noColor, ascii, name, s, got, want)
					}
				}
				for _, strs := range [][]string{nil, {"a", "b"}, {"", ""}, {"x", "\n", "y"}, {"·", "▶", "日本"}} {
					if got, want := p.Render(strs...), style.Render(strs...); got != want {
						t.Errorf("noColor %v ascii %v %s: Render(%q) = %q, lipgloss %q", noColor, ascii, name, strs, got, want)
					}
				}
			}
		}
	}
}

// TestPaintFastPath: the screens' colour styles take the fast path, and the styles lipgloss draws
// otherwise (underline, padding, width) do not.
func TestPaintFastPath(t *testing.T) {
	st := *NewStyles(false, false)
	for name, p := range map[string]Paint{"title": st.Title, "dim": st.Dim, "cursor": st.Cursor, "acted": st.Acted,
		"plain": PlainPaint, "seat": st.seat[0]} {
		if !p.fast {
			t.Errorf("%s does not take the fast path", name)
		}
	}
	plain := lipgloss.NewStyle()
	for name, s := range map[string]lipgloss.Style{"underline": plain.Underline(true),
		"strikethrough": plain.Strikethrough(true), "padding": plain.Padding(0, 1), "width": plain.Width(5),
		"margin": plain.MarginLeft(1), "border": plain.Border(lipgloss.NormalBorder()),
		"value": plain.SetString("v"), "transform": plain.Transform(func(s string) string { return s + "!" })} {
		p := NewPaint(s)
		if p.fast {
			t.Errorf("%s takes the fast path", name)
		}
		for _, text := range paintCorpus {
			if got, want := p.Render(text), s.Render(text); got != want {
				t.Errorf("%s: Render(%q) = %q, lipgloss %q", name, text, got, want)
			}
		}
	}
}
