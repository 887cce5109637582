package session

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session/draw"
)

// yourGamesKeys are the keys of the lobby's "Your games" block: the menu's.
type yourGamesKeys struct {
	Up, Down, Enter key.Binding
}

// yourGamesKeyMap is shared by every session's lobby, never changed (as lobbyKeyMap).
var yourGamesKeyMap = yourGamesKeys{
	Up:    lobbyKeyMap.Up,
	Down:  lobbyKeyMap.Down,
	Enter: draw.WithHelp(lobbyKeyMap.Enter, "return"),
}

// yourGamesMax is the most lines the block gives its games, "and N more" included.
const yourGamesMax = 5

// yourGames is the lobby's first block, above the menu: the unfinished matches the player sits
// in (rooms.Yours), the player's turn first, one a line; enter on one returns to its room. A
// guest, who has no key, has none.
type yourGames struct {
	keys  *yourGamesKeys
	id    string          // the player's key (rooms.Player.ID); "" for a guest
	games []rooms.Summary // the player's matches
	// sel is the game the cursor is on, -1 when the cursor is on the menu.
	sel int
	now func() time.Time // the clocks' time
}

func newYourGames(me rooms.Player) yourGames {
	y := yourGames{keys: &yourGamesKeyMap, sel: -1, now: time.Now}
	if !me.Guest {
		y.id = me.ID
	}
	return y
}

// set gives the block the rooms of list (Hub.List): the cursor stays on the game it was on; it
// goes to the first game when the block appears, and to the menu when the block empties.
func (y *yourGames) set(list []rooms.Summary) {
	was := ""
	if y.sel >= 0 && y.sel < len(y.games) {
		was = y.games[y.sel].Code
	}
	appears := len(y.games) == 0
	y.games = rooms.Yours(list, y.id)
	switch {
	case len(y.games) == 0:
		y.sel = -1
	case appears:
		y.sel = 0
	case y.sel >= 0:
		y.sel = min(y.sel, len(y.games)-1)
		for i, g := range y.games {
			if g.Code == was {
				y.sel = i
			}
		}
	}
}

// focused reports whether the cursor is on one of the games.
func (y *yourGames) focused() bool { return y.sel >= 0 }

// shown is how many games the block shows, given rows lines for its games and its "and N more".
func (y *yourGames) shown(rows int) int {
	rows = max(1, min(rows, yourGamesMax))
	if len(y.games) <= rows {
		return len(y.games)
	}
	return max(1, rows-1)
}

// yourGamesMove is what a key did in the block.
type yourGamesMove int

const (
	stayed    yourGamesMove = iota
	leftAbove               // up from the first game: the cursor goes to the menu's last item
	leftBelow               // down from the last game shown: to the menu's first item
)

// update handles a key while the cursor is on a game, with rows lines for the games (shown):
// code is the room to return to (enter), move where the cursor went.
func (y *yourGames) update(km tea.KeyPressMsg, rows int) (code string, move yourGamesMove) {
	n := y.shown(rows)
	y.sel = min(y.sel, n-1)
	switch {
	case key.Matches(km, y.keys.Up):
		if y.sel == 0 {
			y.sel = -1
			return "", leftAbove
		}
		y.sel--
	case key.Matches(km, y.keys.Down):
		if y.sel >= n-1 {
			y.sel = -1
			return "", leftBelow
		}
		y.sel++
	case key.Matches(km, y.keys.Enter):
		if y.sel >= 0 && y.sel < len(y.games) {
			return y.games[y.sel].Code, stayed
		}
	}
	return "", stayed
}

// enter puts the cursor on the first game shown (first) or the last (not first), with rows lines
// for the games; it reports false when the block has none.
func (y *yourGames) enter(first bool, rows int) bool {
	n := y.shown(rows)
	if n == 0 {
		return false
	}
	y.sel = 0
	if !first {
		y.sel = n - 1
	}
	return true
}

// view draws the block on w columns with rows lines for its games: a title, the games, "and N
// more" when they do not all fit, and a blank line. It draws nothing when the player has no game.
func (y *yourGames) view(st draw.Styles, w, rows int) []string {
	if len(y.games) == 0 {
		return nil
	}
	lines := []string{st.Bold.Render("Your games")}
	n := y.shown(rows)
	now := y.now()
	for i, g := range y.games[:n] {
		text := y.line(g, now)
		if i == y.sel && draw.TextWidth(text+" · enter to return")+4 <= w-2 {
			text += " · enter to return"
		}
		if draw.TextWidth(text)+4 > w-2 {
			text = draw.Fit(text, max(w-6, 10))
		}
		label := "  " + text + "  "
		if i == y.sel {
			label = st.Sel.Render(label)
		}
		lines = append(lines, label)
	}
	if more := len(y.games) - n; more > 0 {
		lines = append(lines, st.Dim.Render(fmt.Sprintf("  and %d more, under Open rooms", more)))
	}
	return append(lines, "")
}

// lines is how many lines view draws with rows lines for the games.
func (y *yourGames) lines(rows int) int {
	if len(y.games) == 0 {
		return 0
	}
	n := y.shown(rows)
	if n < len(y.games) {
		n++
	}
	return n + 2
}

// line describes one of the player's matches at now: "Flic Flac TQNFY · vs bob · your turn
// 0:12", "Stone Towers K2P9D · vs carol · their turn", "DISCON 7RMWX · waiting for 1 player".
func (y *yourGames) line(g rooms.Summary, now time.Time) string {
	mine := g.SeatOf(y.id)
	parts := []string{g.GameName + " " + g.Code}
	var others []string
	for i, name := range g.Seats {
		if i != mine && name != "" {
			others = append(others, name)
		}
	}
	if len(others) > 0 {
		parts = append(parts, "vs "+strings.Join(others, ", "))
	}
	switch {
	case g.Phase == rooms.Waiting:
		parts = append(parts, g.State(now))
	case g.ToPlay(mine):
		turn := "your turn"
		if g.Clock.Seat == rules.Seat(mine) && !g.Clock.Ends.IsZero() {
			turn += " " + turnLeftText(g.Clock.Left(now))
		}
		parts = append(parts, turn)
	case len(g.ToMove) > 0:
		parts = append(parts, "their turn")
	default: // a room of another server: its summary does not say whose turn it is
		parts = append(parts, g.State(now))
	}
	return strings.Join(parts, " · ")
}

// turnLeftText writes a turn's time left: "0:12", "9:59", "1:02:03".
func turnLeftText(d time.Duration) string {
	s := int(d / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
