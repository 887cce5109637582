package session

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session/draw"
)

// labelOf returns seat i's letter and name as the room's board calls them.
func labelOf(b draw.Board, i int) (letter, name string) { return draw.SeatLabel(b, i) }

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

// panelWidth is the width of the side panel right of the board on a window of minRoomWidth
// columns; a wider window gives it up to panelWideWidth (a smaller one: roomlayout.go).
const panelWidth, panelWideWidth = 28, 42

// minRoomWidth is the width the room is laid out for; a wider window centres board and panel.
const minRoomWidth = fullWidth

// roomScreen is the screen of one room. It composes the board's column (the board, or the room's
// code while seats are free; the game's notation under it while the move prompt is open), the side
// panel (roomPanel, with the turn's clock, roomClock), the line under them (roomPrompt: messages,
// the move and chat lines, questions) and the help line, and hands each message to the part it is
// for (update).
type roomScreen struct {
	sub    Sub
	me     rooms.Player
	games  []rules.Game
	boards Boards
	keys   *draw.Keys // shared (roomKeyMap: the grammar of every game)
	snap   rooms.Snapshot
	have   bool
	board  draw.Board
	focus  focus
	side   roomPanel  // the panel right of the board
	clock  roomClock  // the turn's clock, drawn in the panel, and its tick
	prompt roomPrompt // the line under the board
	level  int        // bot level index for 'b'
	rules  pager      // the game's rules, while focus is focusRules
	w, h   int        // the screen's size, as the model last gave it (resize)
	// lastMove is closed when the room has answered the last move sent (nil before the first):
	// the next move waits for it, so that moves reach the room in the order they were made.
	lastMove <-chan struct{}
	// gen counts the changes of what the board and the panel show (roomParts); parts keeps what
	// the screen's parts last drew.
	gen    uint64
	parts  roomParts
	helped helpCache
	addr   string   // Config.Address
	web    WebLinks // Config.PublicURL
	linked string   // the match link the message line showed last (one message a match)
	boardX int      // the column the board starts at, as last drawn (clicks are the board's from there)
	noBell bool     // Config.NoBell
	ring   bool     // the bell rings with the next frame (FrameRaw)
	small  bool     // the board does not fit the window (layoutSmall), as last drawn: it takes no keys
	// replaying: the screen draws a replay's panel, whose chat is the replay's move list.
	replaying bool
	// moving is the wait for the room to come back on another server (follow), while it moves;
	// sub is then a movingSub.
	moving *following
	// chat sends a chat line (the session's chatLine: its commands, a mute); nil: sub.Chat.
	chat func(text string) tea.Cmd
}

// sayChat sends a chat line typed in the room.
func (r *roomScreen) sayChat(text string) tea.Cmd {
	if r.chat != nil {
		return r.chat(text)
	}
	return actionCmd(func() error { return r.sub.Chat(text) })
}

// playing reports whether the viewer holds a seat of a match being played.
func (r *roomScreen) playing() bool {
	return r.snap.Phase == rooms.Playing && r.snap.You != rules.Spectator
}

func newRoomScreen(sub Sub, me rooms.Player, games []rules.Game, boards Boards) *roomScreen {
	return &roomScreen{sub: sub, me: me, games: games, boards: boards, keys: roomKeyMap, level: -1,
		side: newRoomPanel(), prompt: newRoomPrompt()}
}

// show gives the panel and the clock what they draw: the room's snapshot, through its board.
func (r *roomScreen) show() {
	r.clock.show(&r.snap, r.board)
	r.side.show(&r.snap, r.board, &r.clock, r.replaying)
}

// apply takes a new snapshot; it asks for the clock's tick while a countdown is on screen, and
// rings the terminal's bell with the next frame when it has just become the player's turn
// (unless the bell is off).
func (r *roomScreen) apply(snap rooms.Snapshot) {
	if !r.have || r.board == nil {
		r.board = r.boards.board(snap.GameID)
		r.side.relabel()
	}
	prevPhase := r.snap.Phase
	wasMine := r.have && r.yourTurn()
	if !r.have || !sameLook(&r.snap, &snap) {
		r.gen++
	}
	r.snap, r.have = snap, true
	r.show()
	r.prompt.settle(&r.snap) // a takeback or a draw answered: its message goes
	if prevPhase != snap.Phase && snap.Phase == rooms.Playing {
		r.prompt.say("", false)
		r.side.relabel()              // a new match may name the seats otherwise (Flic Flac's shapes)
		r.side.showSpectators = false // a new match's foot shows its chat first
	}
	if link := r.web.Match(snap.Result.MatchID); link != "" && snap.Phase == rooms.Finished && link != r.linked {
		r.linked = link
		r.prompt.say("On the web: "+link, false) // the end screen's link, until the next message
	}
	if !wasMine && r.yourTurn() && !r.noBell {
		r.ring = true
	}
	r.clock.tick()
}

