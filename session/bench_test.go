package session

import (
	"io"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/teaframe"
)

// BenchmarkRoomFrame is the cost of one frame of a Stone Towers room mid-game at 80 x 24 after
// a new snapshot: the snapshots of two positions a move apart, in turn. (The same snapshot again
// would show nothing new, and draw nothing.)
func BenchmarkRoomFrame(b *testing.B) {
	t := &testing.T{}
	snaps := [2]rooms.Snapshot{playedSnapshot(t, 14), playedSnapshot(t, 15)}
	m := roomModel(t, snaps[0])
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		m.room.apply(snaps[i%2])
		_, _ = m.ViewPieces() // what the server's renderer asks for
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
		_, _ = m.ViewPieces()
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

// BenchmarkMoveFrames is the cost of the frames a move brings to one player, drawn as the server
// draws them: the view after each move of a Stone Towers match, in turn, through teaframe to the
// bytes a terminal gets.
func BenchmarkMoveFrames(b *testing.B) {
	t := &testing.T{}
	var snaps []rooms.Snapshot
	for plies := 10; plies < 40; plies++ {
		snaps = append(snaps, playedSnapshot(t, plies))
	}
	m := roomModel(t, snaps[0])
	r := teaframe.New(io.Discard, teaframe.Options{Width: 80, Height: 24, Profile: colorprofile.TrueColor})
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.room.apply(snaps[i%len(snaps)])
		r.DrawPieces(m.ViewPieces())
		i++
	}
}
