package lhexicon

import (
	"context"
	"math/bits"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon/dict"
)

// Candidate is a play found by the move generator: the move, its score (letters plus trap bonus)
// and its bonus. A visitor that keeps a Candidate must Clone it: the generator reuses its slices.
type Candidate struct {
	Move  Move
	Score int
	Bonus int
	// Tiles is the number of tiles the play places.
	Tiles int
	// kept counts the rack tiles the play keeps, by letter (1 to 27; 0 for blanks).
	kept [28]int8
}

// Clone returns a copy that owns its slices.
func (c Candidate) Clone() Candidate {
	c.Move.Path = append([]Dir(nil), c.Move.Path...)
	c.Move.Tiles = append([]Tile(nil), c.Move.Tiles...)
	return c
}

// generator enumerates every legal play of a seat (dictionary words only), by depth-first search
// along paths of hexes guided by the dictionary's prefixes: a path may start on any hex from which
// a tile on the board can still be reached with the tiles left (the anchors of a word game whose
// words bend), and every blank is tried as every letter that can follow.
type generator struct {
	s     *State
	d     *dict.Dict
	ctx   context.Context
	visit func(Candidate) bool

	have [28]int // rack tiles by letter (1 to 27); have[0] is blanks
	// haveMask holds the letters of the letter tiles left, as dict.Next's bits (the Qu tile as
	// q): a hex whose letters cannot follow the prefix is not tried.
	haveMask uint32
	left     int // rack tiles not yet placed
	dist     [NumHexes]int8
	first    bool
	before   regions
	bonus    map[uint64]int
	zob      uint64

	path    []Hex
	tiles   []Tile
	isNew   []bool
	onPath  [NumHexes]bool
	usedOld int
	letters int
	score   int
	news    int

	// owed lists, for each new tile of the path, the tiles on the board it touches: each must be
	// on the path by the end (the rule of contact).
	owed []Hex
	// owedBy counts, for each tile on the board, the new tiles of the path it touches; missing
	// counts those of them not on the path: the rule of contact holds when it is 0.
	owedBy  [NumHexes]uint8
	missing int
	// occupied lists, for each hex, its neighbours that hold a tile.
	occupied  [NumHexes][6]Hex
	nOccupied [NumHexes]uint8

	// zone, when not nil, holds the hexes where new tiles may go.
	zone *[NumHexes]bool

	nodes   int
	budget  int
	stopped bool
}

// SearchBudget bounds the steps of one search by the bots (Generate with a budget): a search that
// reaches it stops with what it has found, so that a bot's move does not depend on the machine's
// speed, and a position with an enormous number of plays still gets an answer in time.
const SearchBudget = 3_000_000

// spellLen returns the number of letters a tile spells: 2 for Qu, else 1.
func spellLen(t Tile) int {
	if t.Letter() == QU {
		return 2
	}
	return 1
}

// letterBit returns the bit of dict.Next's letter set that letter tile l (1 to 27) starts with:
// the Qu tile's is q's.
func letterBit(l Tile) uint32 {
	if l == QU {
		return 1 << ('q' - 'a')
	}
	return 1 << (l - 1)
}

// hexDist holds the distance between every two hexes, for the search's reach checks.
var hexDist [NumHexes][NumHexes]int8

func init() {
	for h := range Hex(NumHexes) {
		for g := range Hex(NumHexes) {
			hexDist[h][g] = int8(h.Distance(g))
		}
	}
}

// zobrist holds a random key per hex; a set of new hexes is the XOR of its keys.
var zobrist [NumHexes]uint64

func init() {
	x := uint64(0x9e3779b97f4a7c15)
	for i := range zobrist {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		zobrist[i] = x
	}
}

// Generate calls visit with every play seat can make now whose word is in the dictionary, until
// visit returns false or ctx is done (checked every few thousand steps). It reports whether the
// search finished. The first play is found in a straight line east from the centre and, for six
// tiles or more, also curled round the hex east of the centre (which encloses it: a trap of 1),
// which covers every score a first play can make.
func (s *State) Generate(ctx context.Context, seat rules.Seat, visit func(Candidate) bool) bool {
	done, _ := s.generate(ctx, seat, 0, visit)
	return done
}

