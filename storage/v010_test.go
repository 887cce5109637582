package storage

import (
	"context"
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon"
	"github.com/arcade/arcade/rules/stonetowers"
)

// The database of v0.1.0, the first release: testdata/v0.1.0.db holds what its store holds (see
// writeV010), and TestV010Fixture proves that today's code opens it and reads every value back.
// From v0.1.0 on, every release opens the database of the release before; a release that raises
// SchemaVersion migrates this file, and the test goes on passing.
//
// The file was made by v0.1.0's code, once:
//
//	go test ./storage -run TestV010Fixture -write-fixture
//
// Never write it again after v0.1.0: it is the record of what that release wrote.
var writeFixture = flag.Bool("write-fixture", false, "write testdata/v0.1.0.db anew (v0.1.0's code only)")

const v010File = "testdata/v0.1.0.db"

// The keys of the fixture's players.
const (
	v010Ann   = "SHA256:q0ZbQyH1DQZ1l7mK2B1n0dYqH4lE2sBv1b7o8a9cTtE"
	v010Bob   = "SHA256:1jG5z5pX9yGm1oR7cQ0kVw2nB3hF6tL8aD4eS0uYpMc"
	v010Carol = "SHA256:Zr8mW3uN5qT1xK7vB2cL9pD4fH6gJ0aE3sY8oI1nRkQ"
	v010Dave  = "guest-5f3a9c1e"
)

// v010Start is when the fixture's clock starts; it advances a second at every reading.
var v010Start = time.Date(2026, 11, 27, 20, 0, 0, 0, time.UTC)

// writeV010 fills the new database d with what a v0.1.0 store holds: players with names bound
// to their keys (ann holds two), a bell turned off (bob's), a finished rated Stone Towers match of
// ann and bob with its moves, a finished solo Lhex-i'-con match of carol (her best solo score), an
// unfinished Stone Towers match of bob and a guest, with a takeback and the guest's seat taken
// over by a bot, and a match abandoned before its end.
func writeV010(t *testing.T, d *DB) {
	t.Helper()
	clock := v010Start
	d.now = func() time.Time { clock = clock.Add(time.Second); return clock }
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range [][2]string{{v010Ann, "ann"}, {v010Bob, "bob"}, {v010Carol, "carol"}, {v010Ann, "annie"}} {
		must(d.Claim(c[0], c[1]))
	}
	must(d.SetBell(v010Bob, false))

	at := v010Start.Add(time.Hour)
	// play plays the moves of bot (or moves, when given) in room code's match of g from e.
	play := func(code string, g rules.Game, e rules.Engine, from int, moves []string, bot rules.Bot, n int) rules.Engine {
		t.Helper()
		rng := rand.New(rand.NewPCG(1, 2))
		for ply := from; ply < from+n && !e.Outcome().Over; ply++ {
			seat := e.ToMove()[0]
			var mv string
			if moves != nil {
				mv = moves[ply-from]
			} else {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				mv = bot.Move(ctx, e, seat, rng)
				cancel()
			}
			next, err := e.Apply(seat, mv)
			must(err)
			e, mv = next, rules.CanonicalMove(e, seat, mv)
			at = at.Add(20 * time.Second)
			must(d.AppendMove(code, ply, record.Move{Seat: seat, Move: mv, At: at}))
		}
		return e
	}

	// A rated match, played to its end.
	towers := rules.Options{"size": "8", "turns": "10"}
	_, err := d.StartMatch(record.Match{Code: "K7QXM", Game: "stonetowers", Options: towers, Seed: 11,
		Seats: []record.Seat{{PlayerID: v010Ann, Name: "ann"}, {PlayerID: v010Bob, Name: "bob"}}, Started: at})
	must(err)
	e, err := stonetowers.Game.New(towers, 2, 11)
	must(err)
	e = play("K7QXM", stonetowers.Game, e, 0, nil, stonetowers.Greedy{}, 100)
	if !e.Outcome().Over {
		t.Fatal("the rated match did not end")
	}
	must(d.EndMatch("K7QXM", e.Outcome(), false))

	// A solo match: two words, then "end".
	solo := rules.Options{"check": "auto", "timer": "off"}
	_, err = d.StartMatch(record.Match{Code: "S0L0Q", Game: "lhexicon", Options: solo, Seed: 7,
		Seats: []record.Seat{{PlayerID: v010Carol, Name: "carol"}}, Started: at})
	must(err)
	e, err = lhexicon.Game.New(solo, 1, 7)
	must(err)
	e = play("S0L0Q", lhexicon.Game, e, 0, nil, lhexicon.Easy{}, 2)
	e = play("S0L0Q", lhexicon.Game, e, 2, []string{"end"}, nil, 1)
	if !e.Outcome().Over {
		t.Fatal("the solo match did not end")
	}
	must(d.EndMatch("S0L0Q", e.Outcome(), false))

	// An unfinished match: three moves, the third taken back and played again; the guest left and
	// a bot took over the seat.
	_, err = d.StartMatch(record.Match{Code: "W2PLB", Game: "stonetowers", Options: towers, Seed: 3,
		Seats: []record.Seat{{PlayerID: v010Bob, Name: "bob"}, {PlayerID: v010Dave, Name: "~dave", Guest: true}}, Started: at})
	must(err)
	e, err = stonetowers.Game.New(towers, 2, 3)
	must(err)
	play("W2PLB", stonetowers.Game, e, 0, []string{"b c3", "b f6", "b d4"}, nil, 3)
	must(d.TakeBack("W2PLB", 2, nil))
	e, err = stonetowers.Game.New(towers, 2, 3)
	must(err)
	for _, mv := range []string{"b c3", "b f6"} {
		e, err = e.Apply(e.ToMove()[0], mv)
		must(err)
	}
	play("W2PLB", stonetowers.Game, e, 2, []string{"f c3"}, nil, 1)
	must(d.SetSeats("W2PLB", []record.Seat{{PlayerID: v010Bob, Name: "bob"}, {Name: "Ada (easy bot)", Bot: "easy"}}))

	// A match abandoned before its end: no longer the room's, never ended.
	_, err = d.StartMatch(record.Match{Code: "GONE1", Game: "stonetowers", Options: towers, Seed: 5,
		Seats: []record.Seat{{PlayerID: v010Ann, Name: "annie"}, {PlayerID: v010Carol, Name: "carol"}}, Started: at})
	must(err)
	e, err = stonetowers.Game.New(towers, 2, 5)
	must(err)
	play("GONE1", stonetowers.Game, e, 0, []string{"b a1"}, nil, 1)
	must(d.Abandon("GONE1"))
}

