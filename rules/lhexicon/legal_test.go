package lhexicon

import (
	"testing"

	"github.com/arcade/arcade/rules"
)

// Every move Legal lists is legal, for the seat to move and for an opponent answering a word.
func TestLegalMovesApply(t *testing.T) {
	s := position(t, 11, 5)
	seat := s.Turn()
	legal := s.Legal(seat)
	if len(legal) < 3 {
		t.Fatalf("legal: %v", legal)
	}
	for _, mv := range legal {
		if _, err := s.Apply(seat, mv); err != nil {
			t.Errorf("%q: %v", mv, err)
		}
	}
	if got := s.Legal(1 - seat); got != nil {
		t.Errorf("the other seat may %v", got)
	}
	c := emptyGame(t, 3, ByChallenge, "catxxxx")
	c = mustPlay(t, c, 0, "h8 cat e,e")
	if got := c.Legal(2); len(got) != 2 || got[0] != "challenge" || got[1] != "accept" {
		t.Errorf("seat 2 may %v", got)
	}
	if got := c.Legal(rules.Spectator); got != nil {
		t.Errorf("a spectator may %v", got)
	}
}
