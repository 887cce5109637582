package colorettaview

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/coloretta"
	"github.com/arcade/arcade/session/draw"
)

// colorettaKeys are the Coloretta board's bindings: the grammar's (draw.KeyMap; the cursor goes
// from stack to stack, up and down as they are drawn or left and right), and d, 1-5 and s. A
// capital is none of them: Caps Lock draws no card.
type colorettaKeys struct {
	Draw, Stack, Up, Down, Left, Right, Act, Scores key.Binding
}

// colorettaBoard draws a Coloretta table: the round's progress, the stacks (one line each, with a
// cursor), the drawn card in a box, one line per player's hand, and the scoring of a round when
// it ends. Cards are coloured letters (R Y G B P C O), '*' a wild and "+2" a bonus card, so the
// table reads the same without colour. Players are named, never by a seat colour, so that a
// seat is not mistaken for a card colour.
//
// d draws; 1 to 5 place the drawn card on that stack, or pick it when no card is drawn. Left and
// right move the cursor over the stacks and enter acts on the stack under it; a click on a stack
// acts on it. s shows the last round's scoring.
type colorettaBoard struct {
	keys   colorettaKeys
	help   []key.Binding // bindings' answer, made once
	cur    int           // the stack under the cursor, from 0
	scores bool          // show the last round's scoring in place of the hands

	// What view draws again from frame to frame (a board lives in one session, with one set of
	// styles): hands by colour and the cards on the stacks, styled.
	hands draw.Memo[coloretta.Hand]
	slots draw.Memo[colorettaSlot]
}

// NewBoard makes a board view of Coloretta for one session: the catalogue's Entry.Board.
func NewBoard() draw.Board { return newColorettaBoard() }

func newColorettaBoard() *colorettaBoard {
	k := &draw.KeyMap // the grammar of every game, and Coloretta's own d, 1-5 and s
	b := &colorettaBoard{hands: draw.Memo[coloretta.Hand]{}, slots: draw.Memo[colorettaSlot]{}, keys: colorettaKeys{
		Draw:  key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "draw")),
		Stack: key.NewBinding(key.WithKeys("1", "2", "3", "4", "5"), key.WithHelp("1-5", "stack")),
		Up:    k.Up, Down: k.Down, Left: k.Left, Right: k.Right, Act: k.Act,
		Scores: key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "scores")),
	}}
	b.help = []key.Binding{b.keys.Draw, b.keys.Stack, b.keys.Act} // arrows and s are told on the board
	return b
}

// The board's layout: the first stack's line, and the width of the stacks' column (a click left
// of it on a stack's line acts on that stack; the drawn card's box stands right of it).
const colorettaStackTop, colorettaStackWidth = 3, 30

func (b *colorettaBoard) Bindings() []key.Binding { return b.help }

// colorettaTurn reports whether the snapshot's viewer is to move.
func colorettaTurn(v coloretta.View, snap *rooms.Snapshot) bool {
	return snap.You != rules.Spectator && snap.Phase == rooms.Playing && v.ToMove == snap.You
}

func (b *colorettaBoard) Handle(msg tea.Msg, snap *rooms.Snapshot) string {
	v, ok := draw.ViewOf[coloretta.View](snap)
	if !ok {
		return ""
	}
	b.cur = min(max(b.cur, 0), max(len(v.Stacks)-1, 0))
	switch msg := msg.(type) {
	case tea.MouseClickMsg:
		m := msg.Mouse()
		i := m.Y - colorettaStackTop
		if m.Button != tea.MouseLeft || m.X >= colorettaStackWidth || i < 0 || i >= len(v.Stacks) || b.showsScores(v) {
			return ""
		}
		b.cur = i
		return b.act(v, snap)
	case tea.KeyPressMsg:
		return b.key(msg, v, snap)
	}
	return ""
}

