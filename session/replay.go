package session

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session/draw"
)

// replayMsg carries a loaded replay, or why it could not be loaded.
type replayMsg struct {
	screen *replayScreen
	err    error
}

// errNoRecords: the server keeps no records.
var errNoRecords = errors.New("this server keeps no records of matches")

// loadReplay reads a match and replays it off the UI goroutine.
func (m *Model) loadReplay(id string) tea.Cmd {
	m.busy = true
	recs, games, boards, web := m.cfg.Records, m.cfg.Hub.Games(), m.cfg.Boards, WebLinks(m.cfg.PublicURL)
	return func() tea.Msg {
		if recs == nil {
			return replayMsg{err: errNoRecords}
		}
		match, err := recs.Match(id)
		if err != nil {
			return replayMsg{err: fmt.Errorf("no match %q: %w", id, err)}
		}
		g, ok := rules.FindGame(games, match.Game)
		if !ok {
			return replayMsg{err: fmt.Errorf("match %s is of a game this server no longer has (%s)", id, match.Game)}
		}
		cur, err := record.NewCursor(match, g)
		if err != nil {
			return replayMsg{err: err}
		}
		sc := newReplayScreen(match, g, cur, boards.board(g.ID))
		sc.web = web
		return replayMsg{screen: sc}
	}
}

// replayKeys are the replay's bindings.
type replayKeys struct {
	Back, Forward, TurnBack, TurnForward, RoundBack, RoundForward, Start, End, Play, Leave key.Binding
}

// replayStep is how long autoplay shows each move.
const replayStep = 900 * time.Millisecond

// replayTickMsg advances an autoplaying replay by one move; gen tells a tick of the current
// autoplay from a stale one.
type replayTickMsg struct{ gen int }

// replayScreen steps through a recorded match, showing the board as it was after each move: a move,
// a turn (a seat's moves in a row) or a round (a turn of every seat) at a time, or by itself.
// It reads the positions from a record.Cursor, which holds a bounded number of them whatever the
// match's length.
type replayScreen struct {
	web     WebLinks // the web companion's pages (Config.PublicURL)
	keys    replayKeys
	match   record.Match
	game    rules.Game
	cur     *record.Cursor
	at      int // moves played on the board shown
	board   draw.Board
	playing bool // autoplay is on
	gen     int  // the autoplay's generation: bumped at every start and stop
}

func newReplayScreen(m record.Match, g rules.Game, cur *record.Cursor, board draw.Board) *replayScreen {
	r := &replayScreen{
		keys: replayKeys{
			Back:         key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/→", "move")),
			Forward:      key.NewBinding(key.WithKeys("right", "l")),
			TurnBack:     key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", "turn")),
			TurnForward:  key.NewBinding(key.WithKeys("down", "j")),
			RoundBack:    key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("PgUp/PgDn", "round")),
			RoundForward: key.NewBinding(key.WithKeys("pgdown", "f")),
			Start:        draw.WithHelp(firstKey, "start/end"),
			End:          lastKey,
			Play:         key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "play")),
			Leave:        key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", backLobby)),
		},
		match: m, game: g, cur: cur, board: board,
	}
	// A board that names the seats from what it was shown (Flic Flac by their shapes) sees the
	// match before the first position's moves are listed with those names.
	first := r.position()
	board.Status(&first, *draw.NewStyles(true, false), panelWidth)
	return r
}

// Where esc takes a player from a replay, as its help line says: the room it was opened from (v
// at a match's end), My matches, or the lobby's menu (a replay opened from the command line).
const (
	backRoom    = "room"
	backMatches = "matches"
	backLobby   = "lobby"
)

// backTo has the help line say where esc goes: backRoom, backMatches or backLobby.
func (r *replayScreen) backTo(where string) { r.keys.Leave.SetHelp("esc", where) }

// update handles a key or an autoplay tick; it reports true when the player leaves the replay,
// and returns the next tick while autoplay goes on.
func (r *replayScreen) update(msg tea.Msg) (tea.Cmd, bool) {
	last := r.cur.Len()
	if tick, ok := msg.(replayTickMsg); ok {
		if !r.playing || tick.gen != r.gen {
			return nil, false
		}
		r.at = min(last, r.at+1)
		if r.at == last {
			r.stop()
			return nil, false
		}
		return r.tick(), false
	}
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	switch {
	case key.Matches(km, r.keys.Leave):
		r.stop()
		return nil, true
	case key.Matches(km, r.keys.Play):
		if r.playing {
			r.stop()
			return nil, false
		}
		if r.at == last {
			r.at = 0
		}
		r.playing = true
		r.gen++
		return r.tick(), false
	case key.Matches(km, r.keys.Back):
		r.at = max(0, r.at-1)
	case key.Matches(km, r.keys.Forward):
		r.at = min(last, r.at+1)
	case key.Matches(km, r.keys.TurnBack):
		r.at = r.turnBack(r.at)
	case key.Matches(km, r.keys.TurnForward):
		r.at = r.turnForward(r.at)
	case key.Matches(km, r.keys.RoundBack):
		for range len(r.match.Seats) {
			r.at = r.turnBack(r.at)
		}
	case key.Matches(km, r.keys.RoundForward):
		for range len(r.match.Seats) {
			r.at = r.turnForward(r.at)
		}
	case key.Matches(km, r.keys.Start):
		r.at = 0
	case key.Matches(km, r.keys.End):
		r.at = last
	}
	return nil, false
}

