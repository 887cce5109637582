package session

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session/draw"
)

// labelOf returns seat i's letter and name as the room's board calls them.
func labelOf(b draw.Board, i int) (letter, name string) {
	if l, ok := b.(draw.SeatLabeler); ok {
		return l.SeatLabel(i)
	}
	return draw.SeatLetter(i), draw.SeatName(i)
}

// colourOf names seat i as the room's board does: "Red", "Orange", "Seat 2".
func colourOf(b draw.Board, i int) string {
	_, name := labelOf(b, i)
	return name
}

// seatStyleOf is the style of seat i as the room's board names it.
func seatStyleOf(b draw.Board, st draw.Styles, i int) draw.Paint {
	if _, ok := b.(draw.SeatLabeler); ok {
		return st.Colour(colourOf(b, i))
	}
	return st.SeatStyle(i)
}

// seatTag draws seat i's name in its colour.
func seatTag(b draw.Board, st draw.Styles, i int) string {
	return seatStyleOf(b, st, i).Render(colourOf(b, i))
}

// focus is where keys go in the room.
type focus int

const (
	focusBoard focus = iota
	focusChat
	focusPrompt
	focusRules
)

// panelWidth is the width of the side panel right of the board on the narrowest window
// (minRoomWidth); a wider window gives it up to panelWideWidth.
const panelWidth, panelWideWidth = 28, 42

// minRoomWidth is the width the room is laid out for; a wider window centres board and panel.
const minRoomWidth = minWidth

// boardColumn draws the board's column with drawBoard (which draws it in the width it is given) for
// a w-column window, and says how wide the column is, the panel's width and the margin left of
// the column. On the narrowest window the column is what the panel leaves. On a wider one it is
// as wide as on the narrowest, or as the board's grid when that is wider, so that it does not
// change as the board's lines of text do; the panel gets the room up to panelWideWidth, and the
// two are centred as one block.
func boardColumn(w int, drawBoard func(width int) []string) (lines []string, colW, panelW, margin int) {
	colW = min(w, minRoomWidth) - panelWidth - 1
	lines = drawBoard(colW)
	if w <= minRoomWidth {
		return lines, colW, panelWidth, 0
	}
	if d := drawnWidth(lines); d > colW {
		colW = min(d, w-panelWidth-1)
		lines = drawBoard(colW)
	}
	panelW = min(panelWideWidth, w-colW-1)
	return cutBlanks(lines, colW), colW, panelW, (w - colW - 1 - panelW) / 2
}

// cutBlanks cuts lines wider than w to w columns without a "…" where what they lose is only the
// spaces a board pads its lines with; a line that loses more is left for draw.Fit to cut with one.
func cutBlanks(lines []string, w int) []string {
	out := lines
	for i, l := range lines {
		if draw.TextWidth(l) > w && drawnWidth(lines[i:i+1]) <= w {
			if &out[0] == &lines[0] {
				out = slices.Clone(lines)
			}
			out[i] = ansi.Truncate(l, w, "")
		}
	}
	return out
}

// drawnWidth is the width of the widest of lines, without their trailing spaces.
func drawnWidth(lines []string) int {
	n := 0
	for _, l := range lines {
		n = max(n, draw.TextWidth(strings.TrimRight(ansi.Strip(l), " ")))
	}
	return n
}

// roomScreen is the screen of one room: board, seats, chat, prompt.
type roomScreen struct {
	sub    Sub
	me     rooms.Player
	games  []rules.Game
	boards Boards
	keys   *roomKeys // shared (roomKeyMap)
	snap   rooms.Snapshot
	have   bool
	board  draw.Board
	focus  focus
	input  lineInput
	msg    string
	msgErr bool
	level  int   // bot level index for 'b'
	rules  pager // the game's rules, while focus is focusRules
	w, h   int   // the screen's size, as the model last gave it (resize)
	errSeq int   // counts the errors said, so that an error's expiry clears only that error
	// tickStop stops the countdown tick on its way, if one is; tickGen counts the ticks asked
	// for, and a tick of an older generation (already sent when a newer was asked for) is stale.
	tickStop chan struct{}
	tickGen  int
	// turnEnds is when the timed turn last seen ends, and turnLong how long it had when first
	// seen: a short turn (Flic Flac's 20 s) warns only near its end, not all along.
	turnEnds time.Time
	turnLong time.Duration
	// lastMove is closed when the room has answered the last move sent (nil before the first):
	// the next move waits for it, so that moves reach the room in the order they were made.
	lastMove <-chan struct{}
	cache    frameCache
	helped   helpCache
	chat     chatCache
	labels   []string // seatLabel's drawn labels by seat, for this board
	addr     string   // Config.Address
	boardX   int      // the column the board starts at, as last drawn (clicks are the board's from there)
	noBell   bool     // Config.NoBell
	// showMoves shows the match's moves at the foot of the panel, in place of the chat (tab).
	showMoves bool
	// replaying: the screen draws a replay's panel, whose chat is the replay's move list.
	replaying bool
	// resigning: R was pressed once; a second R resigns (or aborts), another key plays on.
	resigning bool
}

// playing reports whether the viewer holds a seat of a match being played.
func (r *roomScreen) playing() bool {
	return r.snap.Phase == rooms.Playing && r.snap.You != rules.Spectator
}

func newRoomScreen(sub Sub, me rooms.Player, games []rules.Game, boards Boards) *roomScreen {
	return &roomScreen{sub: sub, me: me, games: games, boards: boards, keys: &roomKeyMap, level: -1}
}

// apply takes a new snapshot; it returns a tick while a countdown is on screen, and the
// terminal's bell when it has just become the player's turn (unless the bell is off).
func (r *roomScreen) apply(snap rooms.Snapshot) tea.Cmd {
	if !r.have || r.board == nil {
		r.board, r.labels = r.boards.board(snap.GameID), nil
	}
	prevPhase := r.snap.Phase
	wasMine := r.have && r.yourTurn()
	r.snap, r.have = snap, true
	r.cache.invalidate()
	if prevPhase != snap.Phase && snap.Phase == rooms.Playing {
		r.msg = ""
		r.labels = nil // a new match may name the seats otherwise (Flic Flac's shapes)
	}
	if !wasMine && r.yourTurn() && !r.noBell {
		return tea.Batch(r.tick(), tea.Raw(bell))
	}
	return r.tick()
}

