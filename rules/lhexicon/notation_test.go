package lhexicon

import (
	"reflect"
	"testing"
)

func TestNotationRoundTrip(t *testing.T) {
	for _, text := range []string{
		"h8 cruel e,se,e,ne", "a1 QUiz se,e", "o8 quAd nw,ne", "h8 Qat e,e", "x ab?qu", "s h8 c3",
		"pass", "challenge", "accept", "end",
	} {
		m, err := ParseMove(text)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if got := m.String(); got != text {
			t.Errorf("%q reads back as %q", text, got)
		}
	}
	// Looser forms.
	for text, want := range map[string]string{
		"  H8 cruel E SE e-ne ": "h8 cruel e,se,e,ne",
		"exchange A B":          "x ab",
		"swap h8,c3":            "s h8 c3",
		"P":                     "pass",
	} {
		m, err := ParseMove(text)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if got := m.String(); got != want {
			t.Errorf("%q reads as %q, want %q", text, got, want)
		}
	}
	for _, bad := range []string{"", "h8", "h8 cat e", "h8 cat e,e,e", "p9 cat e,e", "h16 at e", "h8 c1t e",
		"h8 cat e,up", "x", "x 1", "s", "s z9", "pass now", "h8 qi e"} {
		if m, err := ParseMove(bad); err == nil {
			t.Errorf("%q read as %v", bad, m)
		}
	}
	// Hexes: every one round-trips, and h8 is the centre.
	for h := range Hex(NumHexes) {
		g, err := ParseHex(h.String())
		if err != nil || g != h {
			t.Errorf("%s reads back as %v, %v", h, g, err)
		}
	}
	if Centre.String() != "h8" || NumHexes != 169 {
		t.Errorf("centre %s, %d hexes", Centre, NumHexes)
	}
}

// FuzzParseMove: no panic, and whatever parses prints as notation that parses to the same move.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"h8 cruel e,se,e,ne", "x ab?", "s h8", "pass", "a1 QUiz se,e", "h8 Qat e e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseMove(text)
		if err != nil {
			return
		}
		m2, err := ParseMove(m.String())
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", text, m.String(), err)
		}
		if !reflect.DeepEqual(m, m2) {
			t.Fatalf("%q: %+v, then %+v", text, m, m2)
		}
	})
}

// FuzzApply: on a seeded position, any text either plays or is refused; neither panics, and a
// refusal leaves the state as it was.
func FuzzApply(f *testing.F) {
	for _, s := range []string{"h8 cruel e,se,e,ne", "x ab?", "s h8", "pass", "challenge", "h6 cat sw,w"} {
		f.Add(s, uint8(0))
	}
	base, err := NewState(2, ByChallenge, TimerOff, 5)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string, seat uint8) {
		s := base
		before := *s
		_, err := s.Apply(rulesSeat(seat), text)
		if err != nil && !reflect.DeepEqual(*s, before) {
			t.Fatalf("%q: refused, and the state changed", text)
		}
	})
}
