package session

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session/draw"
)

// lobbyPage is one page of the lobby.
type lobbyPage int

const (
	pageMenu lobbyPage = iota
	pageNew
	pageJoin
	pageRooms
	pageHelp
	pageRules
	pageBoard
	pageMine
	pageQuick
	pageInbox     // challenges and friends (inbox.go)
	pageChallenge // the form that challenges a player
)

// menuItems are the lobby's main menu, in order.
var menuItems = []struct {
	label string
	page  lobbyPage
}{
	{"Quick match", pageQuick},
	{"New room", pageNew},
	{"Join a room by code", pageJoin},
	{"Open rooms", pageRooms},
	{"Leaderboards", pageBoard},
	{"My matches and ratings", pageMine},
	{"Help and rules", pageHelp},
	{"Challenges and friends", pageInbox},
	{"Quit", -1},
}

// lobby is the lobby's state.
type lobby struct {
	addr  string     // Config.Address
	web   WebLinks   // Config.PublicURL
	keys  *lobbyKeys // shared (lobbyKeyMap)
	games []rules.Game
	page  lobbyPage
	menu  int
	form  newForm
	code  lineInput
	list  []rooms.Summary
	sel   int
	game  int   // the game whose rules are shown
	pager pager // the page's scrolling part: the rules, or the list of games, rooms or matches
	w, h  int   // the screen's size, as the model last gave it
	msg   string
	// busyMsg is said instead of "Opening the room…" while a join waits for a room that is
	// moving to another server.
	busyMsg string
	recs    Records
	me      rooms.Player
	board   []record.Standing  // the leaderboard of games[game]
	solo    []record.SoloScore // its best solo scores, for a game that may be played alone
	prof    record.Profile
	helped  *helpCache // the help line; shared by the copies of the lobby a session's model makes
	online  func() int // Config.Online
	front   frontPage  // what the menu says of the server now
	yours   yourGames  // the menu's first block: the player's unfinished matches
	post    Post       // Config.Post; nil: no correspondence play
	inbox   inboxPage
	chal    challengeForm
	// news is the last notice's line (takeNotice), shown under the page until the next key.
	news string
	// friends are the player's friends connected or playing, as last read (friendsCmd), for the
	// menu's line; friendsAt when, friendsBusy while a read is under way.
	friends     []Friend
	friendsAt   time.Time
	friendsBusy bool
}

// frontPage is what the menu says of the rooms: how many wait for players and the newest of them,
// which p joins. (The players online are counted when the menu is drawn.)
type frontPage struct {
	waiting int
	top     rooms.Summary // Code "" when no room waits
}

// refreshFront reads the front page's figures, and the player's matches, from hub (called when
// the menu is shown or a key is pressed on it, not at every frame).
func (l *lobby) refreshFront(hub Hub) {
	var f frontPage
	list := hub.List()
	if l.post != nil && !l.me.Guest {
		l.yours.set(l.post.Games(l.me, list))
	} else {
		l.yours.set(list)
	}
	for _, s := range list { // waiting rooms first, newest first
		if s.Phase != rooms.Waiting || s.Free == 0 {
			continue
		}
		if f.waiting == 0 {
			f.top = s
		}
		f.waiting++
	}
	l.front = f
}

// lobbyAction is what the lobby asks the model to do.
type lobbyAction struct {
	quit  bool
	start *Start
}

func newLobby(games []rules.Game, recs Records, me rooms.Player) lobby {
	code := newLineInput("Room code: ", 5)
	code.upper = true
	return lobby{keys: &lobbyKeyMap, games: games, code: code, recs: recs, me: me,
		helped: &helpCache{}, yours: newYourGames(me), inbox: inboxPage{keys: &inboxKeyMap, pager: newListPager(nil, 0, inboxIndent)}}
}

// boardSize is how many standings the lobby's leaderboard shows; soloBoardSize is how many
// standings, and how many best solo scores, it shows of a game that may be played alone, so that
// both tables fit in 80 x 24.
const (
	boardSize     = 15
	soloBoardSize = 6
)

// loadBoard reads the leaderboard of the game shown, and its best solo scores when it may be
// played alone.
func (l *lobby) loadBoard() {
	l.board, l.solo = nil, nil
	if l.recs == nil || len(l.games) == 0 {
		l.msg = errNoRecords.Error()
		return
	}
	g := l.games[l.game]
	size := boardSize
	if g.MinSeats == 1 {
		size = soloBoardSize
	}
	var err error
	if l.board, err = l.recs.Leaderboard(g.ID, size); err != nil {
		l.msg = "The leaderboard cannot be read right now."
		return
	}
	if g.MinSeats == 1 {
		if l.solo, err = l.recs.SoloScores(g.ID, soloBoardSize); err != nil {
			l.msg = "The solo scores cannot be read right now."
		}
	}
}

