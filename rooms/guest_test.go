package rooms

import (
	"testing"

	"github.com/arcade/arcade/rules"
)

// TestGuestOptionsBounded: a guest's room takes an option up to its GuestMax, and past it
// Create refuses with the message of rules.Game.CheckGuest and opens nothing; a player with a key
// may go to the option's Max.
func TestGuestOptionsBounded(t *testing.T) {
	g := raceGame
	g.Options = append([]rules.Option(nil), raceGame.Options...)
	g.Options[0].GuestMax = 50
	h, _ := newTestHub(t, Config{Games: []rules.Game{g}})
	want := "target must be at most 50 in a guest's room (with an SSH key, up to 1000)"
	if _, err := h.Create("race", rules.Options{"target": "51"}, 2, dave); err == nil || err.Error() != want {
		t.Errorf("a guest's target=51: %v, want %q", err, want)
	}
	if n := len(h.List()); n != 0 {
		t.Errorf("the refused room is open: %d rooms", n)
	}
	if _, err := h.Create("race", rules.Options{"target": "50"}, 2, dave); err != nil {
		t.Errorf("a guest's target=50: %v", err)
	}
	if _, err := h.Create("race", rules.Options{"target": "1000"}, 2, alice); err != nil {
		t.Errorf("a keyed player's target=1000: %v", err)
	}
}
