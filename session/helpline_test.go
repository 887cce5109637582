package session

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"

	"charm.land/bubbles/v2/key"

	"github.com/arcade/arcade/session/draw"
)

// TestHelpCacheKeepsAlternatingLines: a screen that switches between sets of keys (the board's
// and the move prompt's, at every move) draws each help line once.
func TestHelpCacheKeepsAlternatingLines(t *testing.T) {
	st := *draw.NewStyles(false, false)
	k := draw.NewKeys()
	board := []key.Binding{k.Prompt, k.Chat, k.Rules, k.Leave}
	prompt := []key.Binding{promptKeyMap.Send, promptKeyMap.Cancel}
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

// TestHelpLineCache: a screen that keeps its help line draws every frame as a fresh model does,
// whatever it showed before: the lobby through its pages, the room through its prompts and rules.
func TestHelpLineCache(t *testing.T) {
	lobbyKeys := []string{"down", "enter", "esc", "down", "enter", "esc", "down", "enter", "esc", "down",
		"enter", "right", "esc", "down", "enter", "down", "esc", "esc", "enter", "esc"}
	kept := recordsModel()
	for i := range lobbyKeys {
		kept = press(kept, lobbyKeys[i])
		fresh := press(recordsModel(), lobbyKeys[:i+1]...)
		if got, want := kept.View().Content, fresh.View().Content; got != want {
			t.Fatalf("lobby after %q:\n%s\nwant\n%s", lobbyKeys[:i+1], plain(got), plain(want))
		}
	}
	snap := playedSnapshot(t, 14)
	roomKeys := []string{":", "b", "esc", "t", "esc", "?", "down", "esc", ":", "esc", "b", "B"}
	kept = roomModel(t, snap)
	_ = kept.View()
	for i := range roomKeys {
		kept = press(kept, roomKeys[i])
		fresh := press(roomModel(t, snap), roomKeys[:i+1]...)
		if got, want := kept.View().Content, fresh.View().Content; got != want {
			t.Fatalf("room after %q:\n%s\nwant\n%s", roomKeys[:i+1], plain(got), plain(want))
		}
	}
}

// TestHelpLineIsBubblesHelp: the help line is what bubbles' help model draws (ShortHelpView, in
// the theme's styles, at the width), cut to the width, for every theme, random sets of the room's
// and the prompt's bindings (some disabled, some with wide keys) and widths from none to wider
// than the line.
func TestHelpLineIsBubblesHelp(t *testing.T) {
	var pool []key.Binding
	for _, km := range []any{draw.NewKeys(), promptKeyMap, lobbyKeyMap} {
		v := reflect.ValueOf(km)
		for i := range v.NumField() {
			if b, ok := v.Field(i).Interface().(key.Binding); ok {
				pool = append(pool, b)
			}
		}
	}
	pool = append(pool, key.NewBinding(key.WithKeys("left"), key.WithHelp("←/→", "pick a column")),
		key.NewBinding(key.WithKeys("x"), key.WithHelp("全", "幅の説明")))
	rng := rand.New(rand.NewPCG(33, 1))
	for _, th := range []theme{{}, {noColor: true}, {ascii: true}, {noColor: true, ascii: true}} {
		st := *draw.NewStyles(th.noColor, th.ascii)
		for range 2000 {
			keys := make([]key.Binding, rng.IntN(9))
			for i := range keys {
				keys[i] = pool[rng.IntN(len(pool))]
				keys[i].SetEnabled(rng.IntN(5) > 0)
			}
			w := rng.IntN(140)
			h := newHelpModel(st)
			h.SetWidth(w)
			if got, want := helpLine(st, w, keys...), draw.Fit(h.ShortHelpView(keys), w); got != want {
				t.Fatalf("theme %+v, width %d, %d keys:\n%q\nwant\n%q", th, w, len(keys), got, want)
			}
		}
	}
}
