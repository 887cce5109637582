//go:build measure

package storage

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
)

// TestMeasureVoid: what a void costs in a game of many rated matches (VOID_MATCHES, 100,000 by
// default, among 1,000 players): the recompute rates every one again in one transaction.
//
//	go test -tags measure -run TestMeasureVoid -v ./storage/
func TestMeasureVoid(t *testing.T) {
	n := 100_000
	if v, err := strconv.Atoi(os.Getenv("VOID_MATCHES")); err == nil {
		n = v
	}
	d, _ := openTemp(t)
	const players = 1000
	seat := func(i int) record.Seat {
		return record.Seat{PlayerID: fmt.Sprintf("SHA256:p%042d", i%players), Name: fmt.Sprintf("p%d", i%players)}
	}
	var batch []Numbered
	seq := uint64(0)
	flush := func() {
		if _, err := d.ApplyAll(batch); err != nil {
			t.Fatal(err)
		}
		batch = batch[:0]
	}
	add := func(c Change) {
		seq++
		batch = append(batch, Numbered{Seq: seq, Change: c})
		if len(batch) == 1024 {
			flush()
		}
	}
	start := time.Now()
	var first string
	for i := range n {
		at := t0.Add(time.Duration(i) * time.Second)
		code := fmt.Sprintf("M%06d", i)
		add(Change{Kind: ChangeStart, Code: code, At: at, Match: &record.Match{Game: "stonetowers",
			Seats: []record.Seat{seat(i), seat(i*7 + 1)}, Started: at}})
		if i == n/2 {
			first = MatchID(seq, at)
		}
		add(Change{Kind: ChangeEnd, Code: code, At: at.Add(time.Millisecond),
			Outcome: rules.Outcome{Over: true, Scores: []int{2, 1}, Ranks: []int{1 + i%2, 2 - i%2}}})
	}
	flush()
	t.Logf("%d rated matches recorded in %v", n, time.Since(start).Round(time.Millisecond))
	a, _ := accountsOf(d)
	a.now = time.Now
	start = time.Now()
	if err := a.Void(first, "", "root"); err != nil {
		t.Fatal(err)
	}
	t.Logf("void of a match among %d rated matches of %d players: %v", n, players, time.Since(start).Round(time.Millisecond))
}