// bell is the terminal's bell (BEL), rung when it becomes the player's turn.
const bell = "\a"

// yourTurn reports whether the snapshot shows a match in which the viewer may act now.
func (r *roomScreen) yourTurn() bool {
	s := &r.snap
	return s.Phase == rooms.Playing && s.You != rules.Spectator && slices.Contains(s.ToMove, s.You)
}

// title is the terminal window's title for the room: "your move · Stone Towers · K7QXM" while the
// viewer may act, else the game and the code.
func (r *roomScreen) title() string {
	t := r.snap.GameName + " · " + r.snap.Code
	if r.yourTurn() {
		t = "your move · " + t
	}
	return t
}

// tick asks for the countdown's next tick, when a dropped seat's countdown or a timed turn's
// clock is showing, at the moment the clock shows its next value (or in a second, for a seat's
// countdown). It stops the tick on its way, if any: a snapshot brings a clock of its own (the
// turn passed, a move reset it), and the tick asked for the clock before would come too early,
// drawing a panel that had not changed, or too late, leaving the new clock frozen for up to 10 s
// (a game clock in tens of seconds handing over to one in its last 70 s). So one tick is on its
// way at a time, and it comes when the panel changes: at most a frame a second.
func (r *roomScreen) tick() tea.Cmd {
	r.stopTick()
	if !r.countingDown() {
		return nil
	}
	next := time.Second
	if c := r.snap.Clock; !c.Ends.IsZero() && r.snap.Phase == rooms.Playing {
		if _, d := clockShown(time.Until(c.Ends)); d > 0 {
			next = d // when the turn's clock shows its next value
		}
		if r.countingAway() {
			next = min(next, time.Second)
		}
	}
	r.tickGen++
	gen, stop, t := r.tickGen, make(chan struct{}), time.NewTimer(next)
	r.tickStop = stop
	return func() tea.Msg {
		defer t.Stop()
		select {
		case <-t.C:
			return tickMsg{gen: gen}
		case <-stop:
			return nil // Bubble Tea drops a nil message: no frame
		}
	}
}

// stopTick stops the countdown tick on its way, if one is (on leaving the room too). A nil
// screen has none.
func (r *roomScreen) stopTick() {
	if r != nil && r.tickStop != nil {
		close(r.tickStop)
		r.tickStop = nil
	}
}

// clockFine is the time left under which a clock is shown to the second; above it, to ten
// seconds, so that a long clock costs a frame every ten seconds, not every second.
const clockFine = 70 * time.Second

// clockShown returns how a clock with raw time left shows it (whole seconds, rounded up; above
// clockFine, whole tens of seconds) and how long until it shows another value.
func clockShown(raw time.Duration) (shown, next time.Duration) {
	if raw <= 0 {
		return 0, 0
	}
	step := time.Second
	if raw > clockFine {
		step = 10 * time.Second
	}
	shown = (raw + step - 1) / step * step
	next = raw - (shown - step)
	if raw > clockFine && shown-step < clockFine {
		next = raw - clockFine // from there on, every second
	}
	return shown, next
}

func (r *roomScreen) countingDown() bool {
	return (r.snap.Phase == rooms.Playing && !r.snap.Clock.Ends.IsZero()) || r.countingAway()
}

// countingAway reports whether a dropped seat's countdown is showing.
func (r *roomScreen) countingAway() bool {
	for _, s := range r.snap.Seats {
		if !s.GraceUntil.IsZero() && !s.Abandoned && !s.Connected {
			return true
		}
	}
	return false
}

// closedReason says why the subscription ended.
func (r *roomScreen) closedReason() string {
	switch {
	case r.snap.Replaced:
		return "You opened this room from another terminal; this one left it."
	case r.snap.Notice != "":
		return r.snap.Notice
	}
	return "The room has closed."
}

// say puts msg on the message line, on one line: a game's notation help may have two.
func (r *roomScreen) say(msg string, isErr bool) {
	r.msg, r.msgErr = strings.ReplaceAll(msg, "\n", " "), isErr
}

// errorLife is how long an error stays under the board when no key comes to clear it.
const errorLife = 6 * time.Second

// errExpiredMsg clears the error line, if it still shows the error seq (roomScreen.errSeq).
type errExpiredMsg struct{ seq int }

// fail shows an error under the board; it goes at the player's next key, or after errorLife (the
// command returned is its timer: one short-lived tick, no goroutine kept).
func (r *roomScreen) fail(msg string) tea.Cmd {
	r.say(msg, true)
	r.errSeq++
	seq := r.errSeq
	return tea.Tick(errorLife, func(time.Time) tea.Msg { return errExpiredMsg{seq} })
}

// resize tells the room screen the screen's size; the model calls it before every update.
func (r *roomScreen) resize(w, h int) { r.w, r.h = w, h }

// rulesSize is the rules pager's size on a w x h screen: the whole body but its title line, with
// a margin of two columns.
func rulesSize(w, h int) (int, int) { return w - 2, h - 4 }

