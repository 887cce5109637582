// Package gametest helps the tests of board views (games/<game>view, session): it plays seeded
// matches with bots and dresses them as a room's snapshots. It is imported by tests only.
package gametest

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
)

// PlayBots plays a seeded match of g with bot in every seat until stop says so (before move i) or
// the match ends, and returns the state and the move log. It fails t on an error.
func PlayBots(t testing.TB, g rules.Game, opts rules.Options, seats int, seed uint64, bot rules.Bot,
	stop func(i int, state rules.Engine) bool) (rules.Engine, []rooms.MoveRecord) {
	t.Helper()
	state, err := g.New(opts, seats, seed)
	if err != nil {
		t.Fatal(err)
	}
	var moves []rooms.MoveRecord
	for i := 0; !state.Outcome().Over && !stop(i, state); i++ {
		seat := state.ToMove()[0]
		mv := bot.Move(context.Background(), state, seat, rand.New(rand.NewPCG(seed, uint64(i))))
		if state, err = state.Apply(seat, mv); err != nil {
			t.Fatal(err)
		}
		moves = append(moves, rooms.MoveRecord{Seat: seat, Move: mv})
	}
	return state, moves
}

// Snapshot dresses state as seat 0's snapshot of room code, the seats held by names: playing,
// or finished when the match is over.
func Snapshot(code string, g rules.Game, state rules.Engine, moves []rooms.MoveRecord, names []string,
	chat []rooms.ChatLine) rooms.Snapshot {
	snap := rooms.Snapshot{
		Code: code, GameID: g.ID, GameName: g.Name, Phase: rooms.Playing,
		You: 0, ToMove: state.ToMove(), View: state.View(0), Outcome: state.Outcome(), Moves: moves, Chat: chat,
	}
	for _, n := range names {
		snap.Seats = append(snap.Seats, rooms.SeatInfo{Name: n, Connected: true})
	}
	if snap.Outcome.Over {
		snap.Phase = rooms.Finished
	}
	return snap
}

// Idler is a bot for tests that need long matches: it plays "end" one time in three when the
// game lists it as legal (Flic Flac's end of a turn), else a random legal move. It plays as
// Flic Flac's and DISCON's easy bots did before issue 34 made them lively: a Flic Flac match
// between Idlers with limit=2000 and target=99 runs to its turn limit, about 6,000 moves.
type Idler struct{}

// Move returns a random legal move of seat, "end" one time in three when it is legal.
func (Idler) Move(_ context.Context, state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	legal := state.Legal(seat)
	if len(legal) == 0 {
		return ""
	}
	if slices.Contains(legal, "end") && rng.IntN(3) == 0 {
		return "end"
	}
	return legal[rng.IntN(len(legal))]
}
