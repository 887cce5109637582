package screen

import (
	"strings"
	"testing"
)

// TestScreenSequences: what each sequence the renderers use does to the screen, as xterm does it.
// (The screen is also compared with a full emulator on the arcade's real output: TestSmoke runs
// with --validate.)
func TestScreenSequences(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"text and CUP", "ab\x1b[2;3Hcd", "ab|  cd"},
		{"relative moves", "\x1b[3;3Hx\x1b[2Ay\x1b[1B\x1b[3Dz\x1b[2Cw", "   y| z  w|  x"},
		{"CHA VPA CNL CPL", "\x1b[5Ga\x1b[2db\x1b[1Ec\x1b[2Fd", "d   a|     b|c"},
		{"EL", "abcdef\x1b[1;3H\x1b[K\x1b[2;1Habcdef\x1b[2;3H\x1b[1K\x1b[3;1Habcdef\x1b[3;3H\x1b[2K", "ab|   def"},
		{"ED below", "aaaa\r\nbbbb\r\ncccc\x1b[2;3H\x1b[J", "aaaa|bb"},
		{"ED above", "aaaa\r\nbbbb\r\ncccc\x1b[2;3H\x1b[1J", "|   b|cccc"},
		{"ED all", "aaaa\r\nbbbb\x1b[2J", ""},
		{"ECH", "abcdef\x1b[1;2H\x1b[3X", "a   ef"},
		{"ICH", "abcdef\x1b[1;2H\x1b[2@", "a  bcdef"},
		{"DCH", "abcdef\x1b[1;2H\x1b[2P", "adef"},
		{"REP", "x\x1b[4b", "xxxxx"},
		{"wrap at the margin", "0123456789AB", "0123456789|AB"},
		{"pending wrap then CR", "0123456789\rX", "X123456789"},
		{"corner with autowrap off", "\x1b[4;10H\x1b[?7lZ\x1b[?7hQ", "|||         Q"},
		{"UTF-8", "·─✓", "·─✓"},
		{"tab", "a\tb", "a       b"},
		{"BS", "ab\bX", "aX"},
		{"LF keeps the column", "ab\ncd", "ab|  cd"},
		{"save and restore", "\x1b[2;2H\x1b7\x1b[4;4Hx\x1b8y\x1b[3;3H\x1b[sz\x1b[1;1H\x1b[uw", "| y|  w|   x"},
		{"skipped: OSC DCS APC modes SGR", "\x1b]2;title\x07a\x1bP1$r\x1b\\b\x1b_x\x1b\\c\x1b[?2004h\x1b[>4;2m\x1b[=1;1u\x1b[1;38;2;1;2;3md\x1b[m", "abcd"},
		{"charset designation", "\x1b(Ba", "a"},
		{"alternate screen clears", "junk\x1b[?1049hok", "    ok"},
		{"reverse index at the top", "a\x1b[H\x1bMb", "b|a"},
	} {
		s := New(10, 4)
		s.Write([]byte(c.in))
		got := strings.TrimRight(strings.ReplaceAll(s.String(), "\n", "|"), "|")
		if want := strings.TrimRight(c.want, "|"); got != want {
			t.Errorf("%s: %q gives %q, want %q", c.name, c.in, got, want)
		}
	}
}

// TestScreenSplitWrites: sequences and runes split across writes at every byte give the same screen.
func TestScreenSplitWrites(t *testing.T) {
	in := []byte("\x1b[?1049h\x1b[2;3HTurns left: \x1b[1mR\x1b[m 24 · \x1b[1mB\x1b[m 25\x1b]2;t\x07\x1b[1;1H✓")
	whole := New(40, 4)
	whole.Write(in)
	for i := range in {
		s := New(40, 4)
		s.Write(in[:i])
		s.Write(in[i:])
		if s.String() != whole.String() {
			t.Fatalf("split at %d:\n%s\nwant:\n%s", i, s, whole)
		}
	}
}

// TestMarkerSplitAcrossFrames: the side panel's line, drawn once whole and then changed by a
// single cell, is found on the screen though it never appears whole in the second frame's bytes.
func TestMarkerSplitAcrossFrames(t *testing.T) {
	s := New(80, 24)
	s.Write([]byte("\x1b[?1049h\x1b[5;50HTurns left: \x1b[1mR\x1b[m 25 · \x1b[1mB\x1b[m 25"))
	s.ClearDirty()
	target := []rune("Turns left: R 24 · B 25")
	if s.DirtyContains(target) {
		t.Fatal("found before the change")
	}
	s.Write([]byte("\x1b[5;65H4"))
	if !s.DirtyContains(target) {
		t.Fatalf("not found after the change:\n%s", s)
	}
}

// TestScrollRegion: lines inserted, deleted and scrolled within a region (DECSTBM) as xterm does it;
// outside the region insert and delete do nothing.
func TestScrollRegion(t *testing.T) {
	s := New(10, 6)
	s.Write([]byte("a\r\nb\r\nc\r\nd\r\ne\r\nf"))
	s.Write([]byte("\x1b[2;5r"))        // region: rows 2 to 5 (b..e); the cursor goes home
	s.Write([]byte("\x1b[3;1H\x1b[1L")) // insert at c: e falls off the region
	s.Write([]byte("\x1b[6;1H\x1b[1M")) // delete at f, outside: nothing
	s.Write([]byte("\x1b[1S"))          // scroll the region up: b goes, a blank comes in at the bottom
	s.Write([]byte("\x1b[r\x1b[1;3Hx")) // region off; the cursor goes home, then x on row 1
	want := "a x\n\nc\nd\n\nf\n"
	if got := s.String(); got != want {
		t.Errorf("screen:\n%q\nwant:\n%q", got, want)
	}
}