// update handles a message; leave reports that the player goes back to the lobby.
func (r *roomScreen) update(msg tea.Msg) (cmd tea.Cmd, leave bool) {
	// The body (header, board, panel) is drawn again only when it may have changed: a new
	// snapshot (apply), a countdown's tick, the rules' scroll, or a key or click the board takes.
	// Prompts, replies to moves and other messages change only the lines below it.
	switch msg := msg.(type) {
	case tickMsg:
		if msg.gen != r.tickGen {
			return nil, false // sent before a newer tick was asked for: that one draws
		}
		r.tickStop = nil      // this tick's goroutine has returned
		r.cache.valid = false // the panel's clock: the board's column stays
		return r.tick(), false
	case errExpiredMsg:
		if msg.seq == r.errSeq && r.msgErr {
			r.say("", false)
		}
		return nil, false
	case moveDoneMsg:
		if msg.err != nil {
			return r.fail(sentence(msg.err.Error())), false
		} else if r.msgErr {
			r.say("", false)
		}
		return nil, false
	case actionMsg:
		if msg.err != nil {
			return r.fail(sentence(msg.err.Error())), false
		}
		return nil, false
	}
	if !r.have {
		return nil, false
	}
	switch msg.(type) {
	case tea.KeyPressMsg, tea.MouseClickMsg:
		if r.msgErr { // an error is about what was done before; the next action clears it
			r.say("", false)
		}
	}
	switch r.focus {
	case focusChat, focusPrompt:
		return r.updateInput(msg), false
	case focusRules:
		if km, ok := msg.(tea.KeyPressMsg); ok {
			r.cache.invalidate()
			r.rules.setSize(rulesSize(r.w, r.h))
			switch {
			case r.rules.update(km):
			case key.Matches(km, r.keys.Rules), key.Matches(km, r.keys.Cancel), km.String() == "q":
				r.focus = focusBoard
			}
		}
		return nil, false
	}
	if click, ok := msg.(tea.MouseClickMsg); ok {
		r.cache.invalidate()
		// The board is drawn from the screen's second line.
		click.Y--
		click.X -= r.boardX
		if mv := r.board.Handle(click, &r.snap); mv != "" {
			return r.move(mv), false
		}
		return nil, false
	}
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	k := r.keys
	if confirming := r.resigning; confirming {
		r.resigning = false
		if key.Matches(km, k.Resign) {
			r.say("", false)
			return actionCmd(r.sub.Resign), false
		}
		r.say("You play on.", false)
		return nil, false
	}
	if t, ok := r.board.(draw.KeyTaker); ok && t.TakesKey(km, &r.snap) {
		r.cache.invalidate()
		if mv := r.board.Handle(km, &r.snap); mv != "" {
			return r.move(mv), false
		}
		return nil, false
	}
	switch {
	case key.Matches(km, k.Resign) && r.playing():
		r.resigning = true
		if len(r.snap.Moves) == 0 {
			r.say("Abort the match? Nobody has moved: it ends unrated. R again to abort, any other key to go on.", false)
		} else {
			r.say("Resign? R again to resign, any other key to play on.", false)
		}
		return nil, false
	case key.Matches(km, k.Draw) && r.playing():
		if i := 1 - int(r.snap.You); len(r.snap.Seats) == 2 && r.snap.Seats[i].DrawOffer {
			r.say("You accept the draw.", false)
		} else {
			r.say("You offer a draw; it stands until your opponent moves.", false)
		}
		return actionCmd(r.sub.OfferDraw), false
	case key.Matches(km, k.TakeBack) && r.playing():
		if slices.ContainsFunc(r.snap.Seats, func(s rooms.SeatInfo) bool { return s.TakeBack }) {
			r.say("You agree to the takeback.", false)
		} else {
			r.say("You ask to take back your last move.", false)
		}
		return actionCmd(r.sub.TakeBack), false
	case key.Matches(km, k.Leave):
		return nil, true
	case key.Matches(km, k.Prompt):
		r.focus, r.input = focusPrompt, newLineInput("move: ", rooms.MaxMove)
		r.cache.invalidate() // the notation shows under the board while the prompt is open
		return nil, false
	case key.Matches(km, k.Chat):
		r.focus, r.input = focusChat, newLineInput("chat: ", 200)
		return nil, false
	case key.Matches(km, k.Moves):
		r.showMoves = !r.showMoves
		r.cache.invalidate()
		return nil, false
	case key.Matches(km, k.Rules):
		r.focus = focusRules
		r.cache.invalidate()
		r.rules = newTextPager(r.rulesText())
		r.rules.setSize(rulesSize(r.w, r.h))
		return nil, false
	case key.Matches(km, k.Level):
		r.cycleLevel()
		return nil, false
	case key.Matches(km, k.Bot):
		return r.seatBot(), false
	case key.Matches(km, k.End) && r.anyAbandoned():
		return actionCmd(r.sub.EndMatch), false
	case key.Matches(km, k.Replay) && r.snap.Phase == rooms.Finished && r.snap.Result.MatchID != "":
		id := r.snap.Result.MatchID
		return func() tea.Msg { return openReplayMsg{id} }, false
	case key.Matches(km, k.Rematch) && r.snap.Phase == rooms.Finished && r.snap.You != rules.Spectator:
		r.say("You asked for a rematch; waiting for the others.", false)
		return actionCmd(r.sub.Rematch), false
	}
	r.cache.invalidate() // the board may move its cursor or selection
	if mv := r.board.Handle(km, &r.snap); mv != "" {
		return r.move(mv), false
	}
	return nil, false
}

// move proposes mv to the room after the moves this screen sent before it (moveCmd).
func (r *roomScreen) move(mv string) tea.Cmd {
	done := make(chan struct{})
	cmd := moveCmd(r.sub, mv, r.lastMove, done)
	r.lastMove = done
	return cmd
}

// updateInput handles a message while the chat or move prompt is open. Keys go to the prompt
// only: enter sends, esc cancels, and up and down (keys meant for the board) close it without
// sending, so that nothing meant for the game goes out as chat.
func (r *roomScreen) updateInput(msg tea.Msg) tea.Cmd {
	if km, ok := msg.(tea.KeyPressMsg); ok && (key.Matches(km, r.keys.Cancel) || key.Matches(km, r.keys.CloseInput)) {
		r.focus = focusBoard
		r.cache.invalidate()
		r.say("", false)
		return nil
	}
	if !r.input.update(msg) {
		return nil
	}
	text := r.input.text()
	f := r.focus
	r.focus = focusBoard
	r.cache.invalidate()
	if text == "" {
		r.say("", false)
		return nil
	}
	if f == focusChat {
		return actionCmd(func() error { return r.sub.Chat(text) })
	}
	r.say("", false)
	return r.move(text)
}

// sentence makes an error's text a sentence for the message line: a capital first letter and a
// full stop, as the screen's own messages are.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "?") {
		s += "."
	}
	return s
}