// key handles a key press on the board.
func (b *colorettaBoard) key(msg tea.KeyPressMsg, v coloretta.View, snap *rooms.Snapshot) string {
	k := b.keys
	switch {
	case key.Matches(msg, k.Draw), key.Matches(msg, k.Stack):
		mv, _ := v.KeyMove(msg.String())
		return mv
	case key.Matches(msg, k.Left), key.Matches(msg, k.Up):
		b.cur = max(0, b.cur-1)
	case key.Matches(msg, k.Right), key.Matches(msg, k.Down):
		b.cur = min(len(v.Stacks)-1, b.cur+1)
	case key.Matches(msg, k.Act):
		return b.act(v, snap)
	case key.Matches(msg, k.Scores):
		b.scores = !b.scores
	}
	return ""
}

// act is enter on the cursor's stack: place the drawn card there, or pick the stack.
func (b *colorettaBoard) act(v coloretta.View, snap *rooms.Snapshot) string {
	if !colorettaTurn(v, snap) || b.cur >= len(v.Stacks) {
		return ""
	}
	mv, _ := v.KeyMove(strconv.Itoa(b.cur + 1))
	return mv
}

// showsScores reports whether the board shows a round's scoring in place of the table.
func (b *colorettaBoard) showsScores(v coloretta.View) bool {
	return len(v.Results) > 0 && (v.RoundEnded || v.Over || b.scores)
}

func (b *colorettaBoard) View(snap *rooms.Snapshot, st draw.Styles, width, height int) []string {
	v, ok := draw.ViewOf[coloretta.View](snap)
	if !ok {
		return nil
	}
	b.cur = min(max(b.cur, 0), max(len(v.Stacks)-1, 0))
	lines := []string{colorettaHeader(v, st), ""}
	if b.showsScores(v) {
		lines = append(lines, b.scoring(v, snap, st, width)...)
	} else {
		lines = append(lines, b.table(v, snap, st)...)
		lines = append(lines, "")
		lines = append(lines, b.handLines(v, snap, st, width)...)
	}
	lines = append(lines, "")
	lines = append(lines, colorettaPrompt(v, st)...)
	lines = append(lines, b.hint(v, snap, st))
	if height > 0 && len(lines) > height {
		return b.compact(v, snap, st, width, height)
	}
	return lines
}

// compact draws the board in fewer lines, for a small window: no blank lines, no columns' heads,
// no legend of the scoring, and the drawn card on the first stack's line in place of the card's
// box (the panel counts the deck); then, as the height allows, whether the game is over and the
// board's keys.
func (b *colorettaBoard) compact(v coloretta.View, snap *rooms.Snapshot, st draw.Styles, width, height int) []string {
	lines := []string{colorettaHeader(v, st)}
	if b.showsScores(v) {
		score := b.scoring(v, snap, st, width)
		lines = append(append(lines, score[0]), score[2:]...) // the head, then the players'
	} else {
		cursor := snap.You != rules.Spectator && snap.Phase == rooms.Playing
		for i, s := range v.Stacks {
			line := b.stackLine(i, s, cursor && i == b.cur, snap, st)
			if i == 0 && v.HasDrawn {
				line = draw.Fit(line, colorettaStackWidth) + st.Dim.Render("drawn ") +
					cardStyle(st, v.Drawn).Bold(true).Render(v.Drawn.Label())
				if name := v.Drawn.String(); name != v.Drawn.Label() {
					line += " " + name // "C cyan", not "+2 +2"
				}
			}
			lines = append(lines, line)
		}
		if v.Discards.Size() > 0 {
			lines = append(lines, st.Dim.Render("  discarded ")+b.handGroups(v.Discards, st))
		}
		lines = append(lines, b.handLines(v, snap, st, width)[1:]...) // without the columns' head
	}
	for _, more := range append(colorettaPrompt(v, st), b.hint(v, snap, st)) {
		if len(lines) >= height {
			break
		}
		lines = append(lines, more)
	}
	return lines
}

