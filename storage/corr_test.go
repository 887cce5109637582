package storage

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
)

// corrGames are the games the tests' matches are checked with.
var corrGames = []rules.Game{stonetowers.Game}

// corrPlayers claims ann's, bob's and carol's names.
func corrPlayers(t *testing.T, d *DB) {
	t.Helper()
	for _, n := range []string{"ann", "bob", "carol"} {
		if err := d.Claim("SHA256:"+n, n); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCorrespondenceIndex: a correspondence match's start and moves keep its index (the players'
// lists, the deadlines in order); Unfinished leaves it out, UnfinishedMatch reads it; its end
// takes it out; Check finds the file clean throughout.
func TestCorrespondenceIndex(t *testing.T) {
	d, _ := openTemp(t)
	start := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	due1 := start.Add(72 * time.Hour)
	if _, err := d.StartMatch(record.Match{Code: "CORR1", Game: "stonetowers", Options: rules.Options{"clock": "3d"},
		Seed: 1, Seats: twoPlayers(), Started: start, Turn: &record.Turn{ToMove: []rules.Seat{0}, Due: due1}}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.StartMatch(record.Match{Code: "LIVE1", Game: "stonetowers", Seed: 2, Seats: twoPlayers(), Started: start}); err != nil {
		t.Fatal(err)
	}
	mine, err := d.Correspondence("SHA256:bob")
	if err != nil || len(mine) != 1 || mine[0].Code != "CORR1" || mine[0].Clock != "3d" || mine[0].SeatOf("SHA256:bob") != 1 {
		t.Fatalf("bob's correspondence: %+v, %v", mine, err)
	}
	if codes := d.CorrespondenceCodes("SHA256:bob"); !slices.Equal(codes, []string{"CORR1"}) {
		t.Errorf("bob's codes: %v", codes)
	}
	codes, next, err := d.Due(start, 10)
	if err != nil || len(codes) != 0 || !next.Equal(due1) {
		t.Errorf("due by the start: %v, next %v, %v", codes, next, err)
	}
	due2 := start.Add(100 * time.Hour)
	if err := d.AppendMove("CORR1", 0, record.Move{Seat: 0, Move: "b a1", At: start.Add(28 * time.Hour),
		Turn: &record.Turn{ToMove: []rules.Seat{1}, Due: due2}}); err != nil {
		t.Fatal(err)
	}
	if codes, next, _ := d.Due(due1, 10); len(codes) != 0 || !next.Equal(due2) {
		t.Errorf("the deadline did not move with the move: %v, next %v", codes, next)
	}
	if codes, _, _ := d.Due(due2, 10); !slices.Equal(codes, []string{"CORR1"}) {
		t.Errorf("due by %v: %v", due2, codes)
	}
	open, bad, err := d.Unfinished()
	if err != nil || len(bad) != 0 || len(open) != 1 || open[0].Code != "LIVE1" {
		t.Errorf("Unfinished: %+v %+v %v", open, bad, err)
	}
	m, ok, err := d.UnfinishedMatch("CORR1")
	if err != nil || !ok || len(m.Moves) != 1 || m.Moves[0].Turn == nil {
		t.Errorf("UnfinishedMatch: %+v %v %v", m, ok, err)
	}
	if r, err := d.Check(corrGames); err != nil || len(r.Damaged) != 0 {
		t.Errorf("check: %+v %v", r.Damaged, err)
	}
	if err := d.SetSeats("CORR1", []record.Seat{{PlayerID: "SHA256:ann", Name: "ann"}, {Name: "Bo (easy bot)", Bot: "easy"}}); err != nil {
		t.Fatal(err)
	}
	if mine, _ := d.Correspondence("SHA256:bob"); len(mine) != 0 {
		t.Errorf("bob's seat went to a bot, and bob still has %+v", mine)
	}
	if err := d.EndMatch("CORR1", rules.Outcome{Over: true, Ranks: []int{1, 2}}, false); err != nil {
		t.Fatal(err)
	}
	if mine, _ := d.Correspondence("SHA256:ann"); len(mine) != 0 {
		t.Errorf("after the end: %+v", mine)
	}
	if codes, next, _ := d.Due(start.Add(1000*time.Hour), 10); len(codes) != 0 || !next.IsZero() {
		t.Errorf("deadlines after the end: %v %v", codes, next)
	}
	if r, err := d.Check(corrGames); err != nil || len(r.Damaged) != 0 {
		t.Errorf("check after the end: %+v %v", r.Damaged, err)
	}
}

// challengeOf is a challenge of ann's to name (empty: open) of Stone Towers, clock=3d.
func challengeOf(id, to string) record.Challenge {
	c := record.Challenge{ID: id, From: "SHA256:ann", FromName: "ann", Game: "stonetowers",
		Options: rules.Options{"clock": "3d"}}
	if to != "" {
		c.To, c.ToName = "SHA256:"+to, to
	}
	return c
}

// TestChallengeRefusals: yourself, an unknown player, a player whose settings refuse it (off, or
// friends they do not follow), one who ignores the challenger (told as off), and the
// MaxChallenges+1-th are refused, writing nothing.
func TestChallengeRefusals(t *testing.T) {
	d, _ := openTemp(t)
	corrPlayers(t, d)
	if err := d.MakeChallenge(challengeOf("c1", "ann")); !errors.Is(err, ErrChallengeSelf) {
		t.Errorf("ann challenges ann: %v", err)
	}
	ghost := challengeOf("c1", "")
	ghost.To, ghost.ToName = "SHA256:ghost", "ghost"
	if err := d.MakeChallenge(ghost); !errors.Is(err, ErrUnknownName) {
		t.Errorf("a player of no name: %v", err)
	}
	if err := d.SetPrefs("SHA256:bob", record.Prefs{Challenges: record.ChallengesOff}); err != nil {
		t.Fatal(err)
	}
	var refused *ChallengeRefused
	if err := d.MakeChallenge(challengeOf("c1", "bob")); !errors.As(err, &refused) || err.Error() != "bob takes no challenges" {
		t.Errorf("bob takes none: %v", err)
	}
	if err := d.SetPrefs("SHA256:bob", record.Prefs{Challenges: record.ChallengesFriends}); err != nil {
		t.Fatal(err)
	}
	if err := d.MakeChallenge(challengeOf("c1", "bob")); err == nil || err.Error() != "bob takes challenges only from the players they follow" {
		t.Errorf("bob takes his friends': %v", err)
	}
	if err := d.Follow("SHA256:bob", "SHA256:ann", "ann"); err != nil {
		t.Fatal(err)
	}
	if err := d.MakeChallenge(challengeOf("c1", "bob")); err != nil {
		t.Errorf("bob follows ann: %v", err)
	}
	if err := d.SetPrefs("SHA256:bob", record.Prefs{Challenges: "sometimes"}); !errors.Is(err, ErrBadPrefs) {
		t.Errorf("a bad setting: %v", err)
	}
	// carol ignores ann: ann is told what she would be told of a player who takes none.
	if err := d.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketIgnores)
		if err != nil {
			return err
		}
		return b.Put([]byte("SHA256:carol\x00SHA256:ann"), seal(nil, nil))
	}); err != nil {
		t.Fatal(err)
	}
	if err := d.MakeChallenge(challengeOf("c2", "carol")); err == nil || err.Error() != "carol takes no challenges" {
		t.Errorf("carol ignores ann: %v", err)
	}
	for i := 2; i <= MaxChallenges; i++ {
		if err := d.MakeChallenge(challengeOf(fmt.Sprintf("c%d", i), "")); err != nil {
			t.Fatalf("challenge %d: %v", i, err)
		}
	}
	if err := d.MakeChallenge(challengeOf("c99", "")); !errors.Is(err, ErrTooManyChallenges) {
		t.Errorf("challenge %d: %v", MaxChallenges+1, err)
	}
	if err := d.MakeChallenge(challengeOf("c1", "")); err == nil {
		t.Error("a second challenge of ID c1")
	}
	to, from, open, err := d.Challenges("SHA256:ann", time.Now())
	if err != nil || len(to) != 0 || len(from) != MaxChallenges || len(open) != 0 {
		t.Errorf("ann's: %d to, %d from, %d open, %v", len(to), len(from), len(open), err)
	}
	if _, _, open, _ := d.Challenges("SHA256:bob", time.Now()); len(open) != MaxChallenges-1 {
		t.Errorf("bob sees %d open challenges", len(open))
	}
}

