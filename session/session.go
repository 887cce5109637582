package session

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session/draw"
)

// Records is what a session reads of the past. storage.DB satisfies it.
type Records interface {
	// Leaderboard returns the best standings of game, at most limit.
	Leaderboard(game string, limit int) ([]record.Standing, error)
	// SoloScores returns the best solo scores of game (a game that may be played alone), at most
	// limit, highest first.
	SoloScores(game string, limit int) ([]record.SoloScore, error)
	// Profile returns a player's standings and latest matches.
	Profile(playerID string, recent int) (record.Profile, error)
	// Match returns a recorded match with its moves.
	Match(id string) (record.Match, error)
}

// Config is everything a session needs.
type Config struct {
	Hub Hub
	// Boards makes the board view of each of the hub's games (the catalogue's, package games); a
	// game without one is played by typing moves.
	Boards Boards
	// Records serves leaderboards, profiles and replays; nil when none are kept.
	Records Records
	// Notice is shown in full, wrapped, when the session starts (e.g. why the player is a guest):
	// in the lobby's message lines, or, when the command line opens a room or a replay, on a
	// screen of its own in front of it until a key is pressed (the room opens meanwhile).
	Notice string
	Player rooms.Player
	Start  Start
	// Width and Height are the terminal's size at the start.
	Width, Height int
	// NoColor draws without colour (letters and symbols carry the meaning anyway).
	NoColor bool
	// ASCII draws with ASCII characters only, for terminals with poor Unicode.
	ASCII bool
	// NoBell keeps quiet the terminal bell that rings when it becomes the player's turn.
	NoBell bool
	// Online returns how many players are connected now, for the lobby's front page; nil shows
	// no count.
	Online func() int
	// Address is what players type after ssh to reach this server, e.g. "-p 2222
	// play.example.com" ("play.example.com" on port 22): the rooms show it in the command that
	// joins them. Empty shows HOST.
	Address string
	// PublicURL is the web companion's address as players reach it: the end screen, the replay
	// and the lobby print links to its pages (WebLinks). Empty prints none.
	PublicURL string
	// QuickWait is how long a quick match looks for an opponent before it offers a bot; 0 is
	// DefaultQuickWait.
	QuickWait time.Duration
	// Send is the session's program's Send (tea.Program.Send): the model is woken with it when
	// a room has left a snapshot for it (see wake). A session that opens a room needs it.
	Send func(tea.Msg)
	// Post serves correspondence play: the sleeping games of Your games, challenges and
	// friends; nil offers none.
	Post Post
	// NoNotify keeps desktop notifications (OSC 9, OSC 777) from the terminal: the player set
	// notify=off.
	NoNotify bool
	// Social keeps whom players ignore, their reports and mutes (social.go); nil keeps none.
	Social Social
}

// ShutdownMsg tells a session that the server is going away; it shows Notice and quits.
type ShutdownMsg struct{ Notice string }

// Terminal sizes. The screens are laid out for fullWidth x fullHeight; a smaller window down to
// the minimum (a phone's terminal) gets compact layouts (roomlayout.go), and a smaller one still a
// clear message instead of a broken screen (a room's says what its board needs, and the match
// goes on). Larger than the maximum is drawn at the maximum: a client cannot make the server
// build huge frames.
const (
	fullWidth, fullHeight = 80, 24
	minWidth, minHeight   = 60, 20
	maxWidth, maxHeight   = 320, 120
	tinyWidth, tinyHeight = 30, 10 // the smallest the messages of a window too small are drawn in
)

// Model is one player's terminal: the lobby, or a room. Create it with New.
//
// A Model is a handle on the session's state: Update changes that state and returns the same
// handle. (Bubble Tea keeps the model in an interface; a model of value fields would be copied to
// the heap, about 2 KB, at every message of every session.)
type Model struct {
	*model
}

// model is the state of a session.
type model struct {
	cfg    Config
	st     *draw.Styles // shared (NewStyles)
	width  int
	height int
	lobby  lobby
	room   *roomScreen
	replay *replayScreen
	quick  *quickScreen // the wait for a quick match
	notice string
	intro  string // Config.Notice, shown in front of the room or replay until a key is pressed
	busy   bool   // a create or join is under way
	conn   *conn
	waker  waker // sends the wakeMsgs of the room's wake-ups (see wake) and the clock's ticks
	// ring is what the last notices write to the terminal with the next frame (noticeBytes);
	// newsTitle the window's title until the next key.
	ring      string
	newsTitle string
	// ignored: whom the player ignores, whose chat the room screen is not given (social.go).
	ignored ignores
}

