package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/sanitize"
)

// t0 is when the replicated history of the tests begins.
var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// legalMoves returns plies moves of a stonetowers match (size 8, two seats, seed), each the first
// legal move of the seat to move, played after the moves before (nil: from the start), each
// dated a second after the one before from at.
func legalMoves(t *testing.T, seed uint64, before []record.Move, plies int, at time.Time) []record.Move {
	t.Helper()
	e, err := stonetowers.Game.New(rules.Options{"size": "8"}, 2, seed)
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range before {
		if e, err = e.Apply(mv.Seat, mv.Move); err != nil {
			t.Fatal(err)
		}
	}
	var out []record.Move
	for i := range plies {
		seat := e.ToMove()[0]
		mv := e.Legal(seat)[0]
		if e, err = e.Apply(seat, mv); err != nil {
			t.Fatal(err)
		}
		out = append(out, record.Move{Seat: seat, Move: mv, At: at.Add(time.Duration(i) * time.Second)})
	}
	return out
}

// clusterHistory is a shared history: two players claim their names; a rated stonetowers match
// with a takeback, ended with ann first; a match whose second seat a bot takes over; a solo
// lhexicon match of ann's; a match abandoned; a match left unfinished; bob turns his bell off.
// The change at position i+1 is the history's [i]. starts maps the rooms to the positions of
// their start changes.
func clusterHistory(t *testing.T) (h []Change, starts map[string]uint64) {
	t.Helper()
	starts = map[string]uint64{}
	add := func(c Change) {
		h = append(h, c)
		if c.Kind == ChangeStart {
			starts[c.Code] = uint64(len(h))
		}
	}
	at := func(minutes int) time.Time { return t0.Add(time.Duration(minutes) * time.Minute) }
	start := func(code, game string, seats []record.Seat, seed uint64, minute int) {
		add(Change{Kind: ChangeStart, Code: code, At: at(minute), Match: &record.Match{
			ID: "ignored", Game: game, Options: rules.Options{"size": "8"}, Seed: seed, Seats: seats, Started: at(minute)}})
	}
	add(Change{Kind: ChangeClaim, PlayerID: ann.PlayerID, Name: ann.Name, At: at(0)})
	add(Change{Kind: ChangeClaim, PlayerID: bob.PlayerID, Name: bob.Name, At: at(0)})

	start("DUEL1", "stonetowers", []record.Seat{ann, bob}, 7, 1)
	played := legalMoves(t, 7, nil, 6, at(2))
	for i, mv := range played {
		add(Change{Kind: ChangeMove, Code: "DUEL1", Ply: i, Move: &mv})
	}
	// Also a start of another room between moves of the first.
	start("DUEL2", "stonetowers", []record.Seat{ann, bob}, 8, 3)
	add(Change{Kind: ChangeTakeback, Code: "DUEL1", Ply: 4})
	for i, mv := range legalMoves(t, 7, played[:4], 3, at(4)) {
		add(Change{Kind: ChangeMove, Code: "DUEL1", Ply: 4 + i, Move: &mv})
	}
	add(Change{Kind: ChangeEnd, Code: "DUEL1", At: at(9),
		Outcome: rules.Outcome{Over: true, Scores: []int{30, 20}, Ranks: []int{1, 2}, Reason: "all turns played"}})

	add(Change{Kind: ChangeSeats, Code: "DUEL2", Seats: []record.Seat{ann, {Name: "hard bot", Bot: "hard"}}})
	add(Change{Kind: ChangeEnd, Code: "DUEL2", At: at(10),
		Outcome: rules.Outcome{Over: true, Scores: []int{5, 9}, Ranks: []int{2, 1}, Reason: "all turns played"}})

	start("SOLO1", "lhexicon", []record.Seat{ann}, 9, 11)
	add(Change{Kind: ChangeEnd, Code: "SOLO1", At: at(12), Outcome: rules.Outcome{Over: true, Scores: []int{42}, Ranks: []int{1}}})

	start("GONE1", "stonetowers", []record.Seat{bob, ann}, 10, 13)
	add(Change{Kind: ChangeAbandon, Code: "GONE1"})

	start("OPEN1", "stonetowers", []record.Seat{bob, ann}, 11, 14)
	for i, mv := range legalMoves(t, 11, nil, 2, at(15)) {
		add(Change{Kind: ChangeMove, Code: "OPEN1", Ply: i, Move: &mv})
	}
	add(Change{Kind: ChangeBell, PlayerID: bob.PlayerID, Bell: false})
	return h, starts
}

