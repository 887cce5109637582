package lhexicon

import (
	"slices"
	"strings"
	"testing"

	"github.com/arcade/arcade/rules"
)

func TestDistribution(t *testing.T) {
	bag := fullBag()
	letters, blanks := 0, 0
	for _, tl := range bag {
		if tl == Blank {
			blanks++
		} else {
			letters++
		}
	}
	if letters != 98 || blanks != 2 || len(bag) != TotalTiles {
		t.Errorf("%d letters and %d blanks, want 98 and 2", letters, blanks)
	}
	want := "a9 b2 c2 d4 e12 f2 g3 h2 i9 j1 k1 l4 m2 n6 o8 p2 r6 s4 t6 u4 v2 w2 x1 y2 z1 qu1"
	got := ""
	for l := Tile(1); l <= QU; l++ {
		if n := Distribution(l); n > 0 {
			if got != "" {
				got += " "
			}
			got += l.Spell() + itoa(n)
		}
	}
	if got != want {
		t.Errorf("distribution\n%s\nwant\n%s", got, want)
	}
	s, _ := NewState(4, Auto, TimerOff, 9)
	for seat := range 4 {
		if len(s.Rack(rules.Seat(seat))) != RackSize {
			t.Errorf("seat %d holds %d tiles", seat, len(s.Rack(rules.Seat(seat))))
		}
	}
	if s.Bank() != 100-28 {
		t.Errorf("bank %d", s.Bank())
	}
	accountFor(t, s)
}

func itoa(n int) string {
	if n >= 10 {
		return string(rune('0'+n/10)) + string(rune('0'+n%10))
	}
	return string(rune('0' + n))
}

func TestPaths(t *testing.T) {
	// Reversed: CAT read westwards, ending on the centre.
	mustPlay(t, emptyGame(t, 2, Auto, "catzzzz"), 0, "h10 cat w,w")
	// Upside down: read upwards.
	mustPlay(t, emptyGame(t, 2, Auto, "catzzzz"), 0, "j7 cat ne,nw")
	// Zig-zag.
	s := mustPlay(t, emptyGame(t, 2, Auto, "tablezz"), 0, "h7 table se,ne,se,ne")
	if s.last.Score != 1+1+3+1+1 {
		t.Errorf("TABLE scored %d", s.last.Score)
	}
	// A hex used twice.
	refuse(t, emptyGame(t, 2, Auto, "abbazzz"), 0, "h8 abba e,w,e", ErrNotPath)
	// Off the board.
	refuse(t, emptyGame(t, 2, Auto, "catzzzz"), 0, "a1 cat nw,w", ErrNotPath)
	// The first word misses the centre.
	refuse(t, emptyGame(t, 2, Auto, "catzzzz"), 0, "a1 cat e,e", ErrCentre)
	// Letter not in the rack.
	refuse(t, emptyGame(t, 2, Auto, "cazzzzz"), 0, "h8 cat e,e", ErrNotInRack)
	// Not a word.
	refuse(t, emptyGame(t, 2, Auto, "ctazzzz"), 0, "h8 cta e,e", ErrNotWord)
	// Later plays use a tile on the board, and place one.
	s = coded(t, "catzzzz")
	refuse(t, s, 1, "a1 cat e,e", ErrNoBoardTile)
	refuse(t, s, 1, "h6 coded e,e,e,e", ErrNoNewTile)
	// A letter that is not the one on the board.
	refuse(t, s, 1, "h7 at e", ErrMismatch)
	// Every new tile is on the word: the notation places exactly the word's tiles, so a play
	// beside the word is a second play, which a move cannot make. A word needs 2 letters.
	refuse(t, emptyGame(t, 2, Auto, "azzzzzz"), 0, "h8 a", ErrNotWord)
}

func TestBlanksAndSwap(t *testing.T) {
	s := emptyGame(t, 2, Auto, "c?tzzzz")
	s = mustPlay(t, s, 0, "h8 cAt e,e")
	if s.last.Score != 3+0+1 {
		t.Errorf("CAT with a blank A scored %d, want 4", s.last.Score)
	}
	a := Centre.Step(E)
	if s.board[a] != LetterTile('a')|Blank {
		t.Fatalf("the blank on %s is %v", a, s.board[a])
	}
	// Player 2 swaps an A for the blank.
	setRack(t, s, 1, "azzzzzz")
	// No blank there: the error names the hex as the board writes it, not first (the screen
	// capitalises an error's first letter).
	if err := refuse(t, s, 1, "S H8", nil); err.Error() != "there is no blank on h8" {
		t.Errorf("swap without a blank: %v", err)
	}
	if err := refuse(t, s, 1, "s "+a.String()+" "+a.String(), nil); err.Error() != "the swap names "+a.String()+" twice" {
		t.Errorf("swap naming a hex twice: %v", err)
	}
	s2 := mustPlay(t, s, 1, "s "+a.String())
	if s2.board[a] != LetterTile('a') {
		t.Errorf("after the swap %s holds %v", a, s2.board[a])
	}
	if r := s2.Rack(1); indexTile(r, Blank) < 0 || indexTile(r, LetterTile('a')) >= 0 {
		t.Errorf("rack after the swap: %v", r)
	}
	if s2.Turn() != 0 {
		t.Error("the swap did not use the turn")
	}
	// Without the letter, no swap.
	setRack(t, s, 1, "zzzzzzz")
	refuse(t, s, 1, "s "+a.String(), ErrNotInRack)
	// A blank named Q alone, and the Qu tile.
	s = emptyGame(t, 2, Auto, "?atquiz")
	s = mustPlay(t, s, 0, "h8 Qat e,e")
	if s.board[Centre] != LetterTile('q')|Blank {
		t.Errorf("the centre holds %v", s.board[Centre])
	}
	s = emptyGame(t, 2, Auto, "quizzzz")
	s = mustPlay(t, s, 0, "h8 quiz e,e")
	if s.last.Score != 10+1+10 || s.last.Word != "quiz" {
		t.Errorf("QUIZ: %+v", s.last)
	}
	if _, err := ParseMove("h8 qiz e,e"); err == nil {
		t.Error("a lone lower-case q was read")
	}
}

