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

// TestBotMatch is the strength harness: ARCADE_BOT_MATCH=1 go test -run BotMatch -v plays 200
// seeded two-player Premium games of hard against greedy (ARCADE_BOT_GAMES changes the number,
// ARCADE_BOT_VARIANT the variant) and requires hard to win at least 70%.
func TestBotMatch(t *testing.T) {
	if os.Getenv("ARCADE_BOT_MATCH") != "1" {
		t.Skip("set ARCADE_BOT_MATCH=1 to play the bot match")
	}
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

// TestHardBeatsGreedySmall is the always-run check of bot strength on a few games.
func TestHardBeatsGreedySmall(t *testing.T) {
	n := 6
	if testing.Short() {
		n = 2
	}
	win, draw, loss, _ := matchHardGreedy(t, Premium, n)
	if win <= loss {
		t.Errorf("hard against greedy: %d won, %d drawn, %d lost", win, draw, loss)
	}
}

// TestBotsDeadline checks that every bot answers with a legal move, and that the hard bot keeps to
// a deadline that has already passed.
func TestBotsDeadline(t *testing.T) {
	for seats := 2; seats <= 4; seats++ {
		s, _ := NewState(Premium, seats, uint64(seats))
		rng := rand.New(rand.NewPCG(1, 1))
		for range 30 * seats {
			e, err := s.Apply(s.turn, GreedyBot{}.Move(t.Context(), s, s.turn, rng))
			if err != nil {
				t.Fatal(err)
			}
			s = e.(*State)
		}
		for _, b := range Game.Bots {
			ctx, cancel := context.WithTimeout(t.Context(), time.Nanosecond)
			<-ctx.Done()
			start := time.Now()
			m := b.Bot.Move(ctx, s, s.turn, rng)
			cancel()
			if d := time.Since(start); d > 50*time.Millisecond {
				t.Errorf("%s with %d players took %v after its deadline", b.Name, seats, d)
			}
			if _, err := s.Apply(s.turn, m); err != nil {
				t.Errorf("%s with %d players: %q: %v", b.Name, seats, m, err)
			}
		}
		if m := (HardBot{}).Move(t.Context(), s, (s.turn+1)%rules.Seat(seats), rng); m != "" {
			t.Errorf("hard bot moved %q out of turn", m)
		}
	}
}
