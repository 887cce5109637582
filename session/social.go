package session

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/sanitize"
)

// Social is what a session asks of what players do about each other: whom its player ignores
// (their chat is not shown), reports to the operators, and the mute that keeps the player's own
// chat out. storage.Accounts satisfies it.
type Social interface {
	// Ignoring returns the players the player ignores.
	Ignoring(player string) ([]record.Ignored, error)
	// Ignore and Unignore have the player ignore, or no longer, the player called name.
	Ignore(player, name string) (record.Ignored, error)
	Unignore(player, name string) (record.Ignored, error)
	// Report stores r, the report of the player called name by r.By.
	Report(name string, r record.Report) error
	// Muted returns the player's mute, if they are muted now.
	Muted(player string) (record.Mute, bool)
}

// AnnounceMsg is an operator's announcement: the session shows it under the board, or in the
// lobby's message lines.
type AnnounceMsg struct{ Text string }

// saidMsg is the answer to a chat command (/ignore...): shown under the board as a message.
type saidMsg struct{ text string }

// typedChatMsg is a line typed in the room's chat, handed to the session (chatLine) with the
// session's state as it is when the line is sent, not as it was when the room was entered.
type typedChatMsg struct{ text string }

// typedChatCmd is the room screen's chat hook of a session: the line goes to the session.
func typedChatCmd(text string) tea.Cmd { return func() tea.Msg { return typedChatMsg{text: text} } }

// chatCommands is what the chat line says of its commands.
const chatCommands = "Chat commands: /ignore NAME, /unignore NAME, /report NAME [why]."

// ignores is what the session knows of whom its player ignores: their IDs, and the chats last
// filtered, the room's and the spectators' (a room replaces its chat slices, never changes them,
// so one filtering serves every snapshot until the chat changes).
type ignores struct {
	ids map[string]bool
	// the room's chat and the spectators', whole, as the last snapshot had them (for reports)
	raw, rawSpectators []rooms.ChatLine
	chat, spectators   keptChat // each chat as last filtered
}

// keptChat is a chat as last filtered: the room's slice, and what of it is shown.
type keptChat struct{ from, kept []rooms.ChatLine }

// loadIgnores reads whom the player ignores, when the session has a Social and a keyed player.
func (m Model) loadIgnores() {
	if m.cfg.Social == nil || m.cfg.Player.Guest {
		return
	}
	list, err := m.cfg.Social.Ignoring(m.cfg.Player.ID)
	if err != nil {
		return // the chat is shown whole; the next join reads again
	}
	ids := map[string]bool{}
	for _, ig := range list {
		ids[ig.Player] = true
	}
	m.ignored.ids = ids
	m.ignored.chat, m.ignored.spectators = keptChat{}, keptChat{}
}

// withoutIgnored returns the chat lines of chat said by players the session's player does not
// ignore: chat itself when they ignore nobody. last is the chat as last filtered, kept for the
// next snapshot.
func (ig *ignores) withoutIgnored(last *keptChat, chat []rooms.ChatLine) []rooms.ChatLine {
	if len(ig.ids) == 0 {
		return chat
	}
	if len(chat) == len(last.from) && (len(chat) == 0 || &chat[0] == &last.from[0]) {
		return last.kept
	}
	kept := make([]rooms.ChatLine, 0, len(chat))
	for _, l := range chat {
		if l.Player == "" || !ig.ids[l.Player] {
			kept = append(kept, l)
		}
	}
	last.from, last.kept = chat, kept
	return kept
}

// chatLine is what the room's chat line does with its text: a command (/ignore, /unignore,
// /report) is the session's; anything else is said in the room, unless the player is muted.
func (m Model) chatLine(sub Sub, text string) tea.Cmd {
	if cmd, ok := m.chatCommand(sub, text); ok {
		return cmd
	}
	if s := m.cfg.Social; s != nil && !m.cfg.Player.Guest {
		if mute, ok := s.Muted(m.cfg.Player.ID); ok {
			return func() tea.Msg { return actionMsg{err: errMuted(mute)} }
		}
	}
	return actionCmd(func() error { return sub.Chat(text) })
}

// mutedError says why a line was not said.
type mutedError struct{ until time.Time }

func (e mutedError) Error() string {
	if e.until.IsZero() {
		return "an operator muted you: your chat is not shown to anyone"
	}
	return "an operator muted you until " + e.until.UTC().Format("2006-01-02 15:04 UTC") + ": your chat is not shown"
}

func errMuted(m record.Mute) error { return mutedError{until: m.Until} }

