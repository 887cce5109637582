package session

import (
	"charm.land/bubbles/v2/key"

	"github.com/arcade/arcade/session/draw"
)

// lobbyKeys are the lobby's key bindings.
type lobbyKeys struct {
	Up, Down, Left, Right, First, Last, Enter, Back, Quit, Watch, Refresh, Newest key.Binding
}

// lobbyKeyMap is the key map of every session's lobby, and roomKeyMap (the key grammar every game
// shares, draw.KeyMap) the room screen's: shared, never changed (withHelp changes a copy), since
// a copy per session would be more for every collection to scan. The room's parts have theirs
// beside them, shared alike: the panel's (panelKeyMap), the prompt's (promptKeyMap) and the
// pagers' (pagerKeyMap).
var (
	lobbyKeyMap = newLobbyKeys()
	roomKeyMap  = &draw.KeyMap
)

// firstKey and lastKey go to the first and the last item of every list and menu of the session,
// or the start and the end of a text: the lobby's menu with its Your games, the new-room form,
// the leaderboards' games, every pager (rules, help, rooms, matches) and the replay.
var (
	firstKey = key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g/G", "first/last"))
	lastKey  = key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "last"))
)

func newLobbyKeys() lobbyKeys {
	return lobbyKeys{
		Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Left:    key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "less")),
		Right:   key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "more")),
		First:   firstKey,
		Last:    lastKey,
		Enter:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose")),
		Back:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Quit:    key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Watch:   key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "watch")),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Newest:  key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "join the waiting room")),
	}
}
