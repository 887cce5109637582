package session

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session/draw"
)

// panelKeys are the side panel's keys.
type panelKeys struct {
	// Moves turns the panel's foot: the chat, the spectators' chat (a player's, during a match
	// that someone watches: roomchat.go), the match's moves, and the chat again.
	Moves key.Binding
}

// panelKeyMap is the key map every room's panel shares; it never changes.
var panelKeyMap = panelKeys{Moves: draw.KeyMap.Moves}

// roomPanel is the side panel right of a room's board: the seats with their scores and notes,
// whose turn it is and the turn's clock (roomClock), the result and ratings at the end, what the
// board says of the match (draw.Board.Status), then the chat, the spectators' chat or the match's
// moves at its foot (tab turns them). It draws the snapshot the room shows it (show).
type roomPanel struct {
	keys      *panelKeys // shared (panelKeyMap); nil in a replay's panel, which takes no keys
	snap      *rooms.Snapshot
	board     draw.Board
	clock     *roomClock
	showMoves bool // the moves at the foot, in place of the chat
	// showSpectators: the spectators' chat at the foot, in place of the room's, while the
	// viewer plays a match that has a spectators' tab (spectatorTab; roomchat.go)
	showSpectators bool
	replaying      bool // a replay's panel: its chat is the replay's move list, under a plain rule
	under          bool // the room lays the panel out under the board (layoutUnder)
	up             bool // under the board: the whole panel shows in the board's place
	chat           chatCache
	labels         []string // seatLabel's drawn labels by seat, for this board, in the styles labelsIn
	labelsIn       theme
	ruled          string // the rule over the foot as last drawn (rule), from ruleOf
	ruleOf         ruleKey
}

// newRoomPanel returns a room's panel, showing the chat at its foot.
func newRoomPanel() roomPanel { return roomPanel{keys: &panelKeyMap} }

// show has the panel draw snap, seen through board, with clock's lines under the turn; the room
// gives it its own snapshot, which it replaces at every update.
func (p *roomPanel) show(snap *rooms.Snapshot, board draw.Board, clock *roomClock, replaying bool) {
	p.snap, p.board, p.clock, p.replaying = snap, board, clock, replaying
}

// relabel forgets the seats' labels as drawn: a new board, or a new match, may name the seats
// otherwise (Flic Flac's shapes).
func (p *roomPanel) relabel() { p.labels = nil }

// panelMode is how the room shows its panel.
type panelMode uint8

const (
	panelBeside panelMode = iota // right of the board (or of the rules)
	panelUnder                   // under the board, in two columns of the rows it leaves
	panelUp                      // the whole panel in the board's place (tab, while under it)
)

// mode is how the room shows the panel now.
func (p *roomPanel) mode() panelMode {
	switch {
	case !p.under:
		return panelBeside
	case p.up:
		return panelUp
	}
	return panelUnder
}

// showsUp reports whether the whole panel shows in the board's place.
func (p *roomPanel) showsUp() bool { return p.mode() == panelUp }

// Update takes the panel's keys: tab turns the foot from the chat to the spectators' chat (when
// it has that tab), to the moves, and to the chat again. Under the board, where the rows it
// leaves are few, tab shows the whole panel in the board's place with the chat, then (when it
// has the tab) the spectators' chat, then the moves, then the board again.
func (p roomPanel) Update(msg tea.Msg) (roomPanel, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok || p.keys == nil || !key.Matches(km, p.keys.Moves) {
		return p, nil
	}
	switch {
	case p.under && !p.up:
		p.up, p.showMoves, p.showSpectators = true, false, false
	case p.showMoves && p.under:
		p.up, p.showMoves = false, false
	case p.showMoves:
		p.showMoves = false
	case p.showingSpectators():
		p.showSpectators, p.showMoves = false, true
	case p.spectatorTab():
		p.showSpectators = true
	default:
		p.showSpectators, p.showMoves = false, true
	}
	return p, nil
}

// close takes the whole panel out of the board's place (esc).
func (p *roomPanel) close() { p.up, p.showMoves = false, false }

