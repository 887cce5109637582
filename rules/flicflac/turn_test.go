package flicflac

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arcade/arcade/rules"
)

// capturePair stands a yellow cylinder (upright: orange, red) beside a red block (upright:
// purple, blue), apart from the rest: the red block is at -21, due to be captured.
func capturePair(t *testing.T, s *State) {
	t.Helper()
	cluster(t, s, []spec{{Cylinder, Yellow, false, false}, {Block, Red, false, false}}, [][2]int{{0, 1}})
}

// TestEndCaptures: captures happen only when the turn ends, for either side, and a turn without
// captors passes; moved flags clear.
func TestEndCaptures(t *testing.T) {
	s := testState(t)
	capturePair(t, s)
	blk := s.SeatOf(Block)
	// The blocks end a turn with their own red block due: it is captured, the cylinders score,
	// and the blocks have no captors: the turn passes.
	s.turn = blk
	e := s.geo.Entry(Block, Green)[0]
	n := mustPlay(t, s, blk, "G "+s.geo.Name(e))
	if n.captures != [2]int{} || n.pieces[int(blk)*Colours+int(Red)].hex == NoHex {
		t.Fatal("a capture before the end of the turn")
	}
	n = mustPlay(t, n, blk, "end")
	if n.captures[s.SeatOf(Cylinder)] != 1 || n.CaptorsTurn() || n.Turn() != s.SeatOf(Cylinder) || n.turns != 1 {
		t.Fatalf("captures %v, captors' turn %v, turn %d, turns %d", n.captures, n.CaptorsTurn(), n.Turn(), n.turns)
	}
	for id := range Pieces {
		if n.pieces[id].moved {
			t.Fatal("a piece is still marked moved")
		}
	}
}

// TestCaptorsChain: a captors' turn whose move makes new captures gives another captors' turn;
// one that captures nothing passes the turn.
func TestCaptorsChain(t *testing.T) {
	s := testState(t)
	cyl, blk := s.SeatOf(Cylinder), s.SeatOf(Block)
	capturePair(t, s)
	// An orange block, upright (red, purple), waits apart: it does not fly yellow, so the
	// yellow cylinder (orange, red), a captor, captures it by moving beside it.
	ob := cluster(t, s, []spec{{Block, Orange, false, false}}, nil)[0]
	n := mustPlay(t, s, cyl, "end")
	if !n.CaptorsTurn() || n.may != 1<<(int(cyl)*Colours+int(Yellow)) {
		t.Fatalf("no captors' turn for the yellow cylinder: %v", PiecesIn(n.may))
	}
	turn1 := n.timed
	// Move the yellow cylinder next to the orange block, if a path leads there.
	var to Hex = NoHex
	for _, h := range n.Reach(PieceID{cyl, Yellow}) {
		if n.geo.Adjacent(h, n.pieces[ob].hex) {
			to = h
		}
	}
	if to == NoHex {
		// Bring the orange block within reach instead: beside a hex the yellow cylinder
		// reaches, touching nothing else.
		r := n.Reach(PieceID{cyl, Yellow})
		for _, h := range r {
			for _, nb := range n.geo.nbr[h] {
				if nb != NoHex && n.occ[nb] == 0 && to == NoHex && !slices.Contains(r, nb) {
					lonely := true
					for _, nb2 := range n.geo.nbr[nb] {
						if nb2 != NoHex && n.occ[nb2] != 0 {
							lonely = false
						}
					}
					if lonely {
						put(n, blk, Orange, nb, false)
						to = h
					}
				}
			}
		}
	}
	if to == NoHex {
		t.Fatal("no place to make a capture")
	}
	n = mustPlay(t, n, cyl, "Y "+n.geo.Name(to))
	if n.Health()[ob] >= 0 {
		t.Fatalf("the orange block's health %d", n.Health()[ob])
	}
	n = mustPlay(t, n, cyl, "end")
	if !n.CaptorsTurn() || n.timed == turn1 || n.captures[cyl] != 2 {
		t.Fatalf("no second captors' turn: captures %v", n.captures)
	}
	n = mustPlay(t, n, cyl, "end")
	if n.CaptorsTurn() || n.Turn() != blk || n.turns != 1 {
		t.Fatalf("the turn did not pass after a captors' turn without captures")
	}
}

