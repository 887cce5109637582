package session

import (
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/session/draw"
)

// promptKeys are the keys of a room's prompt: while a line is open, and the answer to its
// question (the grammar's Yes and Cancel, draw.KeyMap).
type promptKeys struct {
	Send, Cancel, CloseInput, Yes key.Binding
}

// promptKeyMap is the key map every room's prompt shares; it never changes.
var promptKeyMap = promptKeys{
	Send:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
	Cancel:     draw.KeyMap.Cancel,
	CloseInput: key.NewBinding(key.WithKeys("up", "down", "pgup", "pgdown"), key.WithHelp("↑↓", "close")),
	Yes:        draw.KeyMap.Yes,
}

// lineKind is what the prompt's open line is for.
type lineKind int

const (
	lineNone lineKind = iota
	lineMove          // a move in the game's notation (:)
	lineChat          // a chat line (t)
)

// roomPrompt is the line under a room's board: the room's last message or error, a line being
// typed (a move or a chat line), or a question answered with one key: enter says yes, any other
// key no (R asks "Resign?", a board's pass asks "Pass your turn?", esc with nothing to cancel asks
// "Leave the room?"). While a line is open it takes every key: enter sends, esc cancels, and up
// and down (keys meant for the board) close it without sending, so that nothing meant for the
// game goes out as chat. A question takes the next key, whatever it is.
type roomPrompt struct {
	keys   *promptKeys // shared (promptKeyMap)
	kind   lineKind    // the open line's; lineNone when none is open
	input  lineInput
	send   func(text string) tea.Cmd // what the open line's text is for
	msg    string
	msgErr bool
	errSeq int // counts the errors said, so that an error's expiry clears only that error
	// The open question: what yes does (for the help line) and then, what no does and what to
	// say to it; leaving when it asks whether to leave the room, which the room does on yes
	// (leaves).
	asked       bool
	leaving     bool
	yes, noHelp string
	then        func() tea.Cmd
	no          string
	// The request the message says the player made (sayRequest), which the room's snapshots
	// settle (settle): the number of moves when it was made, and whether a snapshot has shown it
	// waiting.
	request      requestKind
	requestMoves int
	requestSeen  bool
}

// requestKind is a request to the other players that a message under the board tells of.
type requestKind int

const (
	noRequest requestKind = iota
	takebackRequest
	drawRequest
)

func newRoomPrompt() roomPrompt { return roomPrompt{keys: &promptKeyMap} }

// errorLife is how long an error stays under the board when no key comes to clear it.
const errorLife = 6 * time.Second

// errExpiredMsg clears the error line, if it still shows the error seq (roomPrompt.errSeq).
type errExpiredMsg struct{ seq int }

// say puts msg on the message line, on one line: a game's notation help may have two. It takes
// the place of an open question, which goes with it: a key answers only a question on screen (an
// error come meanwhile must not leave enter to say yes to a question no longer shown).
func (p *roomPrompt) say(msg string, isErr bool) {
	p.msg, p.msgErr = strings.ReplaceAll(msg, "\n", " "), isErr
	p.asked, p.leaving, p.then = false, false, nil
	p.request = noRequest
}

// sayRequest puts msg, which tells of a request the player makes of the others (a takeback, a
// draw), on the message line, to stay there while the request waits: the first snapshot that
// shows it answered or withdrawn takes it away (settle). moves is the match's number of moves now.
func (p *roomPrompt) sayRequest(msg string, kind requestKind, moves int) {
	p.say(msg, false)
	p.request, p.requestMoves, p.requestSeen = kind, moves, false
}

// settle takes away the message of a request (sayRequest) that snap shows is no longer waiting:
// nobody asks it any more, and either a snapshot showed it waiting before or the moves have
// changed since (a takeback done at once, by a bot; a move, which withdraws it). Until then a
// snapshot sent before the room had the request leaves the message be.
func (p *roomPrompt) settle(snap *rooms.Snapshot) {
	if p.request == noRequest {
		return
	}
	waiting := snap.Phase == rooms.Playing && slices.ContainsFunc(snap.Seats, func(s rooms.SeatInfo) bool {
		return p.request == takebackRequest && s.TakeBack || p.request == drawRequest && s.DrawOffer
	})
	switch {
	case waiting:
		p.requestSeen = true
	case p.requestSeen || len(snap.Moves) != p.requestMoves || snap.Phase != rooms.Playing:
		p.say("", false)
	}
}

// fail shows an error under the board; it goes at the player's next key (clearError), or after
// errorLife (the command returned is its timer: one short-lived tick, no goroutine kept).
func (p *roomPrompt) fail(msg string) tea.Cmd {
	p.say(msg, true)
	p.errSeq++
	seq := p.errSeq
	return tea.Tick(errorLife, func(time.Time) tea.Msg { return errExpiredMsg{seq} })
}

// clearError takes the error off the message line, if one is there: an error is about what was
// done before, and the next action clears it.
func (p *roomPrompt) clearError() {
	if p.msgErr {
		p.say("", false)
	}
}

// open opens a line for a move (lineMove) or a chat line (lineChat); send is what its text is
// for when the player presses enter.
func (p *roomPrompt) open(kind lineKind, send func(text string) tea.Cmd) {
	p.kind, p.send = kind, send
	if kind == lineMove {
		p.input = newLineInput("move: ", rooms.MaxMove)
	} else {
		p.input = newLineInput("chat: ", 200)
	}
}

// openChat opens the chat line; to, when not everybody reads what is said, names who does
// ("spectators").
func (p *roomPrompt) openChat(to string, send func(text string) tea.Cmd) {
	p.open(lineChat, send)
	if to != "" {
		p.input = newLineInput("chat to "+to+": ", 200)
	}
}