// loadProfile reads the player's profile and latest matches.
func (l *lobby) loadProfile() {
	l.prof, l.sel = record.Profile{}, 0
	if l.recs == nil {
		l.msg = errNoRecords.Error()
		return
	}
	var err error
	if l.prof, err = l.recs.Profile(l.me.ID, 12); err != nil {
		l.msg = "Your matches cannot be read right now."
	}
}

// fail returns to the menu with a message.
func (l *lobby) fail(msg string) {
	l.msg = msg
	if l.page != pageJoin {
		l.page = pageMenu
	}
}

func (l *lobby) update(msg tea.Msg, hub Hub) lobbyAction {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return lobbyAction{}
	}
	l.news = ""
	k := l.keys
	if l.page != pageMenu && key.Matches(km, k.Back) {
		if l.page == pageRules {
			l.page = pageHelp
			l.pager = newListPager(l.gameItems(), l.game, gamesIndent)
		} else if l.page == pageChallenge {
			l.openInbox()
		} else {
			l.page = pageMenu
			l.refreshFront(hub)
		}
		l.msg = ""
		return lobbyAction{}
	}
	switch l.page {
	case pageMenu:
		defer l.refreshFront(hub)
		rows, _ := l.menuRows(min(l.w, lobbyWidth), l.h, false)
		switch {
		case key.Matches(km, k.Newest) && l.front.top.Code != "":
			return lobbyAction{start: &Start{Mode: ModeJoin, Code: l.front.top.Code}}
		case key.Matches(km, k.First): // the first of Your games, else the menu's first item
			l.yours.sel, l.menu = -1, 0
			l.yours.enter(true, rows)
		case key.Matches(km, k.Last):
			l.yours.sel, l.menu = -1, len(menuItems)-1
		case l.yours.focused() && !key.Matches(km, k.Quit):
			code, move := l.yours.update(km, rows)
			switch {
			case code != "":
				l.msg = ""
				return lobbyAction{start: &Start{Mode: ModeJoin, Code: code}}
			case move == leftAbove:
				l.menu = len(menuItems) - 1
			case move == leftBelow:
				l.menu = 0
			}
		case key.Matches(km, k.Up):
			if l.menu > 0 || !l.yours.enter(false, rows) {
				l.menu = (l.menu + len(menuItems) - 1) % len(menuItems)
			}
		case key.Matches(km, k.Down):
			if l.menu < len(menuItems)-1 || !l.yours.enter(true, rows) {
				l.menu = (l.menu + 1) % len(menuItems)
			}
		case key.Matches(km, k.Quit):
			return lobbyAction{quit: true}
		case key.Matches(km, k.Challenges):
			l.msg = ""
			l.openInbox()
		case key.Matches(km, k.Watch):
			if code, ok := l.friendWatched(); ok {
				return lobbyAction{start: &Start{Mode: ModeWatch, Code: code}}
			}
		case key.Matches(km, k.Enter):
			l.msg = ""
			item := menuItems[l.menu]
			if item.page < 0 {
				return lobbyAction{quit: true}
			}
			l.page = item.page
			switch l.page {
			case pageInbox:
				l.openInbox()
			case pageNew:
				if l.form.games == nil {
					// Built when first opened, and kept with its choices: most sessions
					// never open it, and every session's lobby is scanned by every collection.
					l.form = newNewForm(l.games, l.me.Guest)
				}
			case pageJoin:
				l.code.reset()
			case pageRooms:
				l.list, l.sel = hub.List(), 0
				l.pager = newListPager(l.roomItems(), 0, roomsIndent)
			case pageHelp, pageQuick:
				l.pager = newListPager(l.gameItems(), l.game, gamesIndent)
			case pageBoard:
				l.loadBoard()
			case pageMine:
				l.loadProfile()
				l.pager = newListPager(l.matchItems(), 0, matchesIndent)
			}
		}
	case pageNew:
		if key.Matches(km, k.Enter) {
			st := l.form.start()
			return lobbyAction{start: &st}
		}
		l.form.update(km, k)
	case pageJoin:
		if l.code.update(km) {
			code := l.code.text()
			if len(code) == 0 {
				l.msg = "Type the room's code, e.g. K7QXM."
				return lobbyAction{}
			}
			l.msg = ""
			return lobbyAction{start: &Start{Mode: ModeJoin, Code: code}}
		}
	case pageRooms:
		switch {
		case l.scroll(km):
			l.sel = l.pager.selected()
		case key.Matches(km, k.Refresh):
			l.list, l.sel = hub.List(), 0
			l.pager = newListPager(l.roomItems(), 0, roomsIndent)
		case key.Matches(km, k.Enter), key.Matches(km, k.Watch):
			if l.sel >= 0 && l.sel < len(l.list) {
				mode := ModeJoin
				if key.Matches(km, k.Watch) {
					mode = ModeWatch
				}
				return lobbyAction{start: &Start{Mode: mode, Code: l.list[l.sel].Code}}
			}
		}
	case pageHelp:
		switch {
		case l.scroll(km):
			l.game = max(0, l.pager.selected())
		case key.Matches(km, k.Enter) && l.game < len(l.games):
			l.page, l.pager = pageRules, newTextPager(l.games[l.game].Rules)
		}
	case pageRules:
		l.scroll(km)
	case pageInbox:
		if l.scroll(km) || l.post == nil || l.me.Guest {
			return lobbyAction{}
		}
		if key.Matches(km, l.inbox.keys.Refresh) {
			l.openInbox()
			return lobbyAction{}
		}
		act := l.inbox.update(km, l.post, l.me)
		switch {
		case act.start != nil:
			return lobbyAction{start: act.start}
		case act.form:
			if l.chal.form.games == nil {
				l.chal = newChallengeForm(l.games)
			}
			l.page, l.msg = pageChallenge, ""
		case act.msg != "":
			l.openInbox()
			l.msg = act.msg
		}
	case pageChallenge:
		if l.chal.update(km, k) {
			l.sendChallenge()
		}
	case pageQuick:
		switch {
		case l.scroll(km):
			l.game = max(0, l.pager.selected())
		case key.Matches(km, k.Enter) && l.game < len(l.games):
			return lobbyAction{start: &Start{Mode: ModeQuick, Game: l.games[l.game].ID}}
		}
	case pageBoard:
		switch {
		case key.Matches(km, k.First):
			l.game = 0
			l.loadBoard()
		case key.Matches(km, k.Last):
			l.game = len(l.games) - 1
			l.loadBoard()
		case key.Matches(km, k.Left):
			l.game = (l.game + len(l.games) - 1) % len(l.games)
			l.loadBoard()
		case key.Matches(km, k.Right):
			l.game = (l.game + 1) % len(l.games)
			l.loadBoard()
		}
	case pageMine:
		switch {
		case l.scroll(km):
			l.sel = l.pager.selected()
		case key.Matches(km, k.Enter):
			if l.sel >= 0 && l.sel < len(l.prof.Recent) {
				return lobbyAction{start: &Start{Mode: ModeReplay, Match: l.prof.Recent[l.sel].ID}}
			}
		}
	}
	return lobbyAction{}
}