// TestWinNeedsLead: the target wins only with a lead of 2, checked after each capture.
func TestWinNeedsLead(t *testing.T) {
	s := testState(t)
	cyl, blk := s.SeatOf(Cylinder), s.SeatOf(Block)
	capturePair(t, s)
	s.captures[cyl], s.captures[blk] = 10, 9
	n := mustPlay(t, s, cyl, "end") // 11 - 9: won
	if !n.over || n.winner != cyl || n.Outcome().Ranks[cyl] != 1 || n.Outcome().Ranks[blk] != 2 {
		t.Fatalf("11-9: over %v, winner %d, %v", n.over, n.winner, n.Outcome())
	}
	if n.ToMove() != nil || n.Legal(cyl) != nil {
		t.Fatal("moves after the end")
	}
	refused(t, n, cyl, "end")
	s.captures[blk] = 10
	n = mustPlay(t, s, cyl, "end") // 11 - 10: play on (a captors' turn)
	if n.over || !n.CaptorsTurn() {
		t.Fatalf("11-10 ended the match: %s", n.reason)
	}
}

// TestTurnLimit: after the limit's turns, more captures wins and equal is a draw.
func TestTurnLimit(t *testing.T) {
	s := testState(t)
	s.cfg.Limit = 3
	cyl, blk := s.SeatOf(Cylinder), s.SeatOf(Block)
	n := s
	for i := range 3 {
		if n.over {
			t.Fatalf("over after %d turns", i)
		}
		n = mustPlay(t, n, n.turn, "end")
	}
	if !n.over || n.winner != -1 || n.Outcome().Ranks[0] != 1 || n.Outcome().Ranks[1] != 1 {
		t.Fatalf("0-0 after the limit: over %v winner %d", n.over, n.winner)
	}
	s.captures[blk] = 1
	n = s
	for range 3 {
		n = mustPlay(t, n, n.turn, "end")
	}
	if n.winner != blk || n.Outcome().Ranks[cyl] != 2 {
		t.Fatalf("0-1 after the limit: winner %d", n.winner)
	}
	if !strings.Contains(n.reason, "3 turns") {
		t.Errorf("reason %q", n.reason)
	}
}

// TestEvents plays each random event on a full board.
func TestEvents(t *testing.T) {
	base := testState(t)
	rng := rand.New(rand.NewPCG(4, 4))
	for id := range Pieces {
		for {
			h := Hex(rng.IntN(base.geo.NumHexes()))
			if base.occ[h] == 0 {
				put(base, rules.Seat(id/Colours), Colour(id%Colours), h, id%3 == 0)
				break
			}
		}
	}
	t.Run("tumbling wind", func(t *testing.T) {
		s := *base
		var r Report
		s.playEvent(TumblingWind, 0, &r)
		for id := range Pieces {
			if s.pieces[id].flipped == base.pieces[id].flipped {
				t.Fatalf("%s did not flip", s.PieceName(pieceOf(id)))
			}
		}
	})
	t.Run("recall", func(t *testing.T) {
		s := *base
		var r Report
		s.playEvent(Recall, Green, &r) // green and red
		for id := range Pieces {
			c := Colour(id % Colours)
			home := s.pieces[id].hex == NoHex
			if home != (c == Green || c == Red) {
				t.Fatalf("%s home %v", s.PieceName(pieceOf(id)), home)
			}
			if home && s.pieces[id].flipped {
				t.Fatal("recalled flipped")
			}
		}
		if countBits(r.Sent) != 4 || s.captures != base.captures {
			t.Fatalf("sent %v, captures %v", PiecesIn(r.Sent), s.captures)
		}
	})
	t.Run("sink holes", func(t *testing.T) {
		s := *base
		var r Report
		s.playEvent(SinkHoles, Blue, &r) // blue and orange hexes
		for id := range Pieces {
			was := base.colours[base.pieces[id].hex]
			home := s.pieces[id].hex == NoHex
			if home != (was == Blue || was == Orange) {
				t.Fatalf("%s on %s: home %v", s.PieceName(pieceOf(id)), was, home)
			}
		}
	})
	t.Run("hex slide", func(t *testing.T) {
		s := *base
		var r Report
		s.playEvent(HexSlide, 0, &r)
		var before, after [Colours + 1]int
		moved := 0
		for h := range s.geo.NumHexes() {
			before[base.colours[h]]++
			after[s.colours[h]]++
			if (s.colours[h] == Black) != (base.colours[h] == Black) {
				t.Fatalf("%s changed black", s.geo.Name(Hex(h)))
			}
			if s.colours[h] != base.colours[h] {
				moved++
			}
			c := s.geo.Cubes[h]
			if to, _ := s.geo.At(Cube{-c.R, -c.S, -c.Q}); s.colours[to] != base.colours[h] {
				t.Fatalf("%s's colour did not go to its turned place", s.geo.Name(Hex(h)))
			}
		}
		if before != after || moved == 0 {
			t.Fatalf("colours %v became %v (%d changed)", before, after, moved)
		}
		for id := range Pieces {
			if s.pieces[id] != base.pieces[id] {
				t.Fatal("a piece moved")
			}
		}
		// Six slides make a whole turn.
		for range 5 {
			s.playEvent(HexSlide, 0, &r)
		}
		if s.colours != base.colours {
			t.Fatal("six slides are not the start")
		}
	})
	// The draw: at events=100 every end of a turn brings one, the same for the same seed and
	// turn, and all four kinds come up.
	seen := map[Event]bool{}
	for seed := range uint64(40) {
		s := *base
		s.seed, s.cfg.EventPercent = seed, 100
		a := mustPlay(t, &s, s.turn, "end")
		b := mustPlay(t, &s, s.turn, "end")
		if a.last.Event == NoEvent || *a != *b {
			t.Fatalf("seed %d: event %v, replayed %v", seed, a.last.Event, b.last.Event)
		}
		seen[a.last.Event] = true
	}
	if len(seen) != 4 {
		t.Errorf("events drawn: %v", seen)
	}
	s := *base
	s.cfg.EventPercent = 0
	if n := mustPlay(t, &s, s.turn, "end"); n.last.Event != NoEvent {
		t.Error("an event with events=0")
	}
}