func (r *roomScreen) game() (rules.Game, bool) {
	for _, g := range r.games {
		if g.ID == r.snap.GameID {
			return g, true
		}
	}
	return rules.Game{}, false
}

// withNotation draws the game's notation over the last lines of left (the board's column, w x h),
// above a blank line, for the move prompt.
func (r *roomScreen) withNotation(st draw.Styles, left []string, w, h int) []string {
	help := append([]string{""}, draw.Wrap(r.notationHelp(), w)...)
	out := make([]string, max(len(left), h))
	copy(out, left)
	at := max(0, h-len(help))
	for i, l := range help {
		if at+i < len(out) {
			out[at+i] = st.Dim.Render(l)
		}
	}
	return out
}

func (r *roomScreen) notationHelp() string {
	if g, ok := r.game(); ok && g.Notation != "" {
		return g.Notation
	}
	return "Type a move and press enter."
}

func (r *roomScreen) levelName() string {
	g, ok := r.game()
	if !ok || len(g.Bots) == 0 {
		return ""
	}
	if r.level < 0 || r.level >= len(g.Bots) {
		r.level = len(g.Bots) / 2
	}
	return g.Bots[r.level].Name
}

func (r *roomScreen) cycleLevel() {
	g, ok := r.game()
	if !ok || len(g.Bots) == 0 {
		return
	}
	r.levelName()
	r.level = (r.level + 1) % len(g.Bots)
	r.say("Bot level: "+g.Bots[r.level].Name, false)
}

func (r *roomScreen) anyAbandoned() bool {
	return r.snap.Phase == rooms.Playing && slices.ContainsFunc(r.snap.Seats, func(s rooms.SeatInfo) bool { return s.Abandoned })
}

// seatBot gives a free seat (before the match) or an abandoned one (during it) to a bot.
func (r *roomScreen) seatBot() tea.Cmd {
	level := r.levelName()
	for i, s := range r.snap.Seats {
		free := r.snap.Phase == rooms.Waiting && s.Empty
		lost := r.snap.Phase == rooms.Playing && s.Abandoned
		if free || lost {
			seat := rules.Seat(i)
			r.say(fmt.Sprintf("A %s bot takes the %s seat.", level, colourOf(r.board, i)), false)
			return actionCmd(func() error { return r.sub.AddBot(seat, level) })
		}
	}
	return r.fail("There is no free seat for a bot.")
}

// view draws the room.
func (r *roomScreen) view(st draw.Styles, w, h int) string {
	return strings.Join(r.viewLines(st, w, h), "\n")
}

// viewLines draws the room as lines: the body's, kept from frame to frame while it does not change,
// then the message line and the help line. The slice is new at every call.
func (r *roomScreen) viewLines(st draw.Styles, w, h int) []string {
	if !r.have {
		return []string{"", "  Entering the room…"}
	}
	msg := r.messageLines(st, w)
	body := r.body(st, w, h-len(msg)+1)
	lines := make([]string, 0, len(body)+len(msg)+1)
	return append(append(append(lines, body...), msg...), r.help(st, w))
}

// frameCache keeps what a frame drew that the next one may draw again: the header, board and
// panel (unchanged while the player types at a prompt), and the board's column alone (unchanged
// when only the panel's clock ticked).
type frameCache struct {
	lines []string // the body's lines
	buf   []byte   // scratch space for the body's text, reused from one drawing to the next
	w, h  int
	valid bool

	left                   []string // the board's column, before a prompt's notation
	boardW, panelW, margin int
	leftOK                 bool
}

// invalidate has the next frame draw the body again, the board's column too.
func (c *frameCache) invalidate() { c.valid, c.leftOK = false, false }

// body draws the header, the board and the side panel, or returns their lines as last drawn when
// nothing they show has changed since.
func (r *roomScreen) body(st draw.Styles, w, h int) []string {
	c := &r.cache
	if c.valid && c.w == w && c.h == h {
		return c.lines
	}
	s := &r.snap
	bodyH := h - 3
	left, boardW, panelW, margin := c.left, c.boardW, c.panelW, c.margin
	if r.focus != focusRules && (!c.leftOK || c.w != w || c.h != h) {
		// The board first: a board may learn from the view what its seats are called (SeatLabeler),
		// which the header says.
		left, boardW, panelW, margin = boardColumn(w, func(width int) []string {
			if s.Phase == rooms.Waiting {
				return r.waitingLines(st, width)
			}
			return r.board.View(s, st, width, bodyH)
		})
		left = slices.Clone(left) // a board may draw its next lines in the same slice
		c.left, c.boardW, c.panelW, c.margin, c.leftOK = left, boardW, panelW, margin, true
	}
	header := st.Title.Render(s.GameName) + st.Dim.Render(" · room ") + st.Bold.Render(s.Code) +
		st.Dim.Render(" · "+s.Phase.String())
	right := "watching"
	if s.You != rules.Spectator {
		right = fmt.Sprintf("you: %s (%s)", r.me.Name, seatTag(r.board, st, int(s.You)))
	}
	buf := draw.AppendFit(c.buf[:0], header, w-draw.TextWidth(right)-1)
	buf = append(append(append(buf, ' '), right...), '\n')

	if r.focus == focusRules {
		// The rules take the whole body, the panel's columns too, so that their lines fit.
		for _, l := range r.rulesLines(st, w, bodyH) {
			buf = append(draw.AppendFit(buf, l, w), '\n')
		}
	} else {
		if r.focus == focusPrompt {
			left = r.withNotation(st, left, boardW, bodyH)
		}
		panel := r.panel(st, panelW, bodyH)
		r.boardX = margin
		for i := range bodyH {
			buf = append(buf, draw.Spaces(margin)...)
			buf = draw.AppendFit(buf, lineAt(left, i), boardW)
			buf = draw.AppendFit(append(buf, ' '), lineAt(panel, i), panelW)
			buf = append(buf, '\n')
		}
	}
	// The body's lines, each the string of the last body when it has not changed: a move
	// changes a few lines, and the others cost nothing. (viewLines copies the lines out, so
	// they can be replaced here in place.)
	lines := c.lines
	i := 0
	for rest := buf; len(rest) > 0; i++ {
		n := bytes.IndexByte(rest, '\n')
		lines, rest = draw.KeepLine(lines, i, rest[:n]), rest[n+1:]
	}
	c.lines, c.buf, c.w, c.h, c.valid = lines[:i], buf, w, h, true
	return c.lines
}