// openInbox shows the page of challenges and friends, read anew.
func (l *lobby) openInbox() {
	l.page = pageInbox
	switch {
	case l.me.Guest:
		l.msg = "A guest has no challenges nor friends: connect with an SSH key and a name (ssh NAME@host)."
	case l.post == nil:
		l.msg = "This server keeps no challenges."
	default:
		if err := l.inbox.load(l.post, l.me, l.games, time.Now()); err != nil {
			l.msg = "Your challenges cannot be read right now."
		}
	}
}

// sendChallenge sends the challenge of the form, and goes back to the page of challenges saying
// so, or says why not.
func (l *lobby) sendChallenge() {
	name := strings.TrimSpace(l.chal.name.text())
	switch {
	case name == "":
		l.msg = "Type the name of the player to challenge."
		return
	case l.post == nil || l.me.Guest:
		l.msg = "A guest cannot challenge: connect with an SSH key and a name (ssh NAME@host)."
		return
	}
	c, err := l.post.Challenge(l.me, name, l.chal.form.start(), 0, 0)
	if err != nil {
		l.msg = sentence(err.Error())
		return
	}
	l.chal.name.reset()
	l.chal.onName = true
	l.openInbox()
	l.msg = ""
	l.news = fmt.Sprintf("Challenge %s sent to %s: they have %s to answer.", c.ID, c.ToName, LeftText(c.Expires.Sub(time.Now())))
}

// resize tells the lobby the screen's size; the model calls it before every update.
func (l *lobby) resize(w, h int) { l.w, l.h = w, h }

