package rules

import (
	"slices"
	"strings"
	"testing"
)

// TestOptionUnits: an integer option with a unit takes its values with or without it, and
// Resolve keeps the number alone; another unit, or none expected, is refused.
func TestOptionUnits(t *testing.T) {
	g := Game{Name: "Test", Options: []Option{
		{Key: "timer", Default: "20", Min: 0, Max: 600, Unit: "s"},
		{Key: "events", Default: "1", Min: 0, Max: 100, Unit: "%"},
		{Key: "size", Default: "8", Min: 5, Max: 8},
	}}
	got, err := g.Resolve(Options{"timer": "30S", "events": "5%", "size": "6"})
	if err != nil || got["timer"] != "30" || got["events"] != "5" || got["size"] != "6" {
		t.Errorf("Resolve = %v, %v", got, err)
	}
	if got, err := g.Resolve(Options{"timer": "45"}); err != nil || got["timer"] != "45" {
		t.Errorf("a value without its unit: %v, %v", got, err)
	}
	for _, bad := range []Options{{"timer": "2m"}, {"events": "5s"}, {"size": "6s"}, {"timer": "601s"}} {
		if _, err := g.Resolve(bad); err == nil || !strings.Contains(err.Error(), "whole number") {
			t.Errorf("Resolve(%v): %v", bad, err)
		}
	}
	if _, err := g.Resolve(Options{"timer": "2m"}); !strings.Contains(err.Error(), "from 0 to 600s") {
		t.Errorf("the error does not name the unit: %v", err)
	}
}

// TestCheckGuest: a guest's room takes an option up to its GuestMax, and beyond it is refused
// with a message that names the option, the guest's most and a keyed player's; an option without
// GuestMax, and a game without one, take their whole range.
func TestCheckGuest(t *testing.T) {
	g := Game{Name: "Test", Options: []Option{
		{Key: "limit", Default: "200", Min: 1, Max: 2000, GuestMax: 400},
		{Key: "timer", Default: "20", Min: 0, Max: 600, Unit: "s"},
	}}
	for _, ok := range []Options{{}, {"limit": "400"}, {"limit": "1", "timer": "600s"}} {
		opts, err := g.Resolve(ok)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.CheckGuest(opts); err != nil {
			t.Errorf("CheckGuest(%v): %v", ok, err)
		}
	}
	opts, err := g.Resolve(Options{"limit": "2000"})
	if err != nil {
		t.Fatal(err)
	}
	want := "limit must be at most 400 in a guest's room (with an SSH key, up to 2000)"
	if err := g.CheckGuest(opts); err == nil || err.Error() != want {
		t.Errorf("CheckGuest(limit=2000) = %v, want %q", err, want)
	}
	g.Options[0].GuestMax = 0
	if err := g.CheckGuest(opts); err != nil {
		t.Errorf("without GuestMax: %v", err)
	}
}

// TestNonStandard: an option is standard at its default, or at the values it lists; an
// integer is compared as a number, with or without its unit; NonStandard names the others as
// key=value in the game's order, and leaves out keys the game does not have (a room's clock).
func TestNonStandard(t *testing.T) {
	g := Game{Name: "Test", Options: []Option{
		{Key: "target", Default: "11", Min: 1, Max: 99},
		{Key: "timer", Default: "20", Min: 0, Max: 600, Unit: "s"},
		{Key: "events", Default: "1", Min: 0, Max: 100, Unit: "%", Standard: []string{"0", "1"}},
		{Key: "check", Default: "auto", Choices: []string{"auto", "challenge", "none"}, Standard: []string{"auto", "challenge"}},
	}}
	for _, tc := range []struct {
		given Options
		want  []string
	}{
		{Options{}, nil},
		{Options{"events": "0%", "check": "challenge", "timer": "20s"}, nil},
		{Options{"target": "2"}, []string{"target=2"}},
		{Options{"check": "none", "timer": "30", "target": "011"}, []string{"timer=30s", "check=none"}},
	} {
		opts, err := g.Resolve(tc.given)
		if err != nil {
			t.Fatal(err)
		}
		opts["clock"] = "off" // the room's, not the game's
		if got := g.NonStandard(opts); !slices.Equal(got, tc.want) {
			t.Errorf("NonStandard(%v) = %q, want %q", tc.given, got, tc.want)
		}
	}
	for _, tc := range []struct {
		o    Option
		want string
	}{
		{g.Options[0], "11"}, {g.Options[1], "20s"}, {g.Options[2], "0% or 1%"},
		{Option{Default: "4", Min: 1, Max: 6, Standard: []string{"4", "5", "6"}}, "4, 5 or 6"},
	} {
		if got := tc.o.StandardText(); got != tc.want {
			t.Errorf("StandardText(%s) = %q, want %q", tc.o.Key, got, tc.want)
		}
	}
}
