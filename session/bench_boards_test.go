package session

import "testing"

// BenchmarkDisconFrame is the cost of one frame of a DISCON room mid-game at 80 x 24 after a new
// snapshot.
func BenchmarkDisconFrame(b *testing.B) {
	t := &testing.T{}
	snap, _ := disconSnapshot(t, 12)
	m := roomModel(t, snap)
	b.ReportAllocs()
	for b.Loop() {
		m.room.apply(snap)
		_, _ = m.ViewLines() // what the server's renderer asks for
	}
}

// BenchmarkColorettaFrame is the cost of one frame of a three-player Coloretta room mid-game at
// 80 x 24 after a new snapshot.
func BenchmarkColorettaFrame(b *testing.B) {
	t := &testing.T{}
	snap, _ := colorettaMid(t, 3, 30)
	m := roomModel(t, snap)
	b.ReportAllocs()
	for b.Loop() {
		m.room.apply(snap)
		_, _ = m.ViewLines() // what the server's renderer asks for
	}
}
