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
	recs, games, boards := m.cfg.Records, m.cfg.Hub.Games(), m.cfg.Boards
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
		return replayMsg{screen: newReplayScreen(match, g, cur, boards.board(g.ID))}
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

// position dresses the position after r.at moves as a spectator's snapshot, with the moves that
// led there, so the game's board and the room's panel draw it as they draw a live room. After the
// last move of a finished match, the outcome is the record's, which says how the match ended.
func (r *replayScreen) position() rooms.Snapshot {
	state := r.cur.At(r.at)
	snap := rooms.Snapshot{
		Code: "replay", GameID: r.game.ID, GameName: r.game.Name, Options: r.match.Options,
		Phase: rooms.Playing, You: rules.Spectator, ToMove: state.ToMove(),
		View: state.View(rules.Spectator), Outcome: state.Outcome(),
		// The record says whether the match was rated (Rated, once it ended) or casual: the
		// panel's result says it as a room's does.
		Casual: r.match.Casual || r.match.Finished() && !r.match.Rated,
	}
	for _, s := range r.match.Seats {
		snap.Seats = append(snap.Seats, rooms.SeatInfo{Name: s.Name, PlayerID: s.PlayerID, Bot: s.Bot, Connected: true})
	}
	if r.at == r.cur.Len() && r.match.Finished() && r.match.Outcome.Over {
		// The end as the room recorded it: the moves may not have ended the match (a player
		// ran out of time, resigned, agreed a draw), and resigning ranks last.
		snap.Outcome, snap.Unrated = r.match.Outcome, r.match.Unrated
	}
	if snap.Outcome.Over {
		snap.Phase = rooms.Finished
	}
	// The log as a room keeps it: boards read the last turn's moves there (Flic Flac's "Last: bob
	// moved B h8, R c3").
	snap.Moves = make([]rooms.MoveRecord, r.at)
	for i, mv := range r.match.Moves[:r.at] {
		snap.Moves[i] = rooms.MoveRecord{Seat: mv.Seat, Move: mv.Move}
	}
	return snap
}

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
	// A long move takes more lines (a Flic Flac turn's end tells its captures, its captors and
	// the end of the game), up to replayToldLines; the line of who played when keeps the rest.
	told := wrapKeepingParens(r.told(), w-1)
	if len(told) > replayToldLines {
		told = told[:replayToldLines]
	}
	when := r.match.Started.UTC().Format("2006-01-02 15:04 UTC")
	about := "played " + when + " · " + strings.Join(r.match.Names(), " vs ")
	if mode := recordMode(r.match); mode != "" {
		about += " · " + mode
	}
	played := wrapKeepingParens(about, w-1) // bots' names are long
	if n := max(1, replayToldLines+1-len(told)); len(played) > n {
		played = played[:n]
	}
	bodyH := h - 2 - len(told) - len(played)
	left, boardW, panelW, margin := boardColumn(w, func(width int) []string { return r.board.View(&snap, st, width, bodyH) })
	left = block(left, boardW, bodyH)
	panel := block(room.panel(st, panelW, bodyH), panelW, bodyH)
	lines := []string{draw.Fit(header, w)}
	for i := range bodyH {
		lines = append(lines, draw.Spaces(margin)+left[i]+" "+panel[i])
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
	lines = append(lines, helpLine(st, w, r.keys.Back, r.keys.TurnBack, r.keys.RoundBack, r.keys.Start, play, r.keys.Leave))
	return strings.Join(lines, "\n")
}
