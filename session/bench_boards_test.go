package session

import (
	"testing"

	"github.com/arcade/arcade/rooms"
)

// BenchmarkDisconFrame is the cost of one frame of a DISCON room mid-game at 80 x 24 after a new
// snapshot: two positions a move apart, in turn.
func BenchmarkDisconFrame(b *testing.B) {
	t := &testing.T{}
	var snaps [2]rooms.Snapshot
	snaps[0], _ = disconSnapshot(t, 12)
	snaps[1], _ = disconSnapshot(t, 13)
	benchFrames(b, snaps)
}

// BenchmarkColorettaFrame is the cost of one frame of a three-player Coloretta room mid-game at
// 80 x 24 after a new snapshot: two positions of ann's turn, in turn.
func BenchmarkColorettaFrame(b *testing.B) {
	t := &testing.T{}
	var snaps [2]rooms.Snapshot
	snaps[0], _ = colorettaMid(t, 3, 20)
	snaps[1], _ = colorettaMid(t, 3, 30)
	benchFrames(b, snaps)
}

// benchFrames draws a room's frame after each of snaps in turn, as the server's renderer asks
// for it.
func benchFrames(b *testing.B, snaps [2]rooms.Snapshot) {
	m := roomModel(&testing.T{}, snaps[0])
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		m.room.apply(snaps[i%2])
		_, _ = m.ViewPieces()
	}
}
