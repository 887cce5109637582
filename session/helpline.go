package session

import (
	"slices"

	"charm.land/bubbles/v2/key"

	"github.com/arcade/arcade/session/draw"
)

// helpCache keeps a screen's last few help lines, each with what it was drawn from: the width and
// each binding's help and whether it was enabled. A frame whose bindings say the same as one of
// them reuses its line without allocating. It keeps several because a player's screen switches
// between a few sets of keys over and over (the board's, then the move prompt's, at every move).
type helpCache struct {
	slots [helpSlots]helpSlot
	next  int           // the slot a new line replaces
	keys  []key.Binding // scratch space for the room's helpKeys, reused from frame to frame
}

// helpSlots is how many help lines a helpCache keeps.
const helpSlots = 4

// helpSlot is one help line and what it was drawn from.
type helpSlot struct {
	drawn   bool
	w       int
	theme   theme
	entries []helpEntry
	text    string
}

// helpEntry is what the help line shows of one binding.
type helpEntry struct {
	key, desc string
	enabled   bool
}

// same reports whether the slot was drawn at width w in the styles th from keys that show as keys
// do.
func (s *helpSlot) same(w int, th theme, keys []key.Binding) bool {
	if !s.drawn || s.w != w || s.theme != th || len(keys) != len(s.entries) {
		return false
	}
	for i, b := range keys {
		h, e := b.Help(), s.entries[i]
		if h.Key != e.key || h.Desc != e.desc || b.Enabled() != e.enabled {
			return false
		}
	}
	return true
}

// line returns helpLine(st, w, keys...): a line drawn before when the width, the styles and the
// keys are the same, else a new one, kept for next time in place of the oldest. A nil cache draws
// every time.
func (c *helpCache) line(st draw.Styles, w int, keys []key.Binding) string {
	if c == nil {
		return helpLine(st, w, keys...)
	}
	th := themeOf(st)
	for i := range c.slots {
		if c.slots[i].same(w, th, keys) {
			return c.slots[i].text
		}
	}
	s := &c.slots[c.next]
	c.next = (c.next + 1) % helpSlots
	s.entries = s.entries[:0]
	for _, b := range keys {
		h := b.Help()
		s.entries = append(s.entries, helpEntry{key: h.Key, desc: h.Desc, enabled: b.Enabled()})
	}
	s.drawn, s.w, s.theme, s.text = true, w, th, helpLine(st, w, keys...)
	return s.text
}

// help draws the room's key help line, again only when its keys or the width changed. A line too
// wide for w loses keys a group at a time in helpDrops' order, before the line is cut.
func (r *roomScreen) help(st draw.Styles, w int) string {
	c := &r.helped
	c.keys = r.helpKeys(c.keys[:0])
	for _, group := range helpDrops(r.keys) {
		if helpWidth(c.keys) <= w {
			break
		}
		c.keys = slices.DeleteFunc(c.keys, func(b key.Binding) bool {
			h := b.Help().Key
			return h != "" && slices.Contains(group[:], h)
		})
	}
	c.keys = fitHelp(c.keys, w, r.helpTail(c.keys))
	return c.line(st, w, c.keys)
}

// helpDrops are the groups of keys a room's help line too wide for its window leaves out, first
// to last: the match's (takeback, draw, resign: the rules tell them, and they are seldom wanted
// at a glance), then the move prompt (the board's keys say what to do; the prompt is the other
// way to do it), then, on a narrow window, chat and the rules. The board's keys and esc stay.
func helpDrops(k *draw.Keys) [4][3]string {
	return [4][3]string{
		{k.TakeBack.Help().Key, k.Draw.Help().Key, k.Resign.Help().Key},
		{k.Prompt.Help().Key},
		{k.Chat.Help().Key},
		{k.Rules.Help().Key},
	}
}

// helpWidth is the width of the help line that shows keys, uncut: each enabled binding's key and
// description, a space between, and the three columns of a separator (" • ") between them. (It
// is measured at every move: draw.TextWidth, not the grapheme segmenter.)
func helpWidth(keys []key.Binding) int {
	w, n := 0, 0
	for _, b := range keys {
		if !b.Enabled() {
			continue
		}
		h := b.Help()
		w += draw.TextWidth(h.Key) + 1 + draw.TextWidth(h.Desc)
		n++
	}
	if n > 1 {
		w += 3 * (n - 1)
	}
	return w
}