// MinSize is the compact board (draw.Sizer): a line a stack and a player and the round's line;
// as wide as a hand's line, or the scoring's widest.
func (b *colorettaBoard) MinSize(snap *rooms.Snapshot) (int, int) {
	v, ok := draw.ViewOf[coloretta.View](snap)
	if !ok {
		return 0, 0
	}
	rows, width := 1+len(v.Players), colorettaNameW+colorettaHandW+5+len(" took 9")
	if b.showsScores(v) {
		if r, ok := v.LastRound(); ok {
			rows += 1 + len(r.Scores)
			st := *draw.NewStyles(true, false)
			for _, hs := range r.Scores { // the scoring's columns: round and total, the rank
				width = max(width, colorettaNameW+draw.TextWidth(bestColours(hs, st))+11,
					colorettaNameW+draw.TextWidth(penalties(hs, st))+16)
			}
		}
	} else {
		rows += len(v.Stacks)
		if v.Discards.Size() > 0 {
			rows++
		}
	}
	return width, rows
}

// colorettaHeader is the top line: round, cycle and the Last Cycle card (the deck's box and the
// panel count the deck).
func colorettaHeader(v coloretta.View, st draw.Styles) string {
	parts := []string{
		st.Bold.Render(fmt.Sprintf("Round %d/%d", v.Round, v.Rounds)),
		fmt.Sprintf("cycle %d", v.Cycle),
	}
	if v.Over {
		parts[1] = "game over"
	}
	return strings.Join(append(parts, lastCycleNote(v, st)), draw.PartSep(st))
}

// lastCycleNote says when the Last Cycle card comes, or that this cycle is the last.
func lastCycleNote(v coloretta.View, st draw.Styles) string {
	if v.LastCycle {
		return st.Err.Render("LAST CYCLE")
	}
	return fmt.Sprintf("last cycle after %d card%s", v.UntilLastCycle, draw.Plural(v.UntilLastCycle))
}

// table draws the stacks, one a line, beside the drawn card's box (or the deck's).
func (b *colorettaBoard) table(v coloretta.View, snap *rooms.Snapshot, st draw.Styles) []string {
	left := []string{st.Dim.Render("  stacks")}
	cursor := snap.You != rules.Spectator && snap.Phase == rooms.Playing
	for i, s := range v.Stacks {
		left = append(left, b.stackLine(i, s, cursor && i == b.cur, snap, st))
	}
	if v.Discards.Size() > 0 {
		left = append(left, st.Dim.Render("  discarded ")+b.handGroups(v.Discards, st))
	}
	box := cardBox(v, st)
	lines := make([]string, max(len(left), len(box)))
	for i := range lines {
		l := ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(box) {
			l = draw.Fit(l, colorettaStackWidth) + box[i]
		}
		lines[i] = l
	}
	return lines
}

// stackLine draws stack i: cursor mark, number, its slots up to its capacity and whether it is
// open, full, or who picked it (what they took stays in view, dim).
func (b *colorettaBoard) stackLine(i int, s coloretta.StackView, cur bool, snap *rooms.Snapshot, st draw.Styles) string {
	mark := " "
	if cur {
		mark = ">"
	}
	num := strconv.Itoa(i + 1)
	if cur {
		num = st.Cursor.Render(num)
	}
	cards, dim := s.Cards, false
	if !s.Open() {
		cards, dim = s.Taken, true
	}
	var slots []string
	for j := range s.Capacity {
		slot := colorettaSlot{empty: j >= len(cards), dim: dim}
		if !slot.empty {
			slot.card = cards[j]
		}
		slots = append(slots, b.slots.Get(slot, func() string {
			switch {
			case slot.empty:
				return st.Dim.Render(emptySlot(st))
			case dim:
				return st.Dim.Render(fmt.Sprintf("%-2s", slot.card.Label()))
			}
			return draw.Fit(cardStyle(st, slot.card).Render(slot.card.Label()), 2)
		}))
	}
	var info string
	switch {
	case !s.Open():
		// "taken by NAME", or "by NAME" when the name is long: the column is 15 wide.
		name := shortName(snap, s.PickedBy)
		info = st.Dim.Render("taken by ") + name
		switch {
		case len(name) <= colorettaStackWidth-15-len("taken by "):
		case len(name) <= colorettaStackWidth-15-len("by "):
			info = st.Dim.Render("by ") + name
		default:
			info = st.Dim.Render("taken by ") + seatName(int(s.PickedBy))
		}
	case s.Full():
		info = st.Bold.Render("full")
	default:
		info = st.Dim.Render(fmt.Sprintf("%d/%d", len(s.Cards), s.Capacity))
	}
	row := mark + num + " [" + strings.Join(slots, " ") + "]"
	return draw.Fit(row, 15) + info
}