// TestTurnTimer: a turn is timed from its first move to its end, a captors' turn has its own
// (shorter) time, "end" is played at the timeout; untimed matches time nothing.
func TestTurnTimer(t *testing.T) {
	s := testState(t)
	capturePair(t, s)
	cyl := s.SeatOf(Cylinder)
	tl, ok := s.TurnLimit()
	if !ok || tl.Seat != cyl || tl.Limit != 20*time.Second || tl.Timeout != "end" {
		t.Fatalf("TurnLimit %+v %v", tl, ok)
	}
	n := mustPlay(t, s, cyl, "G "+s.geo.Name(s.geo.Entry(Cylinder, Green)[0]))
	if tl2, _ := n.TurnLimit(); tl2.Turn != tl.Turn || tl2.Seat != tl.Seat {
		t.Fatal("a move began a new turn")
	}
	n = mustPlay(t, n, cyl, "u G")
	if tl2, _ := n.TurnLimit(); tl2.Turn != tl.Turn {
		t.Fatal("a take-back began a new turn")
	}
	n = mustPlay(t, n, cyl, tl.Timeout) // the timeout: a captors' turn follows
	tl3, ok := n.TurnLimit()
	if !ok || tl3.Turn == tl.Turn || tl3.Seat != cyl || tl3.Limit != 10*time.Second {
		t.Fatalf("the captors' turn: %+v %v", tl3, ok)
	}
	n = mustPlay(t, n, cyl, tl3.Timeout)
	tl4, _ := n.TurnLimit()
	if tl4.Seat == cyl || tl4.Turn == tl3.Turn || tl4.Limit != 20*time.Second {
		t.Fatalf("the next turn: %+v", tl4)
	}
	u := *s
	u.cfg.TurnSeconds = 0
	if _, ok := u.TurnLimit(); ok {
		t.Error("timer=0 timed a turn")
	}
	u = *n
	u.over = true
	if _, ok := u.TurnLimit(); ok {
		t.Error("a finished match timed a turn")
	}
}

// TestTimeoutRecordReplays: a match in which a seat lets its time run out (the room plays
// "end" for it, and records it) replays from its record to the same state, events included.
func TestTimeoutRecordReplays(t *testing.T) {
	cfg := DefaultConfig
	cfg.EventPercent = 30
	const seed = 77
	s, err := NewState(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var record []string
	var seats []rules.Seat
	events, timeouts := 0, 0
	for i := 0; !s.over && i < 400; i++ {
		seat := s.turn
		var mv string
		if tl, ok := s.TurnLimit(); ok && seat == s.SeatOf(Block) && i%5 == 0 {
			mv = tl.Timeout // the blocks' time runs out now and then
			timeouts++
		} else {
			mv = Greedy{}.Move(context.Background(), s, seat, rng)
		}
		mv = rules.CanonicalMove(s, seat, mv)
		e, err := s.Apply(seat, mv)
		if err != nil {
			t.Fatal(err)
		}
		record, seats = append(record, mv), append(seats, seat)
		s = e.(*State)
		if s.last.Event != NoEvent && mv == "end" {
			events++
		}
	}
	r, _ := New(cfg.Options(), 2, seed)
	for i, mv := range record {
		e, err := r.Apply(seats[i], mv)
		if err != nil {
			t.Fatalf("replay move %d %q: %v", i, mv, err)
		}
		r = e
	}
	if *r.(*State) != *s {
		t.Fatal("the replay differs")
	}
	if events == 0 || timeouts == 0 {
		t.Fatalf("the match had %d events and %d timeouts; the test wants some of each", events, timeouts)
	}
}
