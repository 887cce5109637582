package storage

import (
	"slices"
	"testing"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
)

// TestTakeBack: the moves taken back are gone from the match, which goes on from there.
func TestTakeBack(t *testing.T) {
	d, _ := openTemp(t)
	if _, err := d.StartMatch(record.Match{Code: "K7QXM", Game: "stonetowers", Seats: twoPlayers(), Started: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for i, mv := range []string{"b a1", "b b2", "b c3", "b d4"} {
		if err := d.AppendMove("K7QXM", i, record.Move{Seat: rules.Seat(i % 2), Move: mv}); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.TakeBack("K7QXM", 2); err != nil {
		t.Fatal(err)
	}
	if err := d.AppendMove("K7QXM", 2, record.Move{Seat: 0, Move: "b e5"}); err != nil {
		t.Fatal(err)
	}
	open, damaged, err := d.Unfinished()
	if err != nil || len(damaged) != 0 || len(open) != 1 {
		t.Fatalf("unfinished: %v %v %v", open, damaged, err)
	}
	var got []string
	for _, mv := range open[0].Moves {
		got = append(got, mv.Move)
	}
	if want := []string{"b a1", "b b2", "b e5"}; !slices.Equal(got, want) {
		t.Errorf("moves %q, want %q", got, want)
	}
	if err := d.TakeBack("NOSUCH", 0); err == nil {
		t.Error("a take back in a room without a match")
	}
}
