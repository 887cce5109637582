package session

import "charm.land/bubbles/v2/key"

// lobbyKeys are the lobby's key bindings.
type lobbyKeys struct {
	Up, Down, Left, Right, Enter, Back, Quit, Watch, Refresh, Top key.Binding
}

// lobbyKeyMap and roomKeyMap are the key maps of every session's lobby and room screen: shared,
// never changed (withHelp changes a copy), since a copy per session would be more for every
// collection to scan. The room's parts have theirs beside them, shared alike: the panel's
// (panelKeyMap), the prompt's (promptKeyMap) and the pagers' (pagerKeyMap).
var (
	lobbyKeyMap = newLobbyKeys()
	roomKeyMap  = newRoomKeys()
)

func newLobbyKeys() lobbyKeys {
	return lobbyKeys{
		Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Left:    key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "less")),
		Right:   key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "more")),
		Enter:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose")),
		Back:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Quit:    key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Watch:   key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "watch")),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Top:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "join the waiting room")),
	}
}

// roomKeys are the room screen's key bindings on the board; a board adds its own, and the panel
// and the prompt have theirs (panelKeys, promptKeys). Esc cancels: what the board has picked or
// composed first (a board that has something to cancel takes esc, draw.KeyTaker), else it is
// Leave, which asks a player in a match before leaving (LeaveNow says yes, any other key stays).
type roomKeys struct {
	Prompt, Chat, Rules, Bot, Level, End, Rematch, Leave, LeaveNow, Cancel key.Binding
	Resign, Draw, Replay, TakeBack                                         key.Binding
}

func newRoomKeys() roomKeys {
	return roomKeys{
		Prompt:   key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "type move")),
		Chat:     key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "chat")),
		Rules:    key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "rules")),
		Resign:   key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "resign")),
		Draw:     key.NewBinding(key.WithKeys("="), key.WithHelp("=", "offer a draw")),
		Replay:   key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "replay")),
		TakeBack: key.NewBinding(key.WithKeys("U"), key.WithHelp("U", "take back")),
		Bot:      key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "seat a bot")),
		Level:    key.NewBinding(key.WithKeys("B"), key.WithHelp("B", "bot level")),
		End:      key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "end unrated")),
		Rematch:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "rematch")),
		Leave:    key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "leave")),
		LeaveNow: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "leave")),
		Cancel:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}