// bell is the terminal's bell (BEL), rung when it becomes the player's turn.
const bell = "\a"

// FrameRaw sends the terminal's bell with the frame, when it has become the player's turn since
// the last frame (teaframe.RawFramer): written with the frame, the bell costs no command (a
// tea.Raw batched with other commands would start several goroutines at every turn).
func (m Model) FrameRaw() string {
	raw := m.ring
	m.ring = ""
	if r := m.room; r != nil && r.ring {
		r.ring = false
		if raw == "" {
			return bell
		}
		raw = bell + raw
	}
	return raw
}

// yourTurn reports whether the snapshot shows a match in which the viewer may act now.
func (r *roomScreen) yourTurn() bool {
	s := &r.snap
	return s.Phase == rooms.Playing && s.You != rules.Spectator && slices.Contains(s.ToMove, s.You)
}

// title is the terminal window's title for the room: "your move · Stone Towers · K7QXM" while the
// viewer may act, else the game and the code.
func (r *roomScreen) title() string {
	ps := &r.parts
	if k := (titleKey{game: r.snap.GameName, code: r.snap.Code}); ps.title == "" || ps.titleOf != k {
		ps.title, ps.titleOf = k.game+" · "+k.code, k
		ps.yourTitle = "your move · " + ps.title
	}
	if r.yourTurn() {
		return ps.yourTitle
	}
	return ps.title
}