// colorettaSlot is what a place on a stack shows: the key of its memoised string.
type colorettaSlot struct {
	card  coloretta.Card // the card there, unless empty
	empty bool
	dim   bool // the stack was picked: its cards are shown dim
}

// emptySlot is an empty place on a stack.
func emptySlot(st draw.Styles) string {
	if st.ASCII {
		return ". "
	}
	return "· "
}

// cardBox draws the drawn card big, in a box, or the deck when no card is drawn.
func cardBox(v coloretta.View, st draw.Styles) []string {
	title, big, name := "deck", strconv.Itoa(v.DeckSize), "cards"
	style := st.Dim
	if v.HasDrawn {
		title, big, name, style = "drawn", v.Drawn.Label(), v.Drawn.String(), cardStyle(st, v.Drawn).Bold(true)
	}
	const inner = 10
	h, vl, tl, tr, bl, br := "─", "│", "╭", "╮", "╰", "╯"
	if st.ASCII {
		h, vl, tl, tr, bl, br = "-", "|", "+", "+", "+", "+"
	}
	centre := func(s string) string {
		w := draw.TextWidth(s)
		pad := max(inner-w, 0)
		return strings.Repeat(" ", pad/2) + s + strings.Repeat(" ", pad-pad/2)
	}
	return []string{
		st.Dim.Render(centre(title)) + " ",
		tl + strings.Repeat(h, inner) + tr,
		vl + style.Render(centre(big)) + vl,
		vl + style.Render(centre(name)) + vl,
		bl + strings.Repeat(h, inner) + br,
	}
}

// cyanColor is Cyan's screen colour; the room's named colours have no cyan.
var cyanColor = lipgloss.Color("#5fd7d7")

// cyanPaint is the style of Cyan's cards.
var cyanPaint = draw.NewPaint(lipgloss.NewStyle().Foreground(cyanColor).Bold(true))

// cardStyle returns the style of a card's letter: its colour's, bold for the special cards, and
// no colour at all without colour (NO_COLOR).
func cardStyle(st draw.Styles, c coloretta.Card) draw.Paint {
	col, ok := c.Colour()
	if !ok {
		return st.Bold
	}
	switch col {
	case coloretta.Cyan:
		if st.NoColor {
			return draw.PlainPaint
		}
		return cyanPaint
	default:
		return st.Colour(colourName(col))
	}
}

// cardColourNames are the card colours' names capitalised, as Styles.Colour takes them: "Red",
// "Yellow"...
var cardColourNames = func() (ns [coloretta.NumColours]string) {
	for c := range ns {
		ns[c] = capitalise(coloretta.Colour(c).String())
	}
	return ns
}()

// colourName returns a card colour's name capitalised, as Styles.Colour takes it.
func colourName(c coloretta.Colour) string {
	if int(c) < len(cardColourNames) {
		return cardColourNames[c]
	}
	return capitalise(c.String())
}

// capitalise makes a name's first letter (ASCII) a capital.
func capitalise(name string) string {
	return strings.ToUpper(name[:1]) + name[1:]
}

// handGroups writes a hand by colour, most first, then wilds and "+2" cards: "R3 G2 *1 +2x1";
// each hand once (the board's memo).
func (b *colorettaBoard) handGroups(h coloretta.Hand, st draw.Styles) string {
	return b.hands.Get(h, func() string { return handGroups(h, st) })
}

