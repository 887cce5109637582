package stonetowers

import (
	"errors"
	"testing"

	"github.com/arcade/arcade/rules"
)

func TestParseMove(t *testing.T) {
	e5 := Square{Col: 4, Row: 4}
	for _, tc := range []struct {
		in    string
		want  Move
		canon string
	}{
		{"b e5", Move{Build, e5}, "b e5"},
		{"B E5", Move{Build, e5}, "b e5"},
		{"  build   e5 ", Move{Build, e5}, "b e5"},
		{"BUILD e5", Move{Build, e5}, "b e5"},
		{"be5", Move{Build, e5}, "b e5"},
		{"f e5", Move{Fortify, e5}, "f e5"},
		{"Fortify E5", Move{Fortify, e5}, "f e5"},
		{"fe5", Move{Fortify, e5}, "f e5"},
		{"FE5", Move{Fortify, e5}, "f e5"},
		{"pass", Move{Action: Pass}, "pass"},
		{" Pass ", Move{Action: Pass}, "pass"},
		{"p", Move{Action: Pass}, "pass"},
		{"e5", Move{Auto, e5}, "e5"},
		{"E05", Move{Auto, e5}, "e5"},
		{"a1", Move{Auto, Square{0, 0}}, "a1"},
		{"p16", Move{Auto, Square{15, 15}}, "p16"},
		{"b b5", Move{Build, Square{1, 4}}, "b b5"},
		{"bb5", Move{Build, Square{1, 4}}, "b b5"},
		{"f5", Move{Auto, Square{5, 4}}, "f5"},
		{"ff5", Move{Fortify, Square{5, 4}}, "f f5"},
		{"z99", Move{Auto, Square{25, 98}}, "z99"},
		{"b e17", Move{Build, Square{4, 16}}, "b e17"},
	} {
		got, err := ParseMove(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseMove(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
			continue
		}
		if got.String() != tc.canon {
			t.Errorf("ParseMove(%q).String() = %q, want %q", tc.in, got, tc.canon)
		}
		if again, err := ParseMove(got.String()); err != nil || again != got {
			t.Errorf("%q does not round-trip: %+v, %v", got, again, err)
		}
	}
	for _, bad := range []string{"", " ", "x", "b", "f", "build", "e", "e0", "e00", "b e", "e5 b",
		"b e5 e6", "bxy5", "5e", "e-1", "e100", "build e", "pass e5", "é5", "b\x00e5", "fortify", "bf e5"} {
		m, err := ParseMove(bad)
		if err == nil {
			t.Errorf("ParseMove(%q) = %+v, want an error", bad, m)
		} else if !errors.Is(err, rules.ErrBadNotation) {
			t.Errorf("ParseMove(%q) error %v does not wrap ErrBadNotation", bad, err)
		}
	}
}

func TestSquare(t *testing.T) {
	for _, tc := range []struct {
		sq   Square
		text string
	}{
		{Square{0, 0}, "a1"}, {Square{4, 4}, "e5"}, {Square{11, 11}, "l12"}, {Square{15, 0}, "p1"},
		{Square{2, 9}, "c10"},
	} {
		if got := tc.sq.String(); got != tc.text {
			t.Errorf("%+v.String() = %q, want %q", tc.sq, got, tc.text)
		}
		if got, err := ParseSquare(tc.text); err != nil || got != tc.sq {
			t.Errorf("ParseSquare(%q) = %+v, %v", tc.text, got, err)
		}
	}
	if _, err := ParseSquare("e0"); !errors.Is(err, rules.ErrBadNotation) {
		t.Errorf("ParseSquare(e0) = %v", err)
	}
	if got := (Square{-1, 0}).String(); got != "?" {
		t.Errorf("off-grid square prints %q", got)
	}
}

// TestLegalRoundTrip checks that every legal move of a game in progress is canonical.
func TestLegalRoundTrip(t *testing.T) {
	s := picture(t, seedExample2, Blue, 5, false)
	legal := s.Legal(Blue)
	want := []string{"f a1", "f a2", "f a3", "f b3", "b c3"}
	if len(legal) != len(want) {
		t.Fatalf("Legal = %v, want %v", legal, want)
	}
	for i, l := range legal {
		m, err := ParseMove(l)
		if err != nil || m.String() != l || l != want[i] {
			t.Errorf("legal move %q: parsed %+v, %v; want %q", l, m, err, want[i])
		}
	}
}