// conn holds the room subscription of a session, so that the room is left when the connection
// ends, whatever the model was doing. Safe for concurrent use.
type conn struct {
	mu     sync.Mutex
	sub    Sub
	ticket *rooms.Ticket // the quick match the session waits for
	closed bool
}

// setTicket makes t the quick match the session waits for, cancelling the one before. After
// close, a late t is cancelled at once.
func (c *conn) setTicket(t *rooms.Ticket) {
	c.mu.Lock()
	old := c.ticket
	c.ticket = t
	late := c.closed && t != nil
	if late {
		c.ticket = nil
	}
	c.mu.Unlock()
	if old != nil && old != t {
		old.Cancel()
	}
	if late {
		t.Cancel()
	}
}

// set makes sub the session's subscription, leaving the one before. After close, a late sub is
// left at once.
func (c *conn) set(sub Sub) {
	c.mu.Lock()
	old := c.sub
	if old == sub {
		c.mu.Unlock()
		return
	}
	c.sub = sub
	late := c.closed && sub != nil
	if late {
		c.sub = nil
	}
	c.mu.Unlock()
	if old != nil {
		old.Leave()
	}
	if late {
		sub.Leave()
	}
}

// adopt makes sub, a room found again after it moved (follow), the session's subscription,
// unless the session has closed or ctx (the wait) was cancelled: then it leaves sub and returns
// false.
func (c *conn) adopt(ctx context.Context, sub Sub) bool {
	c.mu.Lock()
	if c.closed || ctx.Err() != nil { // (over, under the lock that set takes)
		c.mu.Unlock()
		sub.Leave()
		return false
	}
	old := c.sub
	c.sub = sub
	c.mu.Unlock()
	if old != nil && old != sub {
		old.Leave()
	}
	return true
}

// over reports whether the session has closed or ctx (a wait for a room that moves) is done.
func (c *conn) over(ctx context.Context) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed || ctx.Err() != nil
}

// drop leaves sub if it is the session's subscription.
func (c *conn) drop(sub Sub) {
	c.mu.Lock()
	mine := c.sub == sub
	c.mu.Unlock()
	if mine {
		c.set(nil)
	}
}

// Close leaves the room the session is in, if any. Call it when the connection ends; it is safe
// to call from any goroutine, more than once.
func (m Model) Close() {
	m.conn.mu.Lock()
	m.conn.closed = true
	m.conn.mu.Unlock()
	m.conn.set(nil)
	m.conn.setTicket(nil)
}

// New returns the model of one session.
func New(cfg Config) Model {
	m := Model{&model{cfg: cfg, st: draw.NewStyles(cfg.NoColor, cfg.ASCII), conn: &conn{},
		width: min(cfg.Width, maxWidth), height: min(cfg.Height, maxHeight), waker: waker{send: cfg.Send}}}
	m.lobby = newLobby(cfg.Hub.Games(), cfg.Records, cfg.Player)
	m.lobby.post = cfg.Post
	m.lobby.addr = cfg.Address
	m.lobby.web = WebLinks(cfg.PublicURL)
	m.lobby.online = cfg.Online
	m.lobby.refreshFront(cfg.Hub)
	m.lobby.resize(m.width, m.height)
	m.loadIgnores()
	if cfg.Start.Mode == ModeLobby {
		m.lobby.msg = cfg.Notice
	} else {
		m.intro = cfg.Notice
	}
	return m
}

// Init starts in the lobby, or creates or joins the room the command line asked for.
func (m Model) Init() tea.Cmd {
	switch m.cfg.Start.Mode {
	case ModeLobby:
		return m.friendsCmd()
	case ModeReplay:
		return m.loadReplay(m.cfg.Start.Match)
	case ModeQuick:
		return m.seek(m.cfg.Start.Game)
	}
	return m.open(m.cfg.Start)
}