// TestChallengeAnswers: decline, withdraw, accept (which begins the match, indexed), each only by
// whom it is for; an open challenge only by a player in its window.
func TestChallengeAnswers(t *testing.T) {
	d, _ := openTemp(t)
	corrPlayers(t, d)
	for _, c := range []record.Challenge{challengeOf("dec", "bob"), challengeOf("wdr", "bob"), challengeOf("acc", "bob")} {
		if err := d.MakeChallenge(c); err != nil {
			t.Fatal(err)
		}
	}
	if to, _, _, _ := d.Challenges("SHA256:bob", time.Now()); len(to) != 3 {
		t.Fatalf("bob has %d challenges", len(to))
	}
	if err := d.Decline("dec", "SHA256:carol"); !errors.Is(err, ErrNotYourChallenge) {
		t.Errorf("carol declines bob's: %v", err)
	}
	if err := d.Decline("dec", "SHA256:bob"); err != nil {
		t.Error(err)
	}
	if err := d.Withdraw("wdr", "SHA256:bob"); !errors.Is(err, ErrNoChallenge) {
		t.Errorf("bob withdraws ann's: %v", err)
	}
	if err := d.Withdraw("wdr", "SHA256:ann"); err != nil {
		t.Error(err)
	}
	m := record.Match{Game: "stonetowers", Options: rules.Options{"clock": "3d"}, Seed: 9,
		Seats: []record.Seat{{PlayerID: "SHA256:bob", Name: "bob"}, {PlayerID: "SHA256:ann", Name: "ann"}},
		Turn:  &record.Turn{ToMove: []rules.Seat{0}, Due: time.Now().Add(72 * time.Hour)}}
	if _, err := d.Accept("acc", "SHA256:ann", "ROOM1", &m); !errors.Is(err, ErrOwnChallenge) {
		t.Errorf("ann accepts her own: %v", err)
	}
	if _, err := d.Accept("acc", "SHA256:carol", "ROOM1", &m); !errors.Is(err, ErrNotYourChallenge) {
		t.Errorf("carol accepts bob's: %v", err)
	}
	id, err := d.Accept("acc", "SHA256:bob", "ROOM1", &m)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Accept("acc", "SHA256:bob", "ROOM2", &m); !errors.Is(err, ErrNoChallenge) {
		t.Errorf("accepted twice: %v", err)
	}
	if got, ok := d.ActiveMatch("ROOM1"); !ok || got != id {
		t.Errorf("room ROOM1: %q %v, want %s", got, ok, id)
	}
	if c, ok := d.CorrespondenceOf("ROOM1"); !ok || c.ID != id || c.Seats[0].Name != "bob" {
		t.Errorf("the match's index: %+v %v", c, ok)
	}
	if to, from, _, _ := d.Challenges("SHA256:bob", time.Now()); len(to)+len(from) != 0 {
		t.Errorf("after the answers bob has %+v %+v", to, from)
	}
	// A second accept into a room that has a match is refused.
	if err := d.MakeChallenge(challengeOf("acc2", "bob")); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Accept("acc2", "SHA256:bob", "ROOM1", &m); !errors.Is(err, ErrRoomTaken) {
		t.Errorf("accepted into a room with a match: %v", err)
	}

	// An open challenge for 1400 to 1600: a new player (1500) is in it, and ann's own is not hers.
	open := challengeOf("opn", "")
	open.Min, open.Max = 1400, 1600
	if err := d.MakeChallenge(open); err != nil {
		t.Fatal(err)
	}
	high := open
	high.ID, high.Min, high.Max = "hi", 1700, 1900
	if err := d.MakeChallenge(high); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Accept("hi", "SHA256:carol", "ROOM3", &m); !errors.Is(err, ErrOutOfWindow) {
		t.Errorf("carol (1500) accepts 1700-1900: %v", err)
	}
	if _, err := d.Accept("opn", "SHA256:carol", "ROOM3", &m); err != nil {
		t.Errorf("carol accepts 1400-1600: %v", err)
	}
	if r, err := d.Check(corrGames); err != nil || len(r.Damaged) != 0 {
		t.Errorf("check: %+v %v", r.Damaged, err)
	}
}

