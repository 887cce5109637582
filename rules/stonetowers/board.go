package stonetowers

import "github.com/arcade/arcade/rules"

// Board sizes the engine can hold. Rooms offer 8 to 16; smaller boards exist only in tests.
const (
	maxSize  = 16
	maxCells = maxSize * maxSize
)

// cell is one square packed in a byte: 0 is unowned; otherwise bits 0-1 hold owner+1 and bits 2-3
// the castle level (0 for a flag).
type cell uint8

const unowned cell = 0

func flagOf(p int) cell          { return cell(p + 1) }
func castleOf(p, level int) cell { return cell(p+1) | cell(level)<<2 }
func (c cell) owner() int        { return int(c&3) - 1 }
func (c cell) level() int        { return int(c >> 2) }
func (c cell) public() Cell      { return Cell{Owner: rules.Seat(c.owner()), Level: c.level()} }

// board is the grid: n x n squares, index row*n+col, row 0 at the top.
type board struct {
	n int
	c [maxCells]cell
}

// influenceMap holds both players' influence on every square.
type influenceMap [2][maxCells]int8

// influence fills inf with both players' influence on every square: a castle adds its level to its
// own square and to its four orthogonal neighbours.
func (b *board) influence(inf *influenceMap) {
	n := b.n
	*inf = influenceMap{}
	for i := 0; i < n*n; i++ {
		c := b.c[i]
		l := int8(c.level())
		if l == 0 {
			continue
		}
		m := &inf[c.owner()]
		row, col := i/n, i%n
		m[i] += l
		if col > 0 {
			m[i-1] += l
		}
		if col < n-1 {
			m[i+1] += l
		}
		if row > 0 {
			m[i-n] += l
		}
		if row < n-1 {
			m[i+n] += l
		}
	}
}

// influenceAt returns both players' influence on square i.
func (b *board) influenceAt(i int) [2]int {
	var out [2]int
	n := b.n
	add := func(j int) {
		if c := b.c[j]; c.level() > 0 {
			out[c.owner()] += c.level()
		}
	}
	row, col := i/n, i%n
	add(i)
	if col > 0 {
		add(i - 1)
	}
	if col < n-1 {
		add(i + 1)
	}
	if row > 0 {
		add(i - n)
	}
	if row < n-1 {
		add(i + n)
	}
	return out
}

// resolve settles the board after an action, exactly as the rules say: each wave computes both
// players' influence on every square at once, then gives every square where one player's influence
// is strictly greater to that player (as a flag; a castle of the other player there is destroyed).
// Waves repeat until one changes nothing. When rec is not nil every change is appended to it with
// its wave number (1, 2, ...). It returns the number of waves that changed something.
//
// A wave that destroys no castle leaves every influence as it was, so the next wave would change
// nothing: the loop stops there without computing it.
func (b *board) resolve(rec *[]Change) int {
	var inf influenceMap
	n := b.n
	for wave := 1; ; wave++ {
		b.influence(&inf)
		changed, destroyed := false, false
		for i := 0; i < n*n; i++ {
			r, bl := inf[0][i], inf[1][i]
			w := 0
			switch {
			case r > bl:
				w = 0
			case bl > r:
				w = 1
			default:
				continue
			}
			c := b.c[i]
			if c.owner() == w {
				continue
			}
			// Decisions use inf, computed before the wave, and the square's own state only, so
			// changing squares in place keeps the wave simultaneous.
			after := flagOf(w)
			kind := LandClaimed
			if c.level() > 0 {
				destroyed = true
				kind = CastleDestroyed
			} else if c != unowned {
				kind = FlagTaken
			}
			b.c[i] = after
			changed = true
			if rec != nil {
				*rec = append(*rec, Change{
					Square: Square{Col: i % n, Row: i / n},
					Wave:   wave,
					Before: c.public(),
					After:  after.public(),
					Kind:   kind,
				})
			}
		}
		if !changed {
			return wave - 1
		}
		if !destroyed {
			return wave
		}
	}
}

// canBuild reports whether player p may build on square i.
func (b *board) canBuild(p, i int) bool {
	c := b.c[i]
	return c == unowned || (c.owner() == p && c.level() == 0)
}

// canFortify reports whether player p may fortify square i.
func (b *board) canFortify(p, i int) bool {
	c := b.c[i]
	return c.owner() == p && c.level() > 0 && c.level() < 3
}

// hasAction reports whether player p can build or fortify anywhere.
func (b *board) hasAction(p int) bool {
	for i := 0; i < b.n*b.n; i++ {
		if b.canBuild(p, i) || b.canFortify(p, i) {
			return true
		}
	}
	return false
}

// scores returns the number of squares each player owns.
func (b *board) scores() [2]int {
	var s [2]int
	for i := 0; i < b.n*b.n; i++ {
		if c := b.c[i]; c != unowned {
			s[c.owner()]++
		}
	}
	return s
}

// act plays action a of player p on square i (no legality check) and resolves the board. When rec
// is not nil the action itself is appended as wave 0, then the changes of the resolution.
func (b *board) act(p int, a Action, i int, rec *[]Change) {
	before := b.c[i]
	kind := CastleBuilt
	switch a {
	case Build:
		b.c[i] = castleOf(p, 1)
	case Fortify:
		b.c[i] += 1 << 2
		kind = CastleFortified
	}
	if rec != nil && (a == Build || a == Fortify) {
		*rec = append(*rec, Change{
			Square: Square{Col: i % b.n, Row: i / b.n},
			Before: before.public(),
			After:  b.c[i].public(),
			Kind:   kind,
		})
	}
	b.resolve(rec)
}

// settle is resolve for a board that was settled before an action on square i: only the squares
// whose influence or owner the action or a fallen castle changed can change, so only they are
// examined. It gives the same board as resolve (the tests check it) and is what the bots use.
func (b *board) settle(i int) {
	var fb, db [40]int
	var wb [40]cell
	front := b.around(fb[:0], i)
	for len(front) > 0 {
		// Decide the whole wave before changing anything.
		win, who := db[:0], wb[:0]
		for _, k := range front {
			inf := b.influenceAt(k)
			w := 0
			switch {
			case inf[0] > inf[1]:
			case inf[1] > inf[0]:
				w = 1
			default:
				continue
			}
			if b.c[k].owner() != w {
				win, who = append(win, k), append(who, flagOf(w))
			}
		}
		front = front[:0]
		for x, k := range win {
			if b.c[k].level() > 0 {
				front = b.around(front, k)
			}
			b.c[k] = who[x]
		}
	}
}

// around appends square i and its orthogonal neighbours to buf.
func (b *board) around(buf []int, i int) []int {
	n := b.n
	row, col := i/n, i%n
	buf = append(buf, i)
	if col > 0 {
		buf = append(buf, i-1)
	}
	if col < n-1 {
		buf = append(buf, i+1)
	}
	if row > 0 {
		buf = append(buf, i-n)
	}
	if row < n-1 {
		buf = append(buf, i+n)
	}
	return buf
}