// View draws the panel in w x h cells: seats and scores, the game's status, then chat and log
// (or the moves). It keeps what it drew that the next frame may draw again: the chat as wrapped,
// and the seats' labels. The room screen draws the same lines in parts (roomParts): headLines,
// the clock's (when ticking), statusLines and tailLines, one after the other.
func (p *roomPanel) View(st draw.Styles, w, h int) []string {
	lines := p.headLines(nil, st, w)
	if p.ticking() {
		lines = append(lines, p.clock.View(st, w)...)
	}
	lines = p.statusLines(lines, st, w)
	return append(lines, p.tailLines(st, w, h-len(lines))...)
}

// ViewUnder draws the panel under the board, as the room screen draws it in parts: the seats in
// wA columns, and in wB the clock's lines but their blank one, whose turn it is or the result,
// the status and the foot, rows lines at most.
func (p *roomPanel) ViewUnder(st draw.Styles, wA, wB, rows int) (seats, rest []string) {
	seats = p.seatsLines(nil, st, wA)
	if p.ticking() {
		clock := p.clock.View(st, wB)
		rest = append(rest, clock[:len(clock)-1]...)
	}
	rest = p.statusLines(p.turnPart(rest, st, wB), st, wB)
	return seats, append(rest, p.tailLines(st, wB, rows-len(rest))...)
}

// headLines append the top of the panel to lines and return them: the seats and their scores,
// the watchers, a blank line, then the result, or whose turn it is (the clock's lines follow
// them, when ticking).
func (p *roomPanel) headLines(lines []string, st draw.Styles, w int) []string {
	lines = p.seatsLines(lines, st, w)
	lines = append(lines, "")
	return p.turnPart(lines, st, w)
}

// seatsLines append the seats, with their scores and notes, and the watchers to lines and return
// them.
func (p *roomPanel) seatsLines(lines []string, st draw.Styles, w int) []string {
	s := p.snap
	for i, seat := range s.Seats {
		mark := " "
		if slices.Contains(s.ToMove, rules.Seat(i)) && s.Phase == rooms.Playing {
			mark = st.TurnMark()
		}
		name := seat.Name
		var extra []string // the seat's notes, each whole, each with its leading space
		switch {
		case seat.Empty:
			name = st.Dim.Render("(free seat)")
		case seat.Bot != "":
			name = st.Dim.Render(name)
		case seat.Abandoned:
			extra = append(extra, st.Err.Render(" gone"))
		case !seat.Connected && !seat.GraceUntil.IsZero():
			left := awayLeft(seat)
			extra = append(extra, st.Err.Render(fmt.Sprintf(" away %d:%02d", int(left.Minutes()), int(left.Seconds())%60)))
		}
		if rules.Seat(i) == s.You {
			extra = append(extra, st.Dim.Render(" (you)"))
		}
		if s.Phase == rooms.Finished && seat.Rematch {
			for _, n := range rematchNotes(s, i) {
				extra = append(extra, st.OK.Render(n))
			}
		}
		if s.Phase == rooms.Playing && seat.DrawOffer {
			extra = append(extra, st.OK.Render(" offers a draw"))
		}
		if seat.Resigned {
			extra = append(extra, st.Dim.Render(" resigned"))
		}
		if s.Phase == rooms.Playing && seat.TakeBack {
			extra = append(extra, st.OK.Render(" takeback?"))
		}
		score := ""
		if s.Phase != rooms.Waiting {
			score = p.board.Score(s, i)
		}
		lines = append(lines, p.seatLines(st, i, mark, name, extra, score, w)...)
	}
	if s.Spectators > 0 {
		lines = append(lines, st.Dim.Render(fmt.Sprintf("  %d watching", s.Spectators)))
	}
	return lines
}

// turnPart appends the result, or whose turn it is, to lines and returns them.
func (p *roomPanel) turnPart(lines []string, st draw.Styles, w int) []string {
	switch p.snap.Phase {
	case rooms.Finished:
		lines = append(lines, p.result(st, w)...)
	case rooms.Playing:
		lines = append(lines, p.turnLines(st, w)...)
	}
	return lines
}

// awayLeft is the time a dropped seat's player has left to come back, as the panel shows it (to
// the second).
func awayLeft(seat rooms.SeatInfo) time.Duration {
	return time.Until(seat.GraceUntil).Round(time.Second)
}

