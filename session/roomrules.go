package session

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/session/draw"
)

// The room's rules (?): the game's rules and the room's own keys, in a pager (pager.go, the
// scrolling view of the lobby's rules and lists too) that takes the whole body while they show.

// rulesSize is the rules pager's size on a w x h screen: the whole body but its title line, with
// a margin of two columns.
func rulesSize(w, h int) (int, int) { return w - 2, h - 4 }

// updateRules takes a key while the rules show: the pager's, or one that closes them.
func (r *roomScreen) updateRules(km tea.KeyPressMsg) {
	r.rules.setSize(rulesSize(r.w, r.h))
	switch {
	case r.rules.update(km):
	case key.Matches(km, r.keys.Rules), key.Matches(km, r.keys.Cancel), km.String() == "q":
		r.focus = focusBoard
	}
}

// rulesText is the rules of the room's game.
func (r *roomScreen) rulesText() string {
	text := "No rules for this game.\n"
	if g, ok := r.game(); ok && g.Rules != "" {
		text = g.Rules
	}
	return strings.TrimRight(text, "\n") + "\n" + roomKeysText
}

// roomKeysText ends every game's rules in the room: the grammar every game shares (draw.KeyMap),
// each key as the help line writes it, with what it does.
var roomKeysText = keysText(&draw.KeyMap)

// keysText writes the section of the rules that tells the keys of every room, from k.
func keysText(k *draw.Keys) string {
	rows := []struct {
		b    key.Binding
		does string
	}{
		{k.Up, "move the cursor (h j k l too, but in Lhex-i'-con)"},
		{k.Act, "pick, place or play at the cursor (space too)"},
		{k.Cancel, "cancel: un-pick a piece, clear a word or a typed line, close these rules; with " +
			"nothing to cancel, it asks before you leave (enter leaves): your seat waits for you, but your turns run on"},
		{k.StepBack, "take back a step of your turn (a piece moved, a letter, a pick)"},
		{k.Pass, "pass your turn"},
		{k.EndTurn, "end your turn (Flic Flac), or a solo game"},
		{k.Prompt, "type a move in the game's notation"},
		{k.TakeBack, "ask to take back your last move, or agree (casual matches)"},
		{k.Draw, "offer a draw, or accept your opponent's (two players)"},
		{k.Resign, "resign; before the first move it aborts the match, unrated"},
		{k.Chat, "chat"},
		{k.Moves, "the chat, then the spectators' chat (a player's), then the moves"},
		{k.Rules, "these rules"},
	}
	var b strings.Builder
	b.WriteString("\nIN EVERY ROOM (the same keys in every game)\n")
	for _, r := range rows {
		b.WriteString("  " + padRight(r.b.Help().Key, 7) + " " + r.does + "\n")
	}
	b.WriteString("A key that gives something up (resign, a pass that could have been a play, a challenge) " +
		"asks first: enter says yes, any other key no. A capital letter alone never does it.\n")
	return b.String()
}

// padRight pads s with spaces to n columns.
func padRight(s string, n int) string {
	return s + draw.Spaces(max(0, n-draw.TextWidth(s)))
}

// rulesLines draws the rules pager in w x h cells: a title line, then the rules wrapped to the
// width. During a timed turn the title line ends with the turn's clock (roomClock.turnLine), which
// the rules hide with the panel: the clock ticks on while they are read.
func (r *roomScreen) rulesLines(st draw.Styles, w, h int) []string {
	r.rules.setSize(rulesSize(w, h+3))
	name := st.Bold.Render(r.snap.GameName + " rules")
	title := name
	if pos := r.rules.position(); pos != "" {
		title += st.Dim.Render("  (" + pos + ")")
	}
	if clock := r.clock.turnLine(st); clock != "" {
		cw := draw.TextWidth(clock)
		if draw.TextWidth(title)+1+cw > w {
			title = name // a narrow window's: the clock before where the rules are at
		}
		title = draw.Fit(title, max(0, w-cw-1)) + " " + clock
	}
	lines := make([]string, 0, h)
	lines = append(lines, title)
	for _, l := range r.rules.view(st.Sel) {
		lines = append(lines, "  "+l)
	}
	return lines
}
