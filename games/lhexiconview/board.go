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

// lhexKeys are the Lhex-i'-con board's bindings: the grammar's (draw.KeyMap) and its own, x, s, c
// and a; all lower-case, so that Caps Lock gives nothing up. Letters, '*' and the arrows are read
// in key: the letters are tiles while a word is composed, the board's and the room's commands
// otherwise.
type lhexKeys struct {
	Arrows, Word, Play, Mark, Blank, Undo, Exchange, Swap, Pass, End, Challenge, Accept, Hint key.Binding
}

// lhexBoard draws a Lhex-i'-con board with a cursor and composes plays with the keyboard. The
// hexagon's 15 rows are drawn one a line, offset by half a hex: each hex is two columns, a mark
// (the cursor's brackets) and its glyph: a tile's letter (upper case; a blank lower case, worth
// 0), '·' an empty hex, '+' the empty centre, '░' ('#' in ASCII) an empty hex of a trap. Rows are
// labelled with their first and last hexes ("a1 ... a8"); the line under the rack names the hex
// under the cursor.
//
// On the viewer's turn, enter (or space) starts a word on the hex under the cursor: space on a
// tile already on the board marks it as the word's first hex. While a word is composed, letters
// are tiles, either case (Caps Lock types a word, not commands): a letter places that tile from
// the rack on the cursor's empty hex as the word's next hex ('*' then a letter: the blank; a
// letter not on the rack takes the blank), space marks the tile under the cursor as the word's
// next hex, enter plays, backspace undoes the last step and esc clears. A letter typed on the
// word's last hex goes on east, and after two hexes along a row the cursor moves on in the word's
// direction. With no word composed the letters are commands: x starts an exchange (letters pick
// the tiles, enter exchanges), s picks the blank under the cursor for a swap (enter swaps), p
// passes and e ends a solo game (the room asks first, Ask), c challenges (asked too) and a
// accepts a word; the room's keys (t chat, u takeback, R resign...) work as in every game.
// Nothing is sent before enter (a and the asked ones aside); a play the preview refuses is not
// sent.
type lhexBoard struct {
	keys lhexKeys
	// HelpKeys' answers: idleHelp on the viewer's turn with nothing composed (answerTurnHelp
	// when they may also answer a word), wordHelp, exchangeHelp and swapHelp while composing,
	// answerHelp to answer a word only, lookHelp otherwise; help is Bindings' answer.
	help, idleHelp, answerTurnHelp, wordHelp, exchangeHelp, swapHelp, answerHelp, lookHelp []key.Binding

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
	// hint is what h said (a suggested play, or why there is none), shown in the composer's line
	// until the next key or move.
	hint string
	// hinted is the view h last searched and hintFound what it found: h again on the same
	// position says it again without a search (one costs tens of milliseconds of a core, and a
	// held key repeats).
	hinted    *lhexicon.View
	hintFound lhexicon.Candidate
	hintOK    bool
	// composeDrawn is true when the last View drew the composer's line (the hint's) under the
	// rack; when it did not (a compact window leaves no room), the panel's turn line says the
	// hint.
	composeDrawn bool
}

// NewBoard makes a board view of Lhex-i'-con for one session: the catalogue's Entry.Board.
func NewBoard() draw.Board { return newLhexBoard() }

