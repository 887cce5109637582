package lhexiconview

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon"
	"github.com/arcade/arcade/session/draw"
)

// lhexKeys are the Lhex-i'-con board's bindings that the help line shows. Letters, '*', space and
// the arrows are read in key.
type lhexKeys struct {
	Play, Exchange, Pass, Challenge, Accept key.Binding
}

// lhexBoard draws a Lhex-i'-con board with a cursor and composes plays with the keyboard. The
// hexagon's 15 rows are drawn one a line, offset by half a hex: each hex is two columns, a mark
// (the cursor's brackets) and its glyph: a tile's letter (upper case; a blank lower case, worth
// 0), '·' an empty hex, '+' the empty centre, '░' ('#' in ASCII) an empty hex of a trap. Rows are
// labelled with their first and last hexes ("a1 ... a8"); the line under the rack names the hex
// under the cursor.
//
// On the viewer's turn a letter places that tile from the rack on the cursor's empty hex as the
// word's next hex ('*' then a letter: the blank; a letter not on the rack takes the blank), space
// marks the tile under the cursor as the word's next hex, enter plays, backspace undoes the last
// step and esc clears. A letter typed on the word's last hex goes on east, and after two hexes
// along a row the cursor moves on in the word's direction. X starts an
// exchange (letters pick the tiles, enter exchanges), P passes and E ends a solo game (enter
// confirms), S picks the blank under the cursor for a swap, C and A challenge and accept a word.
// Nothing is sent before enter (C and A aside); a play the preview refuses is not sent.
type lhexBoard struct {
	keys lhexKeys
	help []key.Binding // bindings' answer, made once
	// turnAnswerHelp and answerHelp are HelpKeys' answers while the viewer may answer a word, on
	// their turn and not.
	turnAnswerHelp, answerHelp []key.Binding

	cur  lhexicon.Hex
	goal int // the column the cursor keeps to going up and down (half-hexes from the left)
	c    composer
	tall bool // the board was last drawn two lines a row, each tile's value under it

	// The last challenge's outcome as this board saw it, and the length of the move log then: the
	// panel keeps telling it for a round after the moves that follow have replaced it as Last.
	challenge   []string
	challengeAt int

	// noteView is the view the composer's note was said over: a move made another way (the move
	// prompt) brings a new one, and the note goes.
	noteView *lhexicon.View
}

// NewBoard makes a board view of Lhex-i'-con for one session: the catalogue's Entry.Board.
func NewBoard() draw.Board { return newLhexBoard() }

func newLhexBoard() *lhexBoard {
	b := &lhexBoard{cur: lhexicon.Centre, goal: screenX(lhexicon.Centre), keys: lhexKeys{
		Play:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "play")),
		Exchange: key.NewBinding(key.WithKeys("X"), key.WithHelp("X", "exchange")),
		Pass:     key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "pass")),
		// (C and A are read in key: these two are for the help line.)
		Challenge: key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "challenge")),
		Accept:    key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "accept")),
	}}
	b.help = []key.Binding{b.keys.Play, b.keys.Exchange, b.keys.Pass} // the rest are told under the board
	b.turnAnswerHelp = []key.Binding{b.keys.Play, b.keys.Challenge, b.keys.Accept, b.keys.Exchange, b.keys.Pass}
	b.answerHelp = []key.Binding{b.keys.Challenge, b.keys.Accept}
	return b
}

func (b *lhexBoard) Bindings() []key.Binding { return b.help }

// HelpKeys lists C and A when the viewer may answer a word awaiting challenges (with enter, X and
// P when it is also their turn to play), none to a spectator, else Bindings.
func (b *lhexBoard) HelpKeys(snap *rooms.Snapshot) []key.Binding {
	v, ok := draw.ViewRef[lhexicon.View](snap)
	switch {
	case snap.You == rules.Spectator:
		return nil
	case !ok || !mayAnswer(v, snap):
		return b.help
	case myTurn(v, snap):
		return b.turnAnswerHelp
	}
	return b.answerHelp
}

// myTurn reports whether the viewer is to play (not only to answer a word).
func myTurn(v *lhexicon.View, snap *rooms.Snapshot) bool {
	return snap.You != rules.Spectator && snap.Phase == rooms.Playing && v.Turn == snap.You
}

