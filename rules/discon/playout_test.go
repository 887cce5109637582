package discon

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arcade/arcade/rules"
)

// checkInvariants fails the test when s breaks a rule that must always hold.
func checkInvariants(t testing.TB, s *State) {
	t.Helper()
	var discs [4]int
	loose := 0
	var count [Size * Size]int8
	for q, f := range s.floor {
		loose += len(f)
		for i := range len(f) {
			discs[f[i]]++
		}
		if f != "" && s.count[q] > 0 {
			t.Fatalf("%s holds %s under a piece", Square(q), letters(f))
		}
	}
	for seat := range s.seats {
		for i := range Pieces {
			p := s.pieces[seat][i]
			count[p.sq]++
			for j := range len(p.tower) {
				discs[p.tower[j]]++
			}
			if s.variant != Penalty && len(p.tower) > s.limit {
				t.Fatalf("%s piece %d: %d storeys", SeatName(rules.Seat(seat)), i+1, len(p.tower))
			}
			if popcount(colourSet(p.tower)) > s.colours {
				t.Fatalf("%s piece %d: tower %s", SeatName(rules.Seat(seat)), i+1, letters(p.tower))
			}
			// Between turns nobody stands in an opponent's zone; during a turn only the piece
			// the mover moved first may.
			if z := s.opponentZone(rules.Seat(seat), p.sq); z >= 0 && !s.over &&
				(s.movesLeft == 2 || rules.Seat(seat) != s.turn || int(s.first) != i) {
				t.Fatalf("%s piece %d stands in %s's zone", SeatName(rules.Seat(seat)), i+1, SeatName(z))
			}
		}
	}
	fresh := 0
	for q := range Square(Size * Size) {
		if s.fresh[q/64]&(1<<(q%64)) != 0 {
			fresh++
			if len(s.floor[q]) != 1 {
				t.Fatalf("%s holds %q, marked as a disc never in a tower", q, letters(s.floor[q]))
			}
		}
	}
	if fresh != s.freshLeft || s.freshTurn < s.freshLeft {
		t.Fatalf("%d new discs marked, %d counted, %d at the end of the last turn", fresh, s.freshLeft, s.freshTurn)
	}
	if discs != discCount || loose != s.loose {
		t.Fatalf("discs %v (%d loose, counted %d), want %v", discs, loose, s.loose, discCount)
	}
	for q, n := range count {
		if n != s.count[q] || n > 1 && !slices.Contains(corners[:], Square(q)) {
			t.Fatalf("%s: %d pieces, counted %d", Square(q), n, s.count[q])
		}
	}
	if !s.over && len(s.LegalMoves(s.turn)) == 0 {
		t.Fatalf("%s is to move without a legal move", SeatName(s.turn))
	}
}

// junk returns moves that must be refused in s.
func junk(s *State, rng *rand.Rand) []string {
	out := []string{"", "pass", "end", "x", "7 a1-b3", "0 c4", "1 z9", "1 a1-a1", "hello world"}
	legal := s.Legal(s.turn)
	for range 6 {
		p := 1 + rng.IntN(Pieces)
		q := Square(rng.IntN(Size * Size))
		m := fmt.Sprintf("%d %s", p, q)
		if rng.IntN(2) == 0 {
			m += "*"
		}
		from := s.pieces[s.turn][p-1].sq
		full := Move{Kind: Jump, Piece: p, From: from, To: q, Leave: strings.HasSuffix(m, "*")}
		if !slices.Contains(legal, full.String()) {
			out = append(out, m)
		}
	}
	return out
}

// TestRandomPlayouts plays random games of every size and variant, checking the invariants after
// every move, that junk and other seats' moves are refused without a change, that Legal agrees
// with Apply, and that every game ends.
func TestRandomPlayouts(t *testing.T) {
	games := 10
	if testing.Short() {
		games = 2
	}
	reasons := map[string]int{}
	for seats := 2; seats <= 4; seats++ {
		for v := range Variant(len(variantNames)) {
			for g := range games {
				seed := uint64(100*seats + 10*int(v) + g)
				rng := rand.New(rand.NewPCG(seed, 1))
				s, err := NewState(v, seats, seed)
				if err != nil {
					t.Fatal(err)
				}
				for step := 0; !s.over; step++ {
					if step > 3000 {
						t.Fatalf("%s %dp seed %d: no end after %d moves", v, seats, seed, step)
					}
					checkInvariants(t, s)
					for _, m := range junk(s, rng) {
						refuse(t, s, s.turn, m, "", nil)
					}
					other := (s.turn + 1) % rules.Seat(seats)
					legal := s.Legal(s.turn)
					refuse(t, s, other, legal[0], "not your turn", rules.ErrNotYourTurn)
					if step%25 == 0 {
						agree(t, s)
					}
					e, err := s.Apply(s.turn, legal[rng.IntN(len(legal))])
					if err != nil {
						t.Fatalf("legal move refused: %v", err)
					}
					s = e.(*State)
				}
				checkInvariants(t, s)
				reasons[strings.SplitN(s.reason, " ", 2)[0]]++
				if o := s.Outcome(); len(o.Ranks) != seats || len(o.Winners()) == 0 {
					t.Fatalf("outcome %+v", o)
				}
			}
		}
	}
	t.Logf("endings: %v", reasons)
	if reasons[strings.SplitN(StallReason, " ", 2)[0]] == 0 {
		t.Errorf("endings %v: want games ended by the anti-stall rule", reasons)
	}
}

// agree checks that every jump of every piece to every square is accepted by Apply exactly when
// Legal lists it.
func agree(t testing.TB, s *State) {
	t.Helper()
	legal := s.LegalMoves(s.turn)
	for p := 1; p <= Pieces; p++ {
		for q := range Square(Size * Size) {
			for _, leave := range []bool{false, true} {
				m := Move{Kind: Jump, Piece: p, From: s.pieces[s.turn][p-1].sq, To: q, Leave: leave}
				_, err := s.ApplyMove(s.turn, m)
				if (err == nil) != slices.Contains(legal, m) {
					t.Fatalf("%s: Apply says %v, Legal lists it: %v", m, err, slices.Contains(legal, m))
				}
			}
		}
	}
}

// TestBotPlayouts lets every bot play games of every size and variant against the others,
// checking the invariants after every move; with bots that collect, games also end with every
// disc carried.
func TestBotPlayouts(t *testing.T) {
	reasons := map[string]int{}
	bots := []rules.Bot{EasyBot{}, GreedyBot{}, HardBot{}}
	for seats := 2; seats <= 4; seats++ {
		for v := range Variant(len(variantNames)) {
			seed := uint64(10*seats + int(v))
			s, _ := NewState(v, seats, seed)
			rng := rand.New(rand.NewPCG(seed, 2))
			for step := 0; !s.over; step++ {
				if step > 3000 {
					t.Fatalf("%s %dp seed %d: no end after %d moves", v, seats, seed, step)
				}
				bot := bots[(int(s.turn)+int(v)+seats)%len(bots)]
				m := bot.Move(t.Context(), s, s.turn, rng)
				e, err := s.Apply(s.turn, m)
				if err != nil {
					t.Fatalf("%T played %q: %v", bot, m, err)
				}
				s = e.(*State)
				checkInvariants(t, s)
			}
			reasons[strings.SplitN(s.reason, " ", 2)[0]]++
		}
	}
	t.Logf("endings: %v", reasons)
	if reasons["every"] == 0 {
		t.Errorf("endings %v: want games ended with every disc carried", reasons)
	}
}
