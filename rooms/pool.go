package rooms

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// Seeker is a player in the quick-match queue of one game, as Pairs sees them.
type Seeker struct {
	Player string // the player's ID: nobody is paired with themself
	Rating float64
	Since  time.Time // when the player began to wait
}

// Pairs pairs a queue of one game, oldest first, by Seek's rule: each player, longest waiting
// first, with the other whose rating is closest (the longer waiting of equals), provided the two
// are within 100 points plus 50 for every second the longer waiting of them has waited. It
// returns the pairs as indexes into q, the longer waiting first. The hubs of this process pair
// their queues with it, and so does a pool that spans processes (package cluster), so that both
// pair alike.
func Pairs(q []Seeker, now time.Time) [][2]int {
	left := make([]int, len(q))
	for i := range left {
		left[i] = i
	}
	var pairs [][2]int
	for len(left) > 1 {
		a := left[0] // the longest waiting
		var others []int
		for _, i := range left[1:] {
			if q[i].Player != q[a].Player {
				others = append(others, i)
			}
		}
		if len(others) == 0 {
			left = left[1:]
			continue
		}
		b := slices.MinFunc(others, func(x, y int) int {
			return cmp.Or(cmp.Compare(math.Abs(q[x].Rating-q[a].Rating), math.Abs(q[y].Rating-q[a].Rating)),
				q[x].Since.Compare(q[y].Since))
		})
		if math.Abs(q[a].Rating-q[b].Rating) > quickWindow(now.Sub(q[a].Since)) {
			left = left[1:] // a waits on; the others may pair among themselves
			continue
		}
		pairs = append(pairs, [2]int{a, b})
		left = slices.DeleteFunc(left, func(i int) bool { return i == a || i == b })
	}
	return pairs
}

// PoolTicket returns a ticket of s in a quick-match queue kept outside this process's hubs (a
// cluster's pool), waiting since since. leave is called once, by the first Cancel, before Done
// is closed: it takes the ticket out of the pool. The pool hands it its room's code with Pair.
func PoolTicket(s Seek, since time.Time, leave func()) *Ticket {
	return &Ticket{seek: s, since: since, found: make(chan string, 1), done: make(chan struct{}), leave: leave}
}

// Pair hands a ticket of PoolTicket the code of the room it was paired in: Found yields it. Only
// the first Pair counts.
func (t *Ticket) Pair(code string) {
	select {
	case t.found <- code:
	default:
	}
}

// Seek returns what the ticket was asked for.
func (t *Ticket) Seek() Seek { return t.seek }
