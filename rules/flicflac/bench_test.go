package flicflac

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/arcade/arcade/rules"
)

// TestBotMatches plays FLICFLAC_MATCHES seeded games of Hard against Greedy at the defaults
// (seats alternating) and logs the result: the figure of docs/performance.md. Skipped unless
// asked for.
func TestBotMatches(t *testing.T) {
	n := envInt("FLICFLAC_MATCHES")
	if n == 0 {
		t.Skip("set FLICFLAC_MATCHES=200 to measure")
	}
	wins, draws, losses := 0, 0, 0
	for i := range n {
		bots := [2]rules.Bot{Hard{}, Greedy{}}
		hard := rules.Seat(0)
		if i%2 == 1 {
			bots, hard = [2]rules.Bot{Greedy{}, Hard{}}, 1
		}
		s, _ := playout(t, DefaultConfig, bots, uint64(5000+i))
		switch s.winner {
		case hard:
			wins++
		case -1:
			draws++
		default:
			losses++
		}
		if testing.Verbose() {
			t.Logf("game %d: hard seat %d, captures %v, %s", i, hard, s.captures, s.reason)
		}
	}
	t.Logf("hard against greedy, %d games: won %d, drew %d, lost %d (%.1f%%, draws as half)", n, wins, draws,
		losses, 100*(float64(wins)+float64(draws)/2)/float64(n))
}

// TestBotTimes measures whole turns of each bot (every move of the turn, "end" included) over
// the turns of FLICFLAC_BOTTIMES seeded games of Hard against Greedy at the defaults: median,
// p90 and worst. Skipped unless asked for.
func TestBotTimes(t *testing.T) {
	n := envInt("FLICFLAC_BOTTIMES")
	if n == 0 {
		t.Skip("set FLICFLAC_BOTTIMES=20 to measure")
	}
	times := map[string][]time.Duration{}
	levels := []rules.BotLevel{{Name: "easy", Bot: Easy{}}, {Name: "greedy", Bot: Greedy{}}, {Name: "hard", Bot: Hard{}}}
	for i := range n {
		seed := uint64(7000 + i)
		s, err := NewState(DefaultConfig, seed)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 9))
		play := [2]rules.Bot{Hard{}, Greedy{}}
		for !s.over {
			seat := s.turn
			// Time each level's whole turn from here (on a copy), then play the match's own.
			for _, lv := range levels {
				start := time.Now()
				x := s
				for !x.over && x.turn == seat && !(x != s && x.timed != s.timed) {
					mv := lv.Bot.Move(context.Background(), x, seat, rng)
					e, err := x.Apply(seat, mv)
					if err != nil {
						t.Fatal(err)
					}
					x = e.(*State)
					if mv == "end" {
						break
					}
				}
				times[lv.Name] = append(times[lv.Name], time.Since(start))
			}
			for !s.over && s.turn == seat {
				mv := play[seat].Move(context.Background(), s, seat, rng)
				e, _ := s.Apply(seat, mv)
				s = e.(*State)
				if mv == "end" {
					break
				}
			}
		}
	}
	for _, lv := range levels {
		ts := times[lv.Name]
		slices.Sort(ts)
		t.Logf("%s, %d turns: median %v, p90 %v, worst %v", lv.Name, len(ts), ts[len(ts)/2], ts[len(ts)*9/10],
			ts[len(ts)-1])
	}
}

// BenchmarkHardMove times Hard's move in a seeded middle game.
func BenchmarkHardMove(b *testing.B) {
	s2, _ := NewState(DefaultConfig, 3)
	rng := rand.New(rand.NewPCG(1, 1))
	for range 30 {
		seat := s2.turn
		e, _ := s2.Apply(seat, Greedy{}.Move(context.Background(), s2, seat, rng))
		s2 = e.(*State)
	}
	for b.Loop() {
		Hard{}.Move(context.Background(), s2, s2.turn, rng)
	}
}

// BenchmarkRandomGame times a whole match of Easy against Easy at the defaults.
func BenchmarkRandomGame(b *testing.B) {
	seed := uint64(0)
	for b.Loop() {
		s, _ := NewState(DefaultConfig, seed)
		rng := rand.New(rand.NewPCG(seed, 1))
		for !s.over {
			e, _ := s.Apply(s.turn, Easy{}.Move(context.Background(), s, s.turn, rng))
			s = e.(*State)
		}
		seed++
	}
}