// scroll gives a key to the page's pager, sized as the page draws it; it reports whether the key
// was the pager's.
func (l *lobby) scroll(km tea.KeyPressMsg) bool {
	l.sizePager(l.w, l.h, false)
	if l.page == pageInbox {
		return l.inbox.pager.update(km)
	}
	return l.pager.update(km)
}

// statusLines are the lines under the page: the message, wrapped whole (up to half the screen).
func (l *lobby) statusLines(st draw.Styles, w, h int, busy bool) []string {
	switch {
	case busy && l.busyMsg != "":
		return wrapped(l.busyMsg, st.Dim, w-2, h/2)
	case busy:
		return []string{st.Dim.Render("Opening the room…")}
	case l.msg != "":
		return wrapped(l.msg, st.Err, w-2, h/2)
	case l.news != "":
		return wrapped(l.news, st.Bold, w-2, h/2)
	}
	return []string{""}
}

// bodyRows is how many lines the page's body has on a w x h screen: all but the header, a blank
// line, the status lines and the help line.
func (l *lobby) bodyRows(w, h int, busy bool) int {
	return h - 3 - len(l.statusLines(draw.Styles{}, w, h, busy))
}

// sizePager gives the page's pager the lines its page leaves it: the body's, less the lines drawn
// above it (pagerTop).
func (l *lobby) sizePager(w, h int, busy bool) {
	w = min(w, lobbyWidth)
	if l.page == pageInbox {
		l.inbox.pager.setSize(w-2, l.bodyRows(w, h, busy)-l.inbox.head())
		return
	}
	l.pager.setSize(w-2, l.bodyRows(w, h, busy)-l.pagerTop(w))
}

// pagerTop is how many of the body's lines the page draws above its pager.
func (l *lobby) pagerTop(w int) int {
	switch l.page {
	case pageHelp:
		return len(l.helpHead(draw.Styles{}, w))
	case pageRules:
		return 2
	case pageRooms:
		return 3
	case pageMine:
		return len(l.mineHead(draw.Styles{}))
	case pageQuick:
		return len(quickHead(draw.Styles{}, w))
	}
	return 0
}

// lobbyWidth is the widest the lobby is drawn: a wider window centres it, so that menus and lists
// do not sit at the left of an empty screen, nor stretch lines past what an eye follows.
const lobbyWidth = 100

func (l *lobby) view(st draw.Styles, p rooms.Player, w, h int, busy bool) string {
	margin := max(0, (w-lobbyWidth)/2)
	w = min(w, lobbyWidth)
	var body []string
	var help []key.Binding
	k := l.keys
	l.sizePager(w, h, busy)
	switch l.page {
	case pageMenu:
		body = l.menuView(st, w, h, busy)
		enter := k.Enter
		if l.yours.focused() {
			enter = l.yours.keys.Enter
		}
		help = []key.Binding{k.Up, k.Down, enter, k.Quit}
		if l.front.top.Code != "" {
			help = []key.Binding{k.Up, k.Down, enter, draw.WithHelp(k.Newest, "join "+l.front.top.Code), k.Quit}
		}
		if code, ok := l.friendWatched(); ok {
			help = append(help[:len(help)-1], draw.WithHelp(k.Watch, "watch "+code), k.Quit)
		}
	case pageNew:
		body = l.form.view(st, w)
		help = []key.Binding{k.Up, k.Down, k.Left, k.Right, draw.WithHelp(k.Enter, "create"), k.Back}
	case pageJoin:
		body = []string{st.Bold.Render("Join a room"), "",
			"Type the code your friend gave you (5 letters and digits).", "",
			"  " + l.code.view(st, 30)}
		help = []key.Binding{draw.WithHelp(k.Enter, "join"), k.Back}
	case pageRooms:
		body = l.roomsView(st)
		help = append(l.pager.bindings(), draw.WithHelp(k.Enter, "join"), k.Watch, k.Refresh, k.Back)
	case pageQuick:
		body = append(quickHead(st, w), l.pager.view(st.Sel)...)
		help = append(l.pager.bindings(), draw.WithHelp(k.Enter, "play"), k.Back)
	case pageHelp:
		body = append(l.helpHead(st, w), l.pager.view(st.Sel)...)
		help = append(l.pager.bindings(), draw.WithHelp(k.Enter, "rules"), k.Back)
	case pageRules:
		body = l.rulesView(st)
		help = append(l.pager.bindings(), k.Back)
	case pageBoard:
		body = l.boardView(st, w)
		help = []key.Binding{draw.WithHelp(k.Left, "game"), draw.WithHelp(k.Right, "game"), k.Back}
	case pageMine:
		body = append(l.mineHead(st), l.pager.view(st.Sel)...)
		help = append(l.pager.bindings(), draw.WithHelp(k.Enter, "replay"), k.Back)
	case pageInbox:
		body = l.inbox.view(st)
		help = []key.Binding{k.Back}
		if l.post != nil && !l.me.Guest {
			help = append(l.inbox.bindings(), k.Back)
		}
	case pageChallenge:
		body = l.chal.view(st, w)
		help = []key.Binding{k.Up, k.Down, k.Left, k.Right, draw.WithHelp(k.Enter, "send"), k.Back}
	}
	who := p.Name
	if p.Guest {
		who += " (guest)"
	}
	header := draw.Fit(st.Title.Render("ARCADE")+st.Dim.Render("  board, card and word games over SSH"), w-len(who)-1) + " " + st.Bold.Render(who)
	lines := []string{header, ""}
	for _, b := range body {
		lines = append(lines, "  "+b)
	}
	// The message is shown whole, wrapped over as many lines as it takes (up to half the screen),
	// taken from the body's.
	status := l.statusLines(st, w, h, busy)
	out := block(lines, w, h-1-len(status))
	for _, s := range status {
		out = append(out, draw.Fit(" "+s, w))
	}
	out = append(out, l.helped.line(st, w, fitLobbyHelp(help, w)))
	if margin > 0 {
		pad := draw.Spaces(margin)
		for i, line := range out {
			out[i] = pad + line
		}
	}
	return strings.Join(out, "\n")
}