// Messages of the session's own commands.
type (
	joinedMsg struct {
		sub Sub
		err error
	}
	moveDoneMsg struct{ err error }
	actionMsg   struct{ err error }
	// tickMsg is the room screen's countdown tick; gen is the roomClock.gen it was asked
	// with: a tick asked for since makes it stale.
	tickMsg struct{ gen int }
	quitMsg struct{}
	// openReplayMsg asks for the replay of a match from its room's end (v).
	openReplayMsg struct{ id string }
)

// open creates, joins or watches a room off the UI goroutine.
func (m *Model) open(st Start) tea.Cmd {
	m.busy = true
	m.lobby.busyMsg = ""
	hub, p, c, send := m.cfg.Hub, m.cfg.Player, m.conn, m.cfg.Send
	return func() tea.Msg {
		var room Room
		var err error
		switch mh, ok := hub.(MovingHub); {
		case st.Mode == ModeNew:
			room, err = hub.Create(st.Game, st.Options, st.Seats, p)
		case ok && send != nil:
			// A room that is moving to another server is waited for; the player is told.
			code, _ := rooms.NormalizeCode(st.Code)
			told := false
			room, err = mh.FindMoving(st.Code, p, func() bool {
				if !told {
					told = true
					go send(joinWaitMsg{code})
				}
				return !c.over(context.Background())
			})
		default:
			room, err = hub.Find(st.Code, p)
		}
		if err != nil {
			return joinedMsg{err: err}
		}
		botsOnly := st.Mode == ModeNew && st.Bots >= st.Seats
		sub, err := room.Join(p, st.Mode == ModeWatch || botsOnly)
		if errors.Is(err, rooms.ErrRoomClosed) && st.Mode != ModeNew {
			// A correspondence room that went to sleep as it was found: found again, it wakes.
			if room, err = hub.Find(st.Code, p); err == nil {
				sub, err = room.Join(p, st.Mode == ModeWatch)
			}
		}
		if err != nil {
			return joinedMsg{err: err}
		}
		// The session holds the subscription from now on, not from when the model takes the
		// message: a program that has ended takes no more messages, and a session closed
		// meanwhile leaves the room at once.
		c.set(sub)
		if st.Mode == ModeNew {
			first := 1
			if botsOnly {
				first = 0
			}
			for i := first; i < first+st.Bots; i++ {
				if err := sub.AddBot(rules.Seat(i), st.BotLevel); err != nil {
					c.set(nil)
					return joinedMsg{err: err}
				}
			}
		}
		return joinedMsg{sub: sub}
	}
}

