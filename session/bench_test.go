package session

import "testing"

// BenchmarkRoomFrame is the cost of one frame of a Stone Towers room mid-game at 80 x 24 after
// a new snapshot (nothing drawn before can be reused but the styled glyphs).
func BenchmarkRoomFrame(b *testing.B) {
	t := &testing.T{}
	snap := playedSnapshot(t, 14)
	m := roomModel(t, snap)
	b.ReportAllocs()
	for b.Loop() {
		m.room.apply(snap)
		_ = m.View()
	}
}

// BenchmarkRoomTyping is the cost of a frame while the player types at the move prompt: only the
// prompt changes.
func BenchmarkRoomTyping(b *testing.B) {
	t := &testing.T{}
	m := roomModel(t, playedSnapshot(t, 14))
	m = press(m, ":")
	b.ReportAllocs()
	for b.Loop() {
		m = press(m, "b")
		_ = m.View()
	}
}

// BenchmarkLobbyFrame is the cost of one frame of the lobby.
func BenchmarkLobbyFrame(b *testing.B) {
	m := newTestModel(80, 24)
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}
