package rooms

import (
	"context"
	"strconv"
	"testing"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
)

// benchRoom opens a Stone Towers room with two players and the spectators, its match started,
// (seed 1), and returns it and its subscriptions, the players first.
func benchRoom(b *testing.B, spectators int) (*Room, []*Sub) {
	h := NewHub(Config{Games: []rules.Game{stonetowers.Game}, BotDelay: -1, Logf: func(string, ...any) {},
		NewSeed: func(string, int) uint64 { return 1 }})
	b.Cleanup(func() { h.Shutdown("bench over") })
	r, err := h.Create("stonetowers", rules.Options{"size": "8"}, 2, Player{ID: "SHA256:p0"})
	if err != nil {
		b.Fatal(err)
	}
	var subs []*Sub
	for i := range 2 + spectators {
		s, err := r.Join(Player{ID: "SHA256:p" + strconv.Itoa(i), Name: "p" + strconv.Itoa(i)}, i >= 2)
		if err != nil {
			b.Fatal(err)
		}
		subs = append(subs, s)
	}
	return r, subs
}

// BenchmarkSnapshot is the cost of a broadcast in a room mid-game with two players and eight
// spectators: the snapshot of each subscriber built and left on its channel, and the room's
// summary published (what every change of a room costs its goroutine, besides the change).
func BenchmarkSnapshot(b *testing.B) {
	r, subs := benchRoom(b, 8)
	for i := range 14 { // mid-game
		seat := rules.Seat(i % 2)
		var move string
		if err := r.call(context.Background(), func() error {
			move = r.engine.Legal(seat)[0]
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		if err := subs[seat].Move(context.Background(), move); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	_ = r.call(context.Background(), func() error {
		for b.Loop() {
			r.broadcast()
		}
		return nil
	})
}

// BenchmarkRoomMove is a move as the room makes it, without a Recorder: Sub.Move handed to the
// room's goroutine, the engine's judgement and the broadcast to two players and eight
// spectators, over the moves of Stone Towers matches (a new room when one ends). It counts too
// the benchmark's own copy of the match, which picks the moves (Legal and Apply once more:
// BenchmarkApply in package games).
func BenchmarkRoomMove(b *testing.B) {
	b.ReportAllocs()
	var (
		subs  []*Sub
		state rules.Engine // the room's match, played alongside (seed 1)
	)
	for b.Loop() {
		if state == nil || state.Outcome().Over {
			b.StopTimer()
			_, subs = benchRoom(b, 8)
			var err error
			if state, err = stonetowers.Game.New(rules.Options{"size": "8"}, 2, 1); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		seat := state.ToMove()[0]
		move := state.Legal(seat)[0]
		state, _ = state.Apply(seat, move)
		if err := subs[seat].Move(context.Background(), move); err != nil {
			b.Fatal(err)
		}
	}
}
