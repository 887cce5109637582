package session

import (
	"bytes"
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

// panelWidth is the width of the side panel right of the board.
const panelWidth = 28

// roomScreen is the screen of one room: board, seats, chat, prompt.
type roomScreen struct {
	sub     *rooms.Sub
	me      rooms.Player
	games   []rules.Game
	boards  Boards
	keys    *roomKeys // shared (roomKeyMap)
	snap    rooms.Snapshot
	have    bool
	board   draw.Board
	focus   focus
	input   lineInput
	msg     string
	msgErr  bool
	level   int // bot level index for 'b'
	top     int // rules scroll
	ticking bool
	cache   frameCache
	helped  helpCache
	chat    chatCache
	labels  []string // seatLabel's drawn labels by seat, for this board
	addr    string   // Config.Address
}

func newRoomScreen(sub *rooms.Sub, me rooms.Player, games []rules.Game, boards Boards) *roomScreen {
	return &roomScreen{sub: sub, me: me, games: games, boards: boards, keys: &roomKeyMap, level: -1}
}

// apply takes a new snapshot; it returns a tick while a countdown is on screen.
func (r *roomScreen) apply(snap rooms.Snapshot) tea.Cmd {
	if !r.have || r.board == nil {
		r.board, r.labels = r.boards.board(snap.GameID), nil
	}
	prevPhase := r.snap.Phase
	r.snap, r.have = snap, true
	r.cache.valid = false
	if prevPhase != snap.Phase && snap.Phase == rooms.Playing {
		r.msg = ""
	}
	return r.tick()
}

// tick arms the one-second countdown tick when a dropped seat's countdown is showing.
func (r *roomScreen) tick() tea.Cmd {
	if r.ticking || !r.countingDown() {
		return nil
	}
	r.ticking = true
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{} })
}

