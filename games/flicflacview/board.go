package flicflacview

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/flicflac"
	"github.com/arcade/arcade/session/draw"
)

// boardKeys are the Flic Flac board's bindings: the grammar's (draw.KeyMap), and n.
type boardKeys struct {
	Up, Down, Left, Right, Act, Next, Back, End, Cancel key.Binding
}

// board draws a Flic Flac match with a cursor over the hexes and the homes' slots. Enter on one
// of the viewer's pieces that may move picks it, and the hexes it may reach are marked; enter on
// one of them moves it there. n picks the next piece that may move, backspace takes back the
// piece under the cursor (or the picked one) when it moved this turn, e ends the turn.
type board struct {
	keys boardKeys
	help []key.Binding
	// turnHelp and lookHelp are HelpKeys' answers on the viewer's turn and otherwise.
	turnHelp, lookHelp []key.Binding
	lay                *layout
	cur                int             // the cursor's cell in lay.cells
	padX               int             // the columns left of the board: it is centred in its column
	want               int             // the column up and down aim for
	sel                flicflac.Colour // the viewer's picked piece, -1 none
	// hintDrawn is true when the last View drew the hint line under the board: when it did not
	// (a compact window leaves no room), the panel's turn line says the move's preview.
	hintDrawn bool
	note      string // what the last key did not do, shown until the next key or move
	// noteView is the view the note was said over: a move made another way (the move prompt)
	// brings a new one, and the note goes.
	noteView *flicflac.View

	// shapes is each seat's shape, as the last view said (SeatLabel has no snapshot).
	shapes [2]flicflac.Shape
	known  bool

	// What View drew last, drawn again only when something it shows has changed.
	last    []string
	lastKey frameKey
	rows    rowCache
	// What Status returned last, for the same key.
	status    []string
	statusKey statusKey
}

// frameKey is what a frame shows besides the styles' looks: the view (a new one at every move),
// the cursor, the pick and the space.
type frameKey struct {
	view           *flicflac.View
	cur            int
	sel            flicflac.Colour
	note           string
	you            rules.Seat
	phase          rooms.Phase
	reason         string // the room's reason the match ended
	width, height  int
	noColor, ascii bool
}

// NewBoard makes a board view of Flic Flac for one session: the catalogue's Entry.Board.
func NewBoard() draw.Board { return newBoard() }

func newBoard() *board {
	k := &draw.KeyMap // the grammar of every game, and n, Flic Flac's own
	b := &board{cur: -1, sel: -1, keys: boardKeys{
		Up: k.Up, Down: k.Down, Left: k.Left, Right: k.Right,
		Act:    draw.WithHelp(k.Act, "pick/move"),
		Next:   key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next")),
		Back:   k.StepBack,
		End:    k.EndTurn,
		Cancel: k.Cancel,
	}}
	b.help = []key.Binding{b.keys.Up, b.keys.Act, b.keys.End}       // n is told under the board
	b.turnHelp = []key.Binding{b.keys.Act, b.keys.Back, b.keys.End} // in the grammar's order
	b.lookHelp = []key.Binding{b.keys.Up}
	return b
}

func (b *board) Bindings() []key.Binding { return b.help }

// HelpKeys lists, on the viewer's turn, what enter, backspace and e do (the arrows are the cursor's, as
// in every game); otherwise the arrows alone, which look at the pieces.
func (b *board) HelpKeys(snap *rooms.Snapshot) []key.Binding {
	v, ok := draw.ViewRef[flicflac.View](snap)
	switch {
	case !ok:
		return b.help
	case myTurn(v, snap):
		return b.turnHelp
	}
	return b.lookHelp
}

// myTurn reports whether the snapshot's viewer is to move.
func myTurn(v *flicflac.View, snap *rooms.Snapshot) bool {
	return snap.You != rules.Spectator && snap.Phase == rooms.Playing && v.Turn == snap.You && v.Turn >= 0
}

// seated reports whether the viewer plays in a match being played.
func seated(snap *rooms.Snapshot) bool {
	return snap.You != rules.Spectator && snap.Phase == rooms.Playing
}

