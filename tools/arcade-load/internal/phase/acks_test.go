package phase

import (
	"strings"
	"testing"

	"github.com/arcade/arcade/record"
)

// TestAckLogVerify: every acknowledged move must be in the room's stored match of the same number,
// at the same number, by the same seat; stored moves after the acknowledged ones are only counted.
func TestAckLogVerify(t *testing.T) {
	l := newAckLog()
	l.add("AAAAA", 1, 0, 0, "c3")
	l.add("AAAAA", 1, 1, 1, "d4")
	l.add("AAAAA", 1, 1, 1, "d4") // noted twice (the opponent's screen, then a resync): once
	l.add("AAAAA", 2, 0, 1, "e5") // the rematch
	l.add("BBBBB", 1, 0, 0, "a1")
	if l.len() != 4 {
		t.Fatalf("%d moves noted, want 4", l.len())
	}
	match := func(id string, moves ...record.Move) record.Match { return record.Match{ID: id, Moves: moves} }
	good := map[string][]record.Match{
		"AAAAA": {match("m1", record.Move{Seat: 0, Move: "c3"}, record.Move{Seat: 1, Move: "d4"}, record.Move{Seat: 0, Move: "b2"}),
			match("m2", record.Move{Seat: 1, Move: "e5"})},
		"BBBBB": {match("m3", record.Move{Seat: 0, Move: "a1"})},
	}
	c := l.verify(good)
	if c.Missing != 0 || c.Moves != 4 || c.Matches != 3 || c.Rooms != 2 || c.Beyond != 1 {
		t.Errorf("all stored: %+v", c)
	}

	for name, stored := range map[string]map[string][]record.Match{
		"a move lost": {"AAAAA": {match("m1", record.Move{Seat: 0, Move: "c3"}), good["AAAAA"][1]}, "BBBBB": good["BBBBB"]},
		"another move": {"AAAAA": {match("m1", record.Move{Seat: 0, Move: "c3"}, record.Move{Seat: 1, Move: "d5"}), good["AAAAA"][1]},
			"BBBBB": good["BBBBB"]},
		"another seat": {"AAAAA": {match("m1", record.Move{Seat: 0, Move: "c3"}, record.Move{Seat: 0, Move: "d4"}), good["AAAAA"][1]},
			"BBBBB": good["BBBBB"]},
		"a match lost": {"AAAAA": good["AAAAA"][:1], "BBBBB": good["BBBBB"]},
		"a room lost":  {"AAAAA": good["AAAAA"]},
	} {
		c := l.verify(stored)
		if c.Missing != 1 || len(c.Examples) != 1 {
			t.Errorf("%s: %+v, want one missing", name, c)
		}
	}

	l.add("BBBBB", 1, 0, 1, "a2") // the same move noted as another: the tool's mistake, reported
	if c := l.verify(good); c.Missing != 1 || !strings.Contains(c.Examples[0], "noted as") {
		t.Errorf("conflict: %+v", c)
	}
}
