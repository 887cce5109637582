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
	if err := d.TakeBack("K7QXM", 2, nil); err != nil {
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
	if err := d.TakeBack("NOSUCH", 0, nil); err == nil {
		t.Error("a take back in a room without a match")
	}
}

// TestTakeBackReshuffles: a takeback's reshuffle goes into the match's header; a later takeback
// to an earlier ply forgets the reshuffles made from there on; they are read back after the file
// is closed and opened again, as a restart reads them.
func TestTakeBackReshuffles(t *testing.T) {
	d, path := openTemp(t)
	if _, err := d.StartMatch(record.Match{Code: "K7QXM", Game: "lhexicon", Seats: twoPlayers(), Started: time.Now()}); err != nil {
		t.Fatal(err)
	}
	moves := func(from int, mvs ...string) {
		t.Helper()
		for i, mv := range mvs {
			if err := d.AppendMove("K7QXM", from+i, record.Move{Seat: rules.Seat((from + i) % 2), Move: mv}); err != nil {
				t.Fatal(err)
			}
		}
	}
	moves(0, "pass", "pass", "pass", "pass")
	if err := d.TakeBack("K7QXM", 3, &rules.Reshuffle{Ply: 3, Salt: 11}); err != nil {
		t.Fatal(err)
	}
	moves(3, "pass", "pass")
	if err := d.TakeBack("K7QXM", 4, &rules.Reshuffle{Ply: 4, Salt: 12}); err != nil {
		t.Fatal(err)
	}
	moves(4, "pass")
	if err := d.TakeBack("K7QXM", 2, &rules.Reshuffle{Ply: 2, Salt: 13}); err != nil {
		t.Fatal(err)
	}
	moves(2, "pass")
	d.Close()
	d, err := Open(path, Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	open, damaged, err := d.Unfinished()
	if err != nil || len(damaged) != 0 || len(open) != 1 {
		t.Fatalf("unfinished: %v %v %v", open, damaged, err)
	}
	if want := []rules.Reshuffle{{Ply: 2, Salt: 13}}; !slices.Equal(open[0].Reshuffles, want) || len(open[0].Moves) != 3 {
		t.Errorf("reshuffles %v and %d moves, want %v and 3", open[0].Reshuffles, len(open[0].Moves), want)
	}
}
