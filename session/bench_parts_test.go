package session

import (
	"testing"
	"time"

	"github.com/arcade/arcade/rooms"
)

// The frames of a Stone Towers room mid-game at 80 x 24, as the server's renderer asks for them
// (Model.ViewPieces), after each kind of change: what a frame costs follows what changed.

// BenchmarkRoomViewMove is a frame after a move: the snapshots of two positions in turn, each
// with the turn's clock.
func BenchmarkRoomViewMove(b *testing.B) {
	t := &testing.T{}
	ends := time.Now().Add(time.Hour)
	var snaps [2]rooms.Snapshot
	for i := range snaps {
		snaps[i], _ = stoneSnapshot(t, 14+i)
		snaps[i].Clock = rooms.TurnClock{Seat: snaps[i].ToMove[0], Ends: ends}
	}
	m := roomModel(t, snaps[0])
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		m.room.apply(snaps[i%2])
		_, _ = m.ViewPieces()
	}
	m.room.stopTick()
}

// BenchmarkRoomViewTick is a frame after the clock's tick, the clock showing a second less or
// more in turn.
func BenchmarkRoomViewTick(b *testing.B) {
	t := &testing.T{}
	snap, _ := stoneSnapshot(t, 14)
	ends := time.Now().Add(time.Hour)
	snap.Clock = rooms.TurnClock{Seat: 0, Ends: ends}
	m := roomModel(t, snap)
	_, _ = m.ViewPieces()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		m.room.snap.Clock.Ends = ends.Add(time.Duration(i%2) * time.Second)
		next, _ := m.Update(tickMsg{gen: m.room.clock.gen})
		m = next.(Model)
		_, _ = m.ViewPieces()
	}
	m.room.stopTick()
}

// BenchmarkRoomViewSame is a frame after nothing the screen shows changed.
func BenchmarkRoomViewSame(b *testing.B) {
	t := &testing.T{}
	snap, _ := stoneSnapshot(t, 14)
	snap.Clock = rooms.TurnClock{Seat: 0, Ends: time.Now().Add(time.Hour)}
	m := roomModel(t, snap)
	_, _ = m.ViewPieces()
	b.ReportAllocs()
	for b.Loop() {
		_, _ = m.ViewPieces()
	}
	m.room.stopTick()
}
