//go:build measure

package record_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/flicflac"
)

// TestMeasureReplayHeap logs the live heap per viewer of the 6,000-move Flic Flac match: the
// record as a viewer loads it (its own copy of the moves), and the record with every position
// (the replay before the Cursor) or with a Cursor that has been walked through (its checkpoints
// and a full window). It asserts nothing about the figures; run it with
//
//	go test -tags measure -run MeasureReplayHeap -v ./record
func TestMeasureReplayHeap(t *testing.T) {
	m := longMatch(t)
	const viewers = 50
	perViewer := func(open func(record.Match) any) uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&ms)
		before := ms.HeapAlloc
		held := make([]any, viewers)
		for i := range held {
			held[i] = open(loaded(m))
		}
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&ms)
		runtime.KeepAlive(held)
		return (ms.HeapAlloc - before) / viewers
	}
	rec := perViewer(func(m record.Match) any { return m })
	all := perViewer(func(m record.Match) any {
		return struct {
			m      record.Match
			states []rules.Engine
		}{m, allPositions(t, m, flicflac.Game)}
	})
	cursor := perViewer(func(m record.Match) any {
		cur, err := record.NewCursor(m, flicflac.Game)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i <= cur.Len(); i += 97 {
			cur.At(i)
		}
		cur.At(cur.Len() / 2)
		return cur
	})
	t.Logf("%d moves, %d viewers: live heap per viewer: the record %d B; with every position %d B; with a cursor %d B (%d positions held)",
		len(m.Moves), viewers, rec, all, cursor, func() int { c, _ := record.NewCursor(m, flicflac.Game); c.At(3000); return c.Held() }())
}

// loaded is m with moves of its own, as a viewer's load decodes them.
func loaded(m record.Match) record.Match {
	moves := make([]record.Move, len(m.Moves))
	for i, mv := range m.Moves {
		moves[i] = record.Move{Seat: mv.Seat, Move: strings.Clone(mv.Move), At: mv.At}
	}
	m.Moves = moves
	return m
}
