package session

// memo memoises styled strings by a comparable key. A board draws the same few glyphs in every
// frame, and styling one costs allocations, which a thousand sessions pay many times a second. A
// typed key is hashed as it is (a map[any] boxes its key, which allocates on every lookup). Each
// board has its own (a board lives in one session, with one set of styles), so it needs no lock;
// it holds at most a few hundred entries.
type memo[K comparable] map[K]string

// get returns the string for key, drawing it the first time.
func (m memo[K]) get(key K, draw func() string) string {
	if s, ok := m[key]; ok {
		return s
	}
	s := draw()
	m[key] = s
	return s
}
