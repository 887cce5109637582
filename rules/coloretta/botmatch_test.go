//go:build measure

package coloretta

import (
	"context"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/arcade/arcade/rules"
)

// playMatch plays a default game (4 rounds) between bots, seat i played by bots[i], and returns the
// totals and the longest time one bot move took.
func playMatch(t testing.TB, bots []rules.Bot, seed uint64) ([]int, time.Duration) {
	e, err := Game.New(rules.Options{}, len(bots), seed)
	if err != nil {
		t.Fatal(err)
	}
	rngs := make([]*rand.Rand, len(bots))
	for i := range rngs {
		rngs[i] = rand.New(rand.NewPCG(seed, uint64(i)+1))
	}
	var slowest time.Duration
	for !e.Outcome().Over {
		seat := e.ToMove()[0]
		start := time.Now()
		m := bots[seat].Move(context.Background(), e, seat, rngs[seat])
		slowest = max(slowest, time.Since(start))
		ne, err := e.Apply(seat, m)
		if err != nil {
			t.Fatalf("seed %d seat %d: bot move %q: %v", seed, seat, m, err)
		}
		e = ne
	}
	return e.Outcome().Scores, slowest
}

// matchResult is how one strong bot fared against weaker ones.
type matchResult struct {
	games    int
	wins     float64 // first place, a tie for first shared
	pairwise float64 // games x opponents beaten (ties half)
	slowest  time.Duration
}

// strongVsWeak plays games 3-player games of one strong bot against two weak ones, the strong
// bot's seat rotating with the game number, on up to GOMAXPROCS goroutines.
func strongVsWeak(t testing.TB, strong, weak rules.Bot, games int) matchResult {
	var mu sync.Mutex
	var res matchResult
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for g := range next {
				bots := []rules.Bot{weak, weak, weak}
				me := g % 3
				bots[me] = strong
				scores, slow := playMatch(t, bots, uint64(g)+1)
				top, tied := scores[me], 1
				for p, s := range scores {
					if p != me && s > top {
						tied = 0
					} else if p != me && s == top && tied > 0 {
						tied++
					}
				}
				var pair float64
				for p, s := range scores {
					switch {
					case p == me:
					case scores[me] > s:
						pair++
					case scores[me] == s:
						pair += 0.5
					}
				}
				mu.Lock()
				res.games++
				if tied > 0 {
					res.wins += 1 / float64(tied)
				}
				res.pairwise += pair
				res.slowest = max(res.slowest, slow)
				mu.Unlock()
			}
		})
	}
	for g := range games {
		next <- g
	}
	close(next)
	wg.Wait()
	return res
}

// TestBotMatch is the strength figure: 500 seeded 3-player games of 4 rounds, one hard bot and two
// greedy bots, the hard bot's seat rotating. The hard bot wins a game when its total is strictly
// above both greedy totals; a tie for first counts 1/2 (1/3 for a three-way tie). It must win at
// least 60% of the games. It runs with the tag measure (ARCADE_BOT_GAMES overrides the count).
func TestBotMatch(t *testing.T) {
	games := 500
	if n, err := strconv.Atoi(os.Getenv("ARCADE_BOT_GAMES")); err == nil && n > 0 {
		games = n
	}
	start := time.Now()
	r := strongVsWeak(t, Hard, Greedy, games)
	rate := r.wins / float64(r.games)
	t.Logf("hard vs 2 greedy, %d games: hard first in %.1f%% (pairwise %.1f%%), slowest move %v, %v",
		r.games, 100*rate, 100*r.pairwise/float64(2*r.games), r.slowest, time.Since(start).Round(time.Second))
	if rate < 0.60 {
		t.Errorf("hard wins %.1f%% of games, want at least 60%%", 100*rate)
	}
}

// TestHardBeatsGreedy is the quick sample of TestBotMatch: 3 games.
func TestHardBeatsGreedy(t *testing.T) {
	r := strongVsWeak(t, Hard, Greedy, 3)
	t.Logf("hard first in %.1f of 3 games against greedy", r.wins)
	if r.wins < 2 {
		t.Fatalf("hard first in %.1f of 3 games", r.wins)
	}
}

// TestGreedyBeatsEasy: greedy must beat random play.
func TestGreedyBeatsEasy(t *testing.T) {
	r := strongVsWeak(t, Greedy, Easy, 12)
	t.Logf("greedy first in %.1f of 12 games against easy", r.wins)
	if r.wins < 9 {
		t.Fatalf("greedy first in %.1f of 12 games against easy", r.wins)
	}
}