// generate is Generate, stopping after budget steps when budget is not 0; it also returns the
// number of steps taken.
func (s *State) generate(ctx context.Context, seat rules.Seat, budget int, visit func(Candidate) bool) (done bool, steps int) {
	if seat < 0 || int(seat) >= s.seats {
		return true, 0
	}
	return s.search(ctx, s.racks[seat][:s.nrack[seat]], nil, budget, visit)
}

// search is generate for any rack of at most RackSize tiles (a guess at an opponent's; only the
// first RackSize count), placing new tiles only on the hexes of zone when zone is not nil.
func (s *State) search(ctx context.Context, rack []Tile, zone *[NumHexes]bool, budget int, visit func(Candidate) bool) (done bool, steps int) {
	rack = rack[:min(len(rack), RackSize)]
	g := &generator{s: s, d: dict.Words(), ctx: ctx, visit: visit, first: s.placed == 0,
		bonus: map[uint64]int{}, budget: budget, zone: zone}
	for _, t := range rack {
		if t == Blank {
			g.have[0]++
		} else {
			g.have[t]++
			g.haveMask |= letterBit(t)
		}
		g.left++
	}
	if g.left == 0 {
		return true, 0
	}
	if g.first {
		g.firstPlays()
		return !g.stopped, g.nodes
	}
	g.distances()
	g.before.label(&s.board)
	for h := range Hex(NumHexes) {
		for _, nb := range neighbour[h] {
			if nb != NoHex && s.board[nb] != NoTile {
				g.occupied[h][g.nOccupied[h]] = nb
				g.nOccupied[h]++
			}
		}
	}
	// Paths start on the board's tiles first, then on the empty hexes nearest to them, so that a
	// search cut short by its budget has tried every anchor of the commonest plays.
	for d := range g.left + 1 {
		for h := range Hex(NumHexes) {
			if g.stopped {
				return false, g.nodes
			}
			if int(g.dist[h]) == d {
				g.step(h, g.d.Root())
			}
		}
	}
	return !g.stopped, g.nodes
}

// distances fills dist: for each hex, the number of new tiles needed to reach a tile on the board
// starting there (0 on a tile).
func (g *generator) distances() {
	var queue [NumHexes]Hex
	n := 0
	for h := range Hex(NumHexes) {
		g.dist[h] = 127
		if g.s.board[h] != NoTile {
			g.dist[h] = 0
			queue[n] = h
			n++
		}
	}
	for i := 0; i < n; i++ {
		h := queue[i]
		for _, nb := range neighbour[h] {
			if nb != NoHex && g.dist[nb] == 127 {
				g.dist[nb] = g.dist[h] + 1
				queue[n] = nb
				n++
			}
		}
	}
}

// tick counts a step of the search and stops it when the budget is spent or ctx is done.
func (g *generator) tick() {
	g.nodes++
	if g.budget > 0 && g.nodes >= g.budget {
		g.stopped = true
	}
	if g.nodes&4095 == 0 && g.ctx.Err() != nil {
		g.stopped = true
	}
}

// step tries hex h as the next hex of the path, from dictionary node n.
func (g *generator) step(h Hex, n dict.Node) {
	g.tick()
	if g.stopped {
		return
	}
	if t := g.s.board[h]; t != NoTile {
		l := t.Letter()
		c := byte('a' - 1 + l)
		if l == QU {
			c = 'q'
		}
		m, ok := g.d.Child(n, c)
		if ok && l == QU {
			m, ok = g.d.Child(m, 'u')
		}
		if !ok {
			return
		}
		g.push(h, t, false, m)
		g.usedOld++
		g.after(h, m)
		g.usedOld--
		g.pop(h, t, false)
		return
	}
	if g.left == 0 || g.zone != nil && !g.zone[h] {
		return
	}
	next := g.d.Next(n)
	if g.have[0] == 0 {
		next &= g.haveMask
	}
	for next != 0 {
		i := bits.TrailingZeros32(next)
		next &= next - 1
		c := byte('a' + i)
		m, _ := g.d.Child(n, c)
		l := LetterTile(c)
		if c == 'q' {
			// The Qu tile and a blank named Qu need a u next; a blank may also be a lone Q.
			if mu, ok := g.d.Child(m, 'u'); ok {
				g.tryTile(h, QU, mu)
			}
		}
		g.tryTile(h, l, m)
	}
}

