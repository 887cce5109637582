package record_test

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/arcade/arcade/games/gametest"
	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/coloretta"
	"github.com/arcade/arcade/rules/discon"
	"github.com/arcade/arcade/rules/flicflac"
	"github.com/arcade/arcade/rules/lhexicon"
	"github.com/arcade/arcade/rules/stonetowers"
)

// botMatch records a seeded match of g between bots: plies moves at most, fewer when it ends.
func botMatch(t testing.TB, g rules.Game, opts rules.Options, seats int, seed uint64, bot rules.Bot, plies int) record.Match {
	t.Helper()
	_, moves := gametest.PlayBots(t, g, opts, seats, seed, bot, func(i int, _ rules.Engine) bool { return i >= plies })
	m := record.Match{ID: "m-" + g.ID, Game: g.ID, Options: opts, Seed: seed}
	for i := range seats {
		m.Seats = append(m.Seats, record.Seat{Name: []string{"ann", "bob", "cat", "dan"}[i]})
	}
	for _, mv := range moves {
		m.Moves = append(m.Moves, record.Move{Seat: mv.Seat, Move: mv.Move})
	}
	return m
}

// longMatch is a Flic Flac match of about 6,000 moves between idle bots (gametest.Idler): about
// the longest a room allows (limit=2000 turns), far past what the cursor holds.
func longMatch(t testing.TB) record.Match {
	t.Helper()
	opts := rules.Options{"limit": "2000", "target": "99", "timer": "0", "captors": "0"}
	m := botMatch(t, flicflac.Game, opts, 2, 20, gametest.Idler{}, 6000)
	if len(m.Moves) < 5900 {
		t.Fatalf("the long match has %d moves, want about 6,000", len(m.Moves))
	}
	return m
}

// allPositions replays m holding every position, as the replay did before the Cursor: the
// reference the cursor is checked against.
func allPositions(t testing.TB, m record.Match, g rules.Game) []rules.Engine {
	t.Helper()
	e, err := g.New(m.Options, len(m.Seats), m.Seed)
	if err != nil {
		t.Fatal(err)
	}
	states := []rules.Engine{e}
	for _, mv := range m.Moves {
		if e, err = e.Apply(mv.Seat, mv.Move); err != nil {
			t.Fatal(err)
		}
		states = append(states, e)
	}
	return states
}

// everyGame is a match of each game, long enough to pass several checkpoints where the game
// allows, and the 6,000-move one.
func everyGame(t *testing.T) map[string]struct {
	m record.Match
	g rules.Game
} {
	out := map[string]struct {
		m record.Match
		g rules.Game
	}{}
	add := func(name string, g rules.Game, m record.Match) {
		out[name] = struct {
			m record.Match
			g rules.Game
		}{m, g}
	}
	add("stonetowers", stonetowers.Game, botMatch(t, stonetowers.Game, rules.Options{"size": "16", "turns": "60"}, 2, 3, stonetowers.Greedy{}, 1000))
	add("discon", discon.Game, botMatch(t, discon.Game, rules.Options{}, 4, 3, discon.GreedyBot{}, 1000))
	add("coloretta", coloretta.Game, botMatch(t, coloretta.Game, rules.Options{"rounds": "6"}, 3, 3, coloretta.Greedy, 1000))
	add("lhexicon", lhexicon.Game, botMatch(t, lhexicon.Game, rules.Options{}, 2, 5, lhexicon.Easy{}, 300))
	add("flicflac", flicflac.Game, botMatch(t, flicflac.Game, rules.Options{"target": "40"}, 2, 5, flicflac.Greedy{}, 1000))
	add("flicflac-long", flicflac.Game, longMatch(t))
	return out
}

// TestCursorIsTheFullReplay: the cursor gives, at every index, the position a full replay gives,
// whether it steps forward, steps back, jumps to either end or seeks at random.
func TestCursorIsTheFullReplay(t *testing.T) {
	for name, c := range everyGame(t) {
		t.Run(name, func(t *testing.T) {
			want := allPositions(t, c.m, c.g)
			cur, err := record.NewCursor(c.m, c.g)
			if err != nil {
				t.Fatal(err)
			}
			if cur.Len() != len(want)-1 {
				t.Fatalf("Len %d, want %d", cur.Len(), len(want)-1)
			}
			check := func(how string, i int) {
				t.Helper()
				if got := cur.At(i); !reflect.DeepEqual(got, want[i]) {
					t.Fatalf("%s: the position after %d moves is not the full replay's", how, i)
				}
			}
			for i := range want {
				check("forward", i)
			}
			for i := len(want) - 1; i >= 0; i-- {
				check("back", i)
			}
			check("end", len(want)-1)
			check("start", 0)
			rng := rand.New(rand.NewPCG(1, 2))
			for range 300 {
				check("seek", rng.IntN(len(want)))
			}
			if got := cur.At(len(want) + 5); !reflect.DeepEqual(got, want[len(want)-1]) {
				t.Error("past the end is not the last position")
			}
			if got := cur.At(-3); !reflect.DeepEqual(got, want[0]) {
				t.Error("before the start is not the first position")
			}
			t.Logf("%d moves", cur.Len())
		})
	}
}