func newLhexBoard() *lhexBoard {
	g := &draw.KeyMap
	k := lhexKeys{
		Arrows:    key.NewBinding(key.WithKeys("up", "down", "left", "right"), key.WithHelp("arrows", "move")),
		Word:      draw.WithHelp(g.Act, "word"),
		Play:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "play")),
		Mark:      key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "mark")),
		Blank:     key.NewBinding(key.WithKeys("*"), key.WithHelp("*", "blank")),
		Undo:      g.StepBack,
		Exchange:  key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "exchange")),
		Swap:      key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "swap blank")),
		Pass:      g.Pass,
		End:       draw.WithHelp(g.EndTurn, "end game"),
		Challenge: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "challenge")),
		Accept:    key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "accept")),
		Hint:      key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "hint")),
	}
	b := &lhexBoard{cur: lhexicon.Centre, goal: screenX(lhexicon.Centre), keys: k}
	b.help = []key.Binding{k.Arrows, k.Word, k.Play, k.Exchange, k.Swap, k.Pass, k.End, k.Challenge, k.Accept}
	b.idleHelp = []key.Binding{k.Arrows, k.Word, k.Exchange, k.Pass}
	b.answerTurnHelp = []key.Binding{k.Challenge, k.Accept, k.Word, k.Pass}
	b.wordHelp = []key.Binding{k.Play, k.Mark, k.Blank, k.Undo}
	b.exchangeHelp = []key.Binding{draw.WithHelp(k.Play, "exchange"), k.Blank, k.Undo}
	b.swapHelp = []key.Binding{draw.WithHelp(k.Play, "swap"), k.Swap}
	b.answerHelp = []key.Binding{k.Challenge, k.Accept}
	b.lookHelp = []key.Binding{k.Arrows}
	return b
}

func (b *lhexBoard) Bindings() []key.Binding { return b.help }

// HelpKeys lists the keys of the moment: on the viewer's turn, those that start a word or another
// move (c and a first when they may answer a word too), or those of what is composed; c and a
// when they may only answer; the arrows otherwise (they look); none to a spectator.
func (b *lhexBoard) HelpKeys(snap *rooms.Snapshot) []key.Binding {
	v, ok := draw.ViewRef[lhexicon.View](snap)
	switch {
	case snap.You == rules.Spectator:
		return nil
	case !ok:
		return b.lookHelp
	case myTurn(v, snap):
		b.settle(v, snap)
		switch b.c.mode {
		case modeWord:
			return b.wordHelp
		case modeExchange:
			return b.exchangeHelp
		case modeSwap:
			return b.swapHelp
		case modeNone:
			if b.c.blank {
				return b.wordHelp
			}
		}
		if mayAnswer(v, snap) {
			return b.answerTurnHelp
		}
		return b.idleHelp
	case mayAnswer(v, snap):
		return b.answerHelp
	}
	return b.lookHelp
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
	if b.hint != "" && v != b.noteView {
		b.hint = ""
	}
	b.noteView = v
}

// TakesKey claims, on the viewer's turn, the letters of either case while a word or an exchange
// is composed (they are tiles, the room's t, q, u and R included; b and x stay the room's while a
// player is gone), and esc while anything is composed (esc clears it; the next one leaves the
// room).
func (b *lhexBoard) TakesKey(km tea.KeyPressMsg, snap *rooms.Snapshot) bool {
	v, ok := draw.ViewRef[lhexicon.View](snap)
	if !ok || !myTurn(v, snap) {
		return false
	}
	b.settle(v, snap)
	switch {
	case key.Matches(km, draw.KeyMap.Cancel):
		return b.c.busy()
	case letterKey(km) != 0:
		if b.c.mode != modeWord && b.c.mode != modeExchange {
			return false
		}
		if l := letterKey(km); l == 'b' || l == 'x' {
			return !slices.ContainsFunc(snap.Seats, func(x rooms.SeatInfo) bool { return x.Abandoned })
		}
		return true
	}
	return false
}

// letterKey is the letter a key types, in lower case, or 0 for a key that types none.
func letterKey(km tea.KeyPressMsg) byte {
	if len(km.Text) != 1 || km.Mod&^tea.ModShift != 0 {
		return 0
	}
	switch c := km.Text[0]; {
	case c >= 'a' && c <= 'z':
		return c
	case c >= 'A' && c <= 'Z':
		return c - 'A' + 'a'
	}
	return 0
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
		b.c.note, b.hint = "", ""
		return b.key(msg, v, snap)
	}
	return ""
}

