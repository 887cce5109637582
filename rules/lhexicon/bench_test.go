package lhexicon

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/arcade/arcade/rules"
)

// position returns a seeded 2-player position after plies moves of easy play (fast to make).
func position(tb testing.TB, seed uint64, plies int) *State {
	tb.Helper()
	s, err := NewState(2, Auto, TimerOff, seed)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	for range plies {
		if s.over {
			break
		}
		seat := s.ToMove()[0]
		e, err := s.Apply(seat, Easy{}.Move(context.Background(), s, seat, rng))
		if err != nil {
			tb.Fatal(err)
		}
		s = e.(*State)
	}
	return s
}

// BenchmarkGreedyMove times Greedy on a few seeded midgame positions.
func BenchmarkGreedyMove(b *testing.B) {
	var ps []*State
	for seed := range uint64(4) {
		ps = append(ps, position(b, seed, 6+int(seed)*3))
	}
	i := 0
	for b.Loop() {
		s := ps[i%len(ps)]
		s.BestPlay(context.Background(), s.turn, nil)
		i++
	}
}

// TestBotTimes measures the bots' move times over seeded positions, the figures of
// docs/performance.md: LHEXICON_BOTTIMES=200 times each level on the 200 positions of seeded
// 2-player games of Greedy against itself (every position of each game), in wall and CPU time.
// Skipped unless asked for.
func TestBotTimes(t *testing.T) {
	n := envInt("LHEXICON_BOTTIMES")
	if n == 0 {
		t.Skip("set LHEXICON_BOTTIMES=200 to measure")
	}
	levels := []rules.Bot{Easy{}, Greedy{}, Hard{}}
	names := []string{"easy", "greedy", "hard"}
	wall := make([][]time.Duration, len(levels))
	cpu := make([][]time.Duration, len(levels))
	cut, positions := 0, 0
	for seed := uint64(1000); positions < n; seed++ {
		s, _ := NewState(2, Auto, TimerOff, seed)
		rng := rand.New(rand.NewPCG(seed, 3))
		for !s.over && positions < n {
			seat := s.ToMove()[0]
			if done, _ := s.generate(context.Background(), seat, SearchBudget, func(Candidate) bool { return true }); !done {
				cut++
			}
			var next string
			for i, bot := range levels {
				start, c0 := time.Now(), cpuTime()
				mv := bot.Move(context.Background(), s, seat, rng)
				wall[i] = append(wall[i], time.Since(start))
				cpu[i] = append(cpu[i], time.Duration(cpuTime()-c0))
				if i == 1 {
					next = mv
				}
			}
			positions++
			e, err := s.Apply(seat, next)
			if err != nil {
				t.Fatal(err)
			}
			s = e.(*State)
		}
	}
	t.Logf("the search reached SearchBudget (%d steps) in %d of %d positions", SearchBudget, cut, positions)
	for i, name := range names {
		for _, r := range []struct {
			kind string
			ts   []time.Duration
		}{{"wall", wall[i]}, {"CPU", cpu[i]}} {
			slices.Sort(r.ts)
			t.Logf("%s, %s time over %d positions: median %v, p90 %v, worst %v", name, r.kind, len(r.ts),
				r.ts[len(r.ts)/2], r.ts[len(r.ts)*9/10], r.ts[len(r.ts)-1])
		}
	}
}

// cpuTime returns the CPU time the process has used, in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// TestBotMatches plays seeded 2-player games of Hard against Greedy, seats alternating (game i has
// seed 2000+i; Hard starts the even ones), and solo games of each level (seed 3000+i), and logs the
// results: LHEXICON_MATCHES=n games against each other, LHEXICON_SOLO=m solo games of each level
// (default n). LHEXICON_SHARD=i/k plays only the games whose number is i modulo k, so that k
// processes can share the work; the results do not depend on the machine. Skipped unless asked for.
func TestBotMatches(t *testing.T) {
	n := envInt("LHEXICON_MATCHES")
	if n == 0 {
		t.Skip("set LHEXICON_MATCHES to measure")
	}
	solo := n
	if m := envInt("LHEXICON_SOLO"); m > 0 {
		solo = m
	}
	shard, shards := 0, 1
	if v := os.Getenv("LHEXICON_SHARD"); v != "" {
		if _, err := fmt.Sscanf(v, "%d/%d", &shard, &shards); err != nil || shards < 1 || shard < 0 || shard >= shards {
			t.Fatalf("LHEXICON_SHARD=%q: want i/k with 0 <= i < k", v)
		}
	}
	wins, draws, losses, margin := 0, 0, 0, 0
	for i := shard; i < n; i += shards {
		bots := []rules.Bot{Hard{}, Greedy{}}
		hard := 0
		if i%2 == 1 {
			bots, hard = []rules.Bot{Greedy{}, Hard{}}, 1
		}
		sc := playout(t, bots, Auto, uint64(2000+i)).Scores()
		d := sc[hard] - sc[1-hard]
		margin += d
		switch {
		case d > 0:
			wins++
		case d == 0:
			draws++
		default:
			losses++
		}
		t.Logf("game %d: hard %d, greedy %d", i, sc[hard], sc[1-hard])
	}
	played := wins + draws + losses
	t.Logf("hard against greedy, %d games: %d won, %d drawn, %d lost (%.1f%% counting draws as half); mean margin %+.1f",
		played, wins, draws, losses, 100*(float64(wins)+float64(draws)/2)/float64(played), float64(margin)/float64(played))
	for _, lv := range Game.Bots {
		total, games := 0, 0
		for i := shard; i < solo; i += shards {
			total += playout(t, []rules.Bot{lv.Bot}, Auto, uint64(3000+i)).Scores()[0]
			games++
		}
		t.Logf("solo %s: total %d over %d games, average %.1f", lv.Name, total, games, float64(total)/float64(games))
	}
}