func TestExchange(t *testing.T) {
	s := emptyGame(t, 2, Auto, "abcdefg")
	s2 := mustPlay(t, s, 0, "x abc")
	if s2.Bank() != s.Bank() || len(s2.Rack(0)) != 7 || s2.Stall() != 1 {
		t.Errorf("bank %d->%d, rack %v, stall %d", s.Bank(), s2.Bank(), s2.Rack(0), s2.Stall())
	}
	refuse(t, s, 0, "x zz", ErrNotInRack)
	s.nbag = 2
	refuse(t, s, 0, "x abc", nil)
	mustPlay(t, s, 0, "x ab")
	s.nbag = 0
	refuse(t, s, 0, "x a", nil)
}

func TestChallenge(t *testing.T) {
	// A word that is not one: challenged, withdrawn, no points, the player's turn lost.
	s := emptyGame(t, 2, ByChallenge, "ctaxxxx")
	before := s.Rack(0)
	s = mustPlay(t, s, 0, "h8 cta e,e")
	if _, _, ok := s.Pending(); !ok {
		t.Fatal("no pending word")
	}
	if got := s.ToMove(); len(got) != 1 || got[0] != 1 {
		t.Fatalf("to move %v", got)
	}
	refuse(t, s, 0, "challenge", nil)
	s2 := mustPlay(t, s, 1, "challenge")
	if s2.scores[0] != 0 || s2.board[Centre] != NoTile || s2.Turn() != 1 {
		t.Errorf("after a good challenge: score %d, centre %v, turn %d", s2.scores[0], s2.board[Centre], s2.Turn())
	}
	if r := s2.Rack(0); len(r) != len(before) || string(tilesString(r)) != tilesString(before) {
		t.Errorf("the rack is %v, want %v back", r, before)
	}
	// A word: the challenger loses the turn.
	s = emptyGame(t, 2, ByChallenge, "catxxxx")
	s = mustPlay(t, s, 0, "h8 cat e,e")
	s2 = mustPlay(t, s, 1, "challenge")
	if s2.scores[0] != 5 || s2.Turn() != 0 {
		t.Errorf("after a bad challenge: score %d, turn %d", s2.scores[0], s2.Turn())
	}
	// Playing on lets the word stand.
	s2 = mustPlay(t, s, 1, "pass")
	if _, _, ok := s2.Pending(); ok || s2.scores[0] != 5 {
		t.Error("the word did not stand")
	}
	// With three players, the third may challenge out of turn, and then loses its next turn.
	s = emptyGame(t, 3, ByChallenge, "catxxxx")
	s = mustPlay(t, s, 0, "h8 cat e,e")
	if got := s.ToMove(); len(got) != 2 {
		t.Fatalf("to move %v, want seats 1 and 2", got)
	}
	refuse(t, s, 2, "pass", rules.ErrNotYourTurn)
	s2 = mustPlay(t, s, 2, "challenge")
	if !s2.SkipsNext(2) {
		t.Error("seat 2 does not lose its next turn")
	}
	s2 = mustPlay(t, s2, 1, "pass")
	if s2.Turn() != 0 {
		t.Errorf("after seat 1, turn %d; seat 2 should be passed over", s2.Turn())
	}
	// Alone, challenge mode checks like auto.
	refuse(t, emptyGame(t, 1, ByChallenge, "ctaxxxx"), 0, "h8 cta e,e", ErrNotWord)
}

func tilesString(ts []Tile) string {
	out := ""
	for _, t := range ts {
		out += t.String()
	}
	return out
}