// tryTile places letter l (a letter tile when held, and a blank named l when held) on empty hex h.
func (g *generator) tryTile(h Hex, l Tile, m dict.Node) {
	if l != LetterTile('q') && g.have[l] > 0 {
		g.have[l]--
		if g.have[l] == 0 {
			g.haveMask &^= letterBit(l)
		}
		g.push(h, l, true, m)
		g.after(h, m)
		g.pop(h, l, true)
		g.have[l]++
		g.haveMask |= letterBit(l)
	}
	if g.have[0] > 0 {
		g.have[0]--
		g.push(h, l|Blank, true, m)
		g.after(h, m)
		g.pop(h, l|Blank, true)
		g.have[0]++
	}
}

func (g *generator) push(h Hex, t Tile, isNew bool, m dict.Node) {
	g.path = append(g.path, h)
	g.tiles = append(g.tiles, t)
	g.isNew = append(g.isNew, isNew)
	g.onPath[h] = true
	g.letters += spellLen(t)
	g.score += t.Value()
	if !isNew {
		g.missing -= int(g.owedBy[h])
		return
	}
	g.left--
	g.news++
	g.zob ^= zobrist[h]
	for _, o := range g.occupied[h][:g.nOccupied[h]] {
		g.owed = append(g.owed, o)
		g.owedBy[o]++
		if !g.onPath[o] {
			g.missing++
		}
	}
}

func (g *generator) pop(h Hex, t Tile, isNew bool) {
	g.path = g.path[:len(g.path)-1]
	g.tiles = g.tiles[:len(g.tiles)-1]
	g.isNew = g.isNew[:len(g.isNew)-1]
	g.onPath[h] = false
	g.letters -= spellLen(t)
	g.score -= t.Value()
	if !isNew {
		g.missing += int(g.owedBy[h])
		return
	}
	g.left++
	g.news--
	g.zob ^= zobrist[h]
	for _, o := range g.occupied[h][:g.nOccupied[h]] {
		g.owedBy[o]--
		if !g.onPath[o] {
			g.missing--
		}
	}
	g.owed = g.owed[:len(g.owed)-int(g.nOccupied[h])]
}

// after is called with h just added to the path at node m: it reports the play if it is one and
// goes on to the neighbours.
func (g *generator) after(h Hex, m dict.Node) {
	if g.d.IsWord(m) && g.letters >= 2 && g.news > 0 && g.usedOld > 0 && g.missing == 0 {
		g.emit()
		if g.stopped {
			return
		}
	}
	// rest is the most hexes the path may still add: a word has at most Longest(m) letters more.
	rest := g.d.Longest(m)
	if rest == 0 {
		return
	}
	// far lists the tiles the word still owes by the rule of contact (with repeats).
	var far [6 * RackSize]Hex
	nFar := 0
	if g.missing > 0 {
		for _, o := range g.owed {
			if !g.onPath[o] {
				if int(hexDist[h][o]) > rest {
					return // a tile the word must use is out of reach
				}
				far[nFar] = o
				nFar++
			}
		}
	}
	// The letters that may come next, and whether an empty hex can take one of them.
	next := g.d.Next(m)
	newOK := g.left > 0 && (next&g.haveMask != 0 || g.have[0] > 0 && next != 0)
	for _, nb := range neighbour[h] {
		if nb == NoHex || g.onPath[nb] {
			continue
		}
		t := g.s.board[nb]
		empty := t == NoTile
		if empty && (!newOK || g.zone != nil && !g.zone[nb]) || !empty && next&letterBit(t.Letter()) == 0 {
			continue
		}
		if g.usedOld == 0 && empty && (int(g.dist[nb]) > g.left || int(g.dist[nb]) > rest-1) {
			continue // no tile on the board within reach
		}
		if nFar > 0 && !reachable(far[:nFar], nb, rest-1) {
			continue
		}
		g.step(nb, m)
		if g.stopped {
			return
		}
	}
}