// TestV010Fixture: a copy of testdata/v0.1.0.db opens with today's code, read-only and for
// writing, passes Check, and reads back every value v0.1.0 wrote to it (see writeV010).
func TestV010Fixture(t *testing.T) {
	if *writeFixture {
		tmp := filepath.Join(t.TempDir(), "new.db")
		d, err := Open(tmp, Options{LockTimeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		writeV010(t, d)
		f, err := os.Create(v010File) // the backup's copy: the pages in use only, so the file is small
		if err == nil {
			_, err = d.Backup(f)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		d.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	orig, err := os.ReadFile(v010File)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "arcade.db")
	if err := os.WriteFile(path, orig, 0o600); err != nil {
		t.Fatal(err)
	}

	ro, err := Open(path, Options{LockTimeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of v0.1.0's file: %v", err)
	}
	r, err := ro.Check([]rules.Game{stonetowers.Game, lhexicon.Game})
	ro.Close()
	if err != nil || !r.Clean() || r.Matches != 4 {
		t.Fatalf("Check of v0.1.0's file: %+v, %v; want 4 matches, clean", r, err)
	}

	d, err := Open(path, Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatalf("open of v0.1.0's file: %v", err)
	}
	checkV010(t, d)
	// Opened again, after a server's Open and Close of it, it reads the same.
	d.Close()
	d = openAt(t, path)
	defer d.Close()
	checkV010(t, d)
	if now, _ := os.ReadFile(v010File); string(now) != string(orig) {
		t.Error("testdata/v0.1.0.db changed")
	}
}

// checkV010 checks the values writeV010 stored.
func checkV010(t *testing.T, d *DB) {
	t.Helper()
	day := func(s string) time.Time {
		t.Helper()
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}

	// Names and keys.
	for _, c := range [][2]string{{v010Ann, "ann"}, {v010Ann, "annie"}, {v010Bob, "bob"}, {v010Carol, "carol"}} {
		if err := d.Claim(c[0], c[1]); err != nil {
			t.Errorf("the key of %s claiming it again: %v", c[1], err)
		}
		if err := d.Claim("SHA256:someone-else", c[1]); !errors.Is(err, ErrNameTaken) {
			t.Errorf("another key claiming %s: %v, want ErrNameTaken", c[1], err)
		}
	}
	// The bell.
	if !d.Bell(v010Ann) || d.Bell(v010Bob) || !d.Bell(v010Carol) {
		t.Errorf("bells: ann %v, bob %v, carol %v; want on, off, on", d.Bell(v010Ann), d.Bell(v010Bob), d.Bell(v010Carol))
	}

	// The ratings of the rated match.
	board, err := d.Leaderboard("stonetowers", 0)
	if err != nil || len(board) != 2 {
		t.Fatalf("leaderboard: %+v, %v", board, err)
	}
	want := []record.Standing{ // bob won; a standing keeps the name its player had in the match
		{Rank: 1, PlayerID: v010Bob, Name: "bob", Game: "stonetowers", Games: 1, Wins: 1, Provisional: true},
		{Rank: 2, PlayerID: v010Ann, Name: "ann", Game: "stonetowers", Games: 1, Losses: 1, Provisional: true},
	}
	want[0].Rating.R, want[0].Rating.RD, want[0].Rating.Vol = v010Winner[0], v010Winner[1], v010Winner[2]
	want[1].Rating.R, want[1].Rating.RD, want[1].Rating.Vol = v010Loser[0], v010Loser[1], v010Loser[2]
	for i := range want {
		want[i].Last = day(v010Ended)
		if board[i] != want[i] {
			t.Errorf("standing %d: %+v\nwant %+v", i+1, board[i], want[i])
		}
	}

	// The rated match, with its moves.
	m, err := d.Match(v010Rated)
	if err != nil || m.Code != "K7QXM" || m.Game != "stonetowers" || m.Seed != 11 || m.Options["size"] != "8" ||
		len(m.Seats) != 2 || m.Seats[0].Name != "ann" || m.Seats[1].PlayerID != v010Bob ||
		!m.Finished() || !m.Rated || m.Unrated || !m.Outcome.Over || m.Plies != v010RatedPlies || len(m.Moves) != v010RatedPlies ||
		!m.Ended.Equal(day(v010Ended)) || !m.Started.Equal(v010Start.Add(time.Hour)) {
		t.Fatalf("the rated match: %+v, %v", m, err)
	}
	if m.Outcome.Ranks[0] != 2 || m.Outcome.Ranks[1] != 1 || m.Outcome.Scores[0] != 30 || m.Outcome.Scores[1] != 32 || m.Moves[0].Move != v010FirstMove ||
		!m.Moves[0].At.Equal(v010Start.Add(time.Hour+20*time.Second)) || m.Moves[1].Seat != 1 {
		t.Errorf("the rated match's outcome and moves: %+v, %+v", m.Outcome, m.Moves[:2])
	}
	if _, err := m.Final(stonetowers.Game); err != nil {
		t.Errorf("the rated match does not replay: %v", err)
	}

	// The solo score.
	best, err := d.SoloScores("lhexicon", 0)
	if err != nil || len(best) != 1 || best[0].PlayerID != v010Carol || best[0].Name != "carol" || best[0].Games != 1 ||
		best[0].Score != v010SoloScore || best[0].Match != v010Solo || !best[0].Date.Equal(day(v010SoloEnded)) {
		t.Errorf("solo scores: %+v, %v", best, err)
	}
	if m, err := d.Match(v010Solo); err != nil || len(m.Moves) != 3 || m.Moves[2].Move != "end" || m.Outcome.Scores[0] != v010SoloScore {
		t.Errorf("the solo match: %+v, %v", m, err)
	}

	// The unfinished match: the takeback and the bot's seat.
	open, bad, err := d.Unfinished()
	if err != nil || len(bad) != 0 || len(open) != 1 {
		t.Fatalf("unfinished: %+v, %+v, %v", open, bad, err)
	}
	u := open[0]
	if u.ID != v010Open || u.Code != "W2PLB" || u.Finished() || len(u.Moves) != 3 || u.Moves[2].Move != "f c3" ||
		u.Seats[1] != (record.Seat{Name: "Ada (easy bot)", Bot: "easy"}) || u.Seats[0].Name != "bob" {
		t.Errorf("the unfinished match: %+v", u)
	}
	if id, ok := d.ActiveMatch("W2PLB"); !ok || id != v010Open {
		t.Errorf("room W2PLB's match: %q, %v", id, ok)
	}
	if _, ok := d.ActiveMatch("GONE1"); ok {
		t.Error("the abandoned match is a room's again")
	}

	// Profiles: the latest name, the date of the first claim, the matches by player.
	p, err := d.Profile(v010Ann, 10)
	if err != nil || p.Name != "annie" || !p.Since.Equal(v010Start.Add(time.Second)) || p.Played["stonetowers"] != 1 ||
		p.Won["stonetowers"] != 0 || len(p.Recent) != 2 || p.Recent[0].ID != v010Gone || p.Recent[1].ID != v010Rated ||
		len(p.Standings) != 1 {
		t.Errorf("ann's profile: %+v, %v", p, err)
	}
	p, err = d.Profile(v010Carol, 10)
	if err != nil || p.Name != "carol" || len(p.Solo) != 1 || p.Solo[0].Score != v010SoloScore || len(p.Recent) != 2 {
		t.Errorf("carol's profile: %+v, %v", p, err)
	}
}

// What v0.1.0 stored, as writeV010 made it: the IDs of the matches, the end of the rated match,
// the ratings it gave, its moves, and the solo score.
const (
	v010Rated      = "49k4sm85zau"
	v010Solo       = "49k4smacred"
	v010Open       = "49k4smckghx"
	v010Gone       = "49k4smdpv48"
	v010Ended      = "2026-11-27T21:06:40Z" // its last move's time
	v010SoloEnded  = "2026-11-27T21:07:40Z"
	v010RatedPlies = 20
	v010FirstMove  = "b f6"
	v010SoloScore  = 6
)

// The ratings (R, RD, volatility) of the rated match's winner and loser.
var (
	v010Winner = [3]float64{1662.3108939062977, 290.31896371798047, 0.05999967537233814}
	v010Loser  = [3]float64{1337.6891060937023, 290.31896371798047, 0.05999967537233814}
)