// handGroups writes a hand by colour, most first, then wilds and "+2" cards: "R3 G2 *1 +2x1".
func handGroups(h coloretta.Hand, st draw.Styles) string {
	var parts []string
	for _, g := range h.Groups() {
		c := coloretta.ColourCard(g.Colour)
		parts = append(parts, cardStyle(st, c).Render(fmt.Sprintf("%c%d", c.Letter(), g.Count)))
	}
	if h.Wilds > 0 {
		parts = append(parts, st.Bold.Render(fmt.Sprintf("*%d", h.Wilds)))
	}
	if h.Plus2 > 0 {
		parts = append(parts, st.Bold.Render(fmt.Sprintf("+2x%d", h.Plus2)))
	}
	return strings.Join(parts, " ")
}

// playerName is seat's player's name, or "seat n" when the room does not say.
func playerName(snap *rooms.Snapshot, seat rules.Seat) string {
	if seat >= 0 && int(seat) < len(snap.Seats) && snap.Seats[seat].Name != "" {
		return snap.Seats[seat].Name
	}
	return fmt.Sprintf("seat %d", seat+1)
}

// shortName is seat's player's name for the board's narrow columns: a bot's without the level in
// brackets ("Bo" for "Bo (greedy bot)"), which the panel shows whole, so that it fits instead of
// being cut mid-word.
func shortName(snap *rooms.Snapshot, seat rules.Seat) string {
	name := playerName(snap, seat)
	if i := strings.Index(name, " ("); i > 0 && int(seat) < len(snap.Seats) && snap.Seats[seat].Bot != "" {
		return name[:i]
	}
	return name
}

// The columns of a hand's line: turn mark and name, the hand, its score, then whether the player
// sits out.
const colorettaNameW, colorettaHandW = 9, 28

// nameCell draws a player's turn mark and name in colorettaNameW columns, the viewer's bold.
func nameCell(v coloretta.View, snap *rooms.Snapshot, st draw.Styles, seat rules.Seat) string {
	mark := " "
	if seat == v.ToMove && !v.Over {
		mark = st.TurnMark()
	}
	// A name too long for the column gives way to the seat's ("Seat 2"), which the panel pairs
	// with the whole name: a cut name may read as another's.
	name := shortName(snap, seat)
	if len(name) > colorettaNameW-2 {
		name = seatName(int(seat))
	}
	if seat == snap.You {
		name = st.Bold.Render(name)
	}
	return draw.Fit(mark+name, colorettaNameW)
}

// handLines draws one line per player: hand by colour, what it scores now, and "took n" for a
// player who picked stack n and sits out the cycle.
func (b *colorettaBoard) handLines(v coloretta.View, snap *rooms.Snapshot, st draw.Styles, width int) []string {
	lines := []string{st.Dim.Render(draw.Fit("  hands", colorettaNameW+colorettaHandW) + "score")}
	for _, p := range v.Players {
		line := nameCell(v, snap, st, p.Seat) + draw.Fit(b.handGroups(p.Hand, st), colorettaHandW) +
			st.Bold.Render(fmt.Sprintf("%5d", p.Score.Total))
		if p.SitsOut() {
			line += st.Dim.Render(fmt.Sprintf(" took %d", p.Picked+1))
		}
		lines = append(lines, draw.Fit(line, width))
	}
	return lines
}