// stopTick stops the clock's tick on its way, if one is (on leaving the room). A nil screen has
// none.
func (r *roomScreen) stopTick() {
	if r != nil {
		r.clock.stopTick()
	}
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

// fail shows an error under the board (roomPrompt.fail).
func (r *roomScreen) fail(msg string) tea.Cmd { return r.prompt.fail(msg) }

// resize tells the room screen the screen's size; the model calls it before every update.
func (r *roomScreen) resize(w, h int) { r.w, r.h = w, h }

// update handles a message; leave reports that the player goes back to the lobby. The clock
// takes its tick and the prompt an error's expiry; keys, clicks and pastes go to the part of the
// screen that has the focus: the open line (roomPrompt), the rules (a pager), or the board
// (boardKey).
func (r *roomScreen) update(msg tea.Msg) (cmd tea.Cmd, leave bool) {
	// The parts of the screen are drawn again when what they show changes (roomParts): a new
	// snapshot (apply) or a key or click the board takes counts as a change of the board and the
	// panel (gen); the other parts' keys say what they show.
	switch msg := msg.(type) {
	case tickMsg:
		r.clock.Update(msg)
		return nil, false
	case errExpiredMsg:
		r.prompt, cmd = r.prompt.Update(msg)
		return cmd, false
	case moveDoneMsg:
		if msg.err != nil {
			return r.fail(sentence(msg.err.Error())), false
		}
		r.prompt.clearError()
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
		r.prompt.clearError() // an error is about what was done before; the next action clears it
	}
	switch r.focus {
	case focusChat, focusPrompt:
		return r.updateInput(msg), false
	case focusRules:
		if km, ok := msg.(tea.KeyPressMsg); ok {
			r.updateRules(km)
		}
		return nil, false
	}
	switch msg := msg.(type) {
	case tea.MouseClickMsg:
		if r.small || r.side.showsUp() {
			return nil, false // no board on the screen
		}
		// The board is drawn from the screen's second line.
		msg.Y--
		msg.X -= r.boardX
		return r.toBoard(msg), false
	case tea.KeyPressMsg:
		return r.boardKey(msg)
	}
	return nil, false
}

// boardKey takes a key while the board has the focus: a question waiting for its answer takes
// it first, then a board that takes keys the room binds (draw.KeyTaker), then the room's own
// keys (command); the board takes the rest. While the whole panel shows in the board's place,
// esc or a key for the board takes it away; while the board does not fit the window, the board
// takes no key.
func (r *roomScreen) boardKey(km tea.KeyPressMsg) (cmd tea.Cmd, leave bool) {
	hidden := r.small || r.side.showsUp()
	switch {
	case r.prompt.asking():
		leave := r.prompt.leaves(km)
		r.prompt, cmd = r.prompt.Update(km)
		if leave {
			return cmd, r.quit()
		}
		return cmd, false
	case r.side.showsUp() && key.Matches(km, r.keys.Cancel):
		r.side.close()
		return nil, false
	case hidden || !r.boardTakes(km):
		if cmd, leave, ok := r.command(km); ok {
			return cmd, leave
		}
	}
	if hidden {
		r.side.close() // the board again, for its keys
		return nil, false
	}
	return r.toBoard(km), false
}

// boardTakes reports whether the board takes km although the room binds it (draw.KeyTaker):
// Lhex-i'-con's letters are tiles on the player's turn, t and q among them.
func (r *roomScreen) boardTakes(km tea.KeyPressMsg) bool {
	t, ok := r.board.(draw.KeyTaker)
	return ok && t.TakesKey(km, &r.snap)
}

// toBoard gives a key or a click to the board, which may move its cursor or selection, or
// return a move, which goes to the room; a move the board asks about first (draw.Asker) goes
// when the player says yes.
func (r *roomScreen) toBoard(msg tea.Msg) tea.Cmd {
	r.gen++ // the board's cursor or selection, and what the panel and help line say of it
	mv := r.board.Handle(msg, &r.snap)
	if mv == "" {
		return nil
	}
	if a, ok := r.board.(draw.Asker); ok {
		if q, yes := a.Ask(mv, &r.snap); q != "" {
			r.prompt.ask(q, yes, "play on", func() tea.Cmd { return r.move(mv) }, "")
			return nil
		}
	}
	return r.move(mv)
}

// command does what the room's own keys (the grammar's, draw.Keys, and the panel's) do on the
// board; ok is false for a key that is none of them, or not now. R asks before it resigns.
func (r *roomScreen) command(km tea.KeyPressMsg) (cmd tea.Cmd, leave, ok bool) {
	k := r.keys
	switch {
	case key.Matches(km, k.Resign) && r.playing():
		q, yes := "Resign? enter resigns, any other key plays on.", "resign"
		if len(r.snap.Moves) == 0 {
			q, yes = "Abort the match? Nobody has moved: it ends unrated. enter aborts, any other key goes on.", "abort"
		}
		r.prompt.ask(q, yes, "play on", func() tea.Cmd { return actionCmd(r.sub.Resign) }, "You play on.")
	case key.Matches(km, k.Draw) && r.playing():
		if i := 1 - int(r.snap.You); len(r.snap.Seats) == 2 && r.snap.Seats[i].DrawOffer {
			r.prompt.say("You accept the draw.", false)
		} else {
			r.prompt.sayRequest("You offer a draw; it stands until your opponent moves.", drawRequest, len(r.snap.Moves))
		}
		return actionCmd(r.sub.OfferDraw), false, true
	case key.Matches(km, k.TakeBack) && r.playing():
		if slices.ContainsFunc(r.snap.Seats, func(s rooms.SeatInfo) bool { return s.TakeBack }) {
			r.prompt.say("You agree to the takeback.", false)
		} else {
			r.prompt.sayRequest("You ask to take back your last move.", takebackRequest, len(r.snap.Moves))
		}
		return actionCmd(r.sub.TakeBack), false, true
	case key.Matches(km, k.Leave):
		if !r.playing() {
			return nil, r.quit(), true // a spectator, or a player between matches, loses nothing
		}
		r.prompt.askLeave(leaveQuestion(r.snap.SeatGrace))
	case key.Matches(km, k.Prompt):
		r.focus = focusPrompt
		r.prompt.open(lineMove, r.move) // (the notation shows under the board while it is open)
	case key.Matches(km, k.Chat):
		r.focus = focusChat
		to := "" // everybody reads it
		if r.snap.You == rules.Spectator && r.snap.Phase == rooms.Playing {
			to = "spectators" // the players read it only if they ask (roomchat.go)
		}
		r.prompt.openChat(to, r.sayChat)
	case key.Matches(km, r.side.keys.Moves):
		r.side, cmd = r.side.Update(km)
		return cmd, false, true
	case key.Matches(km, k.Rules):
		r.focus = focusRules
		r.rules = newTextPager(r.rulesText())
		r.rules.setSize(rulesSize(r.w, r.h))
	case key.Matches(km, k.Level):
		r.cycleLevel()
	case key.Matches(km, k.Bot):
		return r.seatBot(), false, true
	case key.Matches(km, k.End) && anyAbandoned(&r.snap):
		return actionCmd(r.sub.EndMatch), false, true
	case key.Matches(km, k.Replay) && r.snap.Phase == rooms.Finished && r.snap.Result.MatchID != "":
		id := r.snap.Result.MatchID
		return func() tea.Msg { return openReplayMsg{id} }, false, true
	case key.Matches(km, k.Rematch) && r.snap.Phase == rooms.Finished && r.snap.You != rules.Spectator:
		r.prompt.say("You asked for a rematch; waiting for the others.", false)
		return actionCmd(r.sub.Rematch), false, true
	default:
		return nil, false, false
	}
	return nil, false, true
}

// leaveQuestion is what the room asks a player in a match who presses esc with nothing to
// cancel: their turns run on while they are gone, and their seat waits grace for them.
func leaveQuestion(grace time.Duration) string {
	waits := "Your seat waits for you"
	if grace > 0 {
		waits = fmt.Sprintf("Your seat waits %d:%02d", int(grace.Minutes()), int(grace.Seconds())%60)
	}
	return "Leave the room? " + waits + " (enter leaves, esc stays)."
}

// choiceLeaver is a subscription that can tell the room its player chose to leave
// (rooms.Sub.LeaveByChoice), so that the others read "alice left", not "alice dropped".
type choiceLeaver interface{ LeaveByChoice() }

// quit leaves the room by the player's choice, when the subscription can say so, and reports
// true, for update's leave: the model's leaveRoom then leaves the subscription, which has ended
// already (Leave again does nothing).
func (r *roomScreen) quit() bool {
	if s, ok := r.sub.(choiceLeaver); ok {
		s.LeaveByChoice()
	}
	return true
}

// move proposes mv to the room after the moves this screen sent before it (moveCmd).
func (r *roomScreen) move(mv string) tea.Cmd {
	done := make(chan struct{})
	cmd := moveCmd(r.sub, mv, r.lastMove, done)
	r.lastMove = done
	return cmd
}

// waiting reports whether the last move this screen sent still waits for the room's answer.
func (r *roomScreen) waiting() bool {
	if r.lastMove == nil {
		return false
	}
	select {
	case <-r.lastMove:
		return false
	default:
		return true
	}
}

// HoldFrame puts the screen's frame off while a move it sent waits for the room's answer
// (teaframe.FrameHolder): the answer and the room's new state come a few milliseconds later
// (the move's commit), and the screen is then drawn once, with the move on the board, instead of
// once more before, with only the prompt closed.
func (m Model) HoldFrame() bool {
	return m.roomShown() && m.room.waiting()
}

// updateInput gives a message to the open line (roomPrompt); when the line closes, sent or not,
// the keys go to the board again.
func (r *roomScreen) updateInput(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	r.prompt, cmd = r.prompt.Update(msg)
	if !r.prompt.typing() {
		r.focus = focusBoard
	}
	return cmd
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
// above a blank line, for the move prompt; the first keep lines (the board's grid on a small
// window) stay in view, and what of the notation does not fit under them is left out.
func (r *roomScreen) withNotation(st draw.Styles, left []string, w, h, keep int) []string {
	help := append([]string{""}, draw.Wrap(r.notationHelp(), w)...)
	out := make([]string, max(len(left), h))
	copy(out, left)
	at := max(keep, h-len(help))
	for i, l := range help {
		if at+i < len(out) {
			out[at+i] = st.Dim.Render(l)
		}
	}
	return out
}

// notationLines are the game's notation wrapped to w columns, for the move prompt when the panel
// is under the board: they take the place of its second column, under the clock.
func (r *roomScreen) notationLines(st draw.Styles, w int) []string {
	lines := draw.Wrap(r.notationHelp(), w)
	for i, l := range lines {
		lines[i] = st.Dim.Render(l)
	}
	return lines
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
	r.prompt.say("Bot level: "+g.Bots[r.level].Name, false)
}

// seatBot gives a free seat (before the match) or an abandoned one (during it) to a bot.
func (r *roomScreen) seatBot() tea.Cmd {
	level := r.levelName()
	for i, s := range r.snap.Seats {
		free := r.snap.Phase == rooms.Waiting && s.Empty
		lost := r.snap.Phase == rooms.Playing && s.Abandoned
		if free || lost {
			seat := rules.Seat(i)
			r.prompt.say(fmt.Sprintf("A %s bot takes the %s seat.", level, colourOf(r.board, i)), false)
			return actionCmd(func() error { return r.sub.AddBot(seat, level) })
		}
	}
	return r.fail("There is no free seat for a bot.")
}

// view draws the room.
func (r *roomScreen) view(st draw.Styles, w, h int) string {
	return strings.Join(r.viewLines(st, w, h), "\n")
}

// viewLines draws the room as lines: the body's, then the message line and the help line, each
// part drawn again only when what it shows has changed (roomParts). The slice is new at every call.
func (r *roomScreen) viewLines(st draw.Styles, w, h int) []string {
	pieces := r.viewPieces(st, w, h)
	lines := make([]string, len(pieces))
	for i, p := range pieces {
		lines[i] = strings.Join(p, "")
	}
	return lines
}

// viewPieces is viewLines with each line in pieces, as the renderer takes them
// (teaframe.PieceViewer): a row of the body is its board line and its panel line beside it, with
// the spaces that fit them, not a string made of them. The slices are the screen's until the
// next call.
func (r *roomScreen) viewPieces(st draw.Styles, w, h int) [][]string {
	ps := &r.parts
	ps.flat, ps.ends = ps.flat[:0], ps.ends[:0]
	if !r.have {
		ps.addLine("")
		ps.addLine("  Entering the room…")
		return ps.lines()
	}
	lay := r.layout(st, w, h)
	r.side.under, r.small = lay.kind == layoutUnder, lay.kind == layoutSmall
	msg := r.promptLines(st, w, lay.msgRows(h))
	if lay.kind != layoutWide && r.focus == focusBoard && r.prompt.msg == "" {
		msg = nil // a small window's board has the empty message line's row too
	}
	n := len(msg)
	if r.moving != nil {
		n++
	}
	r.body(st, lay, w, h-n+1)
	if r.moving != nil {
		ps.addLine(draw.Fit(" "+st.Bold.Render(movingText(r.moving.code)), w))
	}
	for _, l := range msg {
		ps.addLine(l)
	}
	ps.addLine(r.helpPart(st, lay.kind, w))
	return ps.lines()
}

// layout decides how the body is laid out in a w x h window (layoutFor): from the board's
// smallest drawing (boardMin) on a compact window, found again when what the board shows or the
// window's size changes. While seats are free the board's column shows the room's code.
func (r *roomScreen) layout(st draw.Styles, w, h int) roomLayout {
	if !compactWindow(w, h) {
		return roomLayout{}
	}
	ps := &r.parts
	if k := (sizeKey{gen: r.gen, w: w, h: h}); !ps.sized || ps.sizeOf != k {
		ps.minW, ps.minH = max(waitingMinW, 2+draw.TextWidth(sshCommand(r.addr, "join "+r.snap.Code))), waitingMinH
		if r.snap.Phase != rooms.Waiting {
			ps.minW, ps.minH = boardMin(r.board, &r.snap, st, w, h-2-compactMsgRows)
		}
		ps.sized, ps.sizeOf = true, k
	}
	return layoutFor(w, h, ps.minW, ps.minH)
}

// helpPart is the help line (help), drawn again when what the board and the panel show, the
// focus, the layout or the width changes; the rules' is drawn at every frame, as the pager scrolls.
func (r *roomScreen) helpPart(st draw.Styles, kind layoutKind, w int) string {
	if r.focus == focusRules {
		return r.help(st, w)
	}
	k := helpKey{gen: r.gen, focus: r.focus, w: w, moving: r.moving != nil, asked: r.prompt.answer(),
		layout: kind, up: r.side.showsUp(), moves: r.side.showMoves, theme: themeOf(st)}
	l, _ := r.parts.help.get(k, func() []string { return []string{r.help(st, w)} }).at(0)
	return l
}

// promptLines are the lines under the board (roomPrompt.View), most of them at most (0: the
// prompt's own limit), drawn again when the message or the open line changes.
func (r *roomScreen) promptLines(st draw.Styles, w, most int) []string {
	p, ps := &r.prompt, &r.parts
	k := promptKey{w: w, most: most, kind: p.kind, msg: p.msg, msgErr: p.msgErr, theme: themeOf(st)}
	if p.typing() {
		k.prompt, k.pos, k.upper = p.input.prompt, p.input.pos, p.input.upper
	}
	if !slices.Equal(ps.typed, p.input.value) {
		ps.typed, ps.prompt.drawn = append(ps.typed[:0], p.input.value...), false
	}
	return ps.prompt.get(k, func() []string { return p.view(st, w, most) }).lines
}

// body draws the header, the board's column and the side panel, h lines in all, laid out as lay
// says, from their parts, each drawn again only when what it shows has changed, and adds them to
// the screen's lines: each row in pieces, its board line and its panel line beside it.
func (r *roomScreen) body(st draw.Styles, lay roomLayout, w, h int) {
	ps := &r.parts
	bodyH := h - 3
	switch {
	case r.focus == focusRules:
		r.rulesBody(st, w, h)
		return
	case lay.kind == layoutSmall:
		r.smallBody(st, lay, w, h)
		return
	}
	r.show()
	th := themeOf(st)
	// The board first: a board may learn from the view what its seats are called (SeatLabeler),
	// which the header and the panel say.
	left := ps.board.get(boardKey{gen: r.gen, w: w, h: bodyH, layout: lay.kind, theme: th}, func() []string {
		s := &r.snap
		ps.layout = lay
		return ps.layout.place(w, bodyH, func(width, height int) []string {
			if s.Phase == rooms.Waiting {
				return r.waitingLines(st, width)
			}
			return r.board.View(s, st, width, height)
		})
	})
	lay = ps.layout
	under := lay.kind == layoutUnder
	var notes *lineSet // under the board, the notation in the panel's place while the move prompt is open
	if r.focus == focusPrompt {
		col := ps.column.get(columnKey{board: ps.board.ver, theme: th}, func() []string {
			if under {
				return r.notationLines(st, lay.panelW)
			}
			keep := 0
			if lay.kind == layoutBeside {
				keep = lay.minH // the board's grid stays in view
			}
			return r.withNotation(st, left.lines, lay.boardW, bodyH, keep)
		})
		if under {
			notes = col
		} else {
			left = col
		}
	}
	s := &r.snap
	hk := headerKey{game: s.GameName, code: s.Code, phase: s.Phase, mode: roomMode(s), match: s.Match, you: int(s.You), w: w, theme: th}
	header, _ := ps.header.get(hk, func() []string {
		return []string{r.header(st, w)}
	}).at(0)
	up := r.side.showsUp()
	var panel, rest *lineSet
	switch {
	case up:
		pw, _ := upWidth(w)
		panel = r.panelParts(st, pw, bodyH)
	case under:
		panel, rest = r.panelUnderParts(st, lay.seatsW, lay.panelW, lay.panelRows(bodyH), notes)
	default:
		panel = r.panelParts(st, lay.panelW, bodyH)
	}

	ps.addLine(header)
	r.boardX = lay.margin
	// Each row is rowPieces pieces (margin, a and its padding, a space, b and its padding: the
	// board's line beside the panel's), in place in ps.flat: the row is never joined.
	n := len(ps.flat) + rowPieces*bodyH
	if cap(ps.flat) < n {
		ps.flat = slices.Grow(ps.flat, n-len(ps.flat))
	}
	for i := range bodyH {
		row := lay.row(i, left, panel, rest, up)
		start := len(ps.flat)
		ps.flat = ps.flat[:start+rowPieces]
		row.pieces(ps.flat[start:])
		ps.endLine()
	}
}

// smallBody draws the header and, in the body's place, what window the board needs, while it
// does not fit (layoutSmall): the match goes on, with the turn's clock, drawn at every frame.
func (r *roomScreen) smallBody(st draw.Styles, lay roomLayout, w, h int) {
	ps := &r.parts
	turn := r.clock.turnLine(st)
	if turn == "" && r.yourTurn() {
		turn = "It is your turn"
	}
	n := max(h-2, 1) // the header and the body's rows
	ps.addLine(r.header(st, w))
	lines := smallLines(lay, &r.snap, turn, n-1)
	for i := range n - 1 {
		l := ""
		if i < len(lines) {
			l = draw.Fit(lines[i], w)
		}
		ps.addLine(l)
	}
}

// header is the line over the body: the game, the room's code and phase, whether its matches are
// rated or casual, and who the viewer is. On a window too narrow for all of it, "room" goes
// first, then the phase, then "you:"; rated or casual stays whole.
func (r *roomScreen) header(st draw.Styles, w int) string {
	s := &r.snap
	mode := ""
	if m := roomMode(s); m != "" {
		mode = st.Dim.Render(" · " + m)
	}
	right := "watching"
	if s.You != rules.Spectator {
		right = fmt.Sprintf("you: %s (%s)", r.me.Name, seatTag(r.board, st, int(s.You)))
	}
	game, code, phase := st.Title.Render(s.GameName), st.Bold.Render(s.Code), st.Dim.Render(" · "+s.Phase.String())
	header := game + st.Dim.Render(" · room ") + code + phase + mode
	for i := 0; i < 3 && draw.TextWidth(header)+1+draw.TextWidth(right) > w; i++ {
		switch i {
		case 0:
			header = game + st.Dim.Render(" · ") + code + phase + mode
		case 1:
			header = game + st.Dim.Render(" · ") + code + mode
		case 2:
			right = strings.TrimPrefix(right, "you: ")
		}
	}
	return draw.Fit(header, w-draw.TextWidth(right)-1) + " " + right
}

// rulesBody draws the header and the rules, which take the whole body, the panel's columns too,
// so that their lines fit, and adds them to the screen's lines.
func (r *roomScreen) rulesBody(st draw.Styles, w, h int) {
	ps := &r.parts
	ps.addLine(r.header(st, w))
	for _, l := range r.rulesLines(st, w, h-3) {
		ps.addLine(draw.Fit(l, w))
	}
}

// panelParts draws the side panel in w x h cells from its parts (roomPanel.View draws the same
// lines at once): the head, the clock's lines, the status and the foot, each drawn again only
// when what it shows has changed.
func (r *roomScreen) panelParts(st draw.Styles, w, h int) *lineSet {
	ps, p, th := &r.parts, &r.side, themeOf(st)
	k := panelKey{gen: r.gen, w: w, showMoves: p.showMoves, replaying: p.replaying, mode: p.mode(),
		spectators: p.showingSpectators(), heard: len(r.snap.SpectatorChat), theme: th}
	if r.awayChanged() {
		ps.head.drawn = false
	}
	ps.panel.lines, ps.panel.widths = ps.panel.lines[:0], ps.panel.widths[:0]
	ps.panel.add(ps.head.get(k, func() []string { ps.scratch = p.headLines(ps.scratch[:0], st, w); return ps.scratch }))
	if p.ticking() {
		ps.panel.add(r.clockPart(st, w))
	}
	ps.panel.add(ps.status.get(k, func() []string { ps.scratch = p.statusLines(ps.scratch[:0], st, w); return ps.scratch }))
	ps.panel.add(r.tailPart(st, w, h-len(ps.panel.lines)))
	return &ps.panel
}

// clockPart is the clock's lines (roomClock.View) in w columns, drawn again when the clock shows
// another value.
func (r *roomScreen) clockPart(st draw.Styles, w int) *lineSet {
	ck := clockKey{gen: r.gen, w: w, theme: themeOf(st)}
	if cl := r.snap.Clock; !cl.Ends.IsZero() {
		ck.shown, _ = clockShown(time.Until(cl.Ends))
	}
	return r.parts.clock.get(ck, func() []string { return r.clock.View(st, w) })
}

// tailPart is the panel's foot (roomPanel.tailLines) in w columns, room lines at most, drawn
// again when the chat it shows changes, or the moves.
func (r *roomScreen) tailPart(st draw.Styles, w, room int) *lineSet {
	ps, p := &r.parts, &r.side
	tk := tailKey{w: w, room: room, showMoves: p.showMoves, replaying: p.replaying, spectators: p.showingSpectators(),
		watching: r.snap.You == rules.Spectator, theme: themeOf(st)}
	if p.showMoves {
		tk.gen = r.gen
	} else if !slices.Equal(ps.chat, r.snap.Chat) || !slices.Equal(ps.spectatorChat, r.snap.SpectatorChat) {
		// A room replaces its chats, never changes them.
		ps.chat, ps.spectatorChat, ps.tail.drawn = r.snap.Chat, r.snap.SpectatorChat, false
	}
	return ps.tail.get(tk, func() []string { return p.tailLines(st, w, room) })
}

// panelUnderParts draws the panel under the board from its parts (roomPanel.ViewUnder draws the
// same lines at once), in two columns of rows lines at most: the seats in wA columns, and in wB
// the clock's lines (without their blank line), whose turn it is or the result, the status and
// the foot; or, while the move prompt is open, the clock's lines and the notation (notes).
func (r *roomScreen) panelUnderParts(st draw.Styles, wA, wB, rows int, notes *lineSet) (seats, rest *lineSet) {
	ps, p, th := &r.parts, &r.side, themeOf(st)
	k := panelKey{gen: r.gen, w: wA, showMoves: p.showMoves, replaying: p.replaying, mode: panelUnder, theme: th}
	if r.awayChanged() {
		ps.head.drawn = false
	}
	seats = ps.head.get(k, func() []string { ps.scratch = p.seatsLines(ps.scratch[:0], st, wA); return ps.scratch })
	k.w = wB
	ps.under.lines, ps.under.widths = ps.under.lines[:0], ps.under.widths[:0]
	if p.ticking() {
		clock := r.clockPart(st, wB)
		ps.under.addFirst(clock, len(clock.lines)-1)
	}
	if notes != nil {
		ps.under.add(notes)
		return seats, &ps.under
	}
	ps.under.add(ps.turn.get(k, func() []string { ps.scratch = p.turnPart(ps.scratch[:0], st, wB); return ps.scratch }))
	ps.under.add(ps.status.get(k, func() []string { ps.scratch = p.statusLines(ps.scratch[:0], st, wB); return ps.scratch }))
	ps.under.add(r.tailPart(st, wB, rows-len(ps.under.lines)))
	return seats, &ps.under
}

// awayChanged reports whether a dropped seat's countdown shows another value than when the
// panel's head was drawn, and keeps the new values.
func (r *roomScreen) awayChanged() bool {
	ps, changed, n := &r.parts, false, 0
	for _, seat := range r.snap.Seats {
		if seat.Connected || seat.GraceUntil.IsZero() {
			continue
		}
		left := awayLeft(seat)
		if n == len(ps.away) {
			ps.away, changed = append(ps.away, left), true
		} else if ps.away[n] != left {
			ps.away[n], changed = left, true
		}
		n++
	}
	changed = changed || n != len(ps.away)
	ps.away = ps.away[:n]
	return changed
}

// helpKeys appends the bindings the help line shows to out and returns it. The line is the same
// in every game, in the grammar's order (draw.Keys): the board's keys for now (its own, then the
// grammar's it answers now: bksp, p, e), the move prompt, the match's keys (u, =, R), chat, rules
// and esc. When it is too wide, help drops the match's keys first, then the move prompt
// (helpDrops); the rules list them all.
func (r *roomScreen) helpKeys(out []key.Binding) []key.Binding {
	k := r.keys
	switch r.focus {
	case focusChat, focusPrompt:
		return r.prompt.helpKeys(out)
	case focusRules:
		return append(append(out, r.rules.bindings()...), draw.WithHelp(k.Cancel, "close"))
	}
	if r.prompt.asking() {
		return r.prompt.answerKeys(out)
	}
	if r.moving != nil {
		return append(out, k.Rules, k.Leave) // nothing reaches the room while it moves
	}
	s := &r.snap
	seated := s.You != rules.Spectator
	hidden := r.small || r.side.showsUp() // no board on the screen, none of its keys
	// A gone player's keys come first: the line is cut at its end when it is too long, and these
	// are the ones the player must find.
	if anyAbandoned(&r.snap) && seated {
		out = append(out, draw.WithHelp(k.Bot, "bot takes over"), k.End)
	}
	if seated && s.Phase == rooms.Playing && !anyAbandoned(&r.snap) {
		// (While a player is gone the board's keys make way for b and x: the line has no room
		// for all, and the hint under the board still says how to play.)
		if h, ok := r.board.(draw.KeyHelper); ok && !hidden {
			out = append(out, h.HelpKeys(s)...)
		} else if !hidden {
			out = append(out, r.board.Bindings()...)
		}
		out = append(out, k.Prompt, k.TakeBack, k.Draw, k.Resign)
	}
	if h, ok := r.board.(draw.KeyHelper); ok && !seated && s.Phase == rooms.Playing && !hidden {
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
	if t, ok := r.board.(draw.KeyTaker); hidden || !ok || !t.TakesKey(chatKey, s) {
		out = append(out, k.Chat) // not while the board takes t (a letter tile)
	}
	switch {
	case r.side.showsUp():
		next := "moves"
		if r.side.showMoves {
			next = "board"
		}
		return append(out, draw.WithHelp(r.side.keys.Moves, next), k.Rules, draw.WithHelp(k.Cancel, "board"))
	case r.side.under:
		out = append(out, draw.WithHelp(r.side.keys.Moves, "panel")) // the panel's rule may be out of view
	}
	if !hidden && r.boardTakes(escKey) {
		return append(out, k.Rules, k.Cancel) // esc drops what the board has picked
	}
	return append(out, k.Rules, k.Leave) // (tab is told on the panel's rule)
}

// panel draws the side panel (roomPanel) in w x h cells. A replay's screen is made for a frame
// and never takes a snapshot (apply), so the panel is shown the room's here, at every frame.
func (r *roomScreen) panel(st draw.Styles, w, h int) []string {
	r.show()
	return r.side.View(st, w, h)
}

// chatKey and escKey are the chat key's and esc's presses, which a board may take
// (draw.KeyTaker).
var (
	chatKey = tea.KeyPressMsg{Code: 't', Text: "t"}
	escKey  = tea.KeyPressMsg{Code: tea.KeyEscape}
)

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

// waitingMinW and waitingMinH are the smallest the room's code is drawn in while seats are free
// (waitingLines), for a compact window's layout; wider when the command that joins is.
const waitingMinW, waitingMinH = 36, 12

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
	if link := r.web.Room(s.Code); link != "" {
		lines = append(lines, "Or watch on the web:", "  "+link, "")
	}
	if free > 0 {
		lines = append(lines, wrapKeepingParens(fmt.Sprintf("%d seat%s free. The match starts when all are taken.", free, draw.Plural(free)), w)...)
		if s.You != rules.Spectator {
			lines = append(lines, wrapKeepingParens("Alone? Press b to seat a bot (B picks its level).", w)...)
		}
	}
	if s.Casual {
		lines = append(lines, "")
		for _, l := range draw.Wrap(r.casualNote(), w) {
			lines = append(lines, st.Dim.Render(l))
		}
	}
	return lines
}

// casualNote says why a casual room's matches are not rated: the settings that are not
// standard (rooms.Casual), as far as the snapshot tells them (it has the game's options; the
// room's clock shows only once a match has begun).
func (r *roomScreen) casualNote() string {
	var why []string
	if g, ok := r.game(); ok {
		why = rooms.Casual(g, r.snap.Options)
	}
	if len(why) == 0 {
		return "Casual room: its clock is not standard, so its matches are not rated."
	}
	return "Casual room: " + strings.Join(why, " ") + " " + isAre(len(why)) + " not standard, so its matches are not rated."
}

// isAre is the verb for n things: "is" for one, "are" for more.
func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// spaced puts a space between the letters of a code, so it reads well aloud.
func spaced(code string) string {
	return strings.Join(strings.Split(code, ""), " ")
}