// TestCursorHoldsBoundedPositions: a viewer of a 6,000-move match holds at most
// MaxCheckpoints+CursorWindow positions whatever it does, and so does one of a short match.
func TestCursorHoldsBoundedPositions(t *testing.T) {
	most := record.MaxCheckpoints + record.CursorWindow
	for _, m := range []record.Match{longMatch(t), botMatch(t, discon.Game, rules.Options{}, 2, 3, discon.GreedyBot{}, 20)} {
		cur, err := record.NewCursor(m, flicflacOr(m))
		if err != nil {
			t.Fatal(err)
		}
		check := func(how string, i int) {
			t.Helper()
			cur.At(i)
			if n := cur.Held(); n > most || n < 1 {
				t.Fatalf("%s %d of %d: the cursor holds %d positions, want 1 to %d", how, i, cur.Len(), n, most)
			}
		}
		check("start", 0)
		for i := 0; i <= cur.Len(); i++ {
			check("forward", i)
		}
		for i := cur.Len(); i >= 0; i-- {
			check("back", i)
		}
		rng := rand.New(rand.NewPCG(3, 4))
		for range 200 {
			check("seek", rng.IntN(cur.Len()+1))
		}
	}
}

// flicflacOr returns the game of m among the two the bounded test plays.
func flicflacOr(m record.Match) rules.Game {
	if m.Game == flicflac.Game.ID {
		return flicflac.Game
	}
	return discon.Game
}

// TestCursorRefusesADamagedRecord: a record whose move the engine refuses does not open, and
// says which move; Final says the same. A record of another game is refused too.
func TestCursorRefusesADamagedRecord(t *testing.T) {
	m := botMatch(t, discon.Game, rules.Options{}, 2, 3, gametest.Idler{}, 250)
	m.Moves[180].Move = "zz99"
	if _, err := record.NewCursor(m, discon.Game); err == nil || !strings.Contains(err.Error(), "move 181 (\"zz99\")") {
		t.Errorf("a damaged record opens: %v", err)
	}
	if _, err := m.Final(discon.Game); err == nil || !strings.Contains(err.Error(), "move 181 (\"zz99\")") {
		t.Errorf("Final of a damaged record: %v", err)
	}
	m.Moves[180].Move, m.Moves[180].Seat = m.Moves[181].Move, m.Moves[181].Seat
	if _, err := record.NewCursor(m, stonetowers.Game); err == nil || !strings.Contains(err.Error(), "not stonetowers") {
		t.Errorf("a discon record opens as stonetowers: %v", err)
	}
}

// TestFinalIsTheLastPosition: Final gives what a full replay ends with.
func TestFinalIsTheLastPosition(t *testing.T) {
	m := botMatch(t, stonetowers.Game, rules.Options{}, 2, 3, stonetowers.Greedy{}, 40)
	got, err := m.Final(stonetowers.Game)
	if err != nil {
		t.Fatal(err)
	}
	all := allPositions(t, m, stonetowers.Game)
	if !reflect.DeepEqual(got, all[len(all)-1]) {
		t.Error("Final is not the last position of the full replay")
	}
	if _, err := (record.Match{Game: "stonetowers", Options: rules.Options{"size": "3"}}).Final(stonetowers.Game); err == nil ||
		errors.Unwrap(err) == nil {
		t.Errorf("a record with bad options: %v", err)
	}
}

// BenchmarkReplaySeek seeks at random in a 6,000-move match: with the cursor (its checkpoints
// and window), and replaying from the start each time (what checkpoints of move indices alone
// would cost).
func BenchmarkReplaySeek(b *testing.B) {
	m := longMatch(b)
	b.Run("cursor", func(b *testing.B) {
		cur, err := record.NewCursor(m, flicflac.Game)
		if err != nil {
			b.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(5, 6))
		for b.Loop() {
			cur.At(rng.IntN(cur.Len() + 1))
		}
	})
	b.Run("from-start", func(b *testing.B) {
		rng := rand.New(rand.NewPCG(5, 6))
		for b.Loop() {
			part := m
			part.Moves = m.Moves[:rng.IntN(len(m.Moves)+1)]
			if _, err := part.Final(flicflac.Game); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("open", func(b *testing.B) {
		for b.Loop() {
			if _, err := record.NewCursor(m, flicflac.Game); err != nil {
				b.Fatal(err)
			}
		}
	})
}