// looking reports whether the viewer has a cursor: while the match is played, players and
// spectators alike, who move it to read the line under the board on a piece (a spectator's keys
// propose no moves).
func looking(snap *rooms.Snapshot) bool {
	return snap.Phase == rooms.Playing
}

// seatOf returns the seat playing shape sh.
func seatOf(v *flicflac.View, sh flicflac.Shape) rules.Seat {
	if v.Shapes[0] == sh {
		return 0
	}
	return 1
}

// selID is the picked piece's id (seat*6 + colour), -1 for none.
func (b *board) selID(v *flicflac.View) int {
	if b.sel < 0 || v.Turn < 0 {
		return -1
	}
	return int(v.Turn)*flicflac.Colours + int(b.sel)
}

// settle fits the board to the view: the layout of its side, the cursor on the viewer's first
// home slot the first time, no pick when the viewer may not move it.
func (b *board) settle(v *flicflac.View, snap *rooms.Snapshot) {
	b.shapes, b.known = v.Shapes, true
	if b.lay == nil || b.lay.geo.Side != v.Side {
		b.lay = layoutOf(v.Side)
		b.cur = -1
	}
	if b.cur < 0 || b.cur >= len(b.lay.cells) {
		b.cur = b.lay.hexCell[len(b.lay.hexCell)/2]
		if snap.You == 0 || snap.You == 1 {
			b.cur = b.lay.slotCell[v.Shapes[snap.You]][homeGroups[0][0]]
		}
		b.want = b.lay.cells[b.cur].col
	}
	if b.sel >= 0 && (!myTurn(v, snap) || !v.Piece(v.Turn, b.sel).CanMove) {
		b.sel = -1
	}
	if b.note != "" && v != b.noteView {
		b.note = ""
	}
	b.noteView = v
}

// TakesKey claims esc while the viewer has a piece picked: esc drops the pick, and the room asks
// whether to leave only when there is none (draw.KeyTaker).
func (b *board) TakesKey(km tea.KeyPressMsg, snap *rooms.Snapshot) bool {
	v, ok := draw.ViewRef[flicflac.View](snap)
	if !ok || !key.Matches(km, b.keys.Cancel) {
		return false
	}
	b.settle(v, snap)
	return b.sel >= 0
}

func (b *board) Handle(msg tea.Msg, snap *rooms.Snapshot) string {
	v, ok := draw.ViewRef[flicflac.View](snap)
	if !ok {
		return ""
	}
	b.settle(v, snap)
	switch msg := msg.(type) {
	case tea.MouseClickMsg:
		m := msg.Mouse()
		if m.Button != tea.MouseLeft {
			return ""
		}
		i := b.lay.at(m.Y, m.X-b.padX)
		if i < 0 {
			return ""
		}
		b.cur, b.want = i, b.lay.cells[i].col
		return b.act(v, snap)
	case tea.KeyPressMsg:
		b.note = ""
		return b.key(msg, v, snap)
	}
	return ""
}

// key handles a key press on the board.
func (b *board) key(msg tea.KeyPressMsg, v *flicflac.View, snap *rooms.Snapshot) string {
	k, l := b.keys, b.lay
	switch {
	case key.Matches(msg, k.Up):
		b.cur = l.step(b.cur, -1, 0, b.want)
	case key.Matches(msg, k.Down):
		b.cur = l.step(b.cur, 1, 0, b.want)
	case key.Matches(msg, k.Left):
		b.cur = l.step(b.cur, 0, -1, 0)
		b.want = l.cells[b.cur].col
	case key.Matches(msg, k.Right):
		b.cur = l.step(b.cur, 0, 1, 0)
		b.want = l.cells[b.cur].col
	case key.Matches(msg, k.Act):
		return b.act(v, snap)
	case key.Matches(msg, k.Cancel):
		b.sel = -1
	case key.Matches(msg, k.Next):
		b.next(v, snap)
	case key.Matches(msg, k.Back):
		return b.takeBack(v, snap)
	case key.Matches(msg, k.End):
		if seated(snap) {
			b.sel = -1
			return flicflac.Move{Kind: flicflac.End}.String()
		}
	}
	return ""
}