// tick asks for the autoplay's next move.
func (r *replayScreen) tick() tea.Cmd {
	gen := r.gen
	return tea.Tick(replayStep, func(time.Time) tea.Msg { return replayTickMsg{gen: gen} })
}

// stop ends autoplay; a tick already asked for does nothing.
func (r *replayScreen) stop() {
	if r.playing {
		r.playing = false
		r.gen++
	}
}

// turnStart reports whether move i (0-based) begins a turn: it is the first, or another seat
// made the move before it. The position after len(moves) moves begins one too.
func (r *replayScreen) turnStart(i int) bool {
	mv := r.match.Moves
	return i <= 0 || i >= len(mv) || mv[i].Seat != mv[i-1].Seat
}

// turnForward returns the position at the start of the next turn after position at.
func (r *replayScreen) turnForward(at int) int {
	last := r.cur.Len()
	for at = min(last, at+1); at < last && !r.turnStart(at); at++ {
	}
	return at
}

// turnBack returns the position at the start of the turn before position at (the start of the
// turn at is in, when at is inside one).
func (r *replayScreen) turnBack(at int) int {
	for at = max(0, at-1); at > 0 && !r.turnStart(at); at-- {
	}
	return at
}

// told says in words what the move that led to the position shown did: "Move 3: Red (ann) builds
// a castle on e5"; before the first move, who begins.
func (r *replayScreen) told() string {
	who := func(seat rules.Seat) string {
		name := colourOf(r.board, int(seat))
		if int(seat) < len(r.match.Seats) {
			name += " (" + r.match.Seats[seat].Name + ")"
		}
		return name
	}
	if r.at == 0 || r.at > len(r.match.Moves) {
		if len(r.match.Moves) == 0 {
			return "No moves were played."
		}
		return "Start: " + who(r.match.Moves[0].Seat) + " begins."
	}
	mv := r.match.Moves[r.at-1]
	return fmt.Sprintf("Move %d: %s %s", r.at, who(mv.Seat), rules.TellMove(r.cur.At(r.at-1), mv.Seat, mv.Move))
}

// position dresses the position after r.at moves as a spectator's snapshot (ReplaySnapshot).
func (r *replayScreen) position() rooms.Snapshot { return ReplaySnapshot(r.match, r.game, r.cur, r.at) }

// ReplaySnapshot dresses the position after at moves of match m (of game g, read from cur) as
// a spectator's snapshot, with the moves that led there, so that a game's boards and the room's
// panel draw it as they draw a live room: the replay's screens, and the web's pages of a match.
// After the last move of a finished match, the outcome is the record's, which says how the match
// ended.
func ReplaySnapshot(m record.Match, g rules.Game, cur *record.Cursor, at int) rooms.Snapshot {
	state := cur.At(at)
	snap := rooms.Snapshot{
		Code: replayCode, GameID: g.ID, GameName: g.Name, Options: m.Options,
		Phase: rooms.Playing, You: rules.Spectator, ToMove: state.ToMove(),
		View: state.View(rules.Spectator), Outcome: state.Outcome(),
		// The record says whether the match was rated (Rated, once it ended) or casual: the
		// panel's result says it as a room's does.
		Casual: m.Casual || m.Finished() && !m.Rated,
	}
	for _, s := range m.Seats {
		snap.Seats = append(snap.Seats, rooms.SeatInfo{Name: s.Name, PlayerID: s.PlayerID, Bot: s.Bot, Guest: s.Guest, Connected: true})
	}
	if at == cur.Len() && m.Finished() && m.Outcome.Over {
		// The end as the room recorded it: the moves may not have ended the match (a player
		// ran out of time, resigned, agreed a draw), and resigning ranks last.
		snap.Outcome, snap.Unrated = m.Outcome, m.Unrated
	}
	if snap.Outcome.Over {
		snap.Phase = rooms.Finished
	}
	// The log as a room keeps it: boards read the last turn's moves there (Flic Flac's "Last: bob
	// moved B h8, R c3").
	snap.Moves = make([]rooms.MoveRecord, at)
	for i, mv := range m.Moves[:at] {
		snap.Moves[i] = rooms.MoveRecord{Seat: mv.Seat, Move: mv.Move}
	}
	return snap
}

// replayCode is the code of a replay's snapshot (position): no room's, which are five letters and
// digits in capitals.
const replayCode = "replay"

