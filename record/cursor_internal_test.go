package record

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/arcade/arcade/rules"
)

// counter is an engine whose position is the number of moves played: "n" is the only legal
// move, where n is that number.
type counter int

func (c counter) Game() string              { return "counter" }
func (c counter) Seats() int                { return 1 }
func (c counter) ToMove() []rules.Seat      { return []rules.Seat{0} }
func (c counter) Legal(rules.Seat) []string { return []string{strconv.Itoa(int(c))} }
func (c counter) View(rules.Seat) any       { return int(c) }
func (c counter) Outcome() rules.Outcome    { return rules.Outcome{Scores: []int{int(c)}} }
func (c counter) Apply(_ rules.Seat, mv string) (rules.Engine, error) {
	if mv != strconv.Itoa(int(c)) {
		return c, fmt.Errorf("%w: want %d", rules.ErrBadNotation, c)
	}
	return c + 1, nil
}

var counterGame = rules.Game{ID: "counter", Name: "Counter", MinSeats: 1, MaxSeats: 1,
	New: func(rules.Options, int, uint64) (rules.Engine, error) { return counter(0), nil }}

func counterMatch(n int) Match {
	m := Match{ID: "c", Game: "counter", Seats: []Seat{{Name: "ann"}}, Moves: make([]Move, n)}
	for i := range m.Moves {
		m.Moves[i].Move = strconv.Itoa(i)
	}
	return m
}

// TestCheckpointSpacing: checkpoints are CheckpointEvery apart, or the least multiple of it
// that keeps them within MaxCheckpoints.
func TestCheckpointSpacing(t *testing.T) {
	for _, n := range []int{0, 1, 99, 100, 6399, 6400, 6401, 12799, 12800, 1_000_000} {
		every := checkpointEvery(n)
		if every%CheckpointEvery != 0 || n/every+1 > MaxCheckpoints ||
			(every > CheckpointEvery && n/(every-CheckpointEvery)+1 <= MaxCheckpoints) {
			t.Errorf("%d moves: a checkpoint every %d", n, every)
		}
	}
}

// TestCursorOfAVeryLongMatch: past 6,400 moves the checkpoints spread out and the cursor still
// holds at most MaxCheckpoints+CursorWindow positions, each the right one, at every seek.
func TestCursorOfAVeryLongMatch(t *testing.T) {
	for _, n := range []int{0, 5, CursorWindow - 1, CursorWindow, 6400, 100_000} {
		c, err := NewCursor(counterMatch(n), counterGame)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.marks) > MaxCheckpoints {
			t.Errorf("%d moves: %d checkpoints", n, len(c.marks))
		}
		rng := rand.New(rand.NewPCG(7, uint64(n)))
		seeks := []int{0, n, n / 2, n - 1, 1, n + 1, -1}
		for range 500 {
			seeks = append(seeks, rng.IntN(n+1))
		}
		for _, i := range seeks {
			want := max(0, min(n, i))
			if got := c.At(i); got != counter(want) {
				t.Fatalf("%d moves: At(%d) = %v, want %d", n, i, got, want)
			}
			if h := c.Held(); h > MaxCheckpoints+CursorWindow {
				t.Fatalf("%d moves: after At(%d) the cursor holds %d positions", n, i, h)
			}
		}
	}
}