// pieceAt returns the piece drawn in cell i (seat*6 + colour), -1 for none.
func (b *board) pieceAt(v *flicflac.View, i int) int {
	c := b.lay.cells[i]
	if c.hex != flicflac.NoHex {
		return v.Hexes[c.hex].Piece
	}
	p := v.Piece(seatOf(v, c.shape), c.colour)
	if p.Hex != flicflac.NoHex {
		return -1
	}
	return int(p.ID.Seat)*flicflac.Colours + int(p.ID.Colour)
}

// act is enter on the cursor's cell: it moves the picked piece there when it may go there, or
// picks the viewer's piece there, or drops the pick, saying why unless it was enter on the
// picked piece: a free hex out of reach, the other player's piece, one that may not move.
func (b *board) act(v *flicflac.View, snap *rooms.Snapshot) string {
	if !myTurn(v, snap) {
		return ""
	}
	c := b.lay.cells[b.cur]
	if b.sel >= 0 && c.hex != flicflac.NoHex {
		for _, h := range v.Reach[b.sel] {
			if h == c.hex {
				m := flicflac.Move{Kind: flicflac.Place, Colour: b.sel, To: b.lay.geo.Name(h)}
				b.sel = -1
				return m.String()
			}
		}
	}
	id := b.pieceAt(v, b.cur)
	if id >= 0 && v.Pieces[id].ID.Seat == v.Turn && v.Pieces[id].CanMove && v.Pieces[id].ID.Colour != b.sel {
		b.sel = v.Pieces[id].ID.Colour
		return ""
	}
	switch {
	case b.sel >= 0 && c.hex != flicflac.NoHex && id < 0:
		// A free hex out of reach: say so, or the pick would just vanish.
		b.note = fmt.Sprintf("%c cannot go to %s (not marked +); pick again.",
			b.sel.Letter(), b.lay.geo.Name(c.hex))
	case id < 0:
	case v.Pieces[id].ID.Seat != v.Turn:
		b.note = "That is " + ownerName(snap, v.Pieces[id].ID.Seat) + " piece: pick one of yours."
	case v.Pieces[id].ID.Colour == b.sel: // enter on the picked piece drops the pick
	case v.Pieces[id].Moved:
		b.note = fmt.Sprintf("%c has moved this turn: backspace takes it back.", v.Pieces[id].ID.Colour.Letter())
	case v.CaptorsTurn:
		b.note = fmt.Sprintf("%c is not a captor: only captors move now.", v.Pieces[id].ID.Colour.Letter())
	}
	b.sel = -1
	return ""
}

// next picks the viewer's next piece that may go somewhere, after the picked one, and puts the
// cursor on it; it says so when none may.
func (b *board) next(v *flicflac.View, snap *rooms.Snapshot) {
	if !myTurn(v, snap) {
		return
	}
	start := b.sel
	for i := range flicflac.Colours {
		c := (start + 1 + flicflac.Colour(i)) % flicflac.Colours
		if start < 0 {
			c = flicflac.Colour(i)
		}
		p := v.Piece(v.Turn, c)
		if !p.CanMove || len(v.Reach[c]) == 0 {
			continue
		}
		b.sel = c
		if p.Hex != flicflac.NoHex {
			b.cur = b.lay.hexCell[p.Hex]
		} else {
			b.cur = b.lay.slotCell[p.Shape][c]
		}
		b.want = b.lay.cells[b.cur].col
		return
	}
	b.sel = -1
	b.note = "No piece of yours may move now: e ends the turn."
}

// takeBack proposes taking back the viewer's piece under the cursor, or the picked one, or the
// only one that moved this turn; the engine says why when it may not.
func (b *board) takeBack(v *flicflac.View, snap *rooms.Snapshot) string {
	if !seated(snap) {
		return ""
	}
	var c flicflac.Colour = -1
	if id := b.pieceAt(v, b.cur); id >= 0 && v.Pieces[id].ID.Seat == snap.You {
		c = v.Pieces[id].ID.Colour
	}
	if c < 0 || !v.Piece(snap.You, c).Moved {
		c = -1 // a piece under the cursor that has not moved: the only one moved, if one is
		var moved []flicflac.Colour
		for col := range flicflac.Colour(flicflac.Colours) {
			if v.Piece(snap.You, col).Moved {
				moved = append(moved, col)
			}
		}
		if len(moved) == 1 {
			c = moved[0]
		}
	}
	if c < 0 {
		if b.sel < 0 {
			b.note = "Nothing to take back: put the cursor on a piece that moved."
		}
		b.sel = -1
		return ""
	}
	b.sel = -1
	return flicflac.Move{Kind: flicflac.TakeBack, Colour: c}.String()
}

