package session

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/session/draw"
)

// Boards makes the board view of each game by ID, for one session (a board keeps the session's
// cursor and what it drew). The catalogue (package games) gives one for every game it serves.
type Boards map[string]func() draw.Board

// board makes the board view of the game gameID, a listBoard when bs has none.
func (bs Boards) board(gameID string) draw.Board {
	if mk, ok := bs[gameID]; ok && mk != nil {
		if b := mk(); b != nil {
			return b
		}
	}
	return &listBoard{}
}

// listBoard is the fallback for a game with no board view of its own: it lists the legal moves,
// to be typed at the : prompt.
type listBoard struct{}

func (*listBoard) Handle(tea.Msg, *rooms.Snapshot) string { return "" }

func (*listBoard) View(snap *rooms.Snapshot, st draw.Styles, width, height int) []string {
	lines := []string{st.Dim.Render("This game is played by typing moves at the : prompt.")}
	if s, ok := snap.View.(fmt.Stringer); ok {
		lines = append(lines, strings.Split(s.String(), "\n")...)
	}
	return lines
}

func (*listBoard) Status(*rooms.Snapshot, draw.Styles, int) []string { return nil }
func (*listBoard) Bindings() []key.Binding                           { return nil }

func (*listBoard) Score(snap *rooms.Snapshot, seat int) string {
	if seat < len(snap.Outcome.Scores) {
		return fmt.Sprint(snap.Outcome.Scores[seat])
	}
	return ""
}