// menuRows returns how many lines the menu's page on a w x h screen gives the games of its "Your
// games" block (and its "and N more"), and whether it has room left for its list of the games
// under the menu.
func (l *lobby) menuRows(w, h int, busy bool) (rows int, games bool) {
	avail := l.bodyRows(w, h, busy) - len(l.menuHead(draw.Styles{}, w)) - len(menuItems)
	if len(l.yours.games) == 0 {
		return 0, true
	}
	avail -= 2 // the block's title and blank line
	if withGames := avail - 1 - len(l.appendGames(nil, draw.Styles{}, w)); withGames >= yourGamesMax || withGames >= len(l.yours.games) {
		return withGames, true
	}
	return avail, false
}

// menuHead is the menu's page above the "Your games" block and the menu: the welcome, and what
// is happening on the server.
func (l *lobby) menuHead(st draw.Styles, w int) []string {
	lines := []string{st.Bold.Render("Welcome! What would you like to do?"), ""}
	online := 0
	if l.online != nil {
		online = l.online()
	}
	if f := l.front; online > 0 || f.waiting > 0 {
		var parts []string
		if online > 0 {
			parts = append(parts, fmt.Sprintf("%d player%s online", online, draw.Plural(online)))
		}
		switch f.waiting {
		case 0:
			parts = append(parts, "no room waits for players")
		case 1:
			parts = append(parts, "1 room waits for players")
		default:
			parts = append(parts, fmt.Sprintf("%d rooms wait for players", f.waiting))
		}
		lines[1] = st.Dim.Render(strings.Join(parts, " · "))
		if t := f.top; t.Code != "" {
			who := strings.Join(slices.DeleteFunc(slices.Clone(t.Seats), func(s string) bool { return s == "" }), ", ")
			top := fmt.Sprintf("p: join %s, %s", t.Code, t.GameName)
			if who != "" {
				top += " with " + who
			}
			lines = append(lines, draw.Fit(top, max(w-4, 20)))
		}
		lines = append(lines, "")
	}
	if home := l.web.Home(); home != "" {
		lines = append(lines, st.Dim.Render(draw.Fit("Watch, replay and leaderboards on the web: "+home, max(w-4, 20))), "")
	}
	if f := l.friendsLine(max(w-4, 20)); f != "" {
		lines = append(lines, wrapped(f, draw.Paint{}, max(w-4, 20), 2)...)
		lines = append(lines, "")
	}
	return lines
}

// menuView draws the menu's page: its head, the player's games, the menu and, when there is room,
// the list of the games.
func (l *lobby) menuView(st draw.Styles, w, h int, busy bool) []string {
	lines := l.menuHead(st, w)
	rows, games := l.menuRows(w, h, busy)
	lines = append(lines, l.yours.view(st, w, rows)...)
	for i, it := range menuItems {
		label := "  " + it.label + "  "
		if i == l.menu && !l.yours.focused() {
			label = st.Sel.Render(label)
		}
		lines = append(lines, label)
	}
	if games {
		lines = l.appendGames(append(lines, ""), st, w)
	}
	return lines
}

