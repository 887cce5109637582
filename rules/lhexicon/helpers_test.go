package lhexicon

import (
	"errors"
	"reflect"
	"testing"

	"github.com/arcade/arcade/rules"
)

// ax returns the hex at axial coordinates (q, r), the centre being (0, 0).
func ax(t *testing.T, q, r int) Hex {
	t.Helper()
	h, ok := hexAt[[2]int{q, r}]
	if !ok {
		t.Fatalf("(%d, %d) is off the board", q, r)
	}
	return h
}

// emptyGame returns a 2-player game (or seats) whose board is empty, with seat 0 to move and
// holding rack (letters, "qu", "?" for a blank); the bank keeps its tiles (not accounted for).
func emptyGame(t *testing.T, seats int, c Check, rack string) *State {
	t.Helper()
	s, err := NewState(seats, c, TimerOff, 1)
	if err != nil {
		t.Fatal(err)
	}
	setRack(t, s, 0, rack)
	return s
}

// setRack replaces seat's rack.
func setRack(t *testing.T, s *State, seat rules.Seat, rack string) {
	t.Helper()
	ts, err := parseRackTiles(rack)
	if err != nil {
		t.Fatal(err)
	}
	s.racks[seat] = [RackSize]Tile{}
	s.nrack[seat] = copy(s.racks[seat][:], ts)
}

// put lays the tiles of a play written in notation straight on the board, with no check.
func put(t *testing.T, s *State, play string) {
	t.Helper()
	m, err := ParseMove(play)
	if err != nil {
		t.Fatal(err)
	}
	hexes, ok := m.Cells()
	if !ok {
		t.Fatalf("%q leaves the board", play)
	}
	for i, h := range hexes {
		if s.board[h] == NoTile {
			s.board[h] = m.Tiles[i]
			s.placed++
		}
	}
}

// putAt lays tile letters (one letter a hex) on the given hexes, with no check.
func putAt(t *testing.T, s *State, letters string, hexes ...Hex) {
	t.Helper()
	if len(letters) != len(hexes) {
		t.Fatal("putAt: one letter a hex")
	}
	for i, h := range hexes {
		s.board[h] = LetterTile(letters[i])
		s.placed++
	}
}

// mustPlay applies move for seat and returns the new state.
func mustPlay(t *testing.T, s *State, seat rules.Seat, move string) *State {
	t.Helper()
	e, err := s.Apply(seat, move)
	if err != nil {
		t.Fatalf("%q: %v", move, err)
	}
	return e.(*State)
}

// refuse checks that move is refused for seat with an error wrapping want (when not nil), and
// that s is unchanged.
func refuse(t *testing.T, s *State, seat rules.Seat, move string, want error) error {
	t.Helper()
	before := *s
	before.last.Path = append([]Hex(nil), s.last.Path...)
	_, err := s.Apply(seat, move)
	if err == nil {
		t.Fatalf("%q was accepted", move)
	}
	if want != nil && !errors.Is(err, want) {
		t.Fatalf("%q: %v; want %v", move, err, want)
	}
	if !reflect.DeepEqual(*s, before) {
		t.Fatalf("%q changed the state", move)
	}
	return err
}

// rulesSeat maps a fuzzer's byte to a seat, spectator and out-of-range seats included.
func rulesSeat(b uint8) rules.Seat { return rules.Seat(int(b%6) - 1) }
