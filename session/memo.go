package session

// memo memoises styled strings by a comparable key. A board draws the same few glyphs in every
// frame, and styling one costs allocations, which a thousand sessions pay many times a second. A
// typed key is hashed as it is (a map[any] boxes its key, which allocates on every lookup). Each
// board has its own (a board lives in one session, with one set of styles), so it needs no lock;
// it holds at most memoLimit entries.
type memo[K comparable] map[K]string

// memoLimit bounds a memo: one that would grow past it (a long session of a game whose looks
// keep changing, as Coloretta's hands do) starts again empty.
const memoLimit = 1024

// get returns the string for key, drawing it the first time.
func (m memo[K]) get(key K, draw func() string) string {
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