// appendGames appends the list of the games under the menu, wrapped to w columns (a game's name
// on one line), to lines and returns them.
func (l *lobby) appendGames(lines []string, st draw.Styles, w int) []string {
	if line := "Games: " + gameNames(l.games); draw.TextWidth(line) <= w-2 {
		return append(lines, st.Dim.Render(line))
	}
	names := strings.Split(gameNames(l.games), ", ")
	for i := range len(names) - 1 {
		names[i] += ","
	}
	for _, g := range draw.Fill(append([]string{"Games:"}, names...), w-2) {
		lines = append(lines, st.Dim.Render(g))
	}
	return lines
}

func gameNames(games []rules.Game) string {
	names := make([]string, len(games))
	for i, g := range games {
		names[i] = g.Name
	}
	return strings.Join(names, ", ")
}

func (l *lobby) roomsView(st draw.Styles) []string {
	lines := []string{st.Bold.Render("Open rooms"), ""}
	if len(l.list) == 0 {
		return append(lines, "No open rooms yet. Create one from the menu: New room.")
	}
	lines = append(lines, st.Dim.Render(fmt.Sprintf("%-6s %-13s %-21s %-6s %s", "CODE", "GAME", "STATE", "MODE", "PLAYERS")))
	return append(lines, l.pager.view(st.Sel)...)
}

// The lists' columns: an item too long for the screen goes on under its last column.
const (
	roomsIndent   = 6 + 1 + 13 + 1 + 21 + 1 + 6 + 1 // under PLAYERS
	gamesIndent   = 2 + 14 + 1                      // under the game's summary
	matchesIndent = 12 + 1 + 13 + 1 + 16 + 1        // under RESULT
)

// roomItems are the open rooms' lines for the rooms page's pager.
func (l *lobby) roomItems() []string {
	items := make([]string, len(l.list))
	now := time.Now()
	for i, r := range l.list {
		items[i] = fmt.Sprintf("%-6s %-13s %-21s %-6s %s", r.Code, r.GameName, r.State(now), r.Mode, r.SeatList())
		if r.Spectators > 0 {
			items[i] += fmt.Sprintf("  (%d watching)", r.Spectators)
		}
	}
	return items
}

// helpHead is the help page above its list of games: how the arcade works, wrapped to the width.
func (l *lobby) helpHead(st draw.Styles, w int) []string {
	lines := []string{st.Bold.Render("Help"), ""}
	for _, para := range l.helpText() {
		if strings.HasPrefix(para, "  ") { // a command, shown whole
			lines = append(lines, para)
			continue
		}
		lines = append(lines, draw.Wrap(para, max(w-4, 20))...)
	}
	return append(lines, "", st.Bold.Render("Rules of a game:"))
}

// helpText is the help page's text, a paragraph a string; the commands are the ones that reach
// this server.
func (l *lobby) helpText() []string {
	return []string{
		"For a game now against whoever wants one, choose Quick match, or type",
		"  " + sshCommand(l.addr, "play GAME"),
		"Or create a room and give friends its code; they join (or watch) with",
		"  " + sshCommand(l.addr, "join CODE") + "   (watch CODE)",
		"Alone? Seat a bot. In a room: arrows or hjkl move, enter plays, : types a move, t chats, " +
			"? shows the rules, esc returns here. Your seat waits if you drop: Your games, atop the menu, " +
			"takes you back.",
		"Only standard settings are rated; tab shows players the spectators' chat.",
	}
}

// quickHead is the quick-match page's text above its list of games.
func quickHead(st draw.Styles, w int) []string {
	lines := []string{st.Bold.Render("Quick match"), ""}
	lines = append(lines, draw.Wrap("Pick a game: you play the next player who wants the same, "+
		"the closest in rating first. If nobody comes, a bot is offered.", max(w-4, 20))...)
	return append(lines, "")
}

// gameItems are the games' lines for the help page's pager.
func (l *lobby) gameItems() []string {
	items := make([]string, len(l.games))
	for i, g := range l.games {
		items[i] = fmt.Sprintf("  %-14s %s", g.Name, g.Summary)
	}
	return items
}

// rulesView draws the rules of the game chosen: a title with the lines shown, then the pager.
func (l *lobby) rulesView(st draw.Styles) []string {
	if l.game >= len(l.games) {
		return nil
	}
	title := st.Bold.Render(l.games[l.game].Name + " rules")
	if pos := l.pager.position(); pos != "" {
		title += st.Dim.Render("  (" + pos + ")")
	}
	return append([]string{title, ""}, l.pager.view(st.Sel)...)
}

