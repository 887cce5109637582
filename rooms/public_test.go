package rooms

import (
	"testing"

	"github.com/arcade/arcade/rules"
)

// secretRace is the race game whose 2s are private: others read them as "+?".
type secretRace struct{ race }

func (g secretRace) Apply(seat rules.Seat, move string) (rules.Engine, error) {
	next, err := g.race.Apply(seat, move)
	if err != nil {
		return nil, err
	}
	return secretRace{next.(race)}, nil
}

func (g secretRace) Conceal(move string) string {
	if move == "2" {
		return "+?"
	}
	return move
}

// TestPublicMoves: a move whose notation is private carries its public form in the move log,
// from the room and from a restore alike.
func TestPublicMoves(t *testing.T) {
	g := raceGame
	g.ID = "secretrace"
	g.New = func(opts rules.Options, seats int, seed uint64) (rules.Engine, error) {
		e, err := raceGame.New(opts, seats, seed)
		return secretRace{e.(race)}, err
	}
	h, _ := newTestHub(t, Config{Games: []rules.Game{g}})
	r, err := h.Create("secretrace", rules.Options{"target": "10"}, 2, alice)
	if err != nil {
		t.Fatal(err)
	}
	a := mustJoin(t, r, alice, false)
	b := mustJoin(t, r, bob, false)
	waitFor(t, a, "the match", func(s Snapshot) bool { return s.Phase == Playing })
	mustMove(t, a, "2")
	mustMove(t, b, "1")
	snap := waitFor(t, a, "the moves", func(s Snapshot) bool { return len(s.Moves) == 2 })
	if snap.Moves[0].Public != "+?" || snap.Moves[1].Public != "" {
		t.Errorf("moves %+v", snap.Moves)
	}
	r2, err := h.Restore(Resume{Code: "k7qxm", GameID: "secretrace", Options: rules.Options{"target": "10"}, Seed: 5,
		Seats: []SeatInfo{{PlayerID: alice.ID, Name: alice.Name}, {PlayerID: bob.ID, Name: bob.Name}},
		Moves: []MoveRecord{{Seat: 0, Move: "2"}, {Seat: 1, Move: "1"}}})
	if err != nil {
		t.Fatal(err)
	}
	snap = waitFor(t, mustJoin(t, r2, alice, false), "the restored match", func(s Snapshot) bool { return s.Phase == Playing })
	if snap.Moves[0].Public != "+?" || snap.Moves[1].Public != "" {
		t.Errorf("restored moves %+v", snap.Moves)
	}
}