// ticking reports whether the panel shows the clock's lines under whose turn it is: while a
// match is played and a seat is to move.
func (p *roomPanel) ticking() bool {
	return p.snap.Phase == rooms.Playing && len(p.snap.ToMove) > 0
}

// statusLines append the middle of the panel to lines and return them: what the board says of
// the match, a gone player's keys, why the match ended unrated, and the rule over the chat or the
// moves, which says which and how to see the other (the help line has no room left for tab).
func (p *roomPanel) statusLines(lines []string, st draw.Styles, w int) []string {
	s := p.snap
	if s.Phase != rooms.Waiting {
		lines = append(lines, p.board.Status(s, st, w)...)
	}
	if anyAbandoned(p.snap) {
		lines = append(lines, st.Err.Render("A player has gone."))
		lines = append(lines, wrapKeepingParens("b: a bot takes the seat", w)...)
		lines = append(lines, wrapKeepingParens("x: end the match unrated", w)...)
	}
	if s.Unrated {
		for _, l := range draw.Wrap("Ended unrated: "+s.Outcome.Reason, w) {
			lines = append(lines, st.Dim.Render(l))
		}
	}
	return append(lines, p.rule(st, w))
}

// rule is the rule over the foot, which says what the foot shows and what tab shows next; drawn
// again when the panel's width, styles or label change.
func (p *roomPanel) rule(st draw.Styles, w int) string {
	k := ruleKey{w: w, theme: themeOf(st), label: p.ruleLabel()}
	if p.ruled != "" && p.ruleOf == k {
		return p.ruled
	}
	label := k.label
	if draw.TextWidth(label)+4 > w { // too narrow: what the foot shows, or what tab would
		label = shortLabel(label)
	}
	if label == "" {
		p.ruled = st.Dim.Render(strings.Repeat("─", w))
	} else {
		p.ruled = panelRule(st, label, w)
	}
	p.ruleOf = k
	return p.ruled
}

// shortLabel is a rule's label for a narrow panel: what the foot shows ("spectators · tab:
// moves" is "spectators"), or the spectators' lines that tab shows ("tab: spectators (2)" is
// "spectators (2)"); "" when it has no shorter form.
func shortLabel(label string) string {
	if shown, _, ok := strings.Cut(label, " · "); ok {
		return shown
	}
	if rest, ok := strings.CutPrefix(label, "tab: spectators"); ok {
		return "spectators" + rest
	}
	return ""
}

// ruleLabel is what the rule over the foot says: what it shows, and what tab shows next; "" for
// a replay's, whose foot is its move list.
func (p *roomPanel) ruleLabel() string {
	mode := p.mode()
	switch {
	case p.replaying:
		return ""
	case mode == panelUnder && p.spectatorTab():
		return "tab: chats, moves"
	case mode == panelUnder:
		return "tab: chat, moves"
	case mode == panelUp && p.showMoves:
		return "moves · tab: board"
	case p.showMoves:
		return "moves · tab: chat"
	case p.showingSpectators():
		return "spectators · tab: moves"
	case p.spectatorTab():
		next := "tab: spectators"
		if mode == panelUp {
			next = "chat · " + next
		}
		if n := len(p.snap.SpectatorChat); n > 0 {
			next += fmt.Sprintf(" (%d)", n)
		}
		return next
	case mode == panelUp:
		return "chat · tab: moves"
	}
	return "tab: moves"
}

// ruleKey is what the panel's rule shows.
type ruleKey struct {
	w     int
	label string
	theme
}

