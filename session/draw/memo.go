package draw

import "sync"

// Memo memoises styled strings by a comparable key. A board draws the same few glyphs in every
// frame, and styling one costs allocations, which a thousand sessions pay many times a second. A
// typed key is hashed as it is (a map[any] boxes its key, which allocates on every lookup). Each
// board has its own (a board lives in one session, with one set of styles), so it needs no lock;
// it holds at most memoLimit entries.
type Memo[K comparable] map[K]string

// memoLimit bounds a memo: one that would grow past it (a long session of a game whose looks
// keep changing, as Coloretta's hands do) starts again empty.
const memoLimit = 1024

// Get returns the string for key, drawing it the first time.
func (m Memo[K]) Get(key K, draw func() string) string {
	if s, ok := m[key]; ok {
		return s
	}
	if len(m) >= memoLimit {
		clear(m)
	}
	s := draw()
	m[key] = s
	return s
}

// SharedMemo is a memo for the boards of every session at once, for glyphs that all sessions
// draw alike: it is keyed by the glyph and by the two settings a session's styles are made from
// (NewStyles' arguments), which are all that decides how the glyph is drawn. It holds at most
// sharedMemoLimit entries and starts again empty past them.
//
// Shared, each glyph is drawn and kept once for the whole server: the distinct glyphs of a game
// are few, while a memo per board would be a map per session, all of them holding the same
// strings and marked by the collector at every collection (docs/performance.md, The renderer).
// The zero value is ready; it is safe for concurrent use.
type SharedMemo[K comparable] struct {
	mu sync.RWMutex
	m  map[styledKey[K]]string
}

// styledKey is a SharedMemo's key: a glyph in one set of styles.
type styledKey[K comparable] struct {
	noColor, ascii bool
	glyph          K
}

// sharedMemoLimit bounds a SharedMemo.
const sharedMemoLimit = 4096

// Get returns the string for glyph in the styles st, drawing it the first time. draw must depend
// only on glyph and on st.
func (m *SharedMemo[K]) Get(st Styles, glyph K, draw func() string) string {
	k := styledKey[K]{noColor: st.NoColor, ascii: st.ASCII, glyph: glyph}
	m.mu.RLock()
	s, ok := m.m[k]
	m.mu.RUnlock()
	if ok {
		return s
	}
	s = draw()
	m.mu.Lock()
	if m.m == nil || len(m.m) >= sharedMemoLimit {
		m.m = make(map[styledKey[K]]string)
	}
	m.m[k] = s
	m.mu.Unlock()
	return s
}
