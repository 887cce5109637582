package record

import (
	"fmt"

	"github.com/arcade/arcade/rules"
)

// Bounds of what a Cursor holds, whatever the match's length.
const (
	// CheckpointEvery is the least number of moves between two checkpoints of a Cursor.
	CheckpointEvery = 100
	// MaxCheckpoints is the most checkpoints a Cursor keeps: a longer match has them further
	// apart (a multiple of CheckpointEvery).
	MaxCheckpoints = 64
	// CursorWindow is the most consecutive positions a Cursor keeps around the one last asked
	// for, so that stepping by a move, a turn or a round near it, and listing the moves around
	// it, replays nothing.
	CursorWindow = 32
)

// Cursor steps through the positions of a recorded match without holding them all: it keeps a
// checkpoint (the position itself, an immutable engine) every few moves and a window of
// consecutive positions, and rebuilds a position outside the window from the nearest checkpoint
// at or below it. It holds at most MaxCheckpoints+CursorWindow positions, whatever the match's
// length. A Cursor is not safe for concurrent use: each viewer has its own.
type Cursor struct {
	match Match
	game  rules.Game
	every int            // moves between checkpoints
	marks []rules.Engine // marks[k] is the position after k*every moves
	from  int            // window[j] is the position after from+j moves
	win   []rules.Engine
}

// NewCursor checks that the match replays, playing it once through, and returns a cursor on its
// start. A move the engine refuses is an error, as for Final (a record that does not replay is
// damaged).
func NewCursor(m Match, g rules.Game) (*Cursor, error) {
	c := &Cursor{match: m, game: g, every: checkpointEvery(len(m.Moves))}
	first, err := m.start(g)
	if err != nil {
		return nil, err
	}
	c.marks = make([]rules.Engine, 0, len(m.Moves)/c.every+1)
	c.marks = append(c.marks, first)
	e := first
	for i := range m.Moves {
		if e, err = m.apply(e, i); err != nil {
			return nil, err
		}
		if (i+1)%c.every == 0 {
			c.marks = append(c.marks, e)
		}
	}
	c.fill(0)
	return c, nil
}

// checkpointEvery is the spacing of the checkpoints of a match of n moves: CheckpointEvery,
// or its least multiple that keeps them within MaxCheckpoints.
func checkpointEvery(n int) int {
	every := CheckpointEvery
	for n/every+1 > MaxCheckpoints {
		every += CheckpointEvery
	}
	return every
}

// Len returns the number of moves: the positions are numbered 0 (before the first move) to Len.
func (c *Cursor) Len() int { return len(c.match.Moves) }

// At returns the position after i moves, 0 <= i <= Len (i is clamped to that range). Asked for
// one outside its window, the cursor moves its window to centre it, replaying from the nearest
// position it holds at or below the window's first.
func (c *Cursor) At(i int) rules.Engine {
	i = max(0, min(c.Len(), i))
	if i < c.from || i >= c.from+len(c.win) {
		c.fill(max(0, min(i-CursorWindow/2, c.Len()+1-CursorWindow)))
	}
	return c.win[i-c.from]
}

// Held returns the number of positions the cursor holds (checkpoints and window): at most
// MaxCheckpoints+CursorWindow.
func (c *Cursor) Held() int { return len(c.marks) + len(c.win) }

// fill makes the window the positions from move lo on (as many as there are, up to
// CursorWindow), replaying from the checkpoint at or below lo, or from the old window when it
// is nearer.
func (c *Cursor) fill(lo int) {
	at, e := (lo/c.every)*c.every, c.marks[lo/c.every]
	for j, w := range c.win {
		if n := c.from + j; n <= lo && n > at {
			at, e = n, w
		}
	}
	c.win = c.win[:0]
	for ; at < lo; at++ {
		e = c.mustApply(e, at)
	}
	c.from = lo
	c.win = append(c.win, e)
	for at < c.Len() && len(c.win) < CursorWindow {
		e = c.mustApply(e, at)
		at++
		c.win = append(c.win, e)
	}
}

// mustApply plays move i on e. NewCursor played every move, and engines are deterministic, so
// a refusal here is a broken engine.
func (c *Cursor) mustApply(e rules.Engine, i int) rules.Engine {
	next, err := c.match.apply(e, i)
	if err != nil {
		panic(fmt.Sprintf("record: a move replayed once is refused the second time: %v", err))
	}
	return next
}

// Final sets up the match's engine and plays its moves, keeping only the last position: what a
// check of the record or a caller that needs the end alone wants. A move the engine refuses is
// an error (a record that does not replay is damaged). To step through the positions, use a
// Cursor.
func (m Match) Final(g rules.Game) (rules.Engine, error) {
	e, err := m.start(g)
	if err != nil {
		return nil, err
	}
	for i := range m.Moves {
		if e, err = m.apply(e, i); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// start sets up the match's engine: the position before the first move.
func (m Match) start(g rules.Game) (rules.Engine, error) {
	if g.ID != m.Game {
		return nil, fmt.Errorf("replay: match %s is %s, not %s", m.ID, m.Game, g.ID)
	}
	e, err := g.New(m.Options, len(m.Seats), m.Seed)
	if err != nil {
		return nil, fmt.Errorf("replay %s: %w", m.ID, err)
	}
	return rules.Reshuffled(e, m.Reshuffles, 0), nil
}

// apply plays move i (0-based) of the match on e, and the reshuffles made after it (before move
// i+1): the position after i+1 moves.
func (m Match) apply(e rules.Engine, i int) (rules.Engine, error) {
	mv := m.Moves[i]
	next, err := e.Apply(mv.Seat, mv.Move)
	if err != nil {
		return nil, fmt.Errorf("replay %s: move %d (%q): %w", m.ID, i+1, mv.Move, err)
	}
	return rules.Reshuffled(next, m.Reshuffles, i+1), nil
}