func (b *board) View(snap *rooms.Snapshot, st draw.Styles, width, height int) []string {
	v, ok := draw.ViewRef[flicflac.View](snap)
	if !ok {
		return nil
	}
	b.settle(v, snap)
	k := frameKey{view: v, cur: b.cur, sel: b.sel, note: b.note, you: snap.You, phase: snap.Phase, reason: snap.Outcome.Reason, width: width,
		height: height, noColor: st.NoColor, ascii: st.ASCII}
	if b.last != nil && k == b.lastKey {
		return b.last
	}
	lines := b.boardLines(v, b.lay, st, looking(snap))
	b.padX = centre(lines, width)
	var more [][]string // what is said under the board, each whole: what fits, the first first
	hintAt := -1
	if looking(snap) {
		more = append(more, draw.Wrap(b.describe(v, snap), width))
		if h := b.hint(v, snap, width); h != "" {
			hintAt = len(more)
			more = append(more, draw.Wrap(h, width))
		}
	}
	if snap.Phase == rooms.Finished {
		var over []string
		for _, l := range draw.Wrap(overLine(snap, v), width) {
			over = append(over, st.Bold.Render(l))
		}
		more = append(more, over)
	}
	more = append(more, legend(st, width))
	n := len(lines)
	for _, m := range more {
		n += len(m)
	}
	if height <= 0 || n+1 <= height {
		lines = append(lines, "") // a blank line under the board when there is room
	}
	b.hintDrawn = false
	for i, m := range more {
		if height > 0 && len(lines)+len(m) > height {
			break
		}
		lines = append(lines, m...)
		b.hintDrawn = b.hintDrawn || i == hintAt
	}
	if height > 0 && len(lines) > height {
		lines = lines[:height] // (a board taller than the body: the room lays it out so that it never is)
	}
	b.last, b.lastKey = lines, k
	return lines
}

// MinSize is the board without the lines under it (draw.Sizer).
func (b *board) MinSize(snap *rooms.Snapshot) (int, int) {
	v, ok := draw.ViewRef[flicflac.View](snap)
	if !ok {
		return 0, 0
	}
	l := layoutOf(v.Side)
	return l.width, l.lines
}

// overLine is the end line under the board, with why the match ended: the room's reason (a
// resignation, a clock run out, a draw agreed) before the engine's (a target reached), and no
// reason at all rather than an empty one.
func overLine(snap *rooms.Snapshot, v *flicflac.View) string {
	why := snap.Outcome.Reason
	if why == "" {
		why = v.Outcome.Reason
	}
	if why == "" {
		return "The game is over."
	}
	return "The game is over: " + strings.TrimSuffix(why, ".") + "."
}

// centre puts the board's lines in the middle of width columns (a small board, size 5 to 7, is
// narrower than the column) by padding each on the left alike, and returns the padding.
func centre(lines []string, width int) int {
	w := 0
	for _, l := range lines {
		w = max(w, draw.TextWidth(l))
	}
	pad := (width - w) / 2
	if pad <= 0 {
		return 0
	}
	sp := strings.Repeat(" ", pad)
	for i, l := range lines {
		lines[i] = sp + l
	}
	return pad
}

