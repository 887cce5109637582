package session

import (
	"testing"
	"unsafe"

	"charm.land/bubbles/v2/key"
)

// TestHelpCacheKeepsAlternatingLines: a screen that switches between sets of keys (the board's
// and the move prompt's, at every move) draws each help line once.
func TestHelpCacheKeepsAlternatingLines(t *testing.T) {
	st := newStyles(false, false)
	k := newRoomKeys()
	board := []key.Binding{k.Prompt, k.Chat, k.Rules, k.Leave}
	prompt := []key.Binding{k.Send, k.Cancel}
	var c helpCache
	first := map[int]string{}
	for i := range 10 {
		keys := board
		if i%2 == 1 {
			keys = prompt
		}
		got := c.line(st, 80, keys)
		if want := helpLine(st, 80, keys...); got != want {
			t.Fatalf("frame %d: %q, want %q", i, got, want)
		}
		if i < 2 {
			first[i] = got
		} else if unsafe.StringData(got) != unsafe.StringData(first[i%2]) {
			t.Errorf("frame %d drew its help line again", i)
		}
	}
	if got, want := c.line(st, 100, board), helpLine(st, 100, board...); got != want {
		t.Errorf("another width: %q, want %q", got, want)
	}
}
