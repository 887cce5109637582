package sanitize

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestParseNameAccepts: names that keep to the rule are accepted; upper-case ASCII is folded.
func TestParseNameAccepts(t *testing.T) {
	for in, want := range map[string]string{
		"alice":            "alice",
		"Alice":            "alice",
		"BOB":              "bob",
		"a":                "a",
		"7":                "7",
		"load12":           "load12",
		"ann-marie":        "ann-marie",
		"x_1-y":            "x_1-y",
		"abcdefghijklmnop": "abcdefghijklmnop",
	} {
		got, err := ParseName(in)
		if err != nil || got != want {
			t.Errorf("ParseName(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestParseNameRefuses: lookalikes and every other break of the rule are refused with a reason;
// nothing is quietly turned into a valid name.
func TestParseNameRefuses(t *testing.T) {
	for in, reason := range map[string]string{
		"":                       "empty",
		"ａｌｉｃｅ":                  "U+FF41 (ａ)",
		"аlice":                  "U+0430 (а)", // Cyrillic а
		"alicе":                  "U+0435 (е)", // Cyrillic е
		"ａlice":                  "U+FF41",
		"ALİCE":                  "U+0130",
		"bob.smith":              "U+002E (.)",
		"bob smith":              "U+0020",
		"~bob":                   "U+007E (~)",
		"bob\x1b[31m":            "U+001B",
		"bob\u200b":              "U+200B", // zero-width space
		"bob\u202e":              "U+202E", // right-to-left override
		"ünal":                   "U+00FC (ü)",
		"abcdefghijklmnopq":      "longer than 16",
		"-bob":                   "starts or ends",
		"bob_":                   "starts or ends",
		"_":                      "starts or ends",
		"a--b":                   "two of - and _ in a row",
		"a_-b":                   "two of - and _ in a row",
		"\xff\xfe":               "not valid UTF-8",
		strings.Repeat("a", 300): "longer than 16",
	} {
		got, err := ParseName(in)
		if !errors.Is(err, ErrBadName) || !strings.Contains(err.Error(), reason) {
			t.Errorf("ParseName(%q) = %q, %v; want ErrBadName saying %q", in, got, err, reason)
		}
		if err != nil && got != "" {
			t.Errorf("ParseName(%q) returned %q with its error", in, got)
		}
		if err != nil && strings.ContainsRune(err.Error(), 0x1b) {
			t.Errorf("ParseName(%q): the error carries an escape: %q", in, err)
		}
	}
}

func TestValidName(t *testing.T) {
	for in, want := range map[string]bool{"alice": true, "Alice": false, "аlice": false, "": false, "a-b": true} {
		if got := ValidName(in); got != want {
			t.Errorf("ValidName(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestShownName: stored names of older builds show folded, or with '?' for what the rule does not
// allow, so that a lookalike never shows as the name it imitates.
func TestShownName(t *testing.T) {
	for in, want := range map[string]string{
		"alice":      "alice",
		"Alice":      "alice",
		"~alice":     "~alice",
		"~Alice":     "~alice",
		"аlice":      "?lice",
		"ａｌｉｃｅ":      "?????",
		"~аlice":     "~?lice",
		"bob.smith":  "bob?smith",
		"Bob.Smith":  "bob?smith",
		"-bob":       "?bob",
		"a--b":       "a??b",
		"ünal":       "?nal",
		"\x1b[2Jbob": "??2jbob",
		"ｘｘｘｘｘｘｘｘｘｘｘｘｘｘｘｘｘｘ": "????????????????",
		"abcdefghijklmnopqrst": "abcdefghijklmno?",
		"":                     "",
		"~":                    "~",
	} {
		if got := ShownName(in); got != want {
			t.Errorf("ShownName(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzShownName: whatever is stored, the name shown is short printable ASCII, and is a valid name
// (or a guest's) only when the stored one was.
func FuzzShownName(f *testing.F) {
	for _, s := range []string{"alice", "аlice", "~bob", "Bob.Smith", "\x1b]0;x\x07", "a--b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := ShownName(s)
		if utf8.RuneCountInString(got) > MaxName+1 {
			t.Fatalf("ShownName(%q) = %q: too long", s, got)
		}
		for _, r := range got {
			if r < 0x20 || r > 0x7e {
				t.Fatalf("ShownName(%q) = %q: holds %U", s, got, r)
			}
		}
		bare := strings.TrimPrefix(got, "~")
		if ValidName(bare) {
			if _, err := ParseName(strings.TrimPrefix(s, "~")); err != nil {
				t.Fatalf("ShownName(%q) = %q, a valid name, from a name that breaks the rule", s, got)
			}
		}
	})
}
