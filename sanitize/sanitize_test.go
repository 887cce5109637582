package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"hello", "hello"},
		{"  hi   there \t\n you ", "hi there you"},
		{"\x1b[31mred\x1b[0m", "red"},
		{"\x1b]0;pwned\x07title", "title"},
		{"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"bell\x07\x00null", "bellnull"},
		{"\u009b2Jclear", "clear"}, {"\x9b2Jx", "2Jx"},
		{"bad\xff\xfebytes", "badbytes"},
		{"rtl\u202eevil", "rtlevil"},
		{"héllo wörld ♞", "héllo wörld ♞"},
		{"\x1b", ""},
	} {
		if got := Line(tc.in, 0); got != tc.want {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	long := strings.Repeat("ab ", 1000)
	if got := Line(long, 200); utf8.RuneCountInString(got) > 200 {
		t.Errorf("Line did not bound length: %d runes", utf8.RuneCountInString(got))
	}
}

func FuzzLine(f *testing.F) {
	f.Add("\x1b[31mhi\x1b]0;x\x07", 10)
	f.Fuzz(func(t *testing.T, s string, max int) {
		max = max%300 + 1
		if max < 1 {
			max = 1
		}
		got := Line(s, max)
		if strings.ContainsAny(got, "\x1b\x07\x00\r\n\t\u009b") {
			t.Fatalf("control left in %q", got)
		}
		if !utf8.ValidString(got) || utf8.RuneCountInString(got) > max {
			t.Fatalf("bad result %q", got)
		}
	})
}

func TestText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{" ", " "},
		{"a  b ", "a  b "},
		{"\x1b[31mred\x1b[0m ", "red "},
		{"tab\there\n", "tabhere"},
	} {
		if got := Text(tc.in, 0); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