// key handles a key press on the board: the arrows, the answer to a word awaiting challenges, and
// on the viewer's turn what is composed (esc drops it).
func (b *lhexBoard) key(msg tea.KeyPressMsg, v *lhexicon.View, snap *rooms.Snapshot) string {
	k := msg.String()
	switch k {
	case "up", "down", "left", "right":
		b.move(k)
		return ""
	}
	c := &b.c
	if mayAnswer(v, snap) && c.mode == modeNone && !c.blank {
		switch {
		case key.Matches(msg, b.keys.Challenge):
			return lhexicon.Move{Kind: lhexicon.Challenge}.String()
		case key.Matches(msg, b.keys.Accept):
			return lhexicon.Move{Kind: lhexicon.Accept}.String()
		}
	}
	if !myTurn(v, snap) {
		return ""
	}
	if key.Matches(msg, draw.KeyMap.Cancel) {
		c.reset()
		return ""
	}
	switch c.mode {
	case modeExchange:
		return b.exchangeKey(msg, v)
	case modeSwap:
		return b.swapKey(msg, v)
	case modeNone:
		if !c.blank {
			return b.idleKey(msg, v, snap)
		}
	}
	return b.playKey(msg, v)
}

// idleKey handles a key on the viewer's turn with nothing composed: enter or space starts a word,
// '*' starts one with the blank, x an exchange, s a swap; p passes and e ends a solo game (the room
// asks first, Ask); h suggests a play (hint). A letter that is none of these says how words are
// begun.
func (b *lhexBoard) idleKey(msg tea.KeyPressMsg, v *lhexicon.View, snap *rooms.Snapshot) string {
	c, k := &b.c, b.keys
	switch {
	case key.Matches(msg, k.Word):
		c.mode = modeWord
		if v.Board[b.cur] != lhexicon.NoTile {
			c.mark(v, b.cur)
			b.advance()
		}
	case key.Matches(msg, k.Blank):
		c.mode, c.blank = modeWord, true
	case key.Matches(msg, k.Exchange):
		if v.Bank == 0 {
			c.note = "The bank is empty: there is nothing to exchange with."
			return ""
		}
		c.mode = modeExchange
	case key.Matches(msg, k.Swap):
		c.toggleSwap(v, b.cur)
	case key.Matches(msg, k.Pass):
		return lhexicon.Move{Kind: lhexicon.Pass}.String()
	case key.Matches(msg, k.Hint):
		b.suggest(v, snap)
	case key.Matches(msg, k.End):
		if v.Seats != 1 {
			c.note = "Only a solo game can be ended (e)."
			return ""
		}
		return lhexicon.Move{Kind: lhexicon.End}.String()
	case letterKey(msg) != 0:
		c.note = "Letters are tiles once a word is started (enter)."
	}
	return ""
}

// swapKey handles a key while blanks are picked for a swap: enter swaps, s adds or drops the blank
// under the cursor, backspace drops the swap, and any other key too.
func (b *lhexBoard) swapKey(msg tea.KeyPressMsg, v *lhexicon.View) string {
	c := &b.c
	switch {
	case key.Matches(msg, b.keys.Play):
		m := lhexicon.Move{Kind: lhexicon.Swap, Hexes: slices.Clone(c.swaps)}
		c.reset()
		return m.String()
	case key.Matches(msg, b.keys.Swap):
		c.toggleSwap(v, b.cur)
	default:
		c.reset()
	}
	return ""
}

// Ask asks before a pass, the end of a solo game and a challenge, made by a key (draw.Asker): a
// pass and an end give up what the rack could still play, a challenge of a real word costs the
// challenger a turn.
func (b *lhexBoard) Ask(mv string, snap *rooms.Snapshot) (question, yes string) {
	switch mv {
	case lhexicon.Move{Kind: lhexicon.Pass}.String():
		return "Pass your turn? enter passes, any other key plays on.", "pass"
	case lhexicon.Move{Kind: lhexicon.End}.String():
		return "End the game? Its score goes on the solo table. enter ends it, any other key plays on.", "end game"
	case lhexicon.Move{Kind: lhexicon.Challenge}.String():
		word := "the word"
		if v, ok := draw.ViewRef[lhexicon.View](snap); ok && v.Pending != "" {
			word = strings.ToUpper(v.Pending)
		}
		return "Challenge " + word + "? If it is a word, you lose your next turn. enter challenges, any other key lets it stand.", "challenge"
	}
	return "", ""
}