// applyAll applies the history h from position 1, failing the test on any error.
func applyAll(t *testing.T, d *DB, h []Change) {
	t.Helper()
	for i, c := range h {
		if err := d.Apply(uint64(i+1), c); err != nil {
			t.Fatalf("change %d: %v", i+1, err)
		}
	}
}

// dump returns every key and value of the file, nested buckets included.
func dump(t *testing.T, d *DB) map[string]string {
	t.Helper()
	out := map[string]string{}
	var walk func(prefix string, b *bolt.Bucket) error
	walk = func(prefix string, b *bolt.Bucket) error {
		return b.ForEach(func(k, v []byte) error {
			if v == nil {
				return walk(prefix+string(k)+"/", b.Bucket(k))
			}
			out[prefix+string(k)] = string(v)
			return nil
		})
	}
	err := d.view(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error { return walk(string(name)+"/", b) })
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// state is what the store shows of the history of clusterHistory.
type state struct {
	Board, Solo   any
	Ann, Bob      record.Profile
	Matches       map[string]record.Match
	Active        map[string]string
	Unfinished    []record.Match
	Ratings       any
	AnnBell, Bell bool
	Applied       uint64
}

func stateOf(t *testing.T, d *DB, starts map[string]uint64) state {
	t.Helper()
	s := state{Matches: map[string]record.Match{}, Active: map[string]string{}}
	var err error
	if s.Board, err = d.Leaderboard("stonetowers", 0); err != nil {
		t.Fatal(err)
	}
	if s.Solo, err = d.SoloScores("lhexicon", 0); err != nil {
		t.Fatal(err)
	}
	if s.Ann, err = d.Profile(ann.PlayerID, 10); err != nil {
		t.Fatal(err)
	}
	if s.Bob, err = d.Profile(bob.PlayerID, 10); err != nil {
		t.Fatal(err)
	}
	for code := range starts {
		id, _ := d.ActiveMatch(code)
		s.Active[code] = id
	}
	for code, id := range matchIDs(t, d, starts) {
		if s.Matches[code], err = d.Match(id); err != nil {
			t.Fatalf("match of %s: %v", code, err)
		}
	}
	var bad []Damage
	if s.Unfinished, bad, err = d.Unfinished(); err != nil || len(bad) > 0 {
		t.Fatalf("unfinished: %v, %v", bad, err)
	}
	if s.Ratings, err = d.Ratings("stonetowers", []string{ann.PlayerID, bob.PlayerID}); err != nil {
		t.Fatal(err)
	}
	s.AnnBell, s.Bell = d.Bell(ann.PlayerID), d.Bell(bob.PlayerID)
	s.Applied = d.Applied()
	return s
}

// matchIDs returns the IDs of the matches of starts, the rooms' start positions, as MatchID
// derives them from the changes, checking that the store has each.
func matchIDs(t *testing.T, d *DB, starts map[string]uint64) map[string]string {
	t.Helper()
	h, _ := clusterHistory(t)
	ids := map[string]string{}
	for code, seq := range starts {
		ids[code] = MatchID(seq, h[seq-1].At)
	}
	return ids
}

// TestReplicasAgree: two fresh replicas, whose clocks disagree, fed the same history (one of them
// through its JSON, as the stream carries it) hold the same file byte for byte and show the same
// leaderboard, profiles, matches, solo scores and ratings; the matches have the IDs MatchID gives,
// the ratings are dated by the history, and Check finds the files clean.
func TestReplicasAgree(t *testing.T) {
	h, starts := clusterHistory(t)
	a, _ := openTemp(t)
	b, _ := openTemp(t)
	a.now = func() time.Time { return time.Date(2031, 1, 2, 3, 4, 5, 0, time.UTC) }
	b.now = func() time.Time { return time.Date(1999, 6, 7, 8, 9, 10, 0, time.FixedZone("x", 3600)) }
	applyAll(t, a, h)
	for i, c := range h {
		data, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var back Change
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		if err := b.Apply(uint64(i+1), back); err != nil {
			t.Fatalf("change %d through JSON %s: %v", i+1, data, err)
		}
	}
	// A third takes the history in batches, as a node's replica does.
	c, _ := openTemp(t)
	for from := 0; from < len(h); from += 7 {
		var batch []Numbered
		for i := from; i < min(from+7, len(h)); i++ {
			batch = append(batch, Numbered{Seq: uint64(i + 1), Change: h[i]})
		}
		if _, err := c.ApplyAll(batch); err != nil {
			t.Fatalf("ApplyAll from change %d: %v", from+1, err)
		}
	}
	sa, sb, sc := stateOf(t, a, starts), stateOf(t, b, starts), stateOf(t, c, starts)
	if !reflect.DeepEqual(sa, sb) || !reflect.DeepEqual(sa, sc) {
		t.Errorf("the replicas differ:\n%+v\n%+v\n%+v", sa, sb, sc)
	}
	if da, db, dc := dump(t, a), dump(t, b), dump(t, c); !maps.Equal(da, db) || !maps.Equal(da, dc) {
		t.Errorf("the files differ:\n%q\n%q\n%q", da, db, dc)
	}

	if sa.Applied != uint64(len(h)) {
		t.Errorf("Applied = %d, want %d", sa.Applied, len(h))
	}
	ids := matchIDs(t, a, starts)
	if len(ids["DUEL1"]) != 11 {
		t.Errorf("match ID %q is not 11 characters", ids["DUEL1"])
	}
	for code, m := range sa.Matches {
		if m.ID != ids[code] || m.Code != code {
			t.Errorf("match of %s: ID %s code %s, want %s", code, m.ID, m.Code, ids[code])
		}
	}
	if got := sa.Active; got["OPEN1"] != ids["OPEN1"] || got["DUEL1"] != "" || got["GONE1"] != "" || got["SOLO1"] != "" {
		t.Errorf("rooms' unfinished matches: %v", got)
	}
	if len(sa.Unfinished) != 1 || sa.Unfinished[0].ID != ids["OPEN1"] || len(sa.Unfinished[0].Moves) != 2 {
		t.Errorf("unfinished: %+v", sa.Unfinished)
	}

	duel := sa.Matches["DUEL1"]
	var moves []string
	for _, mv := range duel.Moves {
		moves = append(moves, mv.Move)
	}
	want := legalMoves(t, 7, nil, 4, t0)
	want = append(want, legalMoves(t, 7, want, 3, t0)...)
	var wantMoves []string
	for _, mv := range want {
		wantMoves = append(wantMoves, mv.Move)
	}
	if !reflect.DeepEqual(moves, wantMoves) || duel.Plies != 7 || !duel.Rated || duel.Seed != 7 || duel.Options["size"] != "8" {
		t.Errorf("DUEL1: moves %q (want %q), plies %d, rated %v, %+v", moves, wantMoves, duel.Plies, duel.Rated, duel)
	}
	// Its moves ended it: it ended with its last move (see endTime), a time of the history's.
	lastMove := duel.Moves[len(duel.Moves)-1].At
	if !duel.Ended.Equal(lastMove) || lastMove.IsZero() {
		t.Errorf("DUEL1 ended at %v, want its last move's time %v", duel.Ended, lastMove)
	}
	if d2 := sa.Matches["DUEL2"]; d2.Rated || d2.Seats[1].Bot != "hard" || !d2.Ended.Equal(t0.Add(10*time.Minute)) {
		t.Errorf("DUEL2, a bot in a seat: rated %v, seats %+v, ended %v", d2.Rated, d2.Seats, d2.Ended)
	}
	if g := sa.Matches["GONE1"]; g.Finished() {
		t.Errorf("the abandoned match is finished: %+v", g)
	}

	board := sa.Board.([]record.Standing)
	if len(board) != 2 || board[0].PlayerID != ann.PlayerID || board[0].Wins != 1 || board[1].Losses != 1 ||
		board[0].Rating.R <= 1500 || board[1].Rating.R >= 1500 {
		t.Fatalf("leaderboard: %+v", board)
	}
	for _, st := range board {
		if !st.Last.Equal(duel.Ended) {
			t.Errorf("%s rated as of %v, want the match's end %v (never the local clock)", st.Name, st.Last, duel.Ended)
		}
	}
	solo := sa.Solo.([]record.SoloScore)
	if len(solo) != 1 || solo[0].Score != 42 || solo[0].Match != ids["SOLO1"] || !solo[0].Date.Equal(t0.Add(12*time.Minute)) {
		t.Errorf("solo scores: %+v", solo)
	}
	if sa.Ann.Name != "ann" || !sa.Ann.Since.Equal(t0) || sa.Ann.Played["stonetowers"] != 2 || sa.Ann.Won["stonetowers"] != 1 ||
		len(sa.Ann.Solo) != 1 || len(sa.Ann.Recent) != 5 {
		t.Errorf("ann's profile: %+v", sa.Ann)
	}
	if !sa.AnnBell || sa.Bell {
		t.Errorf("bells: ann %v, bob %v; want ann's on, bob's off", sa.AnnBell, sa.Bell)
	}

	games := []rules.Game{stonetowers.Game, lhexicon.Game}
	for _, d := range []*DB{a, b} {
		if r, err := d.Check(games); err != nil || !r.Clean() || r.Matches != len(starts) {
			t.Errorf("Check of a replica: %+v, %v", r, err)
		}
	}
}

// TestApplyTwiceChangesNothing: applying the history again, from the start or after a reopen,
// changes nothing; the position survives the reopen (a read-only one too, which Check finds
// clean), and the replica goes on from it.
func TestApplyTwiceChangesNothing(t *testing.T) {
	h, starts := clusterHistory(t)
	d, path := openTemp(t)
	applyAll(t, d, h)
	before, files := stateOf(t, d, starts), dump(t, d)
	applyAll(t, d, h)
	if again := stateOf(t, d, starts); !reflect.DeepEqual(before, again) {
		t.Errorf("applying the history twice changed the store:\n%+v\n%+v", before, again)
	}
	if again := dump(t, d); !maps.Equal(files, again) {
		t.Errorf("applying the history twice changed the file")
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	ro, err := Open(path, Options{LockTimeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := ro.Applied(); got != uint64(len(h)) {
		t.Errorf("Applied of a read-only look = %d, want %d", got, len(h))
	}
	if r, err := ro.Check([]rules.Game{stonetowers.Game, lhexicon.Game}); err != nil || !r.Clean() {
		t.Errorf("Check of a read-only look: %+v, %v", r, err)
	}
	ro.Close()

	d, err = Open(path, Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got := d.Applied(); got != uint64(len(h)) {
		t.Fatalf("Applied after reopen = %d, want %d", got, len(h))
	}
	applyAll(t, d, h)
	if again := stateOf(t, d, starts); !reflect.DeepEqual(before, again) {
		t.Errorf("the history applied again after a reopen changed the store:\n%+v\n%+v", before, again)
	}
	// The unfinished match is the room's after the reopen, and the history goes on.
	next := legalMoves(t, 11, before.Unfinished[0].Moves, 1, t0.Add(time.Hour))[0]
	if err := d.Apply(uint64(len(h)+1), Change{Kind: ChangeMove, Code: "OPEN1", Ply: 2, Move: &next}); err != nil {
		t.Fatal(err)
	}
	if m, err := d.Match(matchIDs(t, d, starts)["OPEN1"]); err != nil || len(m.Moves) != 3 || m.Moves[2].Move != next.Move {
		t.Errorf("OPEN1 after a move applied after the reopen: %+v, %v", m, err)
	}
	if got := d.Applied(); got != uint64(len(h)+1) {
		t.Errorf("Applied = %d, want %d", got, len(h)+1)
	}
}

// TestApplySkips: a change that cannot apply changes nothing but the position, and says so with
// ErrSkipped; a change at or before the position is skipped silently.
func TestApplySkips(t *testing.T) {
	d, _ := openTemp(t)
	if got := d.Applied(); got != 0 {
		t.Fatalf("Applied of a new file = %d", got)
	}
	mv := record.Move{Seat: 0, Move: "b a1"}
	before := dump(t, d)
	bad := []struct {
		c    Change
		also error
	}{
		{Change{Kind: ChangeMove, Code: "NOSUCH", Ply: 0, Move: &mv}, nil},
		{Change{Kind: ChangeEnd, Code: "NOSUCH", At: t0, Outcome: rules.Outcome{Over: true, Ranks: []int{1, 2}}}, nil},
		{Change{Kind: ChangeSeats, Code: "NOSUCH", Seats: twoPlayers()}, nil},
		{Change{Kind: ChangeTakeback, Code: "NOSUCH"}, nil},
		{Change{Kind: ChangeClaim, PlayerID: "SHA256:eve", Name: "ANN", At: t0}, sanitize.ErrBadName},
		{Change{Kind: ChangeClaim, PlayerID: "SHA256:eve", Name: "\u0430nn", At: t0}, sanitize.ErrBadName},
		{Change{Kind: ChangeBell, PlayerID: "SHA256:nobody", Bell: true}, ErrNoPlayer},
		{Change{Kind: ChangeStart, Code: "K7QXM", At: t0}, nil}, // no match
		{Change{Kind: ChangeUndecodable}, nil},
	}
	for i, b := range bad {
		seq := uint64(i + 1)
		err := d.Apply(seq, b.c)
		if !errors.Is(err, ErrSkipped) || (b.also != nil && !errors.Is(err, b.also)) {
			t.Errorf("%s change %+v: %v, want ErrSkipped (and %v)", b.c.Kind, b.c, err, b.also)
		}
		if got := d.Applied(); got != seq {
			t.Errorf("after the skipped change %d, Applied = %d", seq, got)
		}
	}
	after := dump(t, d)
	delete(after, "meta/applied")
	if !maps.Equal(before, after) {
		t.Errorf("skipped changes wrote to the file:\n%q\n%q", before, after)
	}

	// A move that would leave a gap, and a start that would take a match's ID, are skipped too;
	// nothing of the change is written.
	seq := uint64(len(bad))
	start := Change{Kind: ChangeStart, Code: "K7QXM", At: t0, Match: &record.Match{Game: "stonetowers", Seats: twoPlayers(), Started: t0}}
	seq++
	startSeq := seq
	if err := d.Apply(seq, start); err != nil {
		t.Fatal(err)
	}
	id := MatchID(seq, t0)
	if got, ok := d.ActiveMatch("K7QXM"); !ok || got != id {
		t.Fatalf("ActiveMatch = %q %v, want %q", got, ok, id)
	}
	seq++
	if err := d.Apply(seq, Change{Kind: ChangeMove, Code: "K7QXM", Ply: 1, Move: &mv}); !errors.Is(err, ErrSkipped) {
		t.Errorf("a move after a gap: %v, want ErrSkipped", err)
	}
	seq = startSeq + 1024 // the same low 10 bits, the same time: the same ID
	if err := d.Apply(seq, Change{Kind: ChangeStart, Code: "OTHER", At: t0, Match: start.Match}); !errors.Is(err, ErrSkipped) {
		t.Errorf("a start whose ID is taken: %v, want ErrSkipped", err)
	}
	if _, ok := d.ActiveMatch("OTHER"); ok {
		t.Error("the skipped start made its room's match")
	}
	if m, err := d.Match(id); err != nil || len(m.Moves) != 0 || m.Code != "K7QXM" {
		t.Errorf("match after the skipped changes: %+v, %v", m, err)
	}
	if got := d.Applied(); got != seq {
		t.Errorf("Applied = %d, want %d", got, seq)
	}

	// At or before the position: nothing, not even an error.
	if err := d.Apply(1, Change{Kind: ChangeClaim, PlayerID: "SHA256:eve", Name: "eve", At: t0}); err != nil {
		t.Errorf("a change before the position: %v", err)
	}
	if p, _ := d.Profile("SHA256:eve", 0); p.Name != "" {
		t.Errorf("a change before the position was applied: %+v", p)
	}
	if err := d.Apply(seq, Change{Kind: ChangeAbandon, Code: "K7QXM"}); err != nil {
		t.Errorf("the change at the position again: %v", err)
	}
	if _, ok := d.ActiveMatch("K7QXM"); !ok {
		t.Error("a change at the position was applied again")
	}
	if err := d.Apply(0, Change{Kind: ChangeAbandon, Code: "K7QXM"}); err == nil || errors.Is(err, ErrSkipped) {
		t.Errorf("a change at position 0: %v, want an error (not ErrSkipped)", err)
	}
}

// TestApplyClaim: a claim the cluster decided binds the name to its key even when another key
// holds it here; a claim keeps the player's creation and bell; a bell of a key with no player is
// skipped.
func TestApplyClaim(t *testing.T) {
	d, _ := openTemp(t)
	seq := uint64(0)
	apply := func(c Change) error {
		seq++
		return d.Apply(seq, c)
	}
	if err := apply(Change{Kind: ChangeClaim, PlayerID: "SHA256:one", Name: "zed", At: t0}); err != nil {
		t.Fatal(err)
	}
	if err := apply(Change{Kind: ChangeClaim, PlayerID: "SHA256:two", Name: "zed", At: t0.Add(time.Hour)}); err != nil {
		t.Fatalf("the cluster's claim of a name held here: %v", err)
	}
	if err := d.Claim("SHA256:one", "zed"); !errors.Is(err, ErrNameTaken) {
		t.Errorf("the first key claiming zed after the rebinding: %v, want ErrNameTaken", err)
	}
	if err := d.Claim("SHA256:two", "zed"); err != nil {
		t.Errorf("the second key claiming zed: %v", err)
	}
	if p, err := d.Profile("SHA256:two", 0); err != nil || p.Name != "zed" || !p.Since.Equal(t0.Add(time.Hour)) {
		t.Errorf("the second key's profile: %+v, %v", p, err)
	}

	if err := apply(Change{Kind: ChangeBell, PlayerID: "SHA256:two", Bell: false}); err != nil {
		t.Fatal(err)
	}
	if err := apply(Change{Kind: ChangeClaim, PlayerID: "SHA256:two", Name: "zeta", At: t0.Add(2 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	p, err := d.Profile("SHA256:two", 0)
	if err != nil || p.Name != "zeta" || !p.Since.Equal(t0.Add(time.Hour)) || d.Bell("SHA256:two") {
		t.Errorf("after a second name: %+v (bell %v), %v; want zeta, created at the first claim, bell off",
			p, d.Bell("SHA256:two"), err)
	}
	if err := apply(Change{Kind: ChangeBell, PlayerID: "SHA256:two", Bell: true}); err != nil || !d.Bell("SHA256:two") {
		t.Errorf("bell on: %v, %v", err, d.Bell("SHA256:two"))
	}
	err = apply(Change{Kind: ChangeBell, PlayerID: "SHA256:nobody", Bell: false})
	if !errors.Is(err, ErrSkipped) || !errors.Is(err, ErrNoPlayer) {
		t.Errorf("the bell of an unknown key: %v, want ErrSkipped", err)
	}
	if d.Applied() != seq {
		t.Errorf("Applied = %d, want %d", d.Applied(), seq)
	}
}

// TestRatingIgnoresTheClock: the same matches applied to replicas whose clocks disagree, ended
// by changes (with moves without times, so that the end change's time dates them), rate the
// same and are dated by the changes.
func TestRatingIgnoresTheClock(t *testing.T) {
	var h []Change
	for i := range 3 {
		code := fmt.Sprintf("ROOM%d", i)
		at := t0.Add(time.Duration(i) * time.Hour)
		h = append(h,
			Change{Kind: ChangeStart, Code: code, At: at, Match: &record.Match{Game: "stonetowers", Seats: twoPlayers(), Started: at}},
			Change{Kind: ChangeEnd, Code: code, At: at.Add(time.Minute),
				Outcome: rules.Outcome{Over: true, Scores: []int{2, 1}, Ranks: []int{1 + i%2, 2 - i%2}}})
	}
	var boards [][]record.Standing
	for _, now := range []time.Time{time.Date(2040, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)} {
		d, err := Open(filepath.Join(t.TempDir(), "arcade.db"), Options{LockTimeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		d.now = func() time.Time { return now }
		applyAll(t, d, h)
		board, err := d.Leaderboard("stonetowers", 0)
		d.Close()
		if err != nil {
			t.Fatal(err)
		}
		boards = append(boards, board)
	}
	if !reflect.DeepEqual(boards[0], boards[1]) {
		t.Errorf("the ratings depend on the clock:\n%+v\n%+v", boards[0], boards[1])
	}
	if b := boards[0]; len(b) != 2 || b[0].Games != 3 || !b[0].Last.Equal(t0.Add(2*time.Hour+time.Minute)) {
		t.Errorf("leaderboard %+v: want 3 games each, rated as of the last end change", b)
	}
}

// TestMatchID: the IDs of starts sort by time and, in the same millisecond, by position; they are
// spelt as StartMatch spells its own.
func TestMatchID(t *testing.T) {
	ids := []string{MatchID(5, t0), MatchID(6, t0), MatchID(1, t0.Add(time.Millisecond)), MatchID(1, t0.Add(time.Hour))}
	for i, id := range ids {
		if len(id) != 11 {
			t.Errorf("MatchID %q is not 11 characters", id)
		}
		if i > 0 && ids[i-1] >= id {
			t.Errorf("MatchIDs out of order: %q then %q", ids[i-1], id)
		}
	}
	if MatchID(5, t0) != MatchID(5+1024, t0.In(time.FixedZone("x", 7200))) {
		t.Error("MatchID depends on more than the time's millisecond and the position's low 10 bits")
	}
	d, _ := openTemp(t)
	d.now = func() time.Time { return t0 }
	d.seq = 4
	d.mu.Lock()
	local := d.newID()
	d.mu.Unlock()
	if local != MatchID(5, t0) {
		t.Errorf("StartMatch's ID %q and MatchID's %q differ for the same millisecond and tail", local, MatchID(5, t0))
	}
}

// TestApplyFence: a fence changes nothing in the store but the position.
func TestApplyFence(t *testing.T) {
	d, _ := openTemp(t)
	before := dump(t, d)
	if err := d.Apply(1, Change{Kind: ChangeFence, Code: "K7QXM"}); err != nil {
		t.Fatalf("fence: %v", err)
	}
	if d.Applied() != 1 {
		t.Errorf("Applied = %d, want 1", d.Applied())
	}
	after := dump(t, d)
	delete(after, "meta/applied")
	delete(before, "meta/applied")
	if !maps.Equal(before, after) {
		t.Errorf("a fence changed the store:\n%q\n%q", before, after)
	}
}