// mayAnswer reports whether the viewer may challenge or accept the pending word.
func mayAnswer(v *lhexicon.View, snap *rooms.Snapshot) bool {
	return snap.You != rules.Spectator && snap.Phase == rooms.Playing && v.Pending != "" &&
		v.PendingSeat != snap.You && slices.Contains(v.ToMove, snap.You)
}

// settle drops what was composed when the view no longer allows it (the play was made, the turn
// has passed, a word was withdrawn), and the last key's note when a move has come since.
func (b *lhexBoard) settle(v *lhexicon.View, snap *rooms.Snapshot) {
	if b.c.busy() && (!myTurn(v, snap) || !b.c.valid(v)) {
		b.c.reset()
	}
	if b.c.note != "" && v != b.noteView {
		b.c.note = ""
	}
	b.noteView = v
}

// TakesKey claims, on the viewer's turn, the lower-case letters (they are tiles, the room's t, q
// and b included; b and x stay the room's while a player is gone) and esc while something is
// composed (esc clears it; the next one leaves the room).
func (b *lhexBoard) TakesKey(km tea.KeyPressMsg, snap *rooms.Snapshot) bool {
	v, ok := draw.ViewRef[lhexicon.View](snap)
	if !ok || !myTurn(v, snap) {
		return false
	}
	b.settle(v, snap)
	s := km.String()
	switch {
	case s == "esc":
		return b.c.busy()
	case len(s) == 1 && s[0] >= 'a' && s[0] <= 'z':
		if s == "b" || s == "x" {
			return !slices.ContainsFunc(snap.Seats, func(x rooms.SeatInfo) bool { return x.Abandoned })
		}
		return true
	}
	return false
}

// The board's layout: the first row's line, and the columns of the row labels ("h1 ").
const lhexTop, lhexLeft = 0, 2

func (b *lhexBoard) Handle(msg tea.Msg, snap *rooms.Snapshot) string {
	v, ok := draw.ViewRef[lhexicon.View](snap)
	if !ok {
		return ""
	}
	b.settle(v, snap)
	switch msg := msg.(type) {
	case tea.MouseClickMsg:
		m := msg.Mouse()
		if h := hexAtCell(m.X, m.Y, b.tall); m.Button == tea.MouseLeft && h != lhexicon.NoHex {
			b.cur, b.goal = h, screenX(h)
		}
	case tea.KeyPressMsg:
		b.c.note = ""
		return b.key(msg, v, snap)
	}
	return ""
}

// key handles a key press on the board.
func (b *lhexBoard) key(msg tea.KeyPressMsg, v *lhexicon.View, snap *rooms.Snapshot) string {
	k := msg.String()
	switch k {
	case "up", "down", "left", "right":
		if b.c.mode == modePass || b.c.mode == modeEnd {
			b.c.reset() // any key but enter cancels
		}
		b.move(k)
		return ""
	}
	if mayAnswer(v, snap) && (k == "C" || k == "A") {
		b.c.reset()
		if k == "C" {
			return lhexicon.Move{Kind: lhexicon.Challenge}.String()
		}
		return lhexicon.Move{Kind: lhexicon.Accept}.String()
	}
	if !myTurn(v, snap) {
		return ""
	}
	c := &b.c
	switch k {
	case "esc":
		c.reset()
		return ""
	case "X":
		c.reset()
		if v.Bank == 0 {
			c.note = "The bank is empty: there is nothing to exchange with."
			return ""
		}
		c.mode = modeExchange
		return ""
	case "P":
		c.reset()
		c.mode = modePass
		return ""
	case "E":
		c.reset()
		if v.Seats != 1 {
			c.note = "Only a solo game can be ended (E)."
			return ""
		}
		c.mode = modeEnd
		return ""
	case "S":
		if c.mode != modeSwap {
			c.reset()
		}
		c.toggleSwap(v, b.cur)
		return ""
	}
	switch c.mode {
	case modeExchange:
		return b.exchangeKey(k, v)
	case modePass, modeEnd, modeSwap:
		if k != "enter" {
			c.reset()
			return ""
		}
		var m lhexicon.Move
		switch c.mode {
		case modePass:
			m.Kind = lhexicon.Pass
		case modeEnd:
			m.Kind = lhexicon.End
		default:
			m = lhexicon.Move{Kind: lhexicon.Swap, Hexes: slices.Clone(c.swaps)}
		}
		c.reset()
		return m.String()
	}
	return b.playKey(k, v)
}