// reachable reports whether every tile of owed other than nb lies within rest hexes of nb.
func reachable(owed []Hex, nb Hex, rest int) bool {
	for _, o := range owed {
		if o != nb && int(hexDist[nb][o]) > rest {
			return false
		}
	}
	return true
}

// emit reports the path as a candidate, with its trap bonus (cached by the set of new hexes).
func (g *generator) emit() {
	bonus, ok := g.bonus[g.zob]
	if !ok {
		after := g.s.board
		for i, h := range g.path {
			if g.isNew[i] {
				after[h] = g.tiles[i]
			}
		}
		var ra regions
		ra.label(&after)
		bonus = trapBonus(&g.before, &ra)
		g.bonus[g.zob] = bonus
	}
	var dirs [NumHexes]Dir
	for i := 1; i < len(g.path); i++ {
		dirs[i-1], _ = g.path[i-1].DirTo(g.path[i])
	}
	c := Candidate{
		Move:  Move{Kind: Play, Start: g.path[0], Path: dirs[:len(g.path)-1], Tiles: g.tiles},
		Score: g.score + bonus,
		Bonus: bonus,
		Tiles: g.news,
	}
	for i, n := range g.have {
		c.kept[i] = int8(n)
	}
	if !g.visit(c) {
		g.stopped = true
	}
}

// firstPlays enumerates the words the rack makes and reports each laid east from the centre and,
// with six tiles or more, curled round the hex east of the centre.
func (g *generator) firstPlays() {
	var word []Tile
	var rec func(n dict.Node, letters, score int)
	rec = func(n dict.Node, letters, score int) {
		g.tick()
		if g.stopped {
			return
		}
		if len(word) > 0 && letters >= 2 && g.d.IsWord(n) {
			g.emitFirst(word, score)
		}
		next := g.d.Next(n)
		for next != 0 && g.left > 0 && !g.stopped {
			i := bits.TrailingZeros32(next)
			next &= next - 1
			c := byte('a' + i)
			m, _ := g.d.Child(n, c)
			try := func(l Tile, m dict.Node, nl int) {
				if l != LetterTile('q') && g.have[l] > 0 {
					g.have[l]--
					g.left--
					word = append(word, l)
					rec(m, letters+nl, score+l.Value())
					word = word[:len(word)-1]
					g.left++
					g.have[l]++
				}
				if g.have[0] > 0 {
					g.have[0]--
					g.left--
					word = append(word, l|Blank)
					rec(m, letters+nl, score)
					word = word[:len(word)-1]
					g.left++
					g.have[0]++
				}
			}
			if c == 'q' {
				if mu, ok := g.d.Child(m, 'u'); ok {
					try(QU, mu, 2)
				}
			}
			try(LetterTile(c), m, 1)
		}
	}
	rec(g.d.Root(), 0, 0)
}

// firstRing is the path of the curled first play: round the hex east of the centre, from the
// centre clockwise, then one hex further out.
var firstRing = [6]Dir{NE, E, SE, SW, W, SW}

// emitFirst reports word as first plays: in a straight line, and curled when it has 6 tiles or
// more.
func (g *generator) emitFirst(word []Tile, score int) {
	var dirs [RackSize]Dir
	n := len(word)
	for i := range n - 1 {
		dirs[i] = E
	}
	c := Candidate{Move: Move{Kind: Play, Start: Centre, Path: dirs[:n-1], Tiles: word}, Score: score, Tiles: n}
	for i, n := range g.have {
		c.kept[i] = int8(n)
	}
	if !g.visit(c) {
		g.stopped = true
		return
	}
	if n >= 6 {
		// Centre, then round X = the hex east of the centre: NW of X, NE of X, E of X, SE of X,
		// SW of X (the centre is W of X); a seventh tile goes on SW of SW of X.
		copy(dirs[:], firstRing[:n-1])
		c.Move.Path = dirs[:n-1]
		c.Score, c.Bonus = score+3, 3
		if !g.visit(c) {
			g.stopped = true
		}
	}
}
