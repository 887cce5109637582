package stonetowers

import (
	"errors"
	"fmt"
	"slices"

	"github.com/arcade/arcade/rules"
)

// Bounds of the room options.
const (
	MinSize, MaxSize, DefaultSize    = 8, 16, 12
	MinTurns, MaxTurns, DefaultTurns = 10, 60, 25
)

// State is a Stone Towers match: an immutable value implementing rules.Engine. Apply and Play return
// a new State and never modify the receiver.
type State struct {
	b       board
	turns   int
	played  [2]int
	last    *LastMove // shared between states; never modified
	changes []Change  // shared between states; never modified
}

var (
	_ rules.Engine       = (*State)(nil)
	_ rules.PublicViewer = (*State)(nil)
)

// NewState returns a new match on an empty size x size board in which each player has turns turns.
func NewState(size, turns int) (*State, error) {
	if size < MinSize || size > MaxSize {
		return nil, fmt.Errorf("size must be a whole number from %d to %d", MinSize, MaxSize)
	}
	if turns < MinTurns || turns > MaxTurns {
		return nil, fmt.Errorf("turns must be a whole number from %d to %d", MinTurns, MaxTurns)
	}
	return &State{b: board{n: size}, turns: turns}, nil
}

// Game returns "stonetowers".
func (s *State) Game() string { return "stonetowers" }

// Seats returns 2.
func (s *State) Seats() int { return 2 }

// Size returns the board's width and height.
func (s *State) Size() int { return s.b.n }

// Turns returns the number of turns each player has in the whole game.
func (s *State) Turns() int { return s.turns }

// TurnsLeft returns the number of turns seat has still to play.
func (s *State) TurnsLeft(seat rules.Seat) int {
	if seat != Red && seat != Blue {
		return 0
	}
	return s.turns - s.played[seat]
}

// Over reports whether every turn has been played.
func (s *State) Over() bool { return s.played[0]+s.played[1] >= 2*s.turns }

// Next returns the seat to act, or Nobody when the game is over.
func (s *State) Next() rules.Seat {
	if s.Over() {
		return Nobody
	}
	return rules.Seat((s.played[0] + s.played[1]) % 2)
}

// ToMove returns the seat to act, empty when the game is over.
func (s *State) ToMove() []rules.Seat {
	if s.Over() {
		return nil
	}
	return []rules.Seat{s.Next()}
}

// OnBoard reports whether sq is on the board.
func (s *State) OnBoard(sq Square) bool {
	return sq.Col >= 0 && sq.Row >= 0 && sq.Col < s.b.n && sq.Row < s.b.n
}

func (s *State) index(sq Square) int { return sq.Row*s.b.n + sq.Col }

// At returns the content of sq; an unowned square when sq is off the board.
func (s *State) At(sq Square) Cell {
	if !s.OnBoard(sq) {
		return Cell{Owner: Nobody}
	}
	return s.b.c[s.index(sq)].public()
}

// Influence returns both players' influence on sq, indexed by seat; zero when sq is off the board.
func (s *State) Influence(sq Square) [2]int {
	if !s.OnBoard(sq) {
		return [2]int{}
	}
	return s.b.influenceAt(s.index(sq))
}

// Scores returns the number of squares each seat owns.
func (s *State) Scores() [2]int { return s.b.scores() }

// Changes returns the squares changed by the last action, in wave order (see Change).
func (s *State) Changes() []Change { return slices.Clone(s.changes) }

// Last returns the last action played, or nil before the first.
func (s *State) Last() *LastMove {
	if s.last == nil {
		return nil
	}
	l := *s.last
	return &l
}

// LegalMoves returns seat's legal moves in board order (rows from the top, columns from the left),
// with Build or Fortify, never Auto; just Pass when seat can do nothing else; nil when seat may not
// act.
func (s *State) LegalMoves(seat rules.Seat) []Move {
	if s.Over() || seat != s.Next() {
		return nil
	}
	p := int(seat)
	n := s.b.n
	var legal [maxCells]Action // counted first, so that the moves take one allocation
	count := 0
	for i := range n * n {
		switch {
		case s.b.canBuild(p, i):
			legal[i] = Build
		case s.b.canFortify(p, i):
			legal[i] = Fortify
		default:
			continue
		}
		count++
	}
	if count == 0 {
		return []Move{{Action: Pass}}
	}
	out := make([]Move, 0, count)
	for i := range n * n {
		if legal[i] != 0 {
			out = append(out, Move{Action: legal[i], Square: Square{Col: i % n, Row: i / n}})
		}
	}
	return out
}

// Legal returns seat's legal moves in canonical notation (see LegalMoves).
func (s *State) Legal(seat rules.Seat) []string {
	return rules.Notations(s.LegalMoves(seat))
}

// Apply decodes move (see ParseMove) and plays it for seat (see Play).
func (s *State) Apply(seat rules.Seat, move string) (rules.Engine, error) {
	if err := s.check(seat); err != nil {
		return s, err
	}
	m, err := ParseMove(move)
	if err != nil {
		return s, err
	}
	ns, err := s.Play(seat, m)
	if err != nil {
		return s, err
	}
	return ns, nil
}

