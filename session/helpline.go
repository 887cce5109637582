package session

import "charm.land/bubbles/v2/key"

// helpCache keeps a screen's help line as last drawn, with what it was drawn from: the width and
// each binding's help and whether it was enabled. A frame whose bindings say the same reuses the
// line without allocating.
type helpCache struct {
	drawn   bool
	w       int
	entries []helpEntry
	text    string
	keys    []key.Binding // scratch space for the room's helpKeys, reused from frame to frame
}

// helpEntry is what the help line shows of one binding.
type helpEntry struct {
	key, desc string
	enabled   bool
}

// same reports whether keys show as the entries do.
func (c *helpCache) same(keys []key.Binding) bool {
	if len(keys) != len(c.entries) {
		return false
	}
	for i, b := range keys {
		h, e := b.Help(), c.entries[i]
		if h.Key != e.key || h.Desc != e.desc || b.Enabled() != e.enabled {
			return false
		}
	}
	return true
}

// line returns helpLine(st, w, keys...): the line last drawn when the width and keys are the same
// (a screen lives in one session, with one set of styles), else a new one, kept for next time. A
// nil cache draws every time.
func (c *helpCache) line(st styles, w int, keys []key.Binding) string {
	if c == nil {
		return helpLine(st, w, keys...)
	}
	if c.drawn && c.w == w && c.same(keys) {
		return c.text
	}
	c.entries = c.entries[:0]
	for _, b := range keys {
		h := b.Help()
		c.entries = append(c.entries, helpEntry{key: h.Key, desc: h.Desc, enabled: b.Enabled()})
	}
	c.drawn, c.w, c.text = true, w, helpLine(st, w, keys...)
	return c.text
}

// help draws the room's key help line, again only when its keys or the width changed.
func (r *roomScreen) help(st styles, w int) string {
	c := &r.helped
	c.keys = r.helpKeys(c.keys[:0])
	return c.line(st, w, c.keys)
}