func TestAntiStall(t *testing.T) {
	s := emptyGame(t, 2, Auto, "catxxxx")
	for i := range 4 {
		if s.over {
			t.Fatalf("over after %d passes", i)
		}
		s = mustPlay(t, s, s.Turn(), "pass")
	}
	if !s.over {
		t.Error("not over after every player passed twice")
	}
	// A play in between starts the count again.
	s = emptyGame(t, 2, Auto, "catxxxx")
	s = mustPlay(t, s, 0, "pass")
	s = mustPlay(t, s, 1, "pass")
	setRack(t, s, 0, "catxxxx")
	s = mustPlay(t, s, 0, "h8 cat e,e")
	for range 3 {
		s = mustPlay(t, s, s.Turn(), "pass")
	}
	if s.over {
		t.Error("over after 3 passes since a play")
	}
}

func TestEndBankEmpty(t *testing.T) {
	s := coded(t, "at")
	s.nbag = 0
	s = mustPlay(t, s, 1, "h6 cat sw,w")
	if !s.over {
		t.Fatal("not over with the bank empty and a rack used up")
	}
	o := s.Outcome()
	if o.Ranks[0] != 1 || o.Ranks[1] != 2 || o.Scores[1] != 5 {
		t.Errorf("outcome %+v", o)
	}
	refuse(t, s, 0, "pass", rules.ErrGameOver)
}

func TestSolo(t *testing.T) {
	s := emptyGame(t, 1, Auto, "catxxxx")
	s = mustPlay(t, s, 0, "h8 cat e,e")
	if s.Turn() != 0 {
		t.Fatal("solo: the turn left the player")
	}
	refuse(t, emptyGame(t, 2, Auto, "catxxxx"), 0, "end", nil)
	s = mustPlay(t, s, 0, "end")
	if !s.over || s.Outcome().Scores[0] != 5 {
		t.Errorf("solo end: %+v", s.Outcome())
	}
}

func TestOptions(t *testing.T) {
	for _, bad := range []rules.Options{{"check": "x"}, {"timer": "slow"}} {
		if _, err := New(bad, 2, 1); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	if _, err := New(rules.Options{}, 5, 1); err == nil {
		t.Error("5 seats accepted")
	}
	e, err := New(rules.Options{"check": "challenge", "timer": "competition"}, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	v := e.View(0).(*View)
	if v.TurnSeconds != 180 || v.Check != ByChallenge {
		t.Errorf("view options %+v", v)
	}
	if len(v.Rack) != 7 || e.View(rules.Spectator).(*View).Rack != nil {
		t.Error("racks are not private")
	}
}

// A match replays from its seed and moves: the same moves give the same state.
func TestReplay(t *testing.T) {
	a := emptyGame(t, 2, Auto, "")
	a, _ = NewState(2, Auto, TimerOff, 77)
	var moves []string
	s := a
	for range 6 {
		seat := s.Turn()
		mv := Greedy{}.Move(t.Context(), s, seat, nil)
		moves = append(moves, mv)
		s = mustPlay(t, s, seat, mv)
	}
	b, _ := NewState(2, Auto, TimerOff, 77)
	for i, mv := range moves {
		b = mustPlay(t, b, b.Turn(), mv)
		_ = i
	}
	if b.board != s.board || b.racks != s.racks || b.scores != s.scores || b.bag != s.bag {
		t.Error("the replay differs")
	}
}

func TestGameText(t *testing.T) {
	for i, l := range strings.Split(Game.Rules+"\n"+Game.Notation, "\n") {
		if len(l) > 76 {
			t.Errorf("rules line %d is %d columns: %q", i+1, len(l), l)
		}
	}
	opts, err := Game.Resolve(rules.Options{"check": "challenge"})
	if err != nil || opts["timer"] != "off" {
		t.Errorf("resolve: %v %v", opts, err)
	}
	if _, err := Game.New(opts, 4, 3); err != nil {
		t.Error(err)
	}
}

// TestRulesDefineDirections: the rules screen defines every direction word the notation uses, in
// one DIRECTIONS paragraph, and each word is the neighbour it names on the board.
func TestRulesDefineDirections(t *testing.T) {
	i := strings.Index(Game.Rules, "DIRECTIONS")
	if i < 0 {
		t.Fatal("the rules define no directions")
	}
	para := Game.Rules[i:]
	para = para[:strings.Index(para, "\n\n")]
	words := strings.FieldsFunc(para, func(r rune) bool { return r < 'a' || r > 'z' })
	for _, d := range dirNames {
		if !slices.Contains(words, d) {
			t.Errorf("the DIRECTIONS paragraph does not define %q:\n%s", d, para)
		}
	}
	for _, want := range []string{"right", "left", "row above", "row below"} {
		if !strings.Contains(para, want) {
			t.Errorf("the DIRECTIONS paragraph does not say %q", want)
		}
	}
	// The words are the board's: from the centre h8 (row h, 15 hexes; rows g and i, 14 each).
	for d, want := range map[Dir]string{E: "h9", W: "h7", NE: "g8", NW: "g7", SE: "i8", SW: "i7"} {
		if got := neighbour[Centre][d].String(); got != want {
			t.Errorf("h8 %s is %s, want %s", d, got, want)
		}
	}
}