// messageLines draw the line under the board: the open prompt, or the last message. A message too
// long for one line takes two (the body gives up its last line), and an error up to
// errorLines (a word game's notation error tells what is wrong and how to write a move), so that
// its hint is read whole; only a message longer still is cut.
func (r *roomScreen) messageLines(st draw.Styles, w int) []string {
	switch r.focus {
	case focusChat, focusPrompt:
		return []string{draw.Fit(" "+r.input.view(st, w-2), w)}
	}
	if r.msg == "" {
		return []string{draw.Fit("", w)}
	}
	text, style, indent := r.msg, draw.Paint{}, " "
	if r.msgErr {
		text, style, indent = "✗ "+r.msg, st.Err, "   "
	}
	lines := wrapKeepingParens(text, w-len(indent)) // the lines after the first are indented
	most := 2
	if r.msgErr {
		most = errorLines
	}
	if len(lines) > most {
		lines = append(lines[:most-1], strings.Join(lines[most-1:], " "))
	}
	out := []string{draw.Fit(" "+style.Render(lines[0]), w)}
	for _, l := range lines[1:] {
		out = append(out, draw.Fit(indent+style.Render(l), w))
	}
	return out
}

// errorLines is the most lines an error under the board takes.
const errorLines = 5

// helpKeys appends the bindings the help line shows to out and returns it.
func (r *roomScreen) helpKeys(out []key.Binding) []key.Binding {
	k := r.keys
	switch r.focus {
	case focusChat, focusPrompt:
		return append(out, k.Send, k.Cancel, k.CloseInput)
	case focusRules:
		return append(append(out, r.rules.bindings()...), withHelp(k.Cancel, "close"))
	}
	s := &r.snap
	seated := s.You != rules.Spectator
	// A gone player's keys come first: the line is cut at its end when it is too long, and these
	// are the ones the player must find.
	if r.anyAbandoned() && seated {
		out = append(out, withHelp(k.Bot, "bot takes over"), k.End)
	}
	if seated && s.Phase == rooms.Playing && !r.anyAbandoned() {
		// (While a player is gone the board's keys make way for b and x: the line has no room
		// for all, and the hint under the board still says how to play.)
		if h, ok := r.board.(draw.KeyHelper); ok {
			out = append(out, h.HelpKeys(s)...)
		} else {
			out = append(out, r.board.Bindings()...)
		}
		out = append(out, k.Prompt)
	}
	if h, ok := r.board.(draw.KeyHelper); ok && !seated && s.Phase == rooms.Playing {
		out = append(out, h.HelpKeys(s)...) // a spectator's: the keys that look (Flic Flac's cursor)
	}
	if seated && s.Phase == rooms.Waiting && slices.ContainsFunc(s.Seats, func(x rooms.SeatInfo) bool { return x.Empty }) {
		out = append(out, k.Bot, k.Level)
	}
	if seated && s.Phase == rooms.Finished {
		out = append(out, k.Rematch)
	}
	if s.Phase == rooms.Finished && s.Result.MatchID != "" {
		out = append(out, k.Replay)
	}
	if t, ok := r.board.(draw.KeyTaker); !ok || !t.TakesKey(chatKey, s) {
		out = append(out, k.Chat) // not while the board takes t (a letter tile)
	}
	return append(out, k.Rules, k.Leave) // (tab is told on the panel's rule)
}

// chatKey is the chat key's press, which a board may take (draw.KeyTaker).
var chatKey = tea.KeyPressMsg{Code: 't', Text: "t"}

// panel draws the side panel: seats and scores, the game's status, then chat and log.
func (r *roomScreen) panel(st draw.Styles, w, h int) []string {
	s := &r.snap
	var lines []string
	for i, seat := range s.Seats {
		mark := " "
		if slices.Contains(s.ToMove, rules.Seat(i)) && s.Phase == rooms.Playing {
			mark = st.TurnMark()
		}
		name, extra := seat.Name, ""
		switch {
		case seat.Empty:
			name = st.Dim.Render("(free seat)")
		case seat.Bot != "":
			name = st.Dim.Render(name)
		case seat.Abandoned:
			extra += st.Err.Render(" gone")
		case !seat.Connected && !seat.GraceUntil.IsZero():
			left := time.Until(seat.GraceUntil).Round(time.Second)
			extra += st.Err.Render(fmt.Sprintf(" away %d:%02d", int(left.Minutes()), int(left.Seconds())%60))
		}
		if rules.Seat(i) == s.You {
			extra += st.Dim.Render(" (you)")
		}
		if s.Phase == rooms.Finished && seat.Rematch {
			extra += st.OK.Render(" ✓again")
		}
		if s.Phase == rooms.Playing && seat.DrawOffer {
			extra += st.OK.Render(" offers a draw")
		}
		if seat.Resigned {
			extra += st.Dim.Render(" resigned")
		}
		if s.Phase == rooms.Playing && seat.TakeBack {
			extra += st.OK.Render(" takeback?")
		}
		score := ""
		if s.Phase != rooms.Waiting {
			score = r.board.Score(s, i)
		}
		lines = append(lines, r.seatLines(st, i, mark, name, extra, score, w)...)
	}
	if s.Spectators > 0 {
		lines = append(lines, st.Dim.Render(fmt.Sprintf("  %d watching", s.Spectators)))
	}
	lines = append(lines, "")
	switch s.Phase {
	case rooms.Finished:
		lines = append(lines, r.result(st, w)...)
	case rooms.Playing:
		lines = append(lines, r.turnLines(st, w)...)
	}
	if s.Phase != rooms.Waiting {
		lines = append(lines, r.board.Status(s, st, w)...)
	}
	if r.anyAbandoned() {
		lines = append(lines, st.Err.Render("A player has gone."), "b: a bot takes the seat", "x: end the match unrated")
	}
	if s.Unrated {
		for _, l := range draw.Wrap("Ended unrated: "+s.Outcome.Reason, w) {
			lines = append(lines, st.Dim.Render(l))
		}
	}
	// Chat and log, or the moves, fill the rest, newest last, under a rule that says which and
	// how to see the other (the help line has no room left for tab).
	switch {
	case r.replaying:
		lines = append(lines, st.Dim.Render(strings.Repeat("─", w)))
	case r.showMoves:
		lines = append(lines, panelRule(st, "moves · tab: chat", w))
		return append(lines, r.movesTail(st, w, h-len(lines))...)
	default:
		lines = append(lines, panelRule(st, "tab: moves", w))
	}
	return append(lines, r.chatTail(st, w, h-len(lines))...)
}

