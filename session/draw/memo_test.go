package draw

import (
	"fmt"
	"sync"
	"testing"
)

// TestSharedMemo: a glyph is drawn once per set of styles, by whichever session asks first, and
// sessions with other styles get their own drawing; the memo starts again past its limit.
func TestSharedMemo(t *testing.T) {
	var m SharedMemo[int]
	var mu sync.Mutex
	draws := map[string]int{}
	draw := func(st Styles, g int) func() string {
		return func() string {
			s := fmt.Sprintf("%d/%v/%v", g, st.NoColor, st.ASCII)
			mu.Lock()
			draws[s]++
			mu.Unlock()
			return s
		}
	}
	all := []Styles{*NewStyles(false, false), *NewStyles(true, false), *NewStyles(false, true), *NewStyles(true, true)}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for g := range 50 {
				for _, st := range all {
					if got, want := m.Get(st, g, draw(st, g)), fmt.Sprintf("%d/%v/%v", g, st.NoColor, st.ASCII); got != want {
						t.Errorf("get = %q, want %q", got, want)
					}
				}
			}
		})
	}
	wg.Wait()
	if len(draws) != 200 {
		t.Errorf("%d distinct drawings, want 200", len(draws))
	}
	for s, n := range draws {
		if n > 8 {
			t.Errorf("%s drawn %d times", s, n) // at most once per racing session
		}
	}
	for g := range sharedMemoLimit + 10 {
		m.Get(all[0], 1000+g, func() string { return "x" })
	}
	if n := len(m.m); n > sharedMemoLimit {
		t.Errorf("%d entries, limit %d", n, sharedMemoLimit)
	}
}
