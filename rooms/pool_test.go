package rooms

import (
	"slices"
	"testing"
	"time"
)

// TestPairs: the longest waiting first, with the closest rating within the window of their
// wait; a player is never paired with themself, and a player out of everyone's window waits.
func TestPairs(t *testing.T) {
	now := time.Now()
	q := []Seeker{
		{Player: "ann", Rating: 1000, Since: now.Add(-4 * time.Second)}, // window 300: nobody close enough
		{Player: "ben", Rating: 1500, Since: now.Add(-3 * time.Second)},
		{Player: "ben", Rating: 1500, Since: now.Add(-2 * time.Second)}, // ben again, on another node
		{Player: "cat", Rating: 1560, Since: now.Add(-time.Second)},
		{Player: "dan", Rating: 1800, Since: now},
	}
	got := Pairs(q, now)
	if want := [][2]int{{1, 3}}; !slices.Equal(got, want) {
		t.Fatalf("pairs %v, want %v", got, want)
	}
	if got := Pairs(q[:1], now); len(got) != 0 {
		t.Fatalf("a lone player was paired: %v", got)
	}
}