// panelRule draws the rule across the panel with a label near its right end: "──── tab: moves ─".
func panelRule(st draw.Styles, label string, w int) string {
	label = " " + label + " "
	if draw.TextWidth(label)+2 > w {
		return st.Dim.Render(strings.Repeat("─", w))
	}
	return st.Dim.Render(strings.Repeat("─", w-draw.TextWidth(label)-1) + label + "─")
}

// movesTail draws the last moves of the match that fit in room lines of w columns ("12. Red b
// a3"; a long one goes on, indented, on the next line), in the notation the game takes. A move that
// shows what only its mover may know is shown to the others as they may read it
// (MoveRecord.Public).
func (r *roomScreen) movesTail(st draw.Styles, w, room int) []string {
	moves := r.snap.Moves
	if room <= 0 {
		return nil
	}
	if len(moves) == 0 {
		return []string{st.Dim.Render("No moves yet.")}
	}
	var tail []string // newest first, each move's lines in reverse
	for i := len(moves) - 1; i >= 0 && len(tail) < room; i-- {
		mv := moves[i]
		text := mv.Move
		if mv.Public != "" && mv.Seat != r.snap.You {
			text = mv.Public
		}
		prefix := fmt.Sprintf("%3d. %s ", i+1, seatTag(r.board, st, int(mv.Seat)))
		first, rest := breakNotation(text, w-draw.TextWidth(prefix))
		lines := []string{prefix + first}
		for rest != "" {
			var l string
			l, rest = breakNotation(rest, max(w-5, 8))
			lines = append(lines, "     "+l)
		}
		if len(tail)+len(lines) > room && len(tail) > 0 {
			break // whole moves only
		}
		for j := len(lines) - 1; j >= 0; j-- {
			tail = append(tail, lines[j])
		}
	}
	slices.Reverse(tail)
	return tail[max(0, len(tail)-room):]
}

// seatLines draw seat i's line of the panel: mark, label, name and its extra notes ("away 1:30",
// "(you)", "✓again"), score on the right. When they do not fit on one line, the notes go to a
// second line under the name, so that neither the name nor a note is cut.
func (r *roomScreen) seatLines(st draw.Styles, i int, mark, name, extra, score string, w int) []string {
	label := mark + r.seatLabel(st, i) + " "
	room := w - len(score) - 1
	indent := draw.Spaces(draw.TextWidth(label) - 1)
	first := func(s string) string { return draw.Fit(s, room) + " " + st.Bold.Render(score) }
	switch {
	case draw.TextWidth(label+name+extra) <= room:
		return []string{first(label + name + extra)}
	case draw.TextWidth(label+name) <= room:
		return []string{first(label + name), draw.Fit(indent+extra, w)}
	case draw.TextWidth(indent+name+extra) <= w:
		return []string{first(label), draw.Fit(indent+name+extra, w)}
	}
	lines := []string{first(label), draw.Fit(indent+name, w)}
	if extra != "" {
		lines = append(lines, draw.Fit(indent+extra, w))
	}
	return lines
}

// chatTail is the end of the chat that fits in room lines: whole messages, the newest last. A
// newest message longer than room shows its first lines.
func (r *roomScreen) chatTail(st draw.Styles, w, room int) []string {
	chat := r.chatLines(st, w)
	switch {
	case room <= 0:
		return nil
	case len(chat) <= room:
		return chat
	}
	starts := r.chat.starts
	for _, i := range starts {
		if len(chat)-i <= room {
			return chat[i:]
		}
	}
	last := starts[len(starts)-1]
	return chat[last : last+room]
}

// turnLines say whose turn it is, the same way in every game: "Your turn", or "Waiting for" the
// seats to move (to a watcher: "bob (Blue) is to move"), with what the game says there is to do
// (draw.TurnTeller).
func (r *roomScreen) turnLines(st draw.Styles, w int) []string {
	s := &r.snap
	if len(s.ToMove) == 0 {
		return nil
	}
	var yours, theirs string
	if t, ok := r.board.(draw.TurnTeller); ok {
		yours, theirs = t.TurnText(s)
	}
	if s.You != rules.Spectator && slices.Contains(s.ToMove, s.You) {
		if yours == "" {
			return append([]string{st.OK.Render("Your turn.")}, r.clockLines(st, w)...)
		}
		return append(wrapKeepingParens(st.OK.Render("Your turn:")+" "+yours, w), r.clockLines(st, w)...)
	}
	names := make([]string, 0, len(s.ToMove))
	for _, i := range s.ToMove {
		if int(i) < len(s.Seats) {
			names = append(names, nameWithTag(s.Seats[i].Name, seatTag(r.board, st, int(i))))
		}
	}
	who := strings.Join(names, " and ")
	var text string
	switch {
	case s.You != rules.Spectator && theirs != "":
		text = "Waiting for " + who + " " + theirs + "."
	case s.You != rules.Spectator:
		text = "Waiting for " + who + "."
	default: // a watcher waits for nobody
		if theirs == "" {
			theirs = "to move"
		}
		verb := " is "
		if len(names) > 1 {
			verb = " are "
		}
		text = who + verb + theirs + "."
	}
	return append(wrapKeepingParens(text, w), r.clockLines(st, w)...)
}