// typing reports whether a line is open.
func (p *roomPrompt) typing() bool { return p.kind != lineNone }

// ask puts a question on the message line, answered by the next key: Yes (enter), and then's
// command is run (it is made only then: a move it sends is in order from then on); any other,
// and no is said. yes and noHelp say on the help line what the two answers do ("resign", "play
// on").
func (p *roomPrompt) ask(question, yes, noHelp string, then func() tea.Cmd, no string) {
	p.say(question, false)
	p.asked, p.yes, p.noHelp, p.then, p.no = true, yes, noHelp, then, no
}

// askLeave asks whether to leave the room: yes leaves (the room asks leaves before the prompt
// takes the key), any other key takes the question away.
func (p *roomPrompt) askLeave(question string) {
	p.ask(question, "leave", "stay", nil, "")
	p.leaving = true
}

// answer is what yes to the question waiting for its answer does ("resign"), or "" when none
// waits.
func (p *roomPrompt) answer() string {
	if !p.asked {
		return ""
	}
	return p.yes
}

// asking reports whether a question waits for its answer.
func (p *roomPrompt) asking() bool { return p.asked }

// askingLeave reports whether the question waiting for its answer is whether to leave the room.
func (p *roomPrompt) askingLeave() bool { return p.asked && p.leaving }

// leaves reports whether km answers yes to the question whether to leave the room.
func (p *roomPrompt) leaves(km tea.KeyPressMsg) bool {
	return p.askingLeave() && key.Matches(km, p.keys.Yes)
}

// answerKeys appends the question's answers, for the help line, to out: "enter resign • esc
// play on".
func (p *roomPrompt) answerKeys(out []key.Binding) []key.Binding {
	return append(out, draw.WithHelp(p.keys.Yes, p.yes), draw.WithHelp(p.keys.Cancel, p.noHelp))
}

// Update takes the expiry of an error, a key or a paste while a line is open, or the key that
// answers the question. Its command is what the line was for (a move, a chat line), or the
// question's yes; when the line closes, typing reports false.
func (p roomPrompt) Update(msg tea.Msg) (roomPrompt, tea.Cmd) {
	if e, ok := msg.(errExpiredMsg); ok {
		if e.seq == p.errSeq && p.msgErr {
			p.say("", false)
		}
		return p, nil
	}
	km, isKey := msg.(tea.KeyPressMsg)
	switch {
	case p.asked:
		if !isKey {
			return p, nil
		}
		then := p.then
		p.asked, p.leaving, p.then = false, false, nil
		if key.Matches(km, p.keys.Yes) {
			p.say("", false)
			if then == nil {
				return p, nil
			}
			return p, then()
		}
		p.say(p.no, false)
		return p, nil
	case !p.typing():
		return p, nil
	case isKey && (key.Matches(km, p.keys.Cancel) || key.Matches(km, p.keys.CloseInput)):
		p.kind, p.send = lineNone, nil
		p.say("", false)
		return p, nil
	}
	if !p.input.update(msg) {
		return p, nil
	}
	text, kind, send := p.input.text(), p.kind, p.send
	p.kind, p.send = lineNone, nil
	if text == "" {
		p.say("", false)
		return p, nil
	}
	if kind == lineMove {
		p.say("", false) // a chat line leaves the message be
	}
	return p, send(text)
}

// helpKeys appends the bindings the help line shows while a line is open to out.
func (p roomPrompt) helpKeys(out []key.Binding) []key.Binding {
	return append(out, p.keys.Send, p.keys.Cancel, p.keys.CloseInput)
}

// View draws the line under the board: the open line, or the last message (a question is one).
// A message too long for one line takes two (the body gives up its last line), and an error up
// to errorLines (a word game's notation error tells what is wrong and how to write a move), so
// that its hint is read whole; only a message longer still is cut.
func (p roomPrompt) View(st draw.Styles, w int) []string { return p.view(st, w, 0) }

// view is View, with a message of most lines at most (on a small window, where the board needs
// the rows); 0 leaves View's limits.
func (p roomPrompt) view(st draw.Styles, w, most int) []string {
	if p.typing() {
		return []string{draw.Fit(" "+p.input.view(st, w-2), w)}
	}
	if p.msg == "" {
		return []string{draw.Fit("", w)}
	}
	text, style, indent := p.msg, draw.Paint{}, " "
	if p.msgErr {
		text, style, indent = "✗ "+p.msg, st.Err, "   "
	}
	lines := wrapKeepingParens(text, w-len(indent)) // the lines after the first are indented
	limit := 2
	if p.msgErr {
		limit = errorLines
	}
	if most > 0 {
		limit = min(limit, most)
	}
	if len(lines) > limit {
		lines = append(lines[:limit-1], strings.Join(lines[limit-1:], " "))
	}
	out := []string{draw.Fit(" "+style.Render(lines[0]), w)}
	for _, l := range lines[1:] {
		out = append(out, draw.Fit(indent+style.Render(l), w))
	}
	return out
}

// isSquare reports whether word names a board's square or hex as the boards write it: one
// lowercase letter and a number ("f4", "h12").
func isSquare(word string) bool {
	if len(word) < 2 || len(word) > 3 || word[0] < 'a' || word[0] > 'z' {
		return false
	}
	for _, c := range word[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// errorLines is the most lines an error under the board takes.
const errorLines = 5

// sentence makes an error's text a sentence for the message line: a capital first letter and a
// full stop, as the screen's own messages are. A first word that names a square ("f4 is
// occupied") keeps its case: the board writes it so.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	if r, n := utf8.DecodeRuneInString(s); !isSquare(s[:strings.IndexFunc(s+" ", unicode.IsSpace)]) {
		s = string(unicode.ToUpper(r)) + s[n:]
	}
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "?") {
		s += "."
	}
	return s
}
