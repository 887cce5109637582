package phase

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
)

// ackKey names one move: its room, the room's match (1 for the first) and its number in the
// match (0-based, as the server stores it).
type ackKey struct {
	code  string
	match int
	ply   int
}

// ackMove is what was acknowledged: the seat that moved and the move in notation.
type ackMove struct {
	seat rules.Seat
	move string
}

// ackLog holds every move the server acknowledged: a move counts once a screen showed it after it
// was sent. Safe for concurrent use.
type ackLog struct {
	mu        sync.Mutex
	moves     map[ackKey]ackMove
	conflicts []string // the same move noted twice, differently: a mistake of the tool's
}

func newAckLog() *ackLog { return &ackLog{moves: map[ackKey]ackMove{}} }

// add notes move number ply of the room's match-th match. Noting the same move again changes
// nothing; noting a different one there is kept as a conflict.
func (l *ackLog) add(code string, match, ply int, seat rules.Seat, move string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := ackKey{code, match, ply}
	if old, ok := l.moves[k]; ok {
		if old != (ackMove{seat, move}) {
			l.conflicts = append(l.conflicts, fmt.Sprintf("room %s match %d move %d noted as %q by seat %d and as %q by seat %d",
				code, match, ply, old.move, old.seat, move, seat))
		}
		return
	}
	l.moves[k] = ackMove{seat, move}
}

// len returns the number of acknowledged moves.
func (l *ackLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.moves)
}

// AckCheck is the comparison of the acknowledged moves with the stored matches.
type AckCheck struct {
	Rooms, Matches, Moves int // acknowledged: rooms, matches and moves
	// Missing counts the acknowledged moves the store does not have as acknowledged (absent, or
	// another move or seat at that number); Examples describes the first few.
	Missing  int
	Examples []string `json:",omitempty"`
	// Beyond counts stored moves after the last acknowledged move of a match: moves sent whose
	// screens the tool did not see, and moves made after the tool left (garbage typed into a room,
	// bots); they are not checked.
	Beyond int
}

// maxExamples bounds the missing moves a check describes.
const maxExamples = 5

// verify compares the log with the stored matches of each room, given oldest first (match IDs
// sort by time): the room's n-th stored match is its n-th match.
func (l *ackLog) verify(stored map[string][]record.Match) AckCheck {
	l.mu.Lock()
	defer l.mu.Unlock()
	var c AckCheck
	type matchKey struct {
		code  string
		match int
	}
	last := map[matchKey]int{} // the highest acknowledged move number of each match
	rooms := map[string]bool{}
	keys := make([]ackKey, 0, len(l.moves))
	for k := range l.moves {
		keys = append(keys, k)
		mk := matchKey{k.code, k.match}
		if p, ok := last[mk]; !ok || k.ply > p {
			last[mk] = k.ply
		}
		rooms[k.code] = true
	}
	slices.SortFunc(keys, func(a, b ackKey) int {
		if c := strings.Compare(a.code, b.code); c != 0 {
			return c
		}
		if a.match != b.match {
			return a.match - b.match
		}
		return a.ply - b.ply
	})
	c.Rooms, c.Matches, c.Moves = len(rooms), len(last), len(keys)
	miss := func(k ackKey, format string, args ...any) {
		c.Missing++
		if len(c.Examples) < maxExamples {
			c.Examples = append(c.Examples, fmt.Sprintf("room %s match %d move %d: ", k.code, k.match, k.ply)+fmt.Sprintf(format, args...))
		}
	}
	for _, k := range keys {
		want := l.moves[k]
		ms := stored[k.code]
		if k.match > len(ms) {
			miss(k, "%q acknowledged, but the room has %d stored matches", want.move, len(ms))
			continue
		}
		m := ms[k.match-1]
		switch {
		case k.ply >= len(m.Moves):
			miss(k, "%q acknowledged, but match %s has %d stored moves", want.move, m.ID, len(m.Moves))
		case m.Moves[k.ply].Move != want.move || m.Moves[k.ply].Seat != want.seat:
			miss(k, "%q by seat %d acknowledged, match %s has %q by seat %d", want.move, want.seat, m.ID, m.Moves[k.ply].Move, m.Moves[k.ply].Seat)
		}
	}
	for mk, p := range last {
		if ms := stored[mk.code]; mk.match <= len(ms) {
			c.Beyond += max(0, len(ms[mk.match-1].Moves)-p-1)
		}
	}
	for _, s := range l.conflicts {
		c.Missing++
		if len(c.Examples) < maxExamples {
			c.Examples = append(c.Examples, s)
		}
	}
	return c
}

func (c AckCheck) String() string {
	s := fmt.Sprintf("%d acknowledged moves in %d matches of %d rooms: %d missing from the database", c.Moves, c.Matches, c.Rooms, c.Missing)
	if c.Beyond > 0 {
		s += fmt.Sprintf(" (%d more stored after the last acknowledged move of their match)", c.Beyond)
	}
	return s
}