// check returns why seat may not act now, or nil.
func (s *State) check(seat rules.Seat) error {
	if s.Over() {
		return fmt.Errorf("%w: every turn has been played", rules.ErrGameOver)
	}
	if seat != s.Next() {
		return fmt.Errorf("%w: %s is to move", rules.ErrNotYourTurn, SeatName(s.Next()))
	}
	return nil
}

// Resolve returns m as seat would play it now: a bare square (Auto) becomes Build or Fortify. It
// returns an error in plain words when m is not legal for seat now; an error names a square as the
// board writes it ("f4") and never begins with it, since a screen capitalises an error's first
// letter ("F4" is no square of the board).
func (s *State) Resolve(seat rules.Seat, m Move) (Move, error) {
	if err := s.check(seat); err != nil {
		return m, err
	}
	p := int(seat)
	if m.Action == Pass {
		if s.b.hasAction(p) {
			return m, errors.New("you may only pass when you cannot build or fortify")
		}
		return m, nil
	}
	if m.Action != Build && m.Action != Fortify && m.Action != Auto {
		return m, fmt.Errorf("%w: that is not a move", rules.ErrBadNotation)
	}
	if !s.OnBoard(m.Square) {
		return m, fmt.Errorf("there is no square %s on the %d x %d board", m.Square, s.b.n, s.b.n)
	}
	i := s.index(m.Square)
	c := s.b.c[i]
	mine := c.owner() == p
	if m.Action == Auto {
		m.Action = Build
		if mine && c.level() > 0 {
			m.Action = Fortify
		}
	}
	switch {
	case c != unowned && !mine:
		what := "land"
		if c.level() > 0 {
			what = "castle"
		}
		if m.Action == Build {
			return m, fmt.Errorf("you cannot build on %s: it is %s's %s", m.Square, SeatName(rules.Seat(c.owner())), what)
		}
		return m, fmt.Errorf("you can only fortify your own castles: %s is %s's %s", m.Square, SeatName(rules.Seat(c.owner())), what)
	case m.Action == Build && c.level() >= 3:
		return m, fmt.Errorf("your castle on %s is already at level 3", m.Square)
	case m.Action == Build && c.level() > 0:
		return m, fmt.Errorf("you already have a castle on %s: fortify it instead", m.Square)
	case m.Action == Fortify && c.level() == 0:
		return m, fmt.Errorf("there is no castle of yours on %s to fortify", m.Square)
	case m.Action == Fortify && c.level() >= 3:
		return m, errors.New("that castle is already at level 3")
	}
	return m, nil
}

// Play plays m for seat and returns the new state, with the board resolved. A bare square (Auto) is
// resolved first (see Resolve). An illegal move returns an error in plain words, wrapping
// rules.ErrNotYourTurn or rules.ErrGameOver where they apply, and the receiver.
func (s *State) Play(seat rules.Seat, m Move) (*State, error) {
	m, err := s.Resolve(seat, m)
	if err != nil {
		return s, err
	}
	ns := *s
	ns.played[seat]++
	var rec []Change
	if m.Action == Pass {
		ns.b.resolve(&rec)
	} else {
		ns.b.act(int(seat), m.Action, s.index(m.Square), &rec)
	}
	ns.changes = slices.Clip(rec)
	ns.last = &LastMove{Seat: seat, Move: m, Notation: m.String()}
	return &ns, nil
}

// Outcome returns the scores (squares owned) and, once every turn has been played, the ranks.
func (s *State) Outcome() rules.Outcome {
	sc := s.b.scores()
	o := rules.Outcome{Scores: []int{sc[0], sc[1]}}
	if s.Over() {
		o.Over = true
		o.Ranks = rules.RankByScore(o.Scores)
		o.Reason = "all turns played"
	}
	return o
}

// View returns the board as everyone sees it (a View value); viewer does not matter.
func (s *State) View(viewer rules.Seat) any { return s.Snapshot() }

// PublicView marks the View as the same for every viewer (rules.PublicViewer).
func (s *State) PublicView() {}

// Snapshot returns the View of the state.
func (s *State) Snapshot() View {
	n := s.b.n
	var inf influenceMap
	s.b.influence(&inf)
	grid := make([][]SquareView, n)
	cells := make([]SquareView, n*n)
	for i := range cells {
		cells[i] = SquareView{
			Cell:      s.b.c[i].public(),
			Influence: [2]int{int(inf[0][i]), int(inf[1][i])},
		}
	}
	for r := range grid {
		grid[r] = cells[r*n : (r+1)*n : (r+1)*n]
	}
	v := View{
		Size:      n,
		Grid:      grid,
		Turns:     s.turns,
		TurnsLeft: [2]int{s.turns - s.played[0], s.turns - s.played[1]},
		Scores:    s.b.scores(),
		ToMove:    s.Next(),
		Over:      s.Over(),
		Changes:   slices.Clone(s.changes),
	}
	if s.last != nil {
		l := *s.last
		v.LastMove = &l
	}
	for _, c := range s.changes {
		v.Waves = max(v.Waves, c.Wave)
	}
	return v
}