// TestChallengeExpiry: seven days on, a challenge is answered by nobody, listed nowhere, counts
// against no one, and goes when its challenger makes another.
func TestChallengeExpiry(t *testing.T) {
	d, _ := openTemp(t)
	corrPlayers(t, d)
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	d.now = func() time.Time { return now }
	for i := range MaxChallenges {
		if err := d.MakeChallenge(challengeOf(fmt.Sprintf("c%d", i), "bob")); err != nil {
			t.Fatal(err)
		}
	}
	now = now.Add(ChallengeLife - time.Second)
	if to, _, _, _ := d.Challenges("SHA256:bob", now); len(to) != MaxChallenges {
		t.Errorf("a second before they expire, bob has %d", len(to))
	}
	now = now.Add(time.Second)
	if to, from, _, _ := d.Challenges("SHA256:bob", now); len(to)+len(from) != 0 {
		t.Errorf("expired, listed: %d %d", len(to), len(from))
	}
	m := record.Match{Game: "stonetowers", Seats: twoPlayers()}
	if _, err := d.Accept("c0", "SHA256:bob", "ROOM1", &m); !errors.Is(err, ErrChallengeExpired) {
		t.Errorf("accepting an expired challenge: %v", err)
	}
	if err := d.Decline("c1", "SHA256:bob"); err != nil {
		t.Errorf("declining an expired one (it goes): %v", err)
	}
	if err := d.MakeChallenge(challengeOf("new", "bob")); err != nil {
		t.Fatalf("ann's expired challenges still count: %v", err)
	}
	if c, ok, _ := d.Challenge("c5"); ok {
		t.Errorf("an expired challenge stays: %+v", c)
	}
	if c, ok, _ := d.Challenge("new"); !ok || !c.Expires.Equal(now.Add(ChallengeLife)) {
		t.Errorf("the new one: %+v %v", c, ok)
	}
}

