//go:build measure

package discon

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/arcade/arcade/rules"
)

// The tests here measure the bots: their strength (each move has a second, so how far the hard
// bot searches depends on the machine) and how soon they answer. They run with the tag measure.

// playBots plays a whole match with bots[seat] in each seat and returns the final state and the
// longest time a bot took for a move. Every bot move must be legal.
func playBots(t testing.TB, v Variant, seed uint64, bots []rules.Bot) (*State, time.Duration) {
	t.Helper()
	s, err := NewState(v, len(bots), seed)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	var slowest time.Duration
	for moves := 0; !s.over; moves++ {
		if moves > 5000 {
			t.Fatalf("seed %d: no end after %d moves", seed, moves)
		}
		seat := s.turn
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		start := time.Now()
		m := bots[seat].Move(ctx, s, seat, rng)
		slowest = max(slowest, time.Since(start))
		cancel()
		e, err := s.Apply(seat, m)
		if err != nil {
			t.Fatalf("seed %d: bot move %q of %s refused: %v", seed, m, SeatName(seat), err)
		}
		s = e.(*State)
	}
	return s, slowest
}

// matchHardGreedy plays n seeded two-player games of hard against greedy, hard taking seat 0 in even
// games and seat 1 in odd ones, and returns hard's wins, draws and losses and the slowest move.
func matchHardGreedy(t testing.TB, v Variant, n int) (win, draw, loss int, slowest time.Duration) {
	for i := range n {
		hs := rules.Seat(i % 2)
		bots := []rules.Bot{HardBot{}, GreedyBot{}}
		if hs == 1 {
			bots = []rules.Bot{GreedyBot{}, HardBot{}}
		}
		s, d := playBots(t, v, uint64(1000+i), bots)
		slowest = max(slowest, d)
		sc := s.Scores()
		switch {
		case sc[hs] > sc[1-hs]:
			win++
		case sc[hs] == sc[1-hs]:
			draw++
		default:
			loss++
		}
	}
	return win, draw, loss, slowest
}

// TestBotMatch is the strength harness: go test -tags measure -run BotMatch -v plays 200 seeded
// two-player Premium games of hard against greedy (ARCADE_BOT_GAMES changes the number,
// ARCADE_BOT_VARIANT the variant) and requires hard to win at least 70%.
func TestBotMatch(t *testing.T) {
	n := 200
	if g, err := strconv.Atoi(os.Getenv("ARCADE_BOT_GAMES")); err == nil && g > 0 {
		n = g
	}
	v := Premium
	if name := os.Getenv("ARCADE_BOT_VARIANT"); name != "" {
		var err error
		if v, err = ParseVariant(name); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	win, draw, loss, slowest := matchHardGreedy(t, v, n)
	rate := float64(win) / float64(n)
	t.Logf("%s: hard vs greedy over %d games: %d won, %d drawn, %d lost: %.1f%% won "+
		"(%v; slowest bot move %v)", v, n, win, draw, loss, 100*rate,
		time.Since(start).Round(time.Millisecond), slowest.Round(time.Millisecond))
	if rate < 0.70 {
		t.Errorf("hard won %.1f%% of games against greedy, want at least 70%%", 100*rate)
	}
}

// TestHardBeatsGreedySmall is the quick check of bot strength: 6 games.
func TestHardBeatsGreedySmall(t *testing.T) {
	win, draw, loss, _ := matchHardGreedy(t, Premium, 6)
	t.Logf("hard against greedy: %d won, %d drawn, %d lost", win, draw, loss)
	if win <= loss {
		t.Errorf("hard against greedy: %d won, %d drawn, %d lost", win, draw, loss)
	}
}

// TestBotsDeadlineTime: every bot answers soon after a deadline that has already passed.
func TestBotsDeadlineTime(t *testing.T) {
	botsAfterDeadline(t, func(bot string, seats int, took time.Duration) {
		t.Logf("%s with %d players: %v after its deadline", bot, seats, took)
		if took > time.Second {
			t.Errorf("%s with %d players took %v after its deadline", bot, seats, took)
		}
	})
}
