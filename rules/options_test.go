package rules

import (
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
