//go:build measure && unix

package coloretta

import (
	"context"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/arcade/arcade/rules"
)

// TestBotTime measures the hard bot's thinking time per move, as CPU time of the process (the
// machine may be busy with other work: wall time would measure that). One game of one round per
// table size. It runs with the tag measure.
func TestBotTime(t *testing.T) {
	for seats := 2; seats <= 5; seats++ {
		s, _ := NewState(1, seats, 77)
		r := rand.New(rand.NewPCG(1, 1))
		var worst, sum time.Duration
		n := 0
		for !s.over {
			seat := rules.Seat(s.turn)
			choice := len(s.Legal(seat)) > 1
			start := cpuTime()
			m := Hard.Move(context.Background(), s, seat, r)
			if d := cpuTime() - start; choice {
				worst = max(worst, d)
				sum += d
				n++
			}
			ns, err := s.Apply(seat, m)
			if err != nil {
				t.Fatal(err)
			}
			s = ns.(*State)
		}
		t.Logf("%d players: %d choices, CPU per move: mean %v, worst %v", seats, n,
			(sum / time.Duration(n)).Round(time.Microsecond), worst.Round(time.Microsecond))
		if worst > 500*time.Millisecond {
			t.Errorf("%d players: a move took %v of CPU", seats, worst)
		}
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