// playKey handles a key while a play is composed.
func (b *lhexBoard) playKey(k string, v *lhexicon.View) string {
	c := &b.c
	switch {
	case k == "*":
		c.blank = !c.blank
	case k == "space":
		c.mark(v, b.cur)
		b.advance()
	case k == "backspace":
		switch {
		case c.blank:
			c.blank = false
		case len(c.steps) > 0:
			b.cur = c.steps[len(c.steps)-1].hex
			b.goal = screenX(b.cur)
			c.steps = c.steps[:len(c.steps)-1]
		}
	case k == "enter":
		if len(c.steps) == 0 {
			c.note = "Place a letter first: move the cursor to an empty hex and type it."
			return ""
		}
		m := c.move()
		if _, err := v.Preview(m); err != nil {
			c.note = "Not played: " + whyNot(err) + "."
			return ""
		}
		return m.String()
	case len(k) == 1 && k[0] >= 'a' && k[0] <= 'z':
		b.typeOn()
		if v.Board[b.cur] != lhexicon.NoTile {
			c.note = fmt.Sprintf("%s holds %s: space marks it as the word's next hex.", b.cur, tileName(v.Board[b.cur].Letter()))
			return ""
		}
		c.place(v, b.cur, letterOf(k[0]))
		b.advance()
	}
	return ""
}

// exchangeKey handles a key while an exchange is composed.
func (b *lhexBoard) exchangeKey(k string, v *lhexicon.View) string {
	c := &b.c
	switch {
	case k == "*":
		c.pick(v, lhexicon.Blank)
	case len(k) == 1 && k[0] >= 'a' && k[0] <= 'z':
		c.pick(v, letterOf(k[0]))
	case k == "backspace" && len(c.give) > 0:
		c.give = c.give[:len(c.give)-1]
	case k == "backspace":
		c.reset()
	case k == "enter":
		if len(c.give) == 0 {
			c.note = "Type the letters to give back first (* for a blank)."
			return ""
		}
		m := c.exchange(v)
		return m.String()
	}
	return ""
}

// letterOf is the tile a typed letter stands for: q is the Qu tile.
func letterOf(ch byte) lhexicon.Tile {
	if ch == 'q' {
		return lhexicon.QU
	}
	return lhexicon.LetterTile(ch)
}

// advance moves the cursor on along the row once the word has two hexes there, as typing does,
// when the board goes on that way.
func (b *lhexBoard) advance() {
	s := b.c.steps
	if len(s) < 2 {
		return
	}
	d, ok := s[len(s)-2].hex.DirTo(s[len(s)-1].hex)
	if !ok || s[len(s)-1].hex != b.cur || d != lhexicon.E && d != lhexicon.W {
		return // along a row only: up and down zig-zag, which the player steers
	}
	if n := b.cur.Step(d); n != lhexicon.NoHex {
		b.cur, b.goal = n, screenX(n)
	}
}

// typeOn moves the cursor east when a letter is typed with the cursor still on the word's last hex
// (after its first letter, or a tile marked with space): a word typed straight on reads along
// the row, as words do, unless the player moved the cursor to steer it another way.
func (b *lhexBoard) typeOn() {
	s := b.c.steps
	if len(s) == 0 || s[len(s)-1].hex != b.cur {
		return
	}
	if n := b.cur.Step(lhexicon.E); n != lhexicon.NoHex && !b.c.in(n) {
		b.cur, b.goal = n, screenX(n)
	}
}