// newForm is the "new room" form: the game, its options, seats and bots.
type newForm struct {
	games []rules.Game
	game  int
	field int
	vals  []map[string]string // per game, its option values
	seats []int
	bots  []int
	level []int
	clock int  // in clockChoices (challengeClocks), for every game
	guest bool // the player has no key: integer options stop at their GuestMax
	// challenge: the form of a challenge (challengeForm): two seats, no bots, and the clocks of
	// challengeClocks.
	challenge bool
}

// clockChoices are the clocks the new-room form offers: "" is the default (a rated match gets a
// limit per move, any other none); the days a move are correspondence clocks.
var clockChoices = []string{"", "off", "30s", "1m", "2m", "5m", "3m+2s", "5m+3s", "10m+5s", "15m+10s", "1d", "3d", "7d"}

// challengeClocks are the clocks the challenge form offers, correspondence's first.
var challengeClocks = []string{"3d", "1d", "2d", "7d", "", "5m", "10m+5s"}

// clocks returns the clocks the form offers.
func (f *newForm) clocks() []string {
	if f.challenge {
		return challengeClocks
	}
	return clockChoices
}

// newNewForm returns the form for games, with every option at its default; a guest's (guest)
// integer options offer no more than the game allows a guest's room (rules.Option.GuestMax).
func newNewForm(games []rules.Game, guest bool) newForm {
	f := newForm{games: games, guest: guest}
	for _, g := range games {
		vals := map[string]string{}
		for _, o := range g.Options {
			vals[o.Key] = stepOption(o, o.Default, 0, guest)
		}
		f.vals = append(f.vals, vals)
		f.seats = append(f.seats, g.StartSeats())
		f.bots = append(f.bots, 0)
		f.level = append(f.level, len(g.Bots)/2)
	}
	return f
}

// formField is one row of the form; casual, when the value makes the room casual, says what a
// rated room has instead.
type formField struct {
	label, value, help string
	step               func(d int)
	casual             string
}

func (f *newForm) fields() []formField {
	if len(f.games) == 0 {
		return nil
	}
	gi := f.game
	g := f.games[gi]
	out := []formField{{"Game", g.Name, g.Summary, func(d int) {
		f.game = (f.game + d + len(f.games)) % len(f.games)
	}, ""}}
	for _, o := range g.Options {
		o := o
		fl := formField{optionLabel(o), f.vals[gi][o.Key] + o.Unit, o.Help, func(d int) {
			f.vals[gi][o.Key] = stepOption(o, f.vals[gi][o.Key], d, f.guest)
		}, ""}
		if !o.IsStandard(f.vals[gi][o.Key]) {
			fl.casual = "rated: " + o.StandardText()
		}
		out = append(out, fl)
	}
	if g.MinSeats < g.MaxSeats && !f.challenge {
		out = append(out, formField{"Seats", strconv.Itoa(f.seats[gi]), "how many players sit at the table", func(d int) {
			f.seats[gi] = min(g.MaxSeats, max(g.MinSeats, f.seats[gi]+d))
			f.bots[gi] = min(f.bots[gi], maxBots(f.seats[gi]))
		}, ""})
	}
	if len(g.Bots) > 0 && !f.challenge {
		bots := "none: seats for people"
		switch n := f.bots[gi]; {
		case f.seats[gi] == 1:
			bots = "none: you play alone"
		case n == f.seats[gi]:
			bots = fmt.Sprintf("%d: all seats, you watch", n)
		case n > 0:
			bots = fmt.Sprintf("%d", n)
		}
		botsField := formField{"Bots", bots, "seats given to bots; the rest wait for people", func(d int) {
			f.bots[gi] = min(maxBots(f.seats[gi]), max(0, f.bots[gi]+d))
		}, ""}
		if f.bots[gi] > 0 {
			botsField.casual = "a bot's match is never rated"
		}
		out = append(out, botsField)
		if f.bots[gi] > 0 {
			out = append(out, formField{"Bot level", g.Bots[f.level[gi]].Name, "from the weakest to the strongest", func(d int) {
				f.level[gi] = min(len(g.Bots)-1, max(0, f.level[gi]+d))
			}, ""})
		}
	}
	clocks := f.clocks()
	clock := clocks[f.clock]
	if clock == "" {
		clock = "auto"
	}
	clockField := formField{"Clock", clock, "auto: a limit a move if rated; 2m: a move; 10m+5s: each, +5s a move; 3d: days a move", func(d int) {
		f.clock = (f.clock + d + len(clocks)) % len(clocks)
	}, ""}
	if c, err := rooms.ParseClock(clocks[f.clock]); err == nil && clocks[f.clock] != "" && !c.Standard() {
		clockField.casual = "rated: auto, 1m a move or 5m up"
	}
	return append(out, clockField)
}

