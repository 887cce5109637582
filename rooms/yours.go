package rooms

import (
	"cmp"
	"slices"
	"time"
)

// Yours returns the summaries of list (a Hub's List, or a cluster's) of the unfinished matches in
// which the player with key id holds a seat: the played ones whose move is the player's first,
// the one whose clock ends first at their head (an untimed turn after the timed ones), then the
// other played ones, then the rooms still waiting for players; newest first within each. An id
// of "" (a guest, who has no key) has none. list is not changed.
func Yours(list []Summary, id string) []Summary {
	if id == "" {
		return nil
	}
	var out []Summary
	for _, s := range list {
		if (s.Phase == Waiting || s.Phase == Playing) && s.SeatOf(id) >= 0 {
			out = append(out, s)
		}
	}
	rank := func(s Summary) int {
		switch {
		case s.ToPlay(s.SeatOf(id)):
			return 0
		case s.Phase == Playing:
			return 1
		}
		return 2
	}
	ends := func(s Summary) time.Time {
		if s.Clock.Ends.IsZero() {
			return time.Unix(1<<62, 0) // untimed: after every clock
		}
		return s.Clock.Ends
	}
	slices.SortStableFunc(out, func(a, b Summary) int {
		ra, rb := rank(a), rank(b)
		if c := cmp.Compare(ra, rb); c != 0 {
			return c
		}
		if ra == 0 {
			if c := ends(a).Compare(ends(b)); c != 0 {
				return c
			}
		}
		return cmp.Or(b.Created.Compare(a.Created), cmp.Compare(a.Code, b.Code))
	})
	return out
}