func (r *roomScreen) countingDown() bool {
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

func (r *roomScreen) say(msg string, isErr bool) { r.msg, r.msgErr = msg, isErr }

// update handles a message; leave reports that the player goes back to the lobby.
func (r *roomScreen) update(msg tea.Msg) (cmd tea.Cmd, leave bool) {
	// The body (header, board, panel) is drawn again only when it may have changed: a new
	// snapshot (apply), a countdown's tick, the rules' scroll, or a key or click the board takes.
	// Prompts, replies to moves and other messages change only the lines below it.
	switch msg := msg.(type) {
	case tickMsg:
		r.ticking, r.cache.valid = false, false
		return r.tick(), false
	case moveDoneMsg:
		if msg.err != nil {
			r.say(msg.err.Error(), true)
		} else if r.msgErr {
			r.say("", false)
		}
		return nil, false
	case actionMsg:
		if msg.err != nil {
			r.say(msg.err.Error(), true)
		}
		return nil, false
	}
	if !r.have {
		return nil, false
	}
	switch r.focus {
	case focusChat, focusPrompt:
		return r.updateInput(msg), false
	case focusRules:
		if km, ok := msg.(tea.KeyPressMsg); ok {
			r.cache.valid = false
			switch {
			case key.Matches(km, r.keys.ScrollUp):
				r.top = max(0, r.top-1)
			case key.Matches(km, r.keys.ScrollDown):
				r.top++
			case key.Matches(km, r.keys.Rules), key.Matches(km, r.keys.Cancel), km.String() == "q":
				r.focus = focusBoard
			}
		}
		return nil, false
	}
	if click, ok := msg.(tea.MouseClickMsg); ok {
		r.cache.valid = false
		// The board is drawn from the screen's second line.
		click.Y--
		if mv := r.board.Handle(click, &r.snap); mv != "" {
			return moveCmd(r.sub, mv), false
		}
		return nil, false
	}
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	k := r.keys
	switch {
	case key.Matches(km, k.Leave):
		return nil, true
	case key.Matches(km, k.Prompt):
		r.focus, r.input = focusPrompt, newLineInput("move: ", 40)
		r.say(r.notationHelp(), false)
		return nil, false
	case key.Matches(km, k.Chat):
		r.focus, r.input = focusChat, newLineInput("say: ", 200)
		return nil, false
	case key.Matches(km, k.Rules):
		r.focus, r.top, r.cache.valid = focusRules, 0, false
		return nil, false
	case key.Matches(km, k.Level):
		r.cycleLevel()
		return nil, false
	case key.Matches(km, k.Bot):
		return r.seatBot(), false
	case key.Matches(km, k.End) && r.anyAbandoned():
		return actionCmd(r.sub.EndMatch), false
	case key.Matches(km, k.Rematch) && r.snap.Phase == rooms.Finished && r.snap.You != rules.Spectator:
		r.say("You asked for a rematch; waiting for the others.", false)
		return actionCmd(r.sub.Rematch), false
	}
	r.cache.valid = false // the board may move its cursor or selection
	if mv := r.board.Handle(km, &r.snap); mv != "" {
		return moveCmd(r.sub, mv), false
	}
	return nil, false
}

func (r *roomScreen) updateInput(msg tea.Msg) tea.Cmd {
	if km, ok := msg.(tea.KeyPressMsg); ok && key.Matches(km, r.keys.Cancel) {
		r.focus = focusBoard
		r.say("", false)
		return nil
	}
	if !r.input.update(msg) {
		return nil
	}
	text := r.input.text()
	f := r.focus
	r.focus = focusBoard
	if text == "" {
		return nil
	}
	if f == focusChat {
		return actionCmd(func() error { return r.sub.Chat(text) })
	}
	r.say("", false)
	return moveCmd(r.sub, text)
}

func (r *roomScreen) game() (rules.Game, bool) {
	for _, g := range r.games {
		if g.ID == r.snap.GameID {
			return g, true
		}
	}
	return rules.Game{}, false
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
	r.say("There is no free seat for a bot.", true)
	return nil
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
	body := r.body(st, w, h)
	lines := make([]string, 0, len(body)+2)
	return append(append(lines, body...), r.messageLine(st, w), r.help(st, w))
}

// frameCache keeps what a frame drew that the next one may draw again: the header, board and
// panel (unchanged while the player types at a prompt).
type frameCache struct {
	lines []string // the body's lines
	buf   []byte   // scratch space for the body's text, reused from one drawing to the next
	w, h  int
	valid bool
}

// body draws the header, the board and the side panel, or returns their lines as last drawn when
// nothing they show has changed since.
func (r *roomScreen) body(st draw.Styles, w, h int) []string {
	c := &r.cache
	if c.valid && c.w == w && c.h == h {
		return c.lines
	}
	s := &r.snap
	header := st.Title.Render(s.GameName) + st.Dim.Render(" · room ") + st.Bold.Render(s.Code) +
		st.Dim.Render(" · "+s.Phase.String())
	right := "watching"
	if s.You != rules.Spectator {
		right = fmt.Sprintf("you: %s (%s)", r.me.Name, seatTag(r.board, st, int(s.You)))
	}
	buf := draw.AppendFit(c.buf[:0], header, w-draw.TextWidth(right)-1)
	buf = append(append(append(buf, ' '), right...), '\n')

	bodyH := h - 3
	boardW := w - panelWidth - 1
	var left []string
	switch {
	case r.focus == focusRules:
		left = r.rulesLines(st, boardW, bodyH)
	case s.Phase == rooms.Waiting:
		left = r.waitingLines(st, boardW)
	default:
		left = r.board.View(s, st, boardW, bodyH)
	}
	panel := r.panel(st, panelWidth, bodyH)
	for i := range bodyH {
		buf = draw.AppendFit(buf, lineAt(left, i), boardW)
		buf = draw.AppendFit(append(buf, ' '), lineAt(panel, i), panelWidth)
		buf = append(buf, '\n')
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
	*c = frameCache{lines: lines[:i], buf: buf, w: w, h: h, valid: true}
	return c.lines
}

func (r *roomScreen) messageLine(st draw.Styles, w int) string {
	switch r.focus {
	case focusChat, focusPrompt:
		return draw.Fit(" "+r.input.view(st, w-2), w)
	}
	if r.msg == "" {
		return draw.Fit("", w)
	}
	if r.msgErr {
		return draw.Fit(" "+st.Err.Render("✗ "+r.msg), w)
	}
	return draw.Fit(" "+r.msg, w)
}

// helpKeys appends the bindings the help line shows to out and returns it.
func (r *roomScreen) helpKeys(out []key.Binding) []key.Binding {
	k := r.keys
	switch r.focus {
	case focusChat, focusPrompt:
		return append(out, k.Send, k.Cancel)
	case focusRules:
		return append(out, k.ScrollUp, k.ScrollDown, withHelp(k.Cancel, "close"))
	}
	s := &r.snap
	seated := s.You != rules.Spectator
	if seated && s.Phase == rooms.Playing {
		out = append(out, r.board.Bindings()...)
		out = append(out, k.Prompt)
	}
	if seated && s.Phase == rooms.Waiting && slices.ContainsFunc(s.Seats, func(x rooms.SeatInfo) bool { return x.Empty }) {
		out = append(out, k.Bot, k.Level)
	}
	if r.anyAbandoned() && seated {
		out = append(out, withHelp(k.Bot, "bot takes over"), k.End)
	}
	if seated && s.Phase == rooms.Finished {
		out = append(out, k.Rematch)
	}
	return append(out, k.Chat, k.Rules, k.Leave)
}

// panel draws the side panel: seats and scores, the game's status, then chat and log.
func (r *roomScreen) panel(st draw.Styles, w, h int) []string {
	s := &r.snap
	var lines []string
	for i, seat := range s.Seats {
		mark := " "
		if slices.Contains(s.ToMove, rules.Seat(i)) && s.Phase == rooms.Playing {
			mark = st.TurnMark()
		}
		name := seat.Name
		switch {
		case seat.Empty:
			name = st.Dim.Render("(free seat)")
		case seat.Bot != "":
			name = st.Dim.Render(name)
		case seat.Abandoned:
			name += st.Err.Render(" gone")
		case !seat.Connected && !seat.GraceUntil.IsZero():
			left := time.Until(seat.GraceUntil).Round(time.Second)
			name += st.Err.Render(fmt.Sprintf(" away %d:%02d", int(left.Minutes()), int(left.Seconds())%60))
		}
		if rules.Seat(i) == s.You {
			name += st.Dim.Render(" (you)")
		}
		if s.Phase == rooms.Finished && seat.Rematch {
			name += st.OK.Render(" ✓again")
		}
		score := ""
		if s.Phase != rooms.Waiting {
			score = r.board.Score(s, i)
		}
		left := mark + r.seatLabel(st, i) + " " + name
		lines = append(lines, draw.Fit(left, w-len(score)-1)+" "+st.Bold.Render(score))
	}
	if s.Spectators > 0 {
		lines = append(lines, st.Dim.Render(fmt.Sprintf("  %d watching", s.Spectators)))
	}
	lines = append(lines, "")
	switch s.Phase {
	case rooms.Finished:
		lines = append(lines, r.result(st, w)...)
	}
	if s.Phase != rooms.Waiting {
		lines = append(lines, r.board.Status(s, st, w)...)
	}
	if r.anyAbandoned() {
		lines = append(lines, st.Err.Render("A player has gone."), "b: a bot takes the seat", "x: end the match unrated")
	}
	if s.Unrated {
		lines = append(lines, st.Dim.Render("Ended unrated: "+s.Outcome.Reason))
	}
	// Chat and log fill the rest, newest last.
	lines = append(lines, st.Dim.Render(strings.Repeat("─", w)))
	room := h - len(lines)
	chat := r.chatLines(st, w)
	if room > 0 && len(chat) > room {
		chat = chat[len(chat)-room:]
	}
	return append(lines, chat...)
}

// chatCache holds the chat as last wrapped for the panel: the panel is drawn again at every
// snapshot, and the chat changes far less often (a room replaces its chat slice, never changes
// it). It is keyed by the chat and the width; the styles are the session's, one set for good.
type chatCache struct {
	from  []rooms.ChatLine
	w     int
	lines []string
}

// chatLines returns the snapshot's chat wrapped to w columns, oldest first. The result is shared
// with the cache: callers must not modify it.
func (r *roomScreen) chatLines(st draw.Styles, w int) []string {
	c := &r.chat
	if c.lines != nil && c.w == w && slices.Equal(c.from, r.snap.Chat) {
		return c.lines
	}
	var lines []string
	for _, l := range r.snap.Chat {
		if l.From == "" {
			lines = append(lines, draw.Wrap(st.Dim.Render("· ")+l.Text, w)...)
		} else {
			lines = append(lines, draw.Wrap(st.Bold.Render(l.From+":")+" "+l.Text, w)...)
		}
	}
	*c = chatCache{from: r.snap.Chat, w: w, lines: lines}
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

// result says who won.
func (r *roomScreen) result(st draw.Styles, w int) []string {
	s := &r.snap
	win := s.Outcome.Winners()
	var names []string
	for _, i := range win {
		names = append(names, seatTag(r.board, st, int(i))+" ("+s.Seats[i].Name+")")
	}
	var head string
	switch {
	case s.Unrated:
		head = "Match ended."
	case len(win) == len(s.Seats):
		head = "A draw!"
	case len(win) == 1:
		head = names[0] + " wins!"
	default:
		head = strings.Join(names, " and ") + " share the win!"
	}
	lines := []string{st.Title.Render("GAME OVER"), head}
	if s.Outcome.Reason != "" && !s.Unrated {
		lines = append(lines, st.Dim.Render(s.Outcome.Reason))
	}
	return append(lines, "")
}

func (r *roomScreen) rulesLines(st draw.Styles, w, h int) []string {
	g, ok := r.game()
	if !ok {
		return []string{"No rules for this game."}
	}
	text := strings.Split(strings.TrimRight(g.Rules, "\n"), "\n")
	top := min(r.top, max(0, len(text)-h+1))
	lines := []string{st.Bold.Render(g.Name + " rules")}
	for i := top; i < len(text) && len(lines) < h; i++ {
		lines = append(lines, text[i])
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
