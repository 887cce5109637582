package lhexicon

import (
	"testing"
	"time"

	"github.com/arcade/arcade/rules"
)

// TestTurnLimit: with the competition timer the seat to move has 3 minutes and passes when they
// run out; a last word that awaits answers gives the time to the first opponent who has not
// answered, who accepts it. Without the timer, or once over, no turn is timed.
func TestTurnLimit(t *testing.T) {
	check := func(s *State, seat rules.Seat, move string, ok bool) {
		t.Helper()
		gs, limit, gm, gok := s.TurnLimit()
		if gok != ok || (ok && (gs != seat || gm != move || limit != 3*time.Minute)) {
			t.Errorf("TurnLimit = %d %v %q %v, want %d 3m %q %v", gs, limit, gm, gok, seat, move, ok)
		}
		if ok {
			if _, err := s.Apply(gs, gm); err != nil {
				t.Errorf("the timeout move %q of seat %d is refused: %v", gm, gs, err)
			}
		}
	}
	check(emptyGame(t, 2, Auto, "catxxxx"), 0, "", false)

	s := emptyGame(t, 2, ByChallenge, "catxxxx")
	s.timer = Competition
	check(s, 0, "pass", true)
	s = mustPlay(t, s, 0, "h8 cat e,e")
	check(s, 1, "pass", true) // passing lets the word stand

	// The last word: bank empty, rack used up. Nobody's turn follows; seat 1 may still answer.
	s = emptyGame(t, 2, ByChallenge, "cat")
	s.timer, s.nbag = Competition, 0
	s = mustPlay(t, s, 0, "h8 cat e,e")
	if s.Turn() != -1 {
		t.Fatalf("turn %d after the last word, want -1", s.Turn())
	}
	check(s, 1, "accept", true)
	s = mustPlay(t, s, 1, "accept")
	if !s.Outcome().Over {
		t.Fatal("the match goes on after the last word was accepted")
	}
	check(s, 0, "", false)
}
