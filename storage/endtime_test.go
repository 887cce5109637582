package storage

import (
	"testing"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
)

// TestEndTime: a match its moves ended ends at its last move's time, and its players' ratings
// are dated so; an abandoned match ends when it was abandoned; a match whose moves were recorded
// without a time ends when the end is recorded.
func TestEndTime(t *testing.T) {
	d, _ := openTemp(t)
	moveAt := time.Date(2026, 11, 21, 12, 30, 0, 0, time.UTC)
	now := moveAt.Add(time.Hour) // the end is recorded an hour later, after a restart
	d.now = func() time.Time { return now }
	over := rules.Outcome{Over: true, Scores: []int{30, 20}, Ranks: []int{1, 2}}
	for _, c := range []struct {
		code    string
		at      time.Time
		out     rules.Outcome
		unrated bool
		want    time.Time
	}{
		{"TIME1", moveAt, over, false, moveAt},
		{"TIME2", time.Time{}, over, false, now},
		{"TIME3", moveAt, rules.Outcome{Over: true, Scores: []int{0, 0}, Reason: "abandoned"}, true, now},
	} {
		id, err := d.StartMatch(record.Match{Code: c.code, Game: "stonetowers", Seats: twoPlayers(), Started: moveAt.Add(-time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		first := c.at
		if !first.IsZero() {
			first = first.Add(-time.Minute)
		}
		for ply, at := range []time.Time{first, c.at} {
			if err := d.AppendMove(c.code, ply, record.Move{Seat: rules.Seat(ply), Move: "b d4", At: at}); err != nil {
				t.Fatal(err)
			}
		}
		if err := d.EndMatch(c.code, c.out, c.unrated); err != nil {
			t.Fatal(err)
		}
		m, err := d.Match(id)
		if err != nil || !m.Ended.Equal(c.want) {
			t.Errorf("%s: ended %v, %v; want %v", c.code, m.Ended, err, c.want)
		}
		if !c.unrated {
			board, err := d.Leaderboard("stonetowers", 0)
			if err != nil || len(board) != 2 || !board[0].Last.Equal(c.want) || !board[1].Last.Equal(c.want) {
				t.Errorf("%s: leaderboard %+v, %v; want both last played at %v", c.code, board, err, c.want)
			}
		}
	}
}
