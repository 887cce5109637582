package session

import (
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/sanitize"
)

// NoticeKind says what a Notice tells.
type NoticeKind string

// The kinds of notice.
const (
	// NoticeTurn: it has become the player's move in a room they are not looking at.
	NoticeTurn NoticeKind = "turn"
	// NoticeChallenge: someone challenges the player.
	NoticeChallenge NoticeKind = "challenge"
	// NoticeAnswer: the player's challenge was accepted or declined.
	NoticeAnswer NoticeKind = "answer"
)

// Notice is news for a player wherever they are connected: their move in another room, a
// challenge, an answer to theirs. The session shows Text (the lobby's line, or the room's), sets
// the window's title to Title until the next key, rings the bell (unless the player's bell is
// off) and sends a desktop notification through the terminal, OSC 9 and OSC 777 (unless the
// player's notifications are off).
type Notice struct {
	Kind NoticeKind `json:"kind"`
	// Text says it in a sentence, without the key that acts on it: "bob moved in Coloretta
	// K7QXM: your move, 2d 23h left".
	Text string `json:"text"`
	// Title is the window's title while it is news: "your move · Coloretta · K7QXM".
	Title string `json:"title"`
	// Code is the room it is about, when it is about one.
	Code string `json:"code,omitempty"`
}

// NoticeMsg brings a Notice to a session's program.
type NoticeMsg struct{ Notice }

// Switchboard delivers notices to the sessions of this process, by player: each interactive
// session of a player with a key is on it while it runs (sshd adds it). Safe for concurrent use.
type Switchboard struct {
	mu    sync.Mutex
	lines map[string]map[*line]struct{}
}

// line is one session on the switchboard.
type line struct{ send func(tea.Msg) }

// Add puts a session of player on the switchboard, send being its program's Send; the function
// returned takes it off.
func (b *Switchboard) Add(player string, send func(tea.Msg)) (remove func()) {
	l := &line{send: send}
	b.mu.Lock()
	if b.lines == nil {
		b.lines = map[string]map[*line]struct{}{}
	}
	if b.lines[player] == nil {
		b.lines[player] = map[*line]struct{}{}
	}
	b.lines[player][l] = struct{}{}
	b.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			delete(b.lines[player], l)
			if len(b.lines[player]) == 0 {
				delete(b.lines, player)
			}
		})
	}
}

// Deliver sends n to every session of player on the switchboard, without waiting for them (a
// program takes messages one at a time), and returns how many it reached.
func (b *Switchboard) Deliver(player string, n Notice) int {
	b.mu.Lock()
	sends := make([]func(tea.Msg), 0, len(b.lines[player]))
	for l := range b.lines[player] {
		sends = append(sends, l.send)
	}
	b.mu.Unlock()
	for _, send := range sends {
		go send(NoticeMsg{n})
	}
	return len(sends)
}

// Notify delivers n to player's sessions of this process (a server alone's notifier).
func (b *Switchboard) Notify(player string, n Notice) { b.Deliver(player, n) }

// Connected reports which of ids have a session on the switchboard.
func (b *Switchboard) Connected(ids []string) map[string]bool {
	out := map[string]bool{}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, id := range ids {
		if len(b.lines[id]) > 0 {
			out[id] = true
		}
	}
	return out
}

// The terminal's sequences of a notice: the bell, and the desktop notifications of OSC 9
// (iTerm2, kitty, WezTerm, Windows Terminal) and OSC 777 (foot, WezTerm, urxvt), each ended by
// BEL. Terminals that know neither ignore them.
const (
	osc9   = "\x1b]9;"
	osc777 = "\x1b]777;notify;"
	oscEnd = "\a"
)

// noticeBytes returns what a notice writes to the terminal: the bell unless quiet, and the
// desktop notifications unless noNotify. The text is one line of printable characters, with no
// ';' in the title field of OSC 777 (its separator) and never starting as OSC 9's own commands
// do (a digit then ';').
func noticeBytes(n Notice, quiet, noNotify bool) string {
	var b strings.Builder
	if !quiet {
		b.WriteString(bell)
	}
	if noNotify {
		return b.String()
	}
	text := sanitize.Line(n.Text, 200)
	if text == "" {
		return b.String()
	}
	b.WriteString(osc9 + "arcade: " + text + oscEnd)
	b.WriteString(osc777 + "arcade;" + text + oscEnd)
	return b.String()
}

// takeNotice shows a notice: under the room being played, or in the lobby; a notice of the
// room on the screen is the room's own news already (its bell and title), and is dropped.
func (m Model) takeNotice(n Notice) {
	if r := m.room; r != nil && r.have && n.Code != "" && r.snap.Code == n.Code {
		return
	}
	m.ring += noticeBytes(n, m.cfg.NoBell, m.cfg.NoNotify)
	m.newsTitle = sanitize.Line(n.Title, 80)
	text := sanitize.Line(n.Text, 300)
	switch {
	case m.room != nil && m.replay == nil:
		m.room.prompt.say(text+noticeHint(n, false), false)
	default:
		m.lobby.news = text + noticeHint(n, true)
	}
}

// noticeHint says which key acts on a notice: in the lobby (lobby), or in a room.
func noticeHint(n Notice, lobby bool) string {
	switch {
	case n.Kind == NoticeChallenge && lobby:
		return ": c to see it"
	case n.Kind == NoticeChallenge:
		return ": in the lobby, c shows it"
	case n.Code != "" && lobby:
		return " (Your games, above)"
	}
	return ""
}