// scoring draws the last finished round's scoring, two lines a player: the three best colours
// (with the wilds that joined them) and the round's points; the penalised colours, the "+2"
// bonus and the total.
func (b *colorettaBoard) scoring(v coloretta.View, snap *rooms.Snapshot, st draw.Styles, width int) []string {
	r, _ := v.LastRound()
	head := fmt.Sprintf("Round %d scored", r.Round)
	switch {
	case v.Over:
		head = fmt.Sprintf("Final round %d scored", r.Round)
	case !v.RoundEnded:
		head += st.Dim.Render(" (s: back to the table)")
	}
	lines := []string{st.Bold.Render(head), st.Dim.Render("  +N* = N wilds joined  +2xN = N bonus cards")}
	for seat, hs := range r.Scores {
		s := rules.Seat(seat)
		best := draw.Fit(bestColours(hs, st), width-colorettaNameW-11)
		lines = append(lines, nameCell(v, snap, st, s)+best+fmt.Sprintf(" round %4d", hs.Total))
		rest := draw.Fit(penalties(hs, st), width-colorettaNameW-11)
		total := ""
		if seat < len(r.Totals) {
			total = fmt.Sprintf(" total %4d", r.Totals[seat])
		}
		if v.Over && seat < len(v.Ranks) {
			rest = draw.Fit(penalties(hs, st), width-colorettaNameW-16) + st.Bold.Render(fmt.Sprintf(" %-4s", ordinal(v.Ranks[seat])))
		}
		lines = append(lines, strings.Repeat(" ", colorettaNameW)+rest+total)
	}
	return lines
}

// bestColours writes a hand's three best colours: "R4+1*=15 G3=6 B2=3".
func bestColours(hs coloretta.HandScore, st draw.Styles) string {
	var parts []string
	for _, c := range hs.Best {
		card := coloretta.ColourCard(c.Colour)
		s := fmt.Sprintf("%c%d", card.Letter(), c.Cards)
		if c.Wilds > 0 {
			s += fmt.Sprintf("+%d*", c.Wilds)
		}
		parts = append(parts, cardStyle(st, card).Render(s)+fmt.Sprintf("=%d", c.Points))
	}
	if len(parts) == 0 {
		return st.Dim.Render("no colours")
	}
	return strings.Join(parts, " ")
}

// penalties writes the penalised colours and the bonus: "minus Y1 P2 =-4  +2x2=4".
func penalties(hs coloretta.HandScore, st draw.Styles) string {
	var parts []string
	if len(hs.Penalised) > 0 {
		lost := 0
		var cs []string
		for _, c := range hs.Penalised {
			card := coloretta.ColourCard(c.Colour)
			cs = append(cs, cardStyle(st, card).Render(fmt.Sprintf("%c%d", card.Letter(), c.Cards)))
			lost += c.Points
		}
		parts = append(parts, "minus "+strings.Join(cs, " ")+fmt.Sprintf(" =%d", lost))
	} else {
		parts = append(parts, st.Dim.Render("no penalty"))
	}
	if hs.Plus2 > 0 {
		parts = append(parts, st.Bold.Render(fmt.Sprintf("+2x%d", hs.Plus2))+fmt.Sprintf("=%d", hs.Bonus))
	}
	return strings.Join(parts, "  ")
}

// ordinal writes a rank: 1st, 2nd, 3rd, 4th, 5th.
func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}

// hint tells the board's own keys beyond the help line's: the cursor and the scoring.
func (b *colorettaBoard) hint(v coloretta.View, snap *rooms.Snapshot, st draw.Styles) string {
	var parts []string
	if colorettaTurn(v, snap) && !b.showsScores(v) {
		arrows := "←→"
		if st.ASCII {
			arrows = "h l"
		}
		parts = append(parts, arrows+" enter: play a stack")
	}
	if len(v.Results) > 0 && !v.RoundEnded && !v.Over {
		parts = append(parts, "s: last round's scores")
	}
	return st.Dim.Render(strings.Join(parts, draw.PartSep(st)))
}

// colorettaPrompt says that the game is over; the room says whose turn it is (TurnText).
func colorettaPrompt(v coloretta.View, st draw.Styles) []string {
	if v.Over {
		return []string{st.Bold.Render("The game is over.")}
	}
	return nil
}

