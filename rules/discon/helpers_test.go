package discon

import (
	"errors"
	"strings"
	"testing"

	"github.com/arcade/arcade/rules"
)

// bare returns a position with every piece on its home corner and nothing on the floor, for tests
// that lay out their own position with put and lay.
func bare(t testing.TB, v Variant, seats int) *State {
	t.Helper()
	s, err := NewState(v, seats, 1)
	if err != nil {
		t.Fatal(err)
	}
	for q := range s.floor {
		s.floor[q] = ""
	}
	s.loose, s.fresh, s.freshLeft, s.freshTurn = 0, [2]uint64{}, 0, 0
	return s
}

// stack converts colour letters (bottom first) to the engine's representation.
func stack(letters string) string {
	b := make([]byte, len(letters))
	for i := range len(letters) {
		b[i] = byte(strings.IndexByte("VPBI", letters[i]))
	}
	return string(b)
}

// letters converts the engine's representation to colour letters.
func letters(t string) string {
	b := make([]byte, len(t))
	for i := range len(t) {
		b[i] = Colour(t[i]).Letter()
	}
	return string(b)
}

// put stands seat's piece num on square q (e.g. "c4") with the given tower.
func (s *State) put(seat rules.Seat, num int, q, towerLetters string) *State {
	sq, err := ParseSquare(q)
	if err != nil {
		panic(err)
	}
	p := &s.pieces[seat][num-1]
	s.count[p.sq]--
	p.sq, p.tower = sq, stack(towerLetters)
	s.count[sq]++
	return s
}

// lay puts a disc or stack (colour letters, bottom first) on square q. A single disc has never
// been in a tower (it counts for the anti-stall rule); a stack has.
func (s *State) lay(q, letters string) *State {
	sq, err := ParseSquare(q)
	if err != nil {
		panic(err)
	}
	s.loose += len(letters) - len(s.floor[sq])
	s.floor[sq] = stack(letters)
	bit := uint64(1) << (sq % 64)
	if s.fresh[sq/64]&bit != 0 {
		s.fresh[sq/64] &^= bit
		s.freshLeft--
	}
	if len(letters) == 1 {
		s.fresh[sq/64] |= bit
		s.freshLeft++
	}
	s.freshTurn = s.freshLeft
	return s
}

// play applies moves in turn order and fails the test on an error.
func play(t testing.TB, s *State, moves ...string) *State {
	t.Helper()
	for _, m := range moves {
		e, err := s.Apply(s.turn, m)
		if err != nil {
			t.Fatalf("%s plays %q: %v", SeatName(s.turn), m, err)
		}
		s = e.(*State)
	}
	return s
}

// refuse checks that seat's move is refused with an error containing want (and wrapping target
// when not nil), and that s is unchanged.
func refuse(t testing.TB, s *State, seat rules.Seat, move, want string, target error) {
	t.Helper()
	before := *s
	_, err := s.Apply(seat, move)
	if err == nil {
		t.Fatalf("%s plays %q: accepted, want %q", SeatName(seat), move, want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("%s plays %q: %q, want %q", SeatName(seat), move, err, want)
	}
	if target != nil && !errors.Is(err, target) {
		t.Errorf("%s plays %q: %v does not wrap %v", SeatName(seat), move, err, target)
	}
	if *s != before {
		t.Errorf("%s plays %q: the state changed", SeatName(seat), move)
	}
}

func sq(name string) Square {
	q, err := ParseSquare(name)
	if err != nil {
		panic(err)
	}
	return q
}
