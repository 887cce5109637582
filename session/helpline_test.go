package session

import "testing"

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
