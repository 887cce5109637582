package stonetowers

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/arcade/arcade/rules"
)

// canWinByHand answers CanWin through the engine's own Legal and Apply: every way to play the
// actions left, and whether seat ends ahead in any.
func canWinByHand(e rules.Engine, seat rules.Seat) bool {
	out := e.Outcome()
	if out.Over {
		return out.Scores[seat] > out.Scores[1-seat]
	}
	mover := e.ToMove()[0]
	for _, mv := range e.Legal(mover) {
		next, err := e.Apply(mover, mv)
		if err != nil {
			panic(err)
		}
		if canWinByHand(next, seat) {
			return true
		}
	}
	return false
}

// TestCanWin: with the last action or two to come, CanWin is what playing every way gives, for
// both seats; before that, it is true. Matches of random play give positions of both answers.
func TestCanWin(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 1))
	answers := map[bool]int{}
	for match := range 40 {
		var e rules.Engine
		e, _ = NewState(8, MinTurns)
		s := e.(*State)
		for !s.Over() {
			left := 2*s.turns - s.played[0] - s.played[1]
			for _, seat := range []rules.Seat{Red, Blue} {
				got := s.CanWin(seat)
				if left > winLookahead {
					if !got {
						t.Fatalf("match %d, %d actions left: %s cannot win", match, left, SeatName(seat))
					}
					continue
				}
				if want := canWinByHand(s, seat); got != want {
					t.Fatalf("match %d, %d actions left: CanWin(%s) = %v, want %v\n%s", match, left, SeatName(seat), got, want, draw(s))
				}
				answers[got]++
			}
			mover := s.Next()
			var mv string
			if mover == Red && match%2 == 0 {
				mv = Greedy{}.Move(context.Background(), s, mover, rng) // Red well ahead
			} else {
				mv = Easy{}.Move(context.Background(), s, mover, rng)
			}
			next, err := s.Apply(mover, mv)
			if err != nil {
				t.Fatal(err)
			}
			s = next.(*State)
		}
		o := s.Outcome()
		for _, seat := range []rules.Seat{Red, Blue} {
			if won := o.Scores[seat] > o.Scores[1-seat]; s.CanWin(seat) != won {
				t.Errorf("match %d over %v: CanWin(%s) = %v", match, o.Scores, SeatName(seat), !won)
			}
		}
	}
	if answers[true] == 0 || answers[false] == 0 {
		t.Errorf("the positions gave only one answer: %v", answers)
	}
}

// TestCanWinLastActionsOnALargeBoard: Red's last action and Blue's on a 16 x 16 board, Red well
// behind: Red cannot win, which takes trying every pair of actions, and Blue can.
func TestCanWinLastActionsOnALargeBoard(t *testing.T) {
	s, _ := NewState(MaxSize, MaxTurns)
	rng := rand.New(rand.NewPCG(3, 4))
	for 2*s.turns-s.played[0]-s.played[1] > 2 {
		var bot rules.Bot = Easy{}
		if s.Next() == Blue {
			bot = Greedy{}
		}
		next, err := s.Apply(s.Next(), bot.Move(context.Background(), s, s.Next(), rng))
		if err != nil {
			t.Fatal(err)
		}
		s = next.(*State)
	}
	start := time.Now()
	if s.CanWin(Red) || !s.CanWin(Blue) {
		t.Fatalf("squares %v: CanWin Red %v, Blue %v; want false, true", s.Scores(), s.CanWin(Red), s.CanWin(Blue))
	}
	if d := time.Since(start); d > time.Minute {
		t.Errorf("CanWin took %v", d) // a guard against a runaway search, not a measure
	}
	if canWinByHand(s, Red) {
		t.Error("by hand, Red can win")
	}
}
