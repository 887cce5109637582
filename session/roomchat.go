package session

import (
	"slices"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session/draw"
)

// The chat at the foot of a room's panel. A room has two chats while a match is played (package
// rooms, chat.go): the room's, everyone's, and the spectators', whose lines the players read only
// when they ask. So the foot shows:
//
//   - a player, during a match: the room's chat; tab turns to the spectators' chat (when someone
//     watches or has said something: spectatorTab, whose rule counts their lines), then to the
//     moves;
//   - a spectator, during a match: both chats as one, in the order the lines were said, the
//     spectators' marked "(watching)"; what they say goes to the spectators' chat (the chat
//     prompt says so);
//   - everyone, between matches: the room's chat, which after a match holds the spectators'
//     lines too, marked alike.
//
// Every line shown goes through chatLines.

// spectatorTab reports whether the foot has the spectators' chat as a tab of its own: the viewer
// plays the match being played, and somebody watches it or has said something.
func (p *roomPanel) spectatorTab() bool {
	s := p.snap
	return !p.replaying && s.Phase == rooms.Playing && s.You != rules.Spectator &&
		(s.Spectators > 0 || len(s.SpectatorChat) > 0)
}

// showingSpectators reports whether the foot shows the spectators' chat alone.
func (p *roomPanel) showingSpectators() bool { return p.showSpectators && p.spectatorTab() }

// footChats returns the chats the foot shows: the room's and the spectators' to merge (either
// may be nil), and alone, set when it shows the spectators' chat by itself.
func (p *roomPanel) footChats() (room, spectators []rooms.ChatLine, alone bool) {
	s := p.snap
	switch {
	case p.showingSpectators():
		return nil, s.SpectatorChat, true
	case s.You == rules.Spectator:
		return s.Chat, s.SpectatorChat, false
	}
	return s.Chat, nil, false
}

// chatCache holds the chat as last wrapped for the panel: the panel is drawn again at every
// snapshot, and the chat changes far less often (a room replaces its chat slices, never changes
// them). It is keyed by the chats it shows, the width and the styles.
type chatCache struct {
	from, spectators []rooms.ChatLine
	alone            bool
	w                int
	theme            theme
	lines            []string
	starts           []int // the index in lines of each message's first line
}

// chatLines returns the chat the foot shows (footChats) wrapped to w columns, oldest first. The
// result is shared with the cache: callers must not modify it.
func (p *roomPanel) chatLines(st draw.Styles, w int) []string {
	c := &p.chat
	from, spectators, alone := p.footChats()
	if c.lines != nil && c.w == w && c.theme == themeOf(st) && c.alone == alone &&
		slices.Equal(c.from, from) && slices.Equal(c.spectators, spectators) {
		return c.lines
	}
	var lines []string
	var starts []int
	for _, l := range rooms.MergeChats(from, spectators) {
		starts = append(starts, len(lines))
		switch {
		case l.From == "":
			lines = append(lines, wrapKeepingParens(st.Dim.Render("· ")+l.Text, w)...)
		case l.Spectator && !alone: // among the players' lines: say who watches
			lines = append(lines, draw.Wrap(st.Bold.Render(l.From)+st.Dim.Render(" (watching):")+" "+l.Text, w)...)
		default:
			lines = append(lines, draw.Wrap(st.Bold.Render(l.From+":")+" "+l.Text, w)...)
		}
	}
	if alone && len(lines) == 0 {
		lines, starts = []string{st.Dim.Render(draw.Fit("No spectator has said a word.", w))}, []int{0}
	}
	*c = chatCache{from: from, spectators: spectators, alone: alone, w: w, theme: themeOf(st), lines: lines, starts: starts}
	return lines
}