// TestFollows: follow, twice as once, unfollow; yourself and an unknown player refused, and past
// MaxFollows.
func TestFollows(t *testing.T) {
	d, _ := openTemp(t)
	corrPlayers(t, d)
	for range 2 {
		if err := d.Follow("SHA256:ann", "SHA256:bob", "bob"); err != nil {
			t.Fatal(err)
		}
	}
	if fs, _ := d.Follows("SHA256:ann"); len(fs) != 1 || fs[0].Player != "SHA256:bob" || fs[0].Name != "bob" {
		t.Errorf("ann follows %+v", fs)
	}
	if fs, _ := d.Follows("SHA256:bob"); len(fs) != 0 {
		t.Errorf("bob follows %+v", fs)
	}
	if err := d.Follow("SHA256:ann", "SHA256:ann", "ann"); !errors.Is(err, ErrFollowSelf) {
		t.Errorf("ann follows ann: %v", err)
	}
	if err := d.Follow("SHA256:ann", "SHA256:ghost", "ghost"); !errors.Is(err, ErrUnknownName) {
		t.Errorf("ann follows a ghost: %v", err)
	}
	if err := d.Unfollow("SHA256:ann", "SHA256:bob"); err != nil {
		t.Fatal(err)
	}
	if err := d.Unfollow("SHA256:ann", "SHA256:bob"); !errors.Is(err, ErrNotFollowing) {
		t.Errorf("unfollow twice: %v", err)
	}
	for i := range MaxFollows {
		n := fmt.Sprintf("p%d", i)
		if err := d.Claim("SHA256:"+n, n); err != nil {
			t.Fatal(err)
		}
		if err := d.Follow("SHA256:ann", "SHA256:"+n, n); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Follow("SHA256:ann", "SHA256:bob", "bob"); !errors.Is(err, ErrTooManyFollows) {
		t.Errorf("follow %d: %v", MaxFollows+1, err)
	}
}

// TestCorrespondenceOnAReplica: the changes of correspondence play applied to a replica give the
// records a server alone writes; a refused one is skipped, and Outcome says why.
func TestCorrespondenceOnAReplica(t *testing.T) {
	d, _ := openTemp(t)
	at := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	m := record.Match{Game: "stonetowers", Options: rules.Options{"clock": "3d"}, Seed: 9,
		Seats: []record.Seat{{PlayerID: "SHA256:bob", Name: "bob"}, {PlayerID: "SHA256:ann", Name: "ann"}},
		Turn:  &record.Turn{ToMove: []rules.Seat{0}, Due: at.Add(72 * time.Hour)}}
	ch := challengeOf("acc", "bob")
	changes := []Change{
		{Kind: ChangeClaim, PlayerID: "SHA256:ann", Name: "ann", At: at},
		{Kind: ChangeClaim, PlayerID: "SHA256:bob", Name: "bob", At: at},
		{Kind: ChangeChallenge, Challenge: &ch, At: at},
		{Kind: ChangeChallenge, Challenge: &ch, At: at}, // its ID is taken: skipped
		{Kind: ChangeFollow, PlayerID: "SHA256:bob", Target: "SHA256:ann", Name: "ann", At: at},
		{Kind: ChangePrefs, PlayerID: "SHA256:bob", Prefs: &record.Prefs{NoNotify: true}},
		{Kind: ChangeAnswer, ID: "acc", PlayerID: "SHA256:bob", Answer: AnswerAccept, Code: "ROOM1", Match: &m, At: at},
		{Kind: ChangeMove, Code: "ROOM1", Ply: 0, Move: &record.Move{Seat: 0, Move: "b a1", At: at.Add(time.Hour),
			Turn: &record.Turn{ToMove: []rules.Seat{1}, Due: at.Add(73 * time.Hour)}}},
	}
	for i, c := range changes {
		err := d.Apply(uint64(i+1), c)
		if (i == 3) != errors.Is(err, ErrSkipped) {
			t.Errorf("change %d (%s): %v", i+1, c.Kind, err)
		}
	}
	if err := d.Outcome(4); err == nil {
		t.Error("no outcome of the skipped change")
	}
	c, ok := d.CorrespondenceOf("ROOM1")
	if !ok || c.ID != MatchID(7, at) || !slices.Equal(c.Turn.ToMove, []rules.Seat{1}) || !c.Turn.Due.Equal(at.Add(73*time.Hour)) {
		t.Errorf("the replica's match: %+v %v", c, ok)
	}
	if !d.Prefs("SHA256:bob").NoNotify {
		t.Error("bob's setting")
	}
	if fs, _ := d.Follows("SHA256:bob"); len(fs) != 1 {
		t.Errorf("bob follows %+v", fs)
	}
	if r, err := d.Check(corrGames); err != nil || len(r.Damaged) != 0 {
		t.Errorf("check: %+v %v", r.Damaged, err)
	}
}

// TestOlderSchemasMigrated: a file of schema 4 (before correspondence play), or of schema 3
// (before keys too), is read as it is read-only, with no correspondence match, and migrated to
// schema 5 when opened for writing, with every bucket.
func TestOlderSchemasMigrated(t *testing.T) {
	for _, c := range []struct {
		schema string
		drop   [][]byte
	}{
		{"4", corrBuckets},
		{"3", slices.Concat(accountBuckets, corrBuckets)},
	} {
		path, _ := filled(t, 1, 2)
		raw, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if err := raw.Update(func(tx *bolt.Tx) error {
			for _, name := range c.drop {
				if err := tx.DeleteBucket(name); err != nil {
					return err
				}
			}
			return tx.Bucket(bucketMeta).Put(keySchema, []byte(c.schema))
		}); err != nil {
			t.Fatal(err)
		}
		raw.Close()
		ro, err := Open(path, Options{LockTimeout: time.Second, ReadOnly: true})
		if err != nil {
			t.Fatalf("schema %s read-only: %v", c.schema, err)
		}
		if m, _ := ro.Correspondence("SHA256:ann"); len(m) != 0 {
			t.Errorf("schema %s: %+v", c.schema, m)
		}
		if r, err := ro.Check(corrGames); err != nil || len(r.Damaged) != 0 {
			t.Errorf("check of schema %s: %+v %v", c.schema, r.Damaged, err)
		}
		ro.Close()
		d, err := Open(filepath.Clean(path), Options{LockTimeout: time.Second})
		if err != nil {
			t.Fatalf("schema %s: %v", c.schema, err)
		}
		_ = d.view(func(tx *bolt.Tx) error {
			if v := string(tx.Bucket(bucketMeta).Get(keySchema)); v != strconv.Itoa(SchemaVersion) {
				t.Errorf("schema %s migrated to %q", c.schema, v)
			}
			for _, name := range allBuckets {
				if tx.Bucket(name) == nil {
					t.Errorf("schema %s migrated: no bucket %s", c.schema, name)
				}
			}
			return nil
		})
		d.Close()
	}
}
