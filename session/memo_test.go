package session

import (
	"fmt"
	"sync"
	"testing"
)

// TestSharedMemo: a glyph is drawn once per set of styles, by whichever session asks first, and
// sessions with other styles get their own drawing; the memo starts again past its limit.
func TestSharedMemo(t *testing.T) {
	var m sharedMemo[int]
	var mu sync.Mutex
	draws := map[string]int{}
	draw := func(st styles, g int) func() string {
		return func() string {
			s := fmt.Sprintf("%d/%v/%v", g, st.noColor, st.ascii)
			mu.Lock()
			draws[s]++
			mu.Unlock()
			return s
		}
	}
	all := []styles{*newStyles(false, false), *newStyles(true, false), *newStyles(false, true), *newStyles(true, true)}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for g := range 50 {
				for _, st := range all {
					if got, want := m.get(st, g, draw(st, g)), fmt.Sprintf("%d/%v/%v", g, st.noColor, st.ascii); got != want {
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
		m.get(all[0], 1000+g, func() string { return "x" })
	}
	if n := len(m.m); n > sharedMemoLimit {
		t.Errorf("%d entries, limit %d", n, sharedMemoLimit)
	}
}
