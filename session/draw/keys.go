package draw

import "charm.land/bubbles/v2/key"

// Keys is the key grammar of every room: the same action has the same key in every game, written
// here once. A board answers the board's keys (the cursor, Act, Cancel, StepBack, Pass, EndTurn)
// for the actions its game has, and extends them with its own bindings (Flic Flac's n, DISCON's L,
// Coloretta's d and 1-5, Lhex-i'-con's x, s, c, a); the room screen (package session) answers the
// room's keys the same for every game. A help line shows a binding of this map as it is here, so
// it reads the same in every game.
//
// Capitals are never the only thing between a player and a destructive action: every binding
// that gives something up is a lower-case key, or asks first (Resign asks, and Yes, enter,
// answers; a board's pass or challenge asks the same way, Asker). A capital alone, or Caps Lock
// held over a word, sends nothing to the room.
type Keys struct {
	// The board's. The cursor is the arrows, or h j k l on a board whose letters are not its own
	// (Lhex-i'-con's letters are tiles and its commands: it takes the arrows only).
	Up, Down, Left, Right key.Binding
	Act                   key.Binding // enter or space: pick, place or play at the cursor
	Cancel                key.Binding // esc: drop what is picked or composed; with nothing, Leave
	StepBack              key.Binding // backspace: take back a step of the turn being played
	Pass                  key.Binding // p: pass the turn (asked where it gives up a play)
	EndTurn               key.Binding // e: end the turn (Flic Flac), or a solo game

	// The room's.
	Prompt   key.Binding // ':' types a move in the game's notation
	TakeBack key.Binding // u asks to take back your last move, or agrees to the others' asking
	Draw     key.Binding // '=' offers a draw, or accepts one
	Resign   key.Binding // R asks, and Yes resigns (before the first move: aborts, unrated)
	Chat     key.Binding // t opens the chat line
	Moves    key.Binding // tab: turns the room panel's foot: the chat, the spectators' chat, the moves
	Rules    key.Binding // '?' shows the rules, which end with the room's keys
	Leave    key.Binding // esc (or q) with nothing to cancel: asks a player in a match, then leaves
	Yes      key.Binding // enter answers yes to the question under the board; any other key no

	// The room's, between matches or while a seat is free or gone.
	Bot, Level, End, Rematch, Replay key.Binding
}

// KeyMap is the grammar every room and board shares. It never changes: a help line that says
// otherwise changes a copy of a binding (its SetHelp on a copy).
var KeyMap = NewKeys()

// NewKeys returns the grammar's bindings (KeyMap is the one every screen shares).
func NewKeys() Keys {
	return Keys{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("arrows", "move")),
		Down:     key.NewBinding(key.WithKeys("down", "j")),
		Left:     key.NewBinding(key.WithKeys("left", "h")),
		Right:    key.NewBinding(key.WithKeys("right", "l")),
		Act:      key.NewBinding(key.WithKeys("enter", "space"), key.WithHelp("enter", "play")),
		Cancel:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		StepBack: key.NewBinding(key.WithKeys("backspace"), key.WithHelp("bksp", "undo")),
		Pass:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pass")),
		EndTurn:  key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "end turn")),

		Prompt:   key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "type move")),
		TakeBack: key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "takeback")),
		Draw:     key.NewBinding(key.WithKeys("="), key.WithHelp("=", "draw")),
		Resign:   key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "resign")),
		Chat:     key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "chat")),
		Moves:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "moves")),
		Rules:    key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "rules")),
		Leave:    key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "leave")),
		Yes:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "yes")),

		Bot:     key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "seat a bot")),
		Level:   key.NewBinding(key.WithKeys("B"), key.WithHelp("B", "bot level")),
		End:     key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "end unrated")),
		Rematch: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "rematch")),
		Replay:  key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "replay")),
	}
}

// WithHelp returns a copy of b whose help line says desc: "enter pick/move".
func WithHelp(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}