// Update handles a message.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = min(msg.Width, maxWidth), min(msg.Height, maxHeight)
		return m, nil
	case ShutdownMsg:
		m.notice = msg.Notice
		m.leaveRoom()
		return m, tea.Tick(1500*time.Millisecond, func(time.Time) tea.Msg { return quitMsg{} })
	case quitMsg:
		return m, tea.Quit
	case NoticeMsg:
		m.takeNotice(msg.Notice)
		return m, nil
	case friendsMsg:
		m.lobby.takeFriends(msg.friends)
		return m, nil
	case AnnounceMsg:
		m.announce(msg.Text)
		return m, nil
	case saidMsg:
		m.say(msg.text)
		return m, nil
	case typedChatMsg:
		if m.room == nil {
			return m, nil
		}
		// The room's subscription now: the room may have moved to another server since the
		// line was opened (follow), and the ignores may have changed.
		return m, m.chatLine(m.room.sub, msg.text)
	case ignoredMsg:
		return m, m.takeIgnored(msg)
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+c" {
			m.leaveRoom()
			return m, tea.Quit
		}
		m.newsTitle = ""
		if m.notice != "" {
			return m, nil
		}
		if m.intro != "" {
			m.intro = "" // the key only dismisses the notice
			return m, nil
		}
	case tea.MouseMsg:
		if m.intro != "" {
			return m, nil
		}
	case joinWaitMsg:
		if m.busy {
			m.lobby.busyMsg = joinWaitText(msg.code)
		}
		return m, nil
	case followedMsg:
		return m.followed(msg)
	case joinedMsg:
		m.busy = false
		m.lobby.busyMsg = ""
		if msg.err != nil {
			m.lobby.fail(joinError(msg.err))
			return m, nil
		}
		if m.cfg.Send == nil {
			panic("session: Config.Send is nil, and a room's snapshots need it")
		}
		m.conn.set(msg.sub)
		m.loadIgnores() // ignores made elsewhere since (ssh host ignore NAME) hold from this room on
		m.room = newRoomScreen(msg.sub, m.cfg.Player, m.cfg.Hub.Games(), m.cfg.Boards)
		m.room.chat = typedChatCmd
		m.room.noBell = m.cfg.NoBell
		m.room.clock.ticks = &m.waker
		m.room.addr = m.cfg.Address
		m.room.web = WebLinks(m.cfg.PublicURL)
		msg.sub.OnUpdate(m.wake)
		return m.takeSnapshots() // the first is there already
	case wakeMsg:
		m.waker.received() // before taking: a snapshot left after this wakes the model again
		return m.takeSnapshots()
	case openReplayMsg:
		return m, m.loadReplay(msg.id)
	}
	if msg, ok := msg.(replayMsg); ok {
		m.busy = false
		if msg.err != nil && m.room != nil {
			return m, m.room.fail(sentence(msg.err.Error()))
		}
		if msg.err != nil {
			m.lobby.fail(msg.err.Error())
			return m, nil
		}
		m.replay = msg.screen
		switch {
		case m.room != nil:
			m.replay.backTo(backRoom)
		case m.lobby.page == pageMine:
			m.replay.backTo(backMatches)
		}
		return m, nil
	}
	if m.quick != nil {
		return m, m.updateQuick(msg)
	}
	if m.replay != nil {
		cmd, leave := m.replay.update(msg)
		if leave {
			m.replay = nil
		}
		return m, cmd
	}
	if m.room != nil {
		var cmd tea.Cmd
		var leave bool
		m.room.resize(m.width, m.height)
		cmd, leave = m.room.update(msg)
		if leave {
			m.leaveRoom()
			m.lobby.page = pageMenu
			m.lobby.msg = ""
			m.lobby.refreshFront(m.cfg.Hub)
		}
		return m, cmd
	}
	if m.busy {
		return m, nil
	}
	m.lobby.resize(m.width, m.height)
	act := m.lobby.update(msg, m.cfg.Hub)
	switch {
	case act.quit:
		return m, tea.Quit
	case act.start == nil:
		return m, m.friendsCmd()
	case act.start != nil && act.start.Mode == ModeReplay:
		return m, m.loadReplay(act.start.Match)
	case act.start != nil && act.start.Mode == ModeQuick:
		return m, m.seek(act.start.Game)
	case act.start != nil:
		return m, m.open(*act.start)
	}
	return m, nil
}

// View draws the screen.
func (m Model) View() tea.View {
	frame := m.render()
	if m.cfg.ASCII {
		frame = draw.ASCIIOnly(frame)
	}
	return m.view(frame)
}

// ViewLines is View with the screen's text as lines, new at every call (teaframe.LineViewer: the
// renderer draws them without the text being joined and split again at every frame).
func (m Model) ViewLines() (tea.View, []string) {
	if !m.roomShown() {
		v := m.View()
		return v, strings.Split(v.Content, "\n")
	}
	lines := m.room.viewLines(*m.st, max(m.width, tinyWidth), max(m.height, tinyHeight))
	if m.cfg.ASCII {
		for i, l := range lines {
			lines[i] = draw.ASCIIOnly(l)
		}
	}
	return m.view(""), lines
}

// ViewPieces is ViewLines with each line in pieces (teaframe.PieceViewer): the room's rows are
// its board's line and its panel's, with the spaces between, not joined. The slices are the
// screen's until the next call.
func (m Model) ViewPieces() (tea.View, [][]string) {
	if !m.roomShown() {
		v, lines := m.ViewLines()
		pieces := make([][]string, len(lines))
		for i := range lines {
			pieces[i] = lines[i : i+1 : i+1]
		}
		return v, pieces
	}
	pieces := m.room.viewPieces(*m.st, m.width, m.height)
	if m.cfg.ASCII {
		for _, line := range pieces {
			for i, p := range line {
				line[i] = draw.ASCIIOnly(p) // the screen's slices, made again at the next call
			}
		}
	}
	return m.view(""), pieces
}