// andList joins words as a sentence does: "a", "a and b", "a, b and c".
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// modeLine says whether the room the form makes would be rated, and if not, why.
func (f newForm) modeLine(fields []formField) string {
	g := f.games[f.game]
	var casual []string
	for _, fl := range fields {
		if fl.casual != "" {
			casual = append(casual, strings.ToLower(fl.label))
		}
	}
	switch {
	case f.seats[f.game] == 1:
		return "Played alone: the best scores go on the solo table."
	case f.guest:
		return "Casual: a guest's matches are not rated (connect with an SSH key to be rated)."
	case len(casual) > 0:
		return "Casual: not rated, because of " + andList(casual) + "."
	case g.MaxSeats < 2:
		return ""
	}
	return "Rated: every setting is standard."
}

// optionLabel names an option in the form: its key, capitalised.
func optionLabel(o rules.Option) string {
	if o.Key == "" {
		return ""
	}
	return strings.ToUpper(o.Key[:1]) + o.Key[1:]
}

// stepOption moves an option's value d steps within its range or choices; for a guest an integer
// stops at the option's GuestMax.
func stepOption(o rules.Option, v string, d int, guest bool) string {
	if o.IsInt() {
		n, err := strconv.Atoi(v)
		if err != nil {
			n = o.Min
		}
		hi := o.Max
		if guest && o.GuestMax > 0 {
			hi = min(hi, o.GuestMax)
		}
		return strconv.Itoa(min(hi, max(o.Min, n+d)))
	}
	i := 0
	for j, c := range o.Choices {
		if c == v {
			i = j
		}
	}
	return o.Choices[(i+d+len(o.Choices))%len(o.Choices)]
}

func (f *newForm) update(km tea.KeyPressMsg, k *lobbyKeys) {
	fields := f.fields()
	switch {
	case key.Matches(km, k.Up):
		f.field = (f.field + len(fields) - 1) % len(fields)
	case key.Matches(km, k.Down):
		f.field = (f.field + 1) % len(fields)
	case key.Matches(km, k.Left):
		fields[f.field].step(-1)
	case key.Matches(km, k.Right):
		fields[f.field].step(1)
	case key.Matches(km, k.First):
		f.field = 0
	case key.Matches(km, k.Last):
		f.field = len(fields) - 1
	}
	f.field = min(f.field, len(f.fields())-1)
}

func (f newForm) start() Start {
	g := f.games[f.game]
	opts := rules.Options{}
	for k, v := range f.vals[f.game] {
		opts[k] = v
	}
	if c := f.clocks()[f.clock]; c != "" {
		opts[rooms.ClockOption] = c
	}
	st := Start{Mode: ModeNew, Game: g.ID, Options: opts, Seats: f.seats[f.game], Bots: f.bots[f.game]}
	if f.challenge {
		st.Seats, st.Bots = 2, 0
	}
	if len(g.Bots) > 0 && !f.challenge {
		st.BotLevel = g.Bots[f.level[f.game]].Name
	}
	return st
}

// view draws the form for a w-column screen.
func (f newForm) view(st draw.Styles, w int) []string {
	lines := append([]string{st.Bold.Render("New room"), ""}, f.rows(st, f.field, w)...)
	for _, l := range draw.Wrap("Enter creates the room and shows its code to give to friends.", w-2) {
		lines = append(lines, st.Dim.Render(l))
	}
	return lines
}

// rows draws the form's fields, the one picked (none: -1) highlighted, and its help under them,
// wrapped to w columns.
func (f newForm) rows(st draw.Styles, picked, w int) []string {
	var lines []string
	fields := f.fields()
	for i, fl := range fields {
		val := "‹ " + fl.value + " ›"
		if st.ASCII {
			val = "< " + fl.value + " >"
		}
		row := fmt.Sprintf("%-12s %s", fl.label, val)
		if i == picked {
			row = st.Sel.Render(row)
		}
		if fl.casual != "" {
			row += "  " + st.Dim.Render("casual ("+fl.casual+")")
		}
		lines = append(lines, row)
	}
	if picked >= 0 && picked < len(fields) {
		lines = append(lines, "")
		for _, l := range wrapKeepingParens(fields[picked].help, w-2) {
			lines = append(lines, st.Dim.Render(l))
		}
	}
	if m := f.modeLine(fields); m != "" {
		lines = append(lines, draw.Wrap(m, max(w-2, 20))...)
	}
	return lines
}
