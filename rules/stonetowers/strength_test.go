//go:build measure

package stonetowers

import (
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/arcade/arcade/rules"
)

// The tests here measure the bots: their strength over seeded games, and how soon Hard answers
// when hurried. They run with the tag measure.

// duel plays games of strong against weak, alternating colours (strong is Red in even games), and
// returns strong's wins, draws and losses.
func duel(t testing.TB, strong, weak rules.Bot, games, size, turns int) (w, d, l int) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan int)
	for range 2 {
		wg.Go(func() {
			for g := range next {
				var s *State
				me := g % 2
				if me == 0 {
					s = playMatch(t, strong, weak, size, turns, uint64(g)+1)
				} else {
					s = playMatch(t, weak, strong, size, turns, uint64(g)+1)
				}
				sc := s.Scores()
				mu.Lock()
				switch {
				case sc[me] > sc[1-me]:
					w++
				case sc[me] == sc[1-me]:
					d++
				default:
					l++
				}
				mu.Unlock()
			}
		})
	}
	for g := range games {
		next <- g
	}
	close(next)
	wg.Wait()
	return w, d, l
}

// TestHardBeatsGreedyShort is the quick check of strength: 10 games on the default board.
func TestHardBeatsGreedyShort(t *testing.T) {
	w, d, l := duel(t, Hard{}, Greedy{}, 10, DefaultSize, DefaultTurns)
	t.Logf("hard vs greedy: %d wins, %d draws, %d losses", w, d, l)
	if w < 7 {
		t.Errorf("hard won %d of 10 games against greedy, want at least 7", w)
	}
}

// TestBotMatch plays the 200 games of the requirement (hard must beat greedy in 80%);
// ARCADE_BOT_GAMES changes the number.
func TestBotMatch(t *testing.T) {
	games := 200
	if n, err := strconv.Atoi(os.Getenv("ARCADE_BOT_GAMES")); err == nil && n > 1 {
		games = n
	}
	w, d, l := duel(t, Hard{}, Greedy{}, games, DefaultSize, DefaultTurns)
	rate := float64(w) / float64(games)
	t.Logf("hard vs greedy, %d games on %dx%d, %d turns: %d wins, %d draws, %d losses: win rate %.1f%%",
		games, DefaultSize, DefaultSize, DefaultTurns, w, d, l, 100*rate)
	if rate < 0.8 {
		t.Errorf("hard won %.1f%% of games against greedy, want at least 80%%", 100*rate)
	}
}

// TestGreedyBeatsEasy checks the order of the two weaker bots.
func TestGreedyBeatsEasy(t *testing.T) {
	w, d, l := duel(t, Greedy{}, Easy{}, 10, DefaultSize, DefaultTurns)
	t.Logf("greedy vs easy: %d wins, %d draws, %d losses", w, d, l)
	if w < 8 {
		t.Errorf("greedy won %d of 10 games against easy, want at least 8", w)
	}
}

// TestHardDeadlineTime: Hard answers at once when its context is already done, and soon after a
// deadline of 5 ms.
func TestHardDeadlineTime(t *testing.T) {
	cancelled, hurried := hardDeadline(t)
	t.Logf("Hard answered in %v with its context done, in %v with 5 ms", cancelled, hurried)
	if cancelled > time.Second || hurried > time.Second {
		t.Errorf("Hard took %v with its context done, %v with 5 ms", cancelled, hurried)
	}
}
