package session

import (
	"fmt"
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
)

// menuItems are the lobby's main menu, in order.
var menuItems = []struct {
	label string
	page  lobbyPage
}{
	{"New room", pageNew},
	{"Join a room by code", pageJoin},
	{"Open rooms", pageRooms},
	{"Leaderboards", pageBoard},
	{"My matches and ratings", pageMine},
	{"Help and rules", pageHelp},
	{"Quit", -1},
}

// lobby is the lobby's state.
type lobby struct {
	addr   string     // Config.Address
	keys   *lobbyKeys // shared (lobbyKeyMap)
	games  []rules.Game
	page   lobbyPage
	menu   int
	form   newForm
	code   lineInput
	list   []rooms.Summary
	sel    int
	game   int // the game whose rules are shown
	top    int // first line of the rules shown
	msg    string
	recs   Records
	me     rooms.Player
	board  []record.Standing // the leaderboard of games[game]
	prof   record.Profile
	helped *helpCache // the help line; shared by the copies of the lobby a session's model makes
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
		helped: &helpCache{}}
}

// boardSize is how many standings the lobby's leaderboard shows.
const boardSize = 15

// loadBoard reads the leaderboard of the game shown.
func (l *lobby) loadBoard() {
	l.board = nil
	if l.recs == nil || len(l.games) == 0 {
		l.msg = errNoRecords.Error()
		return
	}
	var err error
	if l.board, err = l.recs.Leaderboard(l.games[l.game].ID, boardSize); err != nil {
		l.msg = "The leaderboard cannot be read right now."
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
	k := l.keys
	if l.page != pageMenu && key.Matches(km, k.Back) {
		if l.page == pageRules {
			l.page = pageHelp
		} else {
			l.page = pageMenu
		}
		l.msg = ""
		return lobbyAction{}
	}
	switch l.page {
	case pageMenu:
		switch {
		case key.Matches(km, k.Up):
			l.menu = (l.menu + len(menuItems) - 1) % len(menuItems)
		case key.Matches(km, k.Down):
			l.menu = (l.menu + 1) % len(menuItems)
		case key.Matches(km, k.Quit):
			return lobbyAction{quit: true}
		case key.Matches(km, k.Enter):
			l.msg = ""
			item := menuItems[l.menu]
			if item.page < 0 {
				return lobbyAction{quit: true}
			}
			l.page = item.page
			switch l.page {
			case pageNew:
				if l.form.games == nil {
					// Built when first opened, and kept with its choices: most sessions
					// never open it, and every session's lobby is scanned by every collection.
					l.form = newNewForm(l.games)
				}
			case pageJoin:
				l.code.reset()
			case pageRooms:
				l.list, l.sel = hub.List(), 0
			case pageBoard:
				l.loadBoard()
			case pageMine:
				l.loadProfile()
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
		case key.Matches(km, k.Up):
			l.sel = max(0, l.sel-1)
		case key.Matches(km, k.Down):
			l.sel = min(len(l.list)-1, l.sel+1)
		case key.Matches(km, k.Refresh):
			l.list, l.sel = hub.List(), 0
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
		case key.Matches(km, k.Up):
			l.game = max(0, l.game-1)
		case key.Matches(km, k.Down):
			l.game = min(len(l.games)-1, l.game+1)
		case key.Matches(km, k.Enter):
			l.page, l.top = pageRules, 0
		}
	case pageRules:
		switch {
		case key.Matches(km, k.Up):
			l.top = max(0, l.top-1)
		case key.Matches(km, k.Down):
			l.top++
		}
	case pageBoard:
		switch {
		case key.Matches(km, k.Left):
			l.game = (l.game + len(l.games) - 1) % len(l.games)
			l.loadBoard()
		case key.Matches(km, k.Right):
			l.game = (l.game + 1) % len(l.games)
			l.loadBoard()
		}
	case pageMine:
		switch {
		case key.Matches(km, k.Up):
			l.sel = max(0, l.sel-1)
		case key.Matches(km, k.Down):
			l.sel = min(len(l.prof.Recent)-1, l.sel+1)
		case key.Matches(km, k.Enter):
			if l.sel >= 0 && l.sel < len(l.prof.Recent) {
				return lobbyAction{start: &Start{Mode: ModeReplay, Match: l.prof.Recent[l.sel].ID}}
			}
		}
	}
	return lobbyAction{}
}

func (l lobby) view(st draw.Styles, p rooms.Player, w, h int, busy bool) string {
	var body []string
	var help []key.Binding
	k := l.keys
	switch l.page {
	case pageMenu:
		body = l.menuView(st)
		help = []key.Binding{k.Up, k.Down, k.Enter, k.Quit}
	case pageNew:
		body = l.form.view(st)
		help = []key.Binding{k.Up, k.Down, k.Left, k.Right, withHelp(k.Enter, "create"), k.Back}
	case pageJoin:
		body = []string{st.Bold.Render("Join a room"), "",
			"Type the code your friend gave you (5 letters and digits).", "",
			"  " + l.code.view(st, 30)}
		help = []key.Binding{withHelp(k.Enter, "join"), k.Back}
	case pageRooms:
		body = l.roomsView(st, w)
		help = []key.Binding{k.Up, k.Down, withHelp(k.Enter, "join"), k.Watch, k.Refresh, k.Back}
	case pageHelp:
		body = l.helpView(st)
		help = []key.Binding{k.Up, k.Down, withHelp(k.Enter, "rules"), k.Back}
	case pageRules:
		body = l.rulesView(st, h-6)
		help = []key.Binding{withHelp(k.Up, "scroll"), withHelp(k.Down, "scroll"), k.Back}
	case pageBoard:
		body = l.boardView(st)
		help = []key.Binding{withHelp(k.Left, "game"), withHelp(k.Right, "game"), k.Back}
	case pageMine:
		body = l.mineView(st, w)
		help = []key.Binding{k.Up, k.Down, withHelp(k.Enter, "replay"), k.Back}
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
	status := []string{""}
	switch {
	case busy:
		status = []string{st.Dim.Render("Opening the room…")}
	case l.msg != "":
		status = wrapped(l.msg, st.Err, w-2, h/2)
	}
	out := block(lines, w, h-1-len(status))
	for _, s := range status {
		out = append(out, draw.Fit(" "+s, w))
	}
	out = append(out, l.helped.line(st, w, help))
	return strings.Join(out, "\n")
}

func withHelp(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

func (l lobby) menuView(st draw.Styles) []string {
	lines := []string{st.Bold.Render("Welcome! What would you like to do?"), ""}
	for i, it := range menuItems {
		label := "  " + it.label + "  "
		if i == l.menu {
			label = st.Sel.Render(label)
		}
		lines = append(lines, label)
	}
	lines = append(lines, "", st.Dim.Render("Games: "+gameNames(l.games)))
	return lines
}

func gameNames(games []rules.Game) string {
	names := make([]string, len(games))
	for i, g := range games {
		names[i] = g.Name
	}
	return strings.Join(names, ", ")
}

func (l lobby) roomsView(st draw.Styles, w int) []string {
	lines := []string{st.Bold.Render("Open rooms"), ""}
	if len(l.list) == 0 {
		return append(lines, "No open rooms yet. Create one from the menu: New room.")
	}
	lines = append(lines, st.Dim.Render(fmt.Sprintf("%-6s %-13s %-21s %s", "CODE", "GAME", "STATE", "PLAYERS")))
	now := time.Now()
	for i, r := range l.list {
		line := fmt.Sprintf("%-6s %-13s %-21s %s", r.Code, r.GameName, r.State(now), r.SeatList())
		if r.Spectators > 0 {
			line += fmt.Sprintf("  (%d watching)", r.Spectators)
		}
		line = draw.Fit(line, w-6)
		if i == l.sel {
			line = st.Sel.Render(line)
		}
		lines = append(lines, line)
		if len(lines) > 18 {
			lines = append(lines, st.Dim.Render(fmt.Sprintf("… and %d more", len(l.list)-i-1)))
			break
		}
	}
	return lines
}

func (l lobby) helpView(st draw.Styles) []string {
	lines := []string{st.Bold.Render("Help"), "",
		"Create a room and give its code to friends. They join with",
		"  " + sshCommand(l.addr, "join CODE"),
		"and anyone can watch with",
		"  " + sshCommand(l.addr, "watch CODE"),
		"Alone? Seat a bot.",
		"In a room: arrows or hjkl move, enter plays, : types a move, t chats,",
		"? shows the rules, esc returns here. Your seat waits if you drop: join again.",
		"", st.Bold.Render("Rules of a game:")}
	for i, g := range l.games {
		label := fmt.Sprintf("  %-14s %s", g.Name, g.Summary)
		if i == l.game {
			label = st.Sel.Render(label)
		}
		lines = append(lines, label)
	}
	return lines
}

func (l lobby) rulesView(st draw.Styles, height int) []string {
	if len(l.games) == 0 {
		return nil
	}
	g := l.games[l.game]
	text := strings.Split(strings.TrimRight(g.Rules, "\n"), "\n")
	top := min(l.top, max(0, len(text)-height+2))
	lines := []string{st.Bold.Render(g.Name) + st.Dim.Render(fmt.Sprintf("  (lines %d-%d of %d)", top+1, min(len(text), top+height-2), len(text))), ""}
	for i := top; i < len(text) && len(lines) < height; i++ {
		lines = append(lines, text[i])
	}
	return lines
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
}

func newNewForm(games []rules.Game) newForm {
	f := newForm{games: games}
	for _, g := range games {
		vals := map[string]string{}
		for _, o := range g.Options {
			vals[o.Key] = o.Default
		}
		f.vals = append(f.vals, vals)
		f.seats = append(f.seats, g.MinSeats)
		f.bots = append(f.bots, 0)
		f.level = append(f.level, len(g.Bots)/2)
	}
	return f
}

// formField is one row of the form.
type formField struct {
	label, value, help string
	step               func(d int)
}

func (f *newForm) fields() []formField {
	if len(f.games) == 0 {
		return nil
	}
	gi := f.game
	g := f.games[gi]
	out := []formField{{"Game", g.Name, g.Summary, func(d int) {
		f.game = (f.game + d + len(f.games)) % len(f.games)
	}}}
	for _, o := range g.Options {
		o := o
		out = append(out, formField{optionLabel(o), f.vals[gi][o.Key], o.Help, func(d int) {
			f.vals[gi][o.Key] = stepOption(o, f.vals[gi][o.Key], d)
		}})
	}
	if g.MinSeats < g.MaxSeats {
		out = append(out, formField{"Seats", strconv.Itoa(f.seats[gi]), "how many players sit at the table", func(d int) {
			f.seats[gi] = min(g.MaxSeats, max(g.MinSeats, f.seats[gi]+d))
			f.bots[gi] = min(f.bots[gi], f.seats[gi])
		}})
	}
	if len(g.Bots) > 0 {
		bots := "none: seats for people"
		switch n := f.bots[gi]; {
		case n == f.seats[gi]:
			bots = fmt.Sprintf("%d: all seats, you watch", n)
		case n > 0:
			bots = fmt.Sprintf("%d", n)
		}
		out = append(out, formField{"Bots", bots, "seats given to bots; the rest wait for people", func(d int) {
			f.bots[gi] = min(f.seats[gi], max(0, f.bots[gi]+d))
		}})
		if f.bots[gi] > 0 {
			out = append(out, formField{"Bot level", g.Bots[f.level[gi]].Name, "from the weakest to the strongest", func(d int) {
				f.level[gi] = min(len(g.Bots)-1, max(0, f.level[gi]+d))
			}})
		}
	}
	return out
}

// optionLabel names an option in the form: its key, capitalised.
func optionLabel(o rules.Option) string {
	if o.Key == "" {
		return ""
	}
	return strings.ToUpper(o.Key[:1]) + o.Key[1:]
}

// stepOption moves an option's value d steps within its range or choices.
func stepOption(o rules.Option, v string, d int) string {
	if o.IsInt() {
		n, err := strconv.Atoi(v)
		if err != nil {
			n = o.Min
		}
		return strconv.Itoa(min(o.Max, max(o.Min, n+d)))
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
	}
	f.field = min(f.field, len(f.fields())-1)
}

func (f newForm) start() Start {
	g := f.games[f.game]
	opts := rules.Options{}
	for k, v := range f.vals[f.game] {
		opts[k] = v
	}
	st := Start{Mode: ModeNew, Game: g.ID, Options: opts, Seats: f.seats[f.game], Bots: f.bots[f.game]}
	if len(g.Bots) > 0 {
		st.BotLevel = g.Bots[f.level[f.game]].Name
	}
	return st
}

func (f newForm) view(st draw.Styles) []string {
	lines := []string{st.Bold.Render("New room"), ""}
	fields := f.fields()
	for i, fl := range fields {
		val := "‹ " + fl.value + " ›"
		if st.ASCII {
			val = "< " + fl.value + " >"
		}
		row := fmt.Sprintf("%-12s %s", fl.label, val)
		if i == f.field {
			row = st.Sel.Render(row)
		}
		lines = append(lines, row)
	}
	if f.field < len(fields) {
		lines = append(lines, "", st.Dim.Render(fields[f.field].help))
	}
	lines = append(lines, st.Dim.Render("Enter creates the room and shows its code to give to friends."))
	return lines
}