// TurnText says what the viewer is to do on their turn, and what the seat to move is to do
// otherwise, for the room's turn line.
func (b *colorettaBoard) TurnText(snap *rooms.Snapshot) (yours, theirs string) {
	v, ok := draw.ViewOf[coloretta.View](snap)
	if !ok || v.Over || v.ToMove < 0 {
		return "", ""
	}
	if colorettaTurn(v, snap) {
		return v.Prompt, ""
	}
	if v.HasDrawn {
		return "", "to place the " + v.Drawn.String() + " card"
	}
	return "", "to draw or pick a stack"
}

func (b *colorettaBoard) Status(snap *rooms.Snapshot, st draw.Styles, width int) []string {
	v, ok := draw.ViewOf[coloretta.View](snap)
	if !ok {
		return nil
	}
	deck := fmt.Sprintf("Deck %d", v.DeckSize)
	if v.LastCycle {
		deck += draw.PartSep(st) + lastCycleNote(v, st)
	}
	lines := []string{deck}
	if last := lastMoveText(v, snap); last != "" {
		lines = append(lines, wrapNoWidow("Last: "+last, width)...)
	}
	return lines
}

// wrapNoWidow wraps s as draw.Wrap does, but leaves no word alone on the last line when the line
// before can give it company: "put red on 1" keeps "on 1" together. The first two words stay on
// the first line ("Last: NAME", which the load tool waits for).
func wrapNoWidow(s string, width int) []string {
	lines := draw.Wrap(s, width)
	n := len(lines)
	if n < 2 || strings.Contains(lines[n-1], " ") {
		return lines
	}
	prev := lines[n-2]
	i := strings.LastIndex(prev, " ")
	if i < 0 || !strings.Contains(prev[:i], " ") || draw.TextWidth(prev[i+1:])+1+draw.TextWidth(lines[n-1]) > width {
		return lines
	}
	lines[n-2], lines[n-1] = prev[:i], prev[i+1:]+" "+lines[n-1]
	return lines
}

// lastMoveText says what the previous move did: "bob drew red", "ann put red on 2", "ann took 3".
func lastMoveText(v coloretta.View, snap *rooms.Snapshot) string {
	if v.LastSeat < 0 || v.LastMove == "" {
		return ""
	}
	who := playerName(snap, v.LastSeat)
	m, err := coloretta.ParseMove(v.LastMove)
	if err != nil {
		return who + " " + v.LastMove
	}
	switch m.Kind {
	case coloretta.Draw:
		if v.HasDrawn {
			return who + " drew " + v.Drawn.String()
		}
		return who + " drew"
	case coloretta.Place:
		if m.Stack < len(v.Stacks) && len(v.Stacks[m.Stack].Cards) > 0 {
			cs := v.Stacks[m.Stack].Cards
			return fmt.Sprintf("%s put %s on %d", who, cs[len(cs)-1], m.Stack+1)
		}
		return fmt.Sprintf("%s placed on %d", who, m.Stack+1)
	}
	return fmt.Sprintf("%s took stack %d", who, m.Stack+1)
}

func (b *colorettaBoard) Score(snap *rooms.Snapshot, seat int) string {
	v, ok := draw.ViewOf[coloretta.View](snap)
	if !ok || seat < 0 || seat >= len(v.Players) {
		return ""
	}
	return strconv.Itoa(v.Players[seat].Total)
}

// SeatLabel names Coloretta's seats by number, with no letter: its cards have the colours.
func (b *colorettaBoard) SeatLabel(seat int) (string, string) { return "", seatName(seat) }

// seatName is seat's name: "Seat 1", "Seat 2"...
func seatName(seat int) string {
	if seat >= 0 && seat < len(seatNumbers) {
		return seatNumbers[seat]
	}
	return fmt.Sprintf("Seat %d", seat+1)
}

// seatNumbers are the names seatLabel gives the first seats: "Seat 1", "Seat 2"...
var seatNumbers = func() (ns [8]string) {
	for i := range ns {
		ns[i] = fmt.Sprintf("Seat %d", i+1)
	}
	return ns
}()