// view is the view of the screen whose text is content.
func (m Model) view(content string) tea.View {
	v := tea.NewView(content)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "arcade"
	switch {
	case m.newsTitle != "":
		v.WindowTitle = m.newsTitle // a notice's, until the next key
	case m.room != nil && m.room.have && m.replay == nil:
		v.WindowTitle = m.room.title() // "your move · GAME · CODE" when it is the player's turn
	}
	return v
}

// roomShown reports whether the screen shows the room (render draws m.room).
func (m Model) roomShown() bool {
	return m.notice == "" && m.intro == "" && m.replay == nil && m.room != nil
}

func (m Model) render() string {
	w, h := m.width, m.height
	if m.notice != "" {
		return noticeView(*m.st, m.notice, "", w)
	}
	// A room and a replay say themselves what window their board needs (in tinyWidth x
	// tinyHeight at least: a window smaller still shows what of it fits).
	if m.roomShown() {
		return m.room.view(*m.st, max(w, tinyWidth), max(h, tinyHeight))
	}
	if m.replay != nil && m.intro == "" {
		return m.replay.view(*m.st, max(w, tinyWidth), max(h, tinyHeight))
	}
	if w < minWidth || h < minHeight {
		return tooSmall(w, h, *m.st)
	}
	if m.intro != "" {
		return introView(*m.st, m.intro, w, h)
	}
	if m.quick != nil {
		return m.quick.view(*m.st, m.lobby.helped, w, h)
	}
	return m.lobby.view(*m.st, m.cfg.Player, w, h, m.busy)
}

// joinError turns a rooms error into a line for the lobby.
func joinError(err error) string {
	switch {
	case errors.Is(err, rooms.ErrNoRoom):
		return "No room has that code. Check it and try again."
	case errors.Is(err, rooms.ErrTooManyAttempts):
		return "Too many wrong codes: wait a minute before trying again."
	}
	return "Could not enter the room: " + err.Error()
}

// moveWait is how long a move waits for the room's answer, the moves sent before it included.
const moveWait = 10 * time.Second

// errMoveLate: the room did not answer a move in time (or an earlier move's).
var errMoveLate = errors.New("the room did not answer in time; try again")

// moveCmd proposes a move to the room and reports its answer. Bubble Tea runs every command on a
// goroutine of its own, so moves sent quickly one after the other (a move and "end" in one packet)
// could reach the room in either order: each waits until after (the move sent before it has had its
// answer, or gave up) and closes done when it has its own. Called from Update, which fixes the order.
func moveCmd(sub Sub, move string, after <-chan struct{}, done chan<- struct{}) tea.Cmd {
	return func() tea.Msg {
		defer close(done)
		ctx, cancel := context.WithTimeout(context.Background(), moveWait)
		defer cancel()
		if after != nil {
			select {
			case <-after:
			case <-ctx.Done():
				return moveDoneMsg{err: errMoveLate}
			}
		}
		return moveDoneMsg{err: sub.Move(ctx, move)}
	}
}

// actionCmd runs a room action (chat, bot, rematch) off the UI goroutine.
func actionCmd(f func() error) tea.Cmd {
	return func() tea.Msg { return actionMsg{err: f()} }
}

// takeSnapshots applies the newest snapshot waiting for the room screen, if any, and goes back to
// the lobby, saying why, if the subscription has ended. Without a room (one left since the room's
// wake-up) it does nothing.
func (m Model) takeSnapshots() (tea.Model, tea.Cmd) {
	if m.room == nil {
		return m, nil
	}
	snap, fresh, closed := Latest(m.room.sub)
	if fresh {
		m.applySnapshot(snap)
	}
	if closed && m.room.have && moved(m.room.sub) {
		return m, m.follow() // the room comes back on another server
	}
	if closed {
		why := m.room.closedReason()
		m.leaveRoom()
		m.lobby.fail(why)
		return m, nil
	}
	return m, nil
}

// leaveRoom closes the room screen, if one is open (its clock's tick, its wait for a room that
// moves), and leaves the room.
func (m Model) leaveRoom() {
	if r := m.room; r != nil {
		r.stopTick()
		if r.moving != nil {
			r.moving.cancel()
		}
	}
	m.room = nil
	m.conn.set(nil)
}