// breakNotation cuts from s, a move in notation, the longest head that fits in width columns,
// after a space or a comma when it can ("h6 dissembling sw,se," and "e,ne"), and returns it with
// the rest.
func breakNotation(s string, width int) (head, rest string) {
	if draw.TextWidth(s) <= width {
		return s, ""
	}
	runes := []rune(s)
	cut := min(max(width, 1), len(runes))
	for i := cut; i > 0; i-- {
		if runes[i-1] == ' ' || runes[i-1] == ',' {
			cut = i
			break
		}
	}
	return strings.TrimRight(string(runes[:cut]), " "), strings.TrimLeft(string(runes[cut:]), " ")
}

// clockWarning is the time left under which a turn's clock is drawn as a warning.
const clockWarning = 30 * time.Second

// clockLines end the turn lines: the time the timed turn has left, when the game times its turns
// ("2:41 left for your turn"; "2:41 left" under "Waiting for bob (Blue)."; "bob (Blue) has 2:41"
// when others are waited for too), then a blank line.
func (r *roomScreen) clockLines(st draw.Styles, w int) []string {
	c := r.snap.Clock
	if c.Ends.IsZero() || int(c.Seat) >= len(r.snap.Seats) {
		return []string{""}
	}
	if !c.Ends.Equal(r.turnEnds) {
		r.turnEnds, r.turnLong = c.Ends, time.Until(c.Ends)
	}
	clock := clockTextWarning(st, time.Until(c.Ends), min(clockWarning, r.turnLong/4))
	text := clock + " left for your turn"
	switch {
	case c.Seat == r.snap.You:
	case len(r.snap.ToMove) == 1 && r.snap.ToMove[0] == c.Seat:
		text = clock + " left" // the line above names them: "Waiting for bob (Blue)."
	default:
		text = r.snap.Seats[c.Seat].Name + " (" + seatTag(r.board, st, int(c.Seat)) + ") has " + clock
	}
	lines := wrapKeepingParens(text, w)
	// A game clock: every player's time, the running one's ticking.
	if s := &r.snap; s.TimeControl.Game > 0 && len(s.Times) == len(s.Seats) {
		parts := make([]string, len(s.Times))
		for i, t := range s.Times {
			if rules.Seat(i) == c.Seat {
				t = time.Until(c.Ends)
			}
			parts[i] = seatTag(r.board, st, i) + " " + clockText(st, t)
		}
		lines = append(lines, draw.Wrap(strings.Join(parts, " · "), w)...)
	}
	return append(lines, "")
}

// clockText writes a time left as a clock shows it (clockShown), "2:40", in bold, or as a warning
// when it runs short.
func clockText(st draw.Styles, raw time.Duration) string {
	return clockTextWarning(st, raw, clockWarning)
}

// clockTextWarning is clockText warning from warn on.
func clockTextWarning(st draw.Styles, raw, warn time.Duration) string {
	left, _ := clockShown(raw)
	clock := fmt.Sprintf("%d:%02d", int(left.Minutes()), int(left.Seconds())%60)
	if left <= warn {
		return st.Err.Render(clock)
	}
	return st.Bold.Render(clock)
}

// wrapKeepingParens wraps s (which may hold styles) at spaces to width columns as draw.Wrap does,
// but breaks no line inside parentheses or just before them, nor inside double quotes: "pick a
// stack (1, 2 or 3)" never leaves "3)" alone, nor "Bo (greedy bot)" its "(greedy", nor "seat 2"
// its "2", nor an example of notation ("R3 c4-d6") its second half. When that cannot fit (a
// bracket or a quote too long, or never closed), it wraps as draw.Wrap does.
func wrapKeepingParens(s string, width int) []string {
	lines := wrapParens(s, width)
	for _, l := range lines {
		if draw.TextWidth(l) > width {
			return draw.Wrap(s, width)
		}
	}
	return lines
}

func wrapParens(s string, width int) []string {
	var words []string
	depth, quoted := 0, false
	for _, f := range strings.Fields(s) {
		// A bracket stays with the word before it too: "Bo (greedy bot)", "draw (d)".
		if depth > 0 || quoted || strings.HasPrefix(f, "(") && len(words) > 0 {
			words[len(words)-1] += " " + f
		} else {
			words = append(words, f)
		}
		depth = max(0, depth+strings.Count(f, "(")-strings.Count(f, ")"))
		quoted = quoted != (strings.Count(f, `"`)%2 == 1)
	}
	// A short last word stays with the one before it: "takes seat 2" leaves no "2" alone.
	if n := len(words); n > 1 && draw.TextWidth(words[n-1]) <= 3 {
		words = append(words[:n-2], words[n-2]+" "+words[n-1])
	}
	return draw.Fill(words, width)
}

// chatCache holds the chat as last wrapped for the panel: the panel is drawn again at every
// snapshot, and the chat changes far less often (a room replaces its chat slice, never changes
// it). It is keyed by the chat and the width; the styles are the session's, one set for good.
type chatCache struct {
	from   []rooms.ChatLine
	w      int
	lines  []string
	starts []int // the index in lines of each message's first line
}

// chatLines returns the snapshot's chat wrapped to w columns, oldest first. The result is shared
// with the cache: callers must not modify it.
func (r *roomScreen) chatLines(st draw.Styles, w int) []string {
	c := &r.chat
	if c.lines != nil && c.w == w && slices.Equal(c.from, r.snap.Chat) {
		return c.lines
	}
	var lines []string
	var starts []int
	for _, l := range r.snap.Chat {
		starts = append(starts, len(lines))
		if l.From == "" {
			lines = append(lines, wrapKeepingParens(st.Dim.Render("· ")+l.Text, w)...)
		} else {
			lines = append(lines, draw.Wrap(st.Bold.Render(l.From+":")+" "+l.Text, w)...)
		}
	}
	*c = chatCache{from: r.snap.Chat, w: w, lines: lines, starts: starts}
	return lines
}

