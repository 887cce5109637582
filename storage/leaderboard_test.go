package storage

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/rating"
	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon"
	"github.com/arcade/arcade/rules/stonetowers"
)

// putStandings stores the standings sts (each under its Game and PlayerID) as rate does: the
// standing in ratings and its entry in the index, moved from the standing it replaces.
func putStandings(t testing.TB, d *DB, sts []record.Standing) {
	t.Helper()
	err := d.writes.do(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketRatings)
		for _, st := range sts {
			var old record.Standing
			found, err := getJSON(b, pairKey(st.Game, st.PlayerID), &old)
			if err != nil {
				return err
			}
			if err := putJSON(b, pairKey(st.Game, st.PlayerID), st); err != nil {
				return err
			}
			var was *record.Standing
			if found {
				was = &old
			}
			if err := boardMove(tx, st.Game, st.PlayerID, was, st); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// fillBoard stores the standings of players new players of stonetowers with random ratings,
// as rate would leave them, in key order (the quick way to write many).
func fillBoard(t testing.TB, d *DB, players int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 8))
	err := d.writes.do(func(tx *bolt.Tx) error {
		ratings, board := tx.Bucket(bucketRatings), tx.Bucket(bucketBoard)
		ratings.FillPercent, board.FillPercent = 0.95, 0.95
		keys := make([][]byte, players)
		for i := range players {
			id := fmt.Sprintf("SHA256:%07d", i)
			st := record.Standing{PlayerID: id, Game: "stonetowers", Name: fmt.Sprintf("p%07d", i),
				Rating: rating.Rating{R: 1000 + rng.Float64()*1000, RD: 80, Vol: 0.06}, Games: 20, Wins: 10, Losses: 10,
				Last: time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)}
			if err := putJSON(ratings, pairKey("stonetowers", id), st); err != nil {
				return err
			}
			keys[i] = boardKey("stonetowers", id, st)
		}
		slices.SortFunc(keys, bytes.Compare)
		sum, skipped := boardSum(board)
		for _, k := range keys {
			sum ^= keyHash(k)
			if err := board.Put(k, nil); err != nil {
				return err
			}
		}
		return putBoardSum(board, sum, skipped)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// randomStandings returns n standings of game with random ratings from a small set (so that
// ties happen), half of them provisional, names unique.
func randomStandings(rng *rand.Rand, game string, n int) []record.Standing {
	out := make([]record.Standing, n)
	for i := range out {
		r := rating.Rating{R: 1200 + float64(rng.IntN(40))*12.5, RD: 60 + float64(rng.IntN(2))*200, Vol: 0.06}
		if rng.IntN(50) == 0 {
			r.R = -r.R // a few below zero, where the byte order of floats turns
		}
		id := rng.IntN(n * 4)
		out[i] = record.Standing{PlayerID: fmt.Sprintf("SHA256:%s-%d", game, id), Game: game,
			Name: fmt.Sprintf("p%d", id), Rating: r, Games: rng.IntN(30)}
	}
	return out
}

// fullSort is the leaderboard as it was made before the index: every standing of game decoded
// and sorted, established first, then by rating, then by name.
func fullSort(t *testing.T, d *DB, game string) []record.Standing {
	t.Helper()
	var out []record.Standing
	err := d.view(func(tx *bolt.Tx) error {
		prefix := []byte(game + "\x00")
		c := tx.Bucket(bucketRatings).Cursor()
		for k, v := c.Seek(prefix); k != nil && strings.HasPrefix(string(k), string(prefix)); k, v = c.Next() {
			var st record.Standing
			if decode(k, v, &st) != nil {
				continue
			}
			st.Provisional = st.Rating.Provisional()
			out = append(out, st)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(out, func(a, b record.Standing) int {
		if a.Provisional != b.Provisional {
			if a.Provisional {
				return 1
			}
			return -1
		}
		if a.Rating.R != b.Rating.R {
			if a.Rating.R > b.Rating.R {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// TestLeaderboardIndexEqualsFullSort: on random tables of two games, changed again at random,
// every page of the leaderboard read from the index is the old full sort's.
func TestLeaderboardIndexEqualsFullSort(t *testing.T) {
	for seed := range uint64(5) {
		rng := rand.New(rand.NewPCG(seed, 99))
		d, _ := openTemp(t)
		putStandings(t, d, append(randomStandings(rng, "stonetowers", 300), randomStandings(rng, "discon", 100)...))
		putStandings(t, d, randomStandings(rng, "stonetowers", 300)) // some of the same keys again
		for _, game := range []string{"stonetowers", "discon", "flicflac"} {
			want := fullSort(t, d, game)
			for _, limit := range []int{0, 1, 15, 50, 100, 101, 1000} {
				got, err := d.Leaderboard(game, limit)
				if err != nil {
					t.Fatal(err)
				}
				w := want
				if limit > 0 && len(w) > limit {
					w = w[:limit]
				}
				if !slices.Equal(got, w) {
					t.Fatalf("seed %d, %s, limit %d: the index gives\n%+v\nthe full sort\n%+v", seed, game, limit, got, w)
				}
			}
		}
		if r, err := d.Check(nil); err != nil || !r.Clean() {
			t.Fatalf("Check after the random changes: %+v, %v", r, err)
		}
	}
}

// TestLeaderboardPageReadsAPage: with 200,000 rated players, the first page of 50 reads 50
// entries of the index and 50 standings, the cost of a page at 200 players.
func TestLeaderboardPageReadsAPage(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 200,000 standings")
	}
	d, _ := openTemp(t)
	const players = 200_000
	fillBoard(t, d, players)
	err := d.view(func(tx *bolt.Tx) error {
		page, read := readBoard(tx, tx.Bucket(bucketBoard), "stonetowers", 50)
		if len(page) != 50 || read != 50 {
			t.Errorf("a page of 50 of %d players: %d standings, %d entries of the index read", players, len(page), read)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestLeaderboardSeesRatingsAtOnce: the cached first page never outlives a rating change, and
// what Leaderboard returns is the caller's to change. Concurrent readers and writers (run with
// -race) agree with the full sort at the end.
func TestLeaderboardSeesRatingsAtOnce(t *testing.T) {
	d, _ := openTemp(t)
	season(t, d, "SHA256:ann", "SHA256:bob")
	if board, _ := d.Leaderboard("stonetowers", 10); len(board) != 0 {
		t.Fatalf("before any match: %+v", board)
	}
	play(t, d, "AAAAA", twoPlayers(), []int{1, 2}, false)
	board, _ := d.Leaderboard("stonetowers", 10)
	if len(board) != 2 || board[0].Name != "ann" {
		t.Fatalf("just after a rated match: %+v", board)
	}
	board[0].Name = "changed"
	if again, _ := d.Leaderboard("stonetowers", 10); again[0].Name != "ann" {
		t.Errorf("a caller's change reached the cache: %+v", again)
	}
	play(t, d, "BBBBB", twoPlayers(), []int{2, 1}, false)
	if board, _ := d.Leaderboard("stonetowers", 10); board[0].Wins+board[1].Wins != 2 {
		t.Errorf("after the second match: %+v", board)
	}

	rng := rand.New(rand.NewPCG(3, 4))
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 50 {
				if _, err := d.Leaderboard("stonetowers", 15); err != nil {
					t.Error(err)
				}
			}
		})
	}
	for range 10 {
		putStandings(t, d, randomStandings(rng, "stonetowers", 20))
	}
	wg.Wait()
	want := fullSort(t, d, "stonetowers")
	if got, _ := d.Leaderboard("stonetowers", 15); !slices.Equal(got, want[:15]) {
		t.Errorf("after the writes: %+v\nwant %+v", got, want[:15])
	}
}

// TestCheckFindsIndexDisagreement: an index entry lost and one that no standing has (as many
// entries as before) are reported by Check; the next Open finds the index's sum wrong and
// rebuilds it, and Check is clean again.
func TestCheckFindsIndexDisagreement(t *testing.T) {
	d, path := openTemp(t)
	putStandings(t, d, randomStandings(rand.New(rand.NewPCG(5, 6)), "stonetowers", 30))
	err := d.writes.do(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketBoard)
		k, _ := b.Cursor().Seek([]byte("stonetowers\x00"))
		if err := b.Delete(bytes.Clone(k)); err != nil {
			return err
		}
		return b.Put([]byte("stonetowers\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00ghost\x00SHA256:ghost"), nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := d.Check(nil)
	if err != nil || r.Clean() || len(r.Damaged) != 2 {
		t.Fatalf("Check of a disagreeing index: %+v, %v", r, err)
	}
	all := r.Damaged[0].Reason + "\n" + r.Damaged[1].Reason
	for _, want := range []string{"no standing has", "missing from the leaderboard index", "rebuilds the index"} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q among the reasons:\n%s", want, all)
		}
	}
	d.Close()
	d = openAt(t, path)
	defer d.Close()
	if r, err := d.Check(nil); err != nil || !r.Clean() {
		t.Errorf("Check after the next open: %+v, %v", r, err)
	}
	if got, want := mustBoard(t, d), fullSort(t, d, "stonetowers"); !slices.Equal(got, want) {
		t.Errorf("the rebuilt index: %+v\nwant %+v", got, want)
	}
}

// syncBoardAnew rebuilds the index whatever it holds (its sum made wrong first).
func syncBoardAnew(tx *bolt.Tx) error {
	b := tx.Bucket(bucketBoard)
	sum, skipped := boardSum(b)
	if err := putBoardSum(b, sum+1, skipped); err != nil {
		return err
	}
	return syncBoard(tx)
}

func mustBoard(t *testing.T, d *DB) []record.Standing {
	t.Helper()
	board, err := d.Leaderboard("stonetowers", 0)
	if err != nil {
		t.Fatal(err)
	}
	return board
}

// TestV010GetsTheIndex: v0.1.0's file has no index: read-only, its leaderboard is sorted from the
// table; the first open for writing builds the index, once.
func TestV010GetsTheIndex(t *testing.T) {
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
		t.Fatal(err)
	}
	before := mustBoard(t, ro)
	ro.Close()
	if len(before) != 2 || before[0].Name != "bob" {
		t.Fatalf("the read-only leaderboard of v0.1.0's file: %+v", before)
	}
	d := openAt(t, path)
	var entries int
	var seq uint64
	_ = d.view(func(tx *bolt.Tx) error {
		entries, seq = tx.Bucket(bucketBoard).Stats().KeyN-1, tx.Bucket(bucketBoard).Sequence() // less the sum
		return nil
	})
	if entries != 2 || !slices.Equal(mustBoard(t, d), before) {
		t.Errorf("after the first open: %d entries, %+v; want 2, %+v", entries, mustBoard(t, d), before)
	}
	d.Close()
	d = openAt(t, path) // agrees now: not rebuilt
	defer d.Close()
	_ = d.view(func(tx *bolt.Tx) error {
		if s := tx.Bucket(bucketBoard).Sequence(); s != seq {
			t.Errorf("the index was rebuilt at the second open (sequence %d, then %d)", seq, s)
		}
		return nil
	})
	if r, err := d.Check([]rules.Game{stonetowers.Game, lhexicon.Game}); err != nil || !r.Clean() {
		t.Errorf("Check: %+v, %v", r, err)
	}
}

// BenchmarkLeaderboard reads a page of 50 from the index at 200 and 200,000 rated players
// (index), the cached first page (cached), and, for comparison, the whole table sorted as
// before the index (fullsort); a rebuild of the index (rebuild: what the first Open of a file
// without it does), and an Open of the file, which checks the index is sound (open).
func BenchmarkLeaderboard(b *testing.B) {
	for _, players := range []int{200, 200_000} {
		path := filepath.Join(b.TempDir(), "arcade.db")
		d, err := Open(path, Options{LockTimeout: time.Second})
		if err != nil {
			b.Fatal(err)
		}
		fillBoard(b, d, players)
		b.Run(fmt.Sprintf("players=%d/index", players), func(b *testing.B) {
			for b.Loop() {
				_ = d.view(func(tx *bolt.Tx) error {
					readBoard(tx, tx.Bucket(bucketBoard), "stonetowers", 50)
					return nil
				})
			}
		})
		b.Run(fmt.Sprintf("players=%d/cached", players), func(b *testing.B) {
			for b.Loop() {
				if _, err := d.Leaderboard("stonetowers", 50); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("players=%d/fullsort", players), func(b *testing.B) {
			for b.Loop() {
				_ = d.view(func(tx *bolt.Tx) error {
					sortedBoard(tx, "stonetowers", 50)
					return nil
				})
			}
		})
		d.Close()
		b.Run(fmt.Sprintf("players=%d/rebuild", players), func(b *testing.B) {
			for b.Loop() {
				d, err := Open(path, Options{LockTimeout: time.Second})
				if err != nil {
					b.Fatal(err)
				}
				if err := d.writes.do(syncBoardAnew); err != nil {
					b.Fatal(err)
				}
				d.Close()
			}
		})
		b.Run(fmt.Sprintf("players=%d/open", players), func(b *testing.B) {
			for b.Loop() {
				d, err := Open(path, Options{LockTimeout: time.Second})
				if err != nil {
					b.Fatal(err)
				}
				d.Close()
			}
		})
	}
}

// TestProfileStandingsPerGame: a profile has the player's standing in each game where there is
// one, found by seeking game by game, and no one else's.
func TestProfileStandingsPerGame(t *testing.T) {
	d, _ := openTemp(t)
	rng := rand.New(rand.NewPCG(9, 10))
	putStandings(t, d, append(randomStandings(rng, "discon", 50), randomStandings(rng, "stonetowers", 50)...))
	ann := func(game string) record.Standing {
		return record.Standing{PlayerID: "SHA256:ann", Name: "ann", Game: game, Rating: rating.Default, Games: 1}
	}
	putStandings(t, d, []record.Standing{ann("coloretta"), ann("stonetowers")})
	p, err := d.Profile("SHA256:ann", 5)
	if err != nil || len(p.Standings) != 2 || p.Standings[0].Game != "coloretta" || p.Standings[1].Game != "stonetowers" ||
		p.Standings[0].PlayerID != "SHA256:ann" || p.Standings[1].PlayerID != "SHA256:ann" {
		t.Errorf("ann's standings: %+v, %v", p.Standings, err)
	}
}

// TestRebuildLeavesDamagedStandingOut: a rebuilt index leaves a damaged standing out, and counts
// it, so that the next Open finds the index sound and does not rebuild it again.
func TestRebuildLeavesDamagedStandingOut(t *testing.T) {
	d, path := openTemp(t)
	putStandings(t, d, randomStandings(rand.New(rand.NewPCG(11, 12)), "stonetowers", 20))
	err := d.writes.do(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketRatings)
		k, v := b.Cursor().First()
		v = bytes.Clone(v)
		v[3] ^= 0x01
		if err := b.Put(bytes.Clone(k), v); err != nil {
			return err
		}
		return syncBoardAnew(tx)
	})
	if err != nil {
		t.Fatal(err)
	}
	seq := func() (s uint64) {
		_ = d.view(func(tx *bolt.Tx) error { s = tx.Bucket(bucketBoard).Sequence(); return nil })
		return s
	}
	before := seq()
	want := fullSort(t, d, "stonetowers")
	for range 2 {
		d.Close()
		d = openAt(t, path)
		if s := seq(); s != before {
			t.Errorf("Open rebuilt the index again (sequence %d, then %d)", before, s)
		}
		if got := mustBoard(t, d); !slices.Equal(got, want) {
			t.Errorf("leaderboard %+v\nwant %+v", got, want)
		}
	}
	if r, err := d.Check(nil); err != nil || len(r.Damaged) != 1 || !strings.Contains(r.Damaged[0].Reason, "ratings record") {
		t.Errorf("Check: %+v, %v; want the damaged standing only", r, err)
	}
	d.Close()
}

// TestBoardSumWithinOneCommit: two ends of matches of the same players in one commit (a group, or
// a replica's batch) move each player's index entry twice in one transaction, and the index's sum
// stays that of its keys: Open finds it sound and does not rebuild it.
func TestBoardSumWithinOneCommit(t *testing.T) {
	d, _ := openTemp(t)
	var batch []Numbered
	add := func(c Change) { batch = append(batch, Numbered{Seq: uint64(len(batch) + 1), Change: c}) }
	for i, code := range []string{"DUEL1", "DUEL2"} {
		at := t0.Add(time.Duration(i) * time.Minute)
		add(Change{Kind: ChangeStart, Code: code, At: at, Match: &record.Match{Game: "stonetowers", Seats: []record.Seat{ann, bob}, Started: at}})
	}
	for i, code := range []string{"DUEL1", "DUEL2"} {
		add(Change{Kind: ChangeEnd, Code: code, At: t0.Add(time.Hour + time.Duration(i)*time.Minute),
			Outcome: rules.Outcome{Over: true, Scores: []int{2, 1}, Ranks: []int{1, 2}}})
	}
	if skipped, err := d.ApplyAll(batch); err != nil || len(skipped) > 0 {
		t.Fatal(skipped, err)
	}
	var sound bool
	_ = d.view(func(tx *bolt.Tx) error { sound = boardSound(tx); return nil })
	if !sound {
		t.Error("the index's sum is not that of its keys after two moves of an entry in one commit")
	}
}