// snapshot is position with the moves around the current one listed where a room shows its chat.
func (r *replayScreen) snapshot() rooms.Snapshot {
	snap := r.position()
	// The moves around the current one stand where a room shows its chat.
	from := max(0, r.at-12)
	for i := from; i < min(len(r.match.Moves), r.at+3); i++ {
		mv := r.match.Moves[i]
		line := fmt.Sprintf("%3d. %s %s", i+1, colourOf(r.board, int(mv.Seat)), mv.Move)
		if note := rules.AnnotateMove(r.cur.At(i), mv.Seat, mv.Move); note != "" {
			line += ": " + note // what the notation does not show: Coloretta's cards
		}
		if i == r.at-1 {
			line += "  ◀"
		}
		snap.Chat = append(snap.Chat, rooms.ChatLine{Text: line})
	}
	return snap
}

// recordMode says whether a recorded match was rated: "rated" (it changed ratings), "casual"
// (its settings were not standard, a bot or a guest played, or it ended unrated), "not rated" (a
// match between keys that the rules against farming left unrated); "" while it is unfinished and
// may still be rated. A match played alone has a score, not a rating: "".
func recordMode(m record.Match) string {
	switch {
	case m.Solo():
		return ""
	case m.Rated:
		return rooms.ModeRated
	case m.Casual || !m.Finished() && slices.ContainsFunc(m.Seats, func(s record.Seat) bool { return s.Bot != "" || s.Guest }):
		return rooms.ModeCasual
	case !m.Finished():
		return ""
	case m.Rateable():
		return "not rated"
	}
	return rooms.ModeCasual
}

// replayToldLines is the most lines the move told under a replay's board takes.
const replayToldLines = 4

func (r *replayScreen) view(st draw.Styles, w, h int) string {
	snap := r.snapshot()
	state := fmt.Sprintf(" · move %d of %d", r.at, r.cur.Len())
	if r.playing {
		state += " · playing"
	}
	header := st.Title.Render(r.game.Name) + st.Dim.Render(" · replay of match ") + st.Bold.Render(r.match.ID) +
		st.Dim.Render(state)
	room := &roomScreen{snap: snap, have: true, board: r.board, games: []rules.Game{r.game}, replaying: true}
	// The body's layout, as a room's (roomlayout.go).
	bw, bh := 0, 0
	if compactWindow(w, h) {
		bw, bh = boardMin(r.board, &snap, st, w, h-2-compactMsgRows)
	}
	lay := layoutFor(w, h, bw, bh)
	// A long move takes more lines (a Flic Flac turn's end tells its captures, its captors and
	// the end of the game), up to replayToldLines; the line of who played when keeps the rest.
	// A small window keeps its rows for the board: the lines its layout leaves.
	toldMost, playedMost := replayToldLines, replayToldLines+1
	if most := lay.msgRows(h); most > 0 {
		toldMost, playedMost = max(1, most-1), most
	}
	told := wrapKeepingParens(r.told(), w-1)
	if len(told) > toldMost {
		told = told[:toldMost]
	}
	when := r.match.Started.UTC().Format("2006-01-02 15:04 UTC")
	playedText := "played " + when + " · " + strings.Join(r.match.Names(), " vs ")
	if mode := recordMode(r.match); mode != "" {
		playedText += " · " + mode
	}
	if link := r.web.Match(r.match.ID); link != "" {
		playedText += " · " + link
	}
	played := wrapKeepingParens(playedText, w-1) // bots' names are long
	if n := max(0, min(playedMost-len(told), replayToldLines+1-len(told))); len(played) > n {
		played = played[:n]
	}
	bodyH := h - 2 - len(told) - len(played)
	lines := []string{draw.Fit(header, w)}
	if lay.kind == layoutSmall {
		for _, l := range smallLines(lay, &snap, "", bodyH) {
			lines = append(lines, draw.Fit(l, w))
		}
		lines = block(lines, w, bodyH+1)
	} else {
		left := linesOf(lay.place(w, bodyH, func(width, height int) []string { return r.board.View(&snap, st, width, height) }))
		var panel, under *lineSet
		if lay.kind == layoutUnder {
			room.show()
			seats, rest := room.side.ViewUnder(st, lay.seatsW, lay.panelW, lay.panelRows(bodyH))
			panel, under = linesOf(seats), linesOf(rest)
		} else {
			panel = linesOf(room.panel(st, lay.panelW, bodyH))
		}
		for i := range bodyH {
			lines = append(lines, string(lay.row(i, left, panel, under, false).appendRow(nil)))
		}
	}
	play := r.keys.Play
	if r.playing {
		play.SetHelp("space", "pause")
	}
	for _, l := range told {
		lines = append(lines, draw.Fit(" "+st.Bold.Render(l), w))
	}
	for _, l := range played {
		lines = append(lines, draw.Fit(" "+st.Dim.Render(l), w))
	}
	keys := fitHelp([]key.Binding{r.keys.Back, r.keys.TurnBack, r.keys.RoundBack, r.keys.Start, play, r.keys.Leave}, w, 2)
	lines = append(lines, helpLine(st, w, keys...))
	return strings.Join(lines, "\n")
}