// chatCommand runs the chat command text, if it is one (it begins with /): false otherwise.
func (m Model) chatCommand(sub Sub, text string) (tea.Cmd, bool) {
	if !strings.HasPrefix(text, "/") {
		return nil, false
	}
	fail := func(msg string) tea.Cmd { return func() tea.Msg { return actionMsg{err: sentenceError(msg)} } }
	words := strings.Fields(text)
	cmd, args := strings.ToLower(words[0]), words[1:]
	s, me := m.cfg.Social, m.cfg.Player
	switch {
	case cmd != "/ignore" && cmd != "/unignore" && cmd != "/report":
		return fail("There is no command " + sanitize.Line(cmd, 20) + ". " + chatCommands), true
	case s == nil:
		return fail("This server keeps no players' settings."), true
	case me.Guest:
		return fail("A guest cannot " + cmd[1:] + ": connect with an SSH key and a name (ssh NAME@host)."), true
	case len(args) == 0 || (cmd != "/report" && len(args) > 1):
		return fail("Say whom: " + cmd + " NAME" + map[bool]string{true: " [why]"}[cmd == "/report"] + "."), true
	}
	name := args[0]
	switch cmd {
	case "/ignore", "/unignore":
		return func() tea.Msg {
			var ig record.Ignored
			var err error
			if cmd == "/ignore" {
				ig, err = s.Ignore(me.ID, name)
			} else {
				ig, err = s.Unignore(me.ID, name)
			}
			if err != nil {
				return actionMsg{err: err}
			}
			return ignoredMsg{ig: ig, on: cmd == "/ignore"}
		}, true
	}
	var chat []record.ChatLine
	code := ""
	if m.room != nil && m.room.have {
		code = m.room.snap.Code
		for _, l := range rooms.MergeChats(m.ignored.raw, m.ignored.rawSpectators) { // both chats: a spectator may be reported
			chat = append(chat, record.ChatLine{From: l.From, Text: l.Text, At: l.At})
		}
	}
	r := record.Report{By: me.ID, ByName: me.Name, Text: strings.Join(args[1:], " "), Room: code, Chat: chat}
	return func() tea.Msg {
		if err := s.Report(name, r); err != nil {
			return actionMsg{err: err}
		}
		return saidMsg{text: "Thank you: your report of " + sanitize.Line(name, sanitize.MaxName) +
			" is with the operators, with the room's chat."}
	}, true
}

// ignoredMsg is the answer of /ignore or /unignore: on, the session's player now ignores ig.
type ignoredMsg struct {
	ig record.Ignored
	on bool
}

// takeIgnored takes the answer of /ignore or /unignore: the chat is filtered from now on.
func (m Model) takeIgnored(msg ignoredMsg) tea.Cmd {
	ids := map[string]bool{}
	for id := range m.ignored.ids {
		ids[id] = true
	}
	text := "You no longer see the chat of " + msg.ig.Name + " (they are not told; /unignore " + msg.ig.Name + " to undo)."
	if msg.on {
		ids[msg.ig.Player] = true
	} else {
		delete(ids, msg.ig.Player)
		text = "You see the chat of " + msg.ig.Name + " again."
	}
	m.ignored = ignores{ids: ids, raw: m.ignored.raw, rawSpectators: m.ignored.rawSpectators}
	if m.room != nil && m.room.have {
		snap := m.room.snap
		snap.Chat, snap.SpectatorChat = m.ignored.raw, m.ignored.rawSpectators
		m.applySnapshot(snap)
	}
	return func() tea.Msg { return saidMsg{text: text} }
}

// applySnapshot gives the room screen snap, its chats (the room's and the spectators') without
// the lines of the players ignored.
func (m Model) applySnapshot(snap rooms.Snapshot) {
	m.ignored.raw, m.ignored.rawSpectators = snap.Chat, snap.SpectatorChat
	snap.Chat = m.ignored.withoutIgnored(&m.ignored.chat, snap.Chat)
	snap.SpectatorChat = m.ignored.withoutIgnored(&m.ignored.spectators, snap.SpectatorChat)
	m.room.apply(snap)
}

// sentenceError is an error whose text is a sentence for the player.
type sentenceError string

func (e sentenceError) Error() string { return string(e) }

// announce shows an operator's announcement: under the board in a room, else in the lobby's
// message lines.
func (m Model) announce(text string) {
	m.say("Announcement: " + sanitize.Line(text, 2*rooms.MaxChat))
}

// say shows a message under the board in a room, else in the lobby's message lines.
func (m Model) say(text string) {
	if m.room != nil {
		m.room.prompt.say(text, false)
		return
	}
	m.lobby.msg = text
}
