//go:build measure

package lhexicon

import (
	"context"
	"testing"
	"time"

	"github.com/arcade/arcade/rules/lhexicon/dict"
)

// TestHintBudget measures how long a hint takes in the middle game (logged, not asserted: the
// machine is shared): go test -tags measure -run HintBudget -v ./rules/lhexicon.
func TestHintBudget(t *testing.T) {
	dict.Words() // loaded first: a server has it loaded
	var worst time.Duration
	for i := range 10 {
		s := position(t, uint64(600+i), 10+2*i)
		if s.over {
			continue
		}
		v := s.ViewOf(s.Turn())
		start := time.Now()
		v.Hint(context.Background())
		worst = max(worst, time.Since(start))
	}
	t.Logf("the slowest of 10 middle-game hints took %v", worst)
}