// move moves the cursor one hex: left and right along the row, up and down to the row above or
// below, to whichever of the two touching hexes is nearer the column the cursor keeps (so that
// going up or down zig-zags along a straight line).
func (b *lhexBoard) move(k string) {
	switch k {
	case "left", "right":
		d := lhexicon.W
		if k == "right" {
			d = lhexicon.E
		}
		if n := b.cur.Step(d); n != lhexicon.NoHex {
			b.cur, b.goal = n, screenX(n)
		}
		return
	}
	dirs := [2]lhexicon.Dir{lhexicon.NW, lhexicon.NE}
	if k == "down" {
		dirs = [2]lhexicon.Dir{lhexicon.SW, lhexicon.SE}
	}
	best := lhexicon.NoHex
	for _, d := range dirs {
		n := b.cur.Step(d)
		if n == lhexicon.NoHex {
			continue
		}
		if best == lhexicon.NoHex || abs(screenX(n)-b.goal) < abs(screenX(best)-b.goal) {
			best = n
		}
	}
	if best != lhexicon.NoHex {
		b.cur = best // the goal column stays
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// indent is row r's offset in columns (half-hexes): the middle row h has none.
func indent(r int) int { return abs(r - (lhexicon.Side - 1)) }

// screenX is h's mark column from the grid's left, in columns: two a hex, one for the offset of
// each row away from the middle.
func screenX(h lhexicon.Hex) int { return indent(h.Row()) + 2*h.Col() }

// hexAtCell returns the hex drawn at column x, line y of the board (two lines a row when tall),
// or NoHex.
func hexAtCell(x, y int, tall bool) lhexicon.Hex {
	r := y - lhexTop
	if tall {
		r = (y - lhexTop) / 2
	}
	if r < 0 || r >= 2*lhexicon.Side-1 {
		return lhexicon.NoHex
	}
	x -= lhexLeft + indent(r)
	if x < 0 {
		return lhexicon.NoHex
	}
	return lhexicon.At(r, x/2)
}

// TurnText says what the viewer is to do on their turn, and what the seat to move is to do
// otherwise, for the room's turn line.
func (b *lhexBoard) TurnText(snap *rooms.Snapshot) (yours, theirs string) {
	v, ok := draw.ViewRef[lhexicon.View](snap)
	if !ok || v.Outcome.Over {
		return "", ""
	}
	word := strings.ToUpper(v.Pending)
	switch {
	case myTurn(v, snap) && mayAnswer(v, snap):
		yours = "play on to let " + word + " stand, or C to challenge it"
	case myTurn(v, snap):
		yours = "place letters, mark the word, enter"
	case mayAnswer(v, snap):
		yours = "C challenges " + word + ", A accepts it"
	}
	switch {
	case v.Turn < 0:
		return yours, "to accept or challenge " + word
	case v.Pending != "" && len(v.ToMove) > 1:
		return yours, "to play or to answer " + word // the next plays or challenges; the others answer
	}
	return yours, "to play"
}

func (b *lhexBoard) Score(snap *rooms.Snapshot, seat int) string {
	v, ok := draw.ViewRef[lhexicon.View](snap)
	if !ok || seat < 0 || seat >= len(v.Scores) {
		return ""
	}
	return strconv.Itoa(v.Scores[seat])
}

// SeatLabel names the seats as the engine's messages do, "Player 1" to "Player 4", with no letter
// or colour: the game over line says "Player 2 used every tile".
func (b *lhexBoard) SeatLabel(seat int) (string, string) {
	return "", lhexicon.SeatName(rules.Seat(seat))
}

// playerName is seat's player's name, or "Player n" when the room does not say.
func playerName(snap *rooms.Snapshot, seat rules.Seat) string {
	if seat >= 0 && int(seat) < len(snap.Seats) && snap.Seats[seat].Name != "" {
		return snap.Seats[seat].Name
	}
	return lhexicon.SeatName(seat)
}

// Status returns the side panel's lines: the bank, the last move, a word awaiting challenges, the
// passes in a row, the timer.
func (b *lhexBoard) Status(snap *rooms.Snapshot, st draw.Styles, width int) []string {
	v, ok := draw.ViewRef[lhexicon.View](snap)
	if !ok {
		return nil
	}
	parts := []string{fmt.Sprintf("Bank %d", v.Bank)}
	if n := len(v.Traps); n > 0 {
		hexes := 0
		for _, t := range v.Traps {
			hexes += len(t)
		}
		parts = append(parts, fmt.Sprintf("traps %d (%d hex%s)", n, hexes, pluralEs(hexes)))
	}
	lines := draw.Wrap(strings.Join(parts, draw.PartSep(st)), width)
	last := lastText(v, snap)
	if v.Last.Kind == lhexicon.Challenge {
		b.challenge, b.challengeAt = last[1:], len(snap.Moves)
	} else if b.challenge != nil && len(snap.Moves) > b.challengeAt && len(snap.Moves) <= b.challengeAt+v.Seats {
		lines = append(lines, draw.Fill(b.challenge, width)...)
	}
	if len(last) > 0 {
		lines = append(lines, draw.Fill(last, width)...)
	}
	if v.Pending != "" && !v.Outcome.Over {
		lines = append(lines, draw.Fill(pendingText(v, snap, st), width)...)
	}
	if v.Bank == 0 && !v.Outcome.Over {
		var racks []string
		for seat, n := range v.RackSizes {
			racks = append(racks, fmt.Sprintf("%s %d", playerName(snap, rules.Seat(seat)), n))
		}
		lines = append(lines, draw.Wrap("Tiles left: "+strings.Join(racks, ", "), width)...)
	}
	if v.Stall > 0 && !v.Outcome.Over {
		lines = append(lines, fmt.Sprintf("Passes in a row %d/%d", v.Stall, v.StallLimit))
	}
	for seat, skip := range v.Skips {
		if skip {
			lines = append(lines, draw.Wrap(playerName(snap, rules.Seat(seat))+" loses the next turn", width)...)
		}
	}
	if v.TurnSeconds > 0 {
		lines = append(lines, fmt.Sprintf("Timer: %d min a turn", v.TurnSeconds/60))
	}
	return lines
}

// pluralEs is "es" for a count other than 1: "hexes".
func pluralEs(n int) string {
	if n == 1 {
		return ""
	}
	return "es"
}

// lastText says what the last move did, with the players' names: "Last: ann CRUEL 9 (trap
// +3)", "Last: bob passed", as words to fill lines with ("(trap +3)" is one).
func lastText(v *lhexicon.View, snap *rooms.Snapshot) []string {
	l := v.Last
	if l.Seat < 0 {
		return nil
	}
	who := playerName(snap, l.Seat)
	word := strings.ToUpper(l.Word)
	var what string
	switch l.Kind {
	case lhexicon.Play:
		what = fmt.Sprintf("%s %d", word, l.Score)
		if l.Bonus > 0 {
			what += fmt.Sprintf(" (trap +%d)", l.Bonus)
		}
	case lhexicon.Exchange:
		what = fmt.Sprintf("exchanged %d", l.Count)
	case lhexicon.Swap:
		what = fmt.Sprintf("swapped %d blank%s", l.Count, plural(l.Count))
	case lhexicon.Pass:
		what = "passed"
	case lhexicon.End:
		what = "ended the game"
	case lhexicon.Accept:
		what = "accepted " + word
	case lhexicon.Challenge:
		if strings.Contains(l.Note, "it is a word") {
			what = "challenged " + word + ": a word; the challenger loses a turn"
		} else {
			what = "challenged " + word + ": not a word, withdrawn"
		}
	}
	words := append([]string{"Last:"}, strings.Fields(who)...)
	if strings.HasSuffix(who, ")") {
		// A bot's level stays with its name: "Bo (greedy bot)".
		if i := strings.LastIndex(who, " ("); i > 0 {
			words = append([]string{"Last:"}, strings.Fields(who[:i])...)
			words = append(words, who[i+1:])
		}
	}
	if l.Kind == lhexicon.Play {
		// "CRUEL 9" and "(trap +3)" are kept whole.
		what = fmt.Sprintf("%s %d", word, l.Score)
		words = append(words, what)
		if l.Bonus > 0 {
			words = append(words, fmt.Sprintf("(trap +%d)", l.Bonus))
		}
		return words
	}
	return append(words, strings.Fields(what)...)
}

// pendingText says who may still challenge the pending word, as words to fill lines with ("C
// challenge," is one).
func pendingText(v *lhexicon.View, snap *rooms.Snapshot, st draw.Styles) []string {
	word := strings.ToUpper(v.Pending)
	if mayAnswer(v, snap) {
		return []string{st.Bold.Render(word), "may", "be", "challenged:", "C challenge,", "A accept"}
	}
	return []string{word, "may", "be", "challenged."} // the turn line says by whom
}
