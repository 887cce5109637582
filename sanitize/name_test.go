package sanitize

import (
	"errors"
	"strings"
	"testing"
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