// playKey handles a key while a word is composed.
func (b *lhexBoard) playKey(msg tea.KeyPressMsg, v *lhexicon.View) string {
	c, k := &b.c, b.keys
	switch {
	case key.Matches(msg, k.Blank):
		c.blank = !c.blank
	case key.Matches(msg, k.Mark):
		c.mark(v, b.cur)
		b.advance()
	case key.Matches(msg, k.Undo):
		switch {
		case c.blank:
			c.blank = false
		case len(c.steps) > 0:
			b.cur = c.steps[len(c.steps)-1].hex
			b.goal = screenX(b.cur)
			c.steps = c.steps[:len(c.steps)-1]
		default:
			c.reset() // the word's start, undone
		}
	case key.Matches(msg, k.Play):
		if len(c.steps) == 0 {
			c.note = "Type a rack letter first: it goes on the empty hex under the cursor."
			return ""
		}
		m := c.move()
		if _, err := v.Preview(m); err != nil {
			c.note = "Not played: " + whyNot(err) + "."
			return ""
		}
		return m.String()
	case letterKey(msg) != 0:
		c.mode = modeWord
		b.typeOn()
		if v.Board[b.cur] != lhexicon.NoTile {
			c.note = fmt.Sprintf("%s holds %s: space marks it as the word's next hex.", b.cur, tileName(v.Board[b.cur].Letter()))
			return ""
		}
		c.place(v, b.cur, letterOf(letterKey(msg)))
		b.advance()
	}
	return ""
}

// exchangeKey handles a key while an exchange is composed.
func (b *lhexBoard) exchangeKey(msg tea.KeyPressMsg, v *lhexicon.View) string {
	c, k := &b.c, b.keys
	switch {
	case key.Matches(msg, k.Blank):
		c.pick(v, lhexicon.Blank)
	case letterKey(msg) != 0:
		c.pick(v, letterOf(letterKey(msg)))
	case key.Matches(msg, k.Undo) && len(c.give) > 0:
		c.give = c.give[:len(c.give)-1]
	case key.Matches(msg, k.Undo):
		c.reset()
	case key.Matches(msg, k.Play):
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
// otherwise, for the room's turn line; h's hint when the board had no room for it under the rack.
func (b *lhexBoard) TurnText(snap *rooms.Snapshot) (yours, theirs string) {
	v, ok := draw.ViewRef[lhexicon.View](snap)
	if !ok || v.Outcome.Over {
		return "", ""
	}
	word := strings.ToUpper(v.Pending)
	switch {
	case myTurn(v, snap) && mayAnswer(v, snap):
		yours = "play on to let " + word + " stand, or c to challenge it"
	case myTurn(v, snap) && b.c.busy():
		yours = "spell the word, enter plays it"
	case myTurn(v, snap) && b.hint != "" && !b.composeDrawn:
		yours = b.hint // no room under the rack: the hint is said here
	case myTurn(v, snap):
		yours = "enter starts a word on a hex"
	case mayAnswer(v, snap):
		yours = "c challenges " + word + ", a accepts it"
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

// pendingText says who may still challenge the pending word, as words to fill lines with ("c
// challenge," is one).
func pendingText(v *lhexicon.View, snap *rooms.Snapshot, st draw.Styles) []string {
	word := strings.ToUpper(v.Pending)
	if mayAnswer(v, snap) {
		return []string{st.Bold.Render(word), "may", "be", "challenged:", "c challenge,", "a accept"}
	}
	return []string{word, "may", "be", "challenged."} // the turn line says by whom
}