// tailLines fill the foot of the panel, room lines at most: chat and log, the spectators' chat,
// or the moves, newest last.
func (p *roomPanel) tailLines(st draw.Styles, w, room int) []string {
	if p.showMoves && !p.replaying {
		return p.movesTail(st, w, room)
	}
	return p.chatTail(st, w, room)
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
func (p *roomPanel) movesTail(st draw.Styles, w, room int) []string {
	moves := p.snap.Moves
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
		if mv.Public != "" && mv.Seat != p.snap.You {
			text = mv.Public
		}
		prefix := fmt.Sprintf("%3d. %s ", i+1, seatTag(p.board, st, int(mv.Seat)))
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
//
// A panel narrower than panelWidth (a small window's) labels a seat by its letter alone, or its
// name unpadded when it has no letter ("▶R ann", "▶Seat 1 ann"), and indents the lines under it
// by two columns.
func (p *roomPanel) seatLines(st draw.Styles, i int, mark, name string, extra []string, score string, w int) []string {
	label := mark + p.seatLabel(st, i) + " "
	room := w - len(score) - 1
	indent := draw.Spaces(draw.TextWidth(label) - 1)
	if w < panelWidth {
		label, indent = mark+p.shortLabel(st, i)+" ", "  "
	}
	first := func(s string) string { return draw.Fit(s, room) + " " + st.Bold.Render(score) }
	all := strings.Join(extra, "")
	switch {
	case draw.TextWidth(label+name+all) <= room:
		return []string{first(label + name + all)}
	case draw.TextWidth(label+name) <= room:
		return append([]string{first(label + name)}, notes(indent, extra, w)...)
	case draw.TextWidth(indent+name+all) <= w:
		return []string{first(label), draw.Fit(indent+name+all, w)}
	}
	return append([]string{first(label), draw.Fit(indent+name, w)}, notes(indent, extra, w)...)
}

// notes are a seat's notes on lines of their own under its name, as many whole notes a line as
// fit ("(you) wants a rematch:" over "r to accept").
func notes(indent string, extra []string, w int) []string {
	var lines []string
	line := ""
	for _, n := range extra {
		if line != "" && draw.TextWidth(indent+line+n) > w {
			lines = append(lines, draw.Fit(indent+line, w))
			line = ""
		}
		line += n
	}
	if line != "" {
		lines = append(lines, draw.Fit(indent+line, w))
	}
	return lines
}

// chatTail is the end of the chat that fits in room lines: whole messages, the newest last. A
// newest message longer than room shows its first lines.
func (p *roomPanel) chatTail(st draw.Styles, w, room int) []string {
	chat := p.chatLines(st, w)
	switch {
	case room <= 0:
		return nil
	case len(chat) <= room:
		return chat
	}
	starts := p.chat.starts
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
// (draw.TurnTeller). The clock's lines follow them (ticking).
func (p *roomPanel) turnLines(st draw.Styles, w int) []string {
	s := p.snap
	if len(s.ToMove) == 0 {
		return nil
	}
	var yours, theirs string
	if t, ok := p.board.(draw.TurnTeller); ok {
		yours, theirs = t.TurnText(s)
	}
	if s.You != rules.Spectator && slices.Contains(s.ToMove, s.You) {
		if yours == "" {
			return []string{st.OK.Render("Your turn.")}
		}
		return wrapKeepingParens(st.OK.Render("Your turn:")+" "+yours, w)
	}
	names := make([]string, 0, len(s.ToMove))
	for _, i := range s.ToMove {
		if int(i) < len(s.Seats) {
			names = append(names, nameWithTag(s.Seats[i].Name, seatTag(p.board, st, int(i))))
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
	return wrapKeepingParens(text, w)
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

// seatLabel draws seat i's letter and colour name in its colour, eight columns for the panel:
// "R Red   ". Each seat's is drawn once for the room's board and the styles.
func (p *roomPanel) seatLabel(st draw.Styles, i int) string {
	if th := themeOf(st); th != p.labelsIn {
		p.labels, p.labelsIn = p.labels[:0], th
	}
	for len(p.labels) <= i {
		p.labels = append(p.labels, "")
	}
	if p.labels[i] == "" {
		letter, colour := labelOf(p.board, i)
		label := letter + " " + fmt.Sprintf("%-6s", colour)
		if letter == "" {
			label = fmt.Sprintf("%-8s", colour)
		}
		p.labels[i] = seatStyleOf(p.board, st, i).Render(label)
	}
	return p.labels[i]
}

// shortLabel draws seat i's letter, or its name when it has none, in its colour, for a narrow
// panel.
func (p *roomPanel) shortLabel(st draw.Styles, i int) string {
	letter, colour := labelOf(p.board, i)
	if letter == "" {
		letter = colour
	}
	return seatStyleOf(p.board, st, i).Render(letter)
}

// result says who won, or alone, the score.
func (p *roomPanel) result(st draw.Styles, w int) []string {
	s := p.snap
	win := s.Outcome.Winners()
	var names []string
	for _, i := range win {
		names = append(names, winnerName(seatTag(p.board, st, int(i)), s.Seats[i].Name))
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
		head = names[0] + " wins" + score(s.Outcome, int(win[0]), len(s.Seats)) + "!"
	default:
		head = strings.Join(names, " and ") + " share the win!"
	}
	lines := append([]string{st.Title.Render("GAME OVER")}, wrapKeepingParens(head, w)...)
	if s.Outcome.Reason != "" && !s.Unrated {
		for _, l := range draw.Wrap(s.Outcome.Reason, w) { // Flic Flac's is long
			lines = append(lines, st.Dim.Render(l))
		}
	}
	if !s.Unrated && len(s.Seats) > 1 { // (a replay's snapshot says Casual from its record)
		for _, l := range draw.Wrap(ratedText(s), w) {
			lines = append(lines, st.Dim.Render(l))
		}
	}
	lines = append(lines, p.ratingLines(st, w)...)
	if id := s.Result.MatchID; id != "" {
		for _, l := range draw.Wrap("match "+id+" · v replay", w) {
			lines = append(lines, st.Dim.Render(draw.Fit(l, w)))
		}
	}
	return append(lines, "")
}

// rematchNotes are the notes by a seat whose holder wants a rematch: to a player who has not said
// yet, with the key that accepts it, as a note of its own that may go to the next line.
func rematchNotes(s *rooms.Snapshot, seat int) []string {
	you := int(s.You)
	if s.You == rules.Spectator || you == seat || you >= len(s.Seats) || s.Seats[you].Rematch {
		return []string{" wants a rematch"}
	}
	return []string{" wants a rematch:", " r to accept"}
}

// score is the final score of a two-seat match, the winner's first: " 33-26"; "" for another
// number of seats, or when the score did not decide the match (rules.Outcome.WinningScore).
func score(out rules.Outcome, first, seats int) string {
	won, lost, ok := out.WinningScore(rules.Seat(first))
	if seats != 2 || !ok {
		return ""
	}
	return fmt.Sprintf(" %d-%d", won, lost)
}

// ratedText says whether the match counts for the ratings: by the recorded rating changes when
// they are known, else as the room rates its matches (ratedRoom).
func ratedText(s *rooms.Snapshot) string {
	rated := ratedRoom(s)
	if s.Result.Ratings != nil {
		rated = slices.ContainsFunc(s.Result.Ratings, func(c rooms.RatingChange) bool { return c.Rated })
	}
	if rated {
		return "Rated match."
	}
	return "Casual match: not rated."
}

// ratedRoom reports whether the snapshot's room rates its matches, as the room decides (rooms:
// Room.rated): its settings are standard (not Casual) and it has two seats or more, every one a
// person with a key (a free seat counts as one). The seats are read here too, so that a
// snapshot from a node that does not say Casual is judged as it was.
func ratedRoom(s *rooms.Snapshot) bool {
	return len(s.Seats) >= 2 && s.Counts()
}

// roomMode is how a room's header and lists say whether its matches are rated: "rated",
// "casual", or "" for a room played alone.
func roomMode(s *rooms.Snapshot) string {
	switch {
	case len(s.Seats) < 2:
		return ""
	case ratedRoom(s):
		return rooms.ModeRated
	}
	return rooms.ModeCasual
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
func (p *roomPanel) ratingLines(st draw.Styles, w int) []string {
	s := p.snap
	var lines []string
	for i, c := range s.Result.Ratings {
		if !c.Rated || i >= len(s.Seats) {
			continue
		}
		change := fmt.Sprintf("%s → %s (%+d)", shownRating(c.Before, c.BeforeProvisional),
			shownRating(c.After, c.Provisional), int(math.Round(c.After))-int(math.Round(c.Before)))
		name := s.Seats[i].Name
		if draw.TextWidth(name)+1+draw.TextWidth(change) > w { // the change under the name, whole
			indent := draw.Spaces(min(2, w-draw.TextWidth(change)))
			lines = append(lines, draw.Fit(name, w), indent+st.Bold.Render(change))
			continue
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

// anyAbandoned reports whether a seat of the match being played has been given up by its player.
func anyAbandoned(s *rooms.Snapshot) bool {
	return s.Phase == rooms.Playing && slices.ContainsFunc(s.Seats, func(x rooms.SeatInfo) bool { return x.Abandoned })
}