// seatLabel draws seat i's letter and colour name in its colour, eight columns for the panel:
// "R Red   ". Each seat's is drawn once for the room's board (a room screen lives in one session,
// with one set of styles).
func (r *roomScreen) seatLabel(st draw.Styles, i int) string {
	for len(r.labels) <= i {
		r.labels = append(r.labels, "")
	}
	if r.labels[i] == "" {
		letter, colour := labelOf(r.board, i)
		label := letter + " " + fmt.Sprintf("%-6s", colour)
		if letter == "" {
			label = fmt.Sprintf("%-8s", colour)
		}
		r.labels[i] = seatStyleOf(r.board, st, i).Render(label)
	}
	return r.labels[i]
}

// result says who won, or alone, the score.
func (r *roomScreen) result(st draw.Styles, w int) []string {
	s := &r.snap
	win := s.Outcome.Winners()
	var names []string
	for _, i := range win {
		names = append(names, winnerName(seatTag(r.board, st, int(i)), s.Seats[i].Name))
	}
	var head string
	switch {
	case s.Unrated:
		head = "Match ended."
	case len(s.Seats) == 1 && len(s.Outcome.Scores) == 1: // alone: a score, not a win
		head = fmt.Sprintf("%s scored %d.", s.Seats[0].Name, s.Outcome.Scores[0])
	case len(win) == len(s.Seats):
		head = "A draw!"
	case len(win) == 1:
		head = names[0] + " wins!"
	default:
		head = strings.Join(names, " and ") + " share the win!"
	}
	lines := append([]string{st.Title.Render("GAME OVER")}, wrapKeepingParens(head, w)...)
	if s.Outcome.Reason != "" && !s.Unrated {
		for _, l := range draw.Wrap(s.Outcome.Reason, w) { // Flic Flac's is long
			lines = append(lines, st.Dim.Render(l))
		}
	}
	lines = append(lines, r.ratingLines(st, w)...)
	if id := s.Result.MatchID; id != "" {
		lines = append(lines, st.Dim.Render(draw.Fit("match "+id+" · v replay", w)))
	}
	return append(lines, "")
}

// nameWithTag names a seat's player with its tag in brackets, "bob (Blue)"; a name that ends in
// brackets of its own, a bot's, takes the tag inside them: "Bo (greedy bot, Blue)", not nested.
func nameWithTag(name, tag string) string {
	if base, ok := strings.CutSuffix(name, ")"); ok && strings.Contains(base, "(") {
		return base + ", " + tag + ")"
	}
	return name + " (" + tag + ")"
}

// winnerName names a winning seat on the result line by its tag, with its player's name in
// brackets: "Red (ann) wins!". A name with brackets of its own, a bot's ("Ada (greedy bot)"), is
// set off with commas instead, not nested: "Blocks, Ada (greedy bot), wins!".
func winnerName(tag, name string) string {
	if strings.ContainsAny(name, "()") {
		return tag + ", " + name + ","
	}
	return tag + " (" + name + ")"
}

// ratingLines say what the match did to each rated player's rating: "ann 1662? → 1674 (+12)".
func (r *roomScreen) ratingLines(st draw.Styles, w int) []string {
	s := &r.snap
	var lines []string
	for i, c := range s.Result.Ratings {
		if !c.Rated || i >= len(s.Seats) {
			continue
		}
		change := fmt.Sprintf("%s → %s (%+d)", shownRating(c.Before, c.BeforeProvisional),
			shownRating(c.After, c.Provisional), int(math.Round(c.After))-int(math.Round(c.Before)))
		name := s.Seats[i].Name
		if room := max(w-draw.TextWidth(change)-1, 4); draw.TextWidth(name) > room {
			name = draw.Fit(name, room)
		}
		lines = append(lines, name+" "+st.Bold.Render(change))
	}
	return lines
}

// shownRating writes a rating as the leaderboards do: "1674", "1662?" while provisional.
func shownRating(r float64, provisional bool) string {
	s := strconv.Itoa(int(math.Round(r)))
	if provisional {
		s += "?"
	}
	return s
}

// rulesText is the rules of the room's game.
func (r *roomScreen) rulesText() string {
	text := "No rules for this game.\n"
	if g, ok := r.game(); ok && g.Rules != "" {
		text = g.Rules
	}
	return strings.TrimRight(text, "\n") + "\n" + roomKeysText
}

// roomKeysText ends every game's rules in the room: the keys of the room itself.
const roomKeysText = `
IN EVERY ROOM
  :    type a move in the game's notation     t    chat
  tab  the moves, or the chat again            ?    these rules
  R    resign (twice); before the first move it aborts the match, unrated
  =    offer a draw, or accept your opponent's (two players)
  U    ask to take back your last move, or agree (unrated matches)
  esc  back to the lobby; your seat waits for you while the match goes on
`

// rulesLines draws the rules pager in w x h cells: a title line, then the rules wrapped to the
// width.
func (r *roomScreen) rulesLines(st draw.Styles, w, h int) []string {
	r.rules.setSize(rulesSize(w, h+3))
	title := st.Bold.Render(r.snap.GameName + " rules")
	if pos := r.rules.position(); pos != "" {
		title += st.Dim.Render("  (" + pos + ")")
	}
	lines := make([]string, 0, h)
	lines = append(lines, title)
	for _, l := range r.rules.view(st.Sel) {
		lines = append(lines, "  "+l)
	}
	return lines
}

// waitingLines fill the board's place while seats are free: the code to give to friends.
func (r *roomScreen) waitingLines(st draw.Styles, w int) []string {
	s := &r.snap
	free := 0
	for _, seat := range s.Seats {
		if seat.Empty {
			free++
		}
	}
	lines := []string{"", st.Bold.Render("Waiting for players."), "",
		"Give your friends the room code:", "", "      " + st.Title.Render(spaced(s.Code)), "",
		"They join with:", "  " + sshCommand(r.addr, "join "+s.Code), ""}
	if free > 0 {
		lines = append(lines, fmt.Sprintf("%d seat%s free. The match starts when all are taken.", free, draw.Plural(free)))
		if s.You != rules.Spectator {
			lines = append(lines, "Alone? Press b to seat a bot (B picks its level).")
		}
	}
	return lines
}

// spaced puts a space between the letters of a code, so it reads well aloud.
func spaced(code string) string {
	return strings.Join(strings.Split(code, ""), " ")
}