// describe says what is under the cursor: "h8 red hex: your blue cylinder, upright, flies G Y,
// health +3, empowered".
func (b *board) describe(v *flicflac.View, snap *rooms.Snapshot) string {
	c := b.lay.cells[b.cur]
	var where string
	if c.hex != flicflac.NoHex {
		hv := v.Hexes[c.hex]
		where = hv.Name + " " + hv.Colour.String() + " hex"
	} else {
		where = "home, enters on " + b.lay.edges[c.shape][c.colour]
	}
	id := b.pieceAt(v, b.cur)
	if id < 0 {
		return where
	}
	p := v.Pieces[id]
	owner := ownerName(snap, p.ID.Seat)
	face := "upright"
	if p.Flipped {
		face = "flipped"
	}
	t := fmt.Sprintf("%s: %s %s %s, %s, flies %c %c", where, owner, p.ID.Colour, p.Shape, face,
		p.Flies[0].Letter(), p.Flies[1].Letter())
	if p.Hex != flicflac.NoHex {
		t += fmt.Sprintf(", health %+d", p.Health)
	}
	if p.Empowered {
		t += ", empowered"
	}
	if p.Doomed {
		t += ", to be captured"
	}
	if p.Moved {
		t += ", moved from " + b.lay.geo.Name(p.From)
	}
	return t
}

// ownerName is "your" for the viewer's pieces, else the owner's name with "'s".
func ownerName(snap *rooms.Snapshot, seat rules.Seat) string {
	if seat == snap.You {
		return "your"
	}
	return shortName(snap, seat) + "'s"
}

// hint says what the keys do now, in width columns when it can: with a piece picked and the
// cursor on a hex it may reach, what the move would do to health (preview).
func (b *board) hint(v *flicflac.View, snap *rooms.Snapshot, width int) string {
	if b.note != "" {
		return b.note
	}
	if !myTurn(v, snap) {
		return ""
	}
	if b.sel >= 0 {
		if p := b.preview(v); p != "" {
			if long := p + "; enter moves"; draw.TextWidth(long) <= width {
				return long
			}
			return p
		}
		n := len(v.Reach[b.sel])
		return fmt.Sprintf("%c picked: %d %s marked +, enter moves it", b.sel.Letter(), n, plural(n, "hex", "hexes"))
	}
	if v.CaptorsTurn {
		return "Captors' turn: enter picks a captor · e ends it"
	}
	return "enter picks · n next · bksp undoes · e ends turn"
}

// preview says what moving the picked piece to the hex under the cursor would do to health,
// as the engine counts it (flicflac.View.Preview): "B to h8: (B) home->+1, [Y] +0->-1 captured",
// or "B to h8: no health changes". Only the pieces whose health would change are named. It is "" when the cursor is not on a hex the picked piece may reach.
func (b *board) preview(v *flicflac.View) string {
	c := b.lay.cells[b.cur]
	if b.sel < 0 || c.hex == flicflac.NoHex {
		return ""
	}
	changes, ok := v.Preview(b.sel, c.hex)
	if !ok {
		return ""
	}
	var parts []string
	for _, hc := range changes {
		if hc.Before == hc.After {
			continue // the moved piece, when its own health stays (entering: at 0)
		}
		from := fmt.Sprintf("%+d", hc.Before)
		if hc.Entering {
			from = "home"
		}
		t := fmt.Sprintf("%s %s->%+d", pieceTag(v, hc.Piece), from, hc.After)
		if hc.Doomed {
			t += " captured"
		}
		parts = append(parts, t)
	}
	did := strings.Join(parts, ", ")
	if did == "" {
		did = "no health changes"
	}
	return fmt.Sprintf("%c to %s: %s", b.sel.Letter(), b.lay.geo.Name(c.hex), did)
}

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// playerName is seat's player's name, or "seat n" when the room does not say.
func playerName(snap *rooms.Snapshot, seat rules.Seat) string {
	if seat >= 0 && int(seat) < len(snap.Seats) && snap.Seats[seat].Name != "" {
		return snap.Seats[seat].Name
	}
	return fmt.Sprintf("seat %d", seat+1)
}

// shortName is seat's player's name without a bot's level in brackets ("Bo" for "Bo (greedy
// bot)"), which the panel shows whole.
func shortName(snap *rooms.Snapshot, seat rules.Seat) string {
	name := playerName(snap, seat)
	if i := strings.Index(name, " ("); i > 0 && int(seat) < len(snap.Seats) && snap.Seats[seat].Bot != "" {
		return name[:i]
	}
	return name
}
