package storage

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
)

// TestApplyRefusesASecondMoveOfANumber: a history in which two servers wrote one room (a split
// brain) holds two moves of one number. The replica keeps the first, refuses the second
// (ErrPlyTaken, a skip), and Check reports the fork; a clean history, takebacks included, is not
// reported.
func TestApplyRefusesASecondMoveOfANumber(t *testing.T) {
	d, _ := openTemp(t)
	const code = "FORK2"
	seq := uint64(0)
	apply := func(c Change) error {
		seq++
		return d.Apply(seq, c)
	}
	start := Change{Kind: ChangeStart, Code: code, At: t0,
		Match: &record.Match{Game: "stonetowers", Options: rules.Options{"size": "8"}, Seats: twoPlayers(), Seed: 3, Started: t0}}
	if err := apply(start); err != nil {
		t.Fatal(err)
	}
	id := MatchID(seq, t0)
	moves := legalMoves(t, 3, nil, 3, t0)
	for i, mv := range moves[:2] {
		if err := apply(Change{Kind: ChangeMove, Code: code, Ply: i, Move: &mv}); err != nil {
			t.Fatal(err)
		}
	}
	// A takeback frees the number it takes back: the same number again is the chain going on.
	if err := apply(Change{Kind: ChangeTakeback, Code: code, Ply: 1}); err != nil {
		t.Fatal(err)
	}
	if err := apply(Change{Kind: ChangeMove, Code: code, Ply: 1, Move: &moves[1]}); err != nil {
		t.Fatalf("move 2 again after its takeback: %v", err)
	}
	if r, err := d.Check([]rules.Game{stonetowers.Game}); err != nil || !r.Clean() {
		t.Fatalf("Check of one chain: %+v, %v", r, err)
	}

	// Another server writes move 2 of the match again.
	other := legalMoves(t, 3, moves[:1], 1, t0)[0]
	other.Move = moves[2].Move // a move of the other seat's, so that the fork is plain to see
	err := apply(Change{Kind: ChangeMove, Code: code, Ply: 1, Move: &other})
	if !errors.Is(err, ErrPlyTaken) || !errors.Is(err, ErrSkipped) {
		t.Fatalf("a second move 2: %v, want ErrPlyTaken and ErrSkipped", err)
	}
	if got := d.Applied(); got != seq {
		t.Errorf("Applied = %d, want %d", got, seq)
	}
	m, err := d.Match(id)
	if err != nil {
		t.Fatal(err)
	}
	if want := moves[:2]; !reflect.DeepEqual(m.Moves, want) {
		t.Errorf("moves %+v, want the first chain %+v", m.Moves, want)
	}
	// Applying the history again changes nothing, and reports the refusal once.
	if err := d.Apply(seq, Change{Kind: ChangeMove, Code: code, Ply: 1, Move: &other}); err != nil {
		t.Errorf("the refused change applied again: %v", err)
	}
	r, err := d.Check([]rules.Game{stonetowers.Game})
	if err != nil {
		t.Fatal(err)
	}
	if r.Clean() || len(r.Damaged) != 1 {
		t.Fatalf("Check after the fork: %+v, want one damage", r)
	}
	dmg := r.Damaged[0]
	if dmg.ID != id || dmg.Code != code || !strings.Contains(dmg.Reason, "two moves 2") ||
		!strings.Contains(dmg.Reason, other.Move) {
		t.Errorf("damage %+v, want match %s of room %s, its second move 2 %q", dmg, id, code, other.Move)
	}
	if r.Matches != 1 {
		t.Errorf("Check replayed %d matches, want 1", r.Matches)
	}
}
