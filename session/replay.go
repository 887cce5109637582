package session

import (
	"errors"
	"fmt"
	"strings"

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
		states, err := match.Replay(g)
		if err != nil {
			return replayMsg{err: err}
		}
		return replayMsg{screen: newReplayScreen(match, g, states, boards.board(g.ID))}
	}
}

// replayKeys are the replay's bindings.
type replayKeys struct {
	Back, Forward, Start, End, Leave key.Binding
}

// replayScreen steps through a recorded match, showing the board as it was after each move.
type replayScreen struct {
	keys   replayKeys
	match  record.Match
	game   rules.Game
	states []rules.Engine
	at     int // moves played on the board shown
	board  draw.Board
}

func newReplayScreen(m record.Match, g rules.Game, states []rules.Engine, board draw.Board) *replayScreen {
	return &replayScreen{
		keys: replayKeys{
			Back:    key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "back")),
			Forward: key.NewBinding(key.WithKeys("right", "l", "space"), key.WithHelp("→/l", "forward")),
			Start:   key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g", "start")),
			End:     key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G", "end")),
			Leave:   key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "lobby")),
		},
		match: m, game: g, states: states, board: board,
	}
}

// update handles a key; it reports true when the player leaves the replay.
func (r *replayScreen) update(msg tea.Msg) bool {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return false
	}
	last := len(r.states) - 1
	switch {
	case key.Matches(km, r.keys.Leave):
		return true
	case key.Matches(km, r.keys.Back):
		r.at = max(0, r.at-1)
	case key.Matches(km, r.keys.Forward):
		r.at = min(last, r.at+1)
	case key.Matches(km, r.keys.Start):
		r.at = 0
	case key.Matches(km, r.keys.End):
		r.at = last
	}
	return false
}

// snapshot dresses the position after r.at moves as a spectator's snapshot, so the game's board
// and the room's panel draw it as they draw a live room.
func (r *replayScreen) snapshot() rooms.Snapshot {
	state := r.states[r.at]
	snap := rooms.Snapshot{
		Code: "replay", GameID: r.game.ID, GameName: r.game.Name, Options: r.match.Options,
		Phase: rooms.Playing, You: rules.Spectator, ToMove: state.ToMove(),
		View: state.View(rules.Spectator), Outcome: state.Outcome(),
	}
	for _, s := range r.match.Seats {
		snap.Seats = append(snap.Seats, rooms.SeatInfo{Name: s.Shown(), PlayerID: s.PlayerID, Bot: s.Bot, Connected: true})
	}
	if snap.Outcome.Over {
		snap.Phase = rooms.Finished
	}
	// The moves around the current one stand where a room shows its chat.
	from := max(0, r.at-12)
	for i := from; i < min(len(r.match.Moves), r.at+3); i++ {
		mv := r.match.Moves[i]
		line := fmt.Sprintf("%3d. %s %s", i+1, colourOf(r.board, int(mv.Seat)), mv.Move)
		if i == r.at-1 {
			line += "  ◀"
		}
		snap.Chat = append(snap.Chat, rooms.ChatLine{Text: line})
	}
	return snap
}

func (r *replayScreen) view(st draw.Styles, w, h int) string {
	snap := r.snapshot()
	header := st.Title.Render(r.game.Name) + st.Dim.Render(" · replay of match ") + st.Bold.Render(r.match.ID) +
		st.Dim.Render(fmt.Sprintf(" · move %d of %d", r.at, len(r.states)-1))
	room := &roomScreen{snap: snap, have: true, board: r.board, games: []rules.Game{r.game}}
	bodyH := h - 3
	boardW := w - panelWidth - 1
	left := block(r.board.View(&snap, st, boardW, bodyH), boardW, bodyH)
	panel := block(room.panel(st, panelWidth, bodyH), panelWidth, bodyH)
	lines := []string{draw.Fit(header, w)}
	for i := range bodyH {
		lines = append(lines, left[i]+" "+panel[i])
	}
	when := r.match.Started.UTC().Format("2006-01-02 15:04 UTC")
	lines = append(lines, draw.Fit(" "+st.Dim.Render("played "+when+" · "+strings.Join(r.match.Names(), " vs ")), w),
		helpLine(st, w, r.keys.Back, r.keys.Forward, r.keys.Start, r.keys.End, r.keys.Leave))
	return strings.Join(lines, "\n")
}
