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
		tl, gok := s.TurnLimit()
		if gok != ok || (ok && (tl.Seat != seat || tl.Timeout != move || tl.Limit != 3*time.Minute)) {
			t.Errorf("TurnLimit = %+v %v, want %d 3m %q %v", tl, gok, seat, move, ok)
		}
		if ok {
			if _, err := s.Apply(tl.Seat, tl.Timeout); err != nil {
				t.Errorf("the timeout move %q of seat %d is refused: %v", tl.Timeout, tl.Seat, err)
			}
		}
	}
	turn := func(s *State) int { tl, _ := s.TurnLimit(); return tl.Turn }
	check(emptyGame(t, 2, Auto, "catxxxx"), 0, "", false)

	s := emptyGame(t, 2, ByChallenge, "catxxxx")
	s.timer = Competition
	check(s, 0, "pass", true)
	s = mustPlay(t, s, 0, "h8 cat e,e")
	check(s, 1, "pass", true) // passing lets the word stand

	// Three players: the third's answer goes on in the same turn; the next player's move, or a
	// withdrawn word, begins another.
	s = emptyGame(t, 3, ByChallenge, "catxxxx")
	s.timer = Competition
	s = mustPlay(t, s, 0, "h8 cat e,e")
	t1 := turn(s)
	if s2 := mustPlay(t, s, 2, "accept"); turn(s2) != t1 {
		t.Errorf("an opponent's accept began turn %d after %d", turn(s2), t1)
	}
	if s2 := mustPlay(t, s, 2, "challenge"); turn(s2) != t1 {
		t.Errorf("a third player's challenge of a good word began turn %d after %d", turn(s2), t1)
	}
	if s2 := mustPlay(t, s, 1, "pass"); turn(s2) == t1 {
		t.Error("the next player's pass did not begin a turn")
	}
	s = emptyGame(t, 3, ByChallenge, "ctaxxxx")
	s.timer = Competition
	s = mustPlay(t, s, 0, "h8 cta e,e")
	if s2 := mustPlay(t, s, 2, "challenge"); turn(s2) == turn(s) {
		t.Errorf("a withdrawn word did not begin a turn (%d)", turn(s2))
	}

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
