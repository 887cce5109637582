package storage

import (
	"encoding/json"
	"errors"
	"maps"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/sanitize"
)

// Fingerprints of the keys of the tests of accounts: ada's first and second keys, bob's, carol's.
const (
	ada1  = "SHA256:ada1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	ada2  = "SHA256:ada2bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	bobK  = "SHA256:bobkccccccccccccccccccccccccccccccccccccccc"
	carol = "SHA256:caroldddddddddddddddddddddddddddddddddddddd"
)

// accountsOf returns the accounts of a server alone over d, on a clock the test moves; d's own
// clock is the same.
func accountsOf(d *DB) (*Accounts, *time.Time) {
	clock := t0
	a := NewAccounts(d, d)
	a.now = func() time.Time { return clock }
	d.now = func() time.Time { return clock }
	return a, &clock
}

// login logs the key in as name, failing the test unless it plays as want.
func login(t *testing.T, a *Accounts, key, name, want string) {
	t.Helper()
	id, err := a.Login(key, name)
	if err != nil || id != want {
		t.Fatalf("login %s as %s: %q, %v; want %q", key, name, id, err, want)
	}
}

// unchanged fails the test if the file changed since before (a refusal changes nothing).
func unchanged(t *testing.T, d *DB, before map[string]string, what string) {
	t.Helper()
	if after := dump(t, d); !maps.Equal(before, after) {
		t.Errorf("%s changed the file", what)
	}
}

// TestLinkAKey: ada's first key makes a code; her second key, connected as ada, claims it and
// plays as ada; keys lists both; she removes the first, which then plays as a guest (Login says
// it was removed) and cannot take ada or any name; the last key cannot be removed.
func TestLinkAKey(t *testing.T) {
	d, _ := openTemp(t)
	a, clock := accountsOf(d)
	login(t, a, ada1, "ada", ada1)
	code, expires, err := a.LinkCode(ada1, ada1)
	if err != nil || !expires.Equal(t0.Add(CodeLife)) {
		t.Fatalf("LinkCode: %q %v %v", code, expires, err)
	}
	if _, err := a.Login(ada2, "ada"); !errors.Is(err, ErrNameTaken) {
		t.Fatalf("the second key before it is linked: %v, want ErrNameTaken", err)
	}
	*clock = clock.Add(time.Minute)
	if id, err := a.ClaimCode(ada2, "ada", strings.ToLower(code), "work laptop"); err != nil || id != ada1 {
		t.Fatalf("ClaimCode: %q %v", id, err)
	}
	login(t, a, ada2, "ada", ada1)
	keys, err := a.Keys(ada1)
	if err != nil || len(keys) != 2 || keys[0].Fingerprint != ada1 || keys[1].Fingerprint != ada2 || keys[1].Comment != "work laptop" {
		t.Fatalf("Keys = %+v, %v", keys, err)
	}
	if !keys[1].Added.Equal(t0.Add(time.Minute)) || !keys[1].Used.Equal(day(t0)) {
		t.Errorf("the linked key: %+v", keys[1])
	}
	// Revoked by a part of its fingerprint, from the other key.
	if k, err := a.Revoke(ada1, "ada1aaaa"); err != nil || k.Fingerprint != ada1 {
		t.Fatalf("Revoke: %+v %v", k, err)
	}
	var rev *RevokedError
	if _, err := a.Login(ada1, "ada"); !errors.As(err, &rev) || rev.Name != "ada" || !errors.Is(err, ErrKeyRevoked) {
		t.Fatalf("the revoked key: %v, want a RevokedError", err)
	}
	if _, err := a.Login(ada1, "zed"); !errors.Is(err, ErrKeyRevoked) {
		t.Errorf("the revoked key takes another name: %v", err)
	}
	before := dump(t, d)
	if _, err := a.Revoke(ada1, ada2); !errors.Is(err, ErrLastKey) {
		t.Errorf("revoking the last key: %v, want ErrLastKey", err)
	}
	if _, err := a.Revoke(ada1, "SHA256:nosuchkeyxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"); !errors.Is(err, ErrNotYourKey) {
		t.Errorf("revoking a key not hers: %v", err)
	}
	unchanged(t, d, before, "a refused revoke")
	login(t, a, ada2, "ada", ada1)
	// A new key of its own, with a code, joins again.
	code, _, err = a.LinkCode(ada1, ada2)
	if err != nil {
		t.Fatal(err)
	}
	if id, err := a.ClaimCode(ada1, "ada", code, ""); err != nil || id != ada1 {
		t.Fatalf("the revoked key linked again: %q %v", id, err)
	}
	login(t, a, ada1, "ada", ada1)
}

// TestCodeRefusals: a wrong code, one not of a code's shape, an expired one, a used one, one of
// another name, a key of another player, too many codes and too many keys: each is refused with
// its error and changes nothing.
func TestCodeRefusals(t *testing.T) {
	d, _ := openTemp(t)
	a, clock := accountsOf(d)
	login(t, a, ada1, "ada", ada1)
	login(t, a, bobK, "bob", bobK)
	code, _, err := a.LinkCode(ada1, ada1)
	if err != nil {
		t.Fatal(err)
	}
	refuse := func(what string, want error, f func() error) {
		t.Helper()
		before := dump(t, d)
		if err := f(); !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", what, err, want)
		}
		unchanged(t, d, before, what)
	}
	claim := func(key, name, code string) func() error {
		return func() error { _, err := a.ClaimCode(key, name, code, ""); return err }
	}
	refuse("a wrong code", ErrBadCode, claim(ada2, "ada", "2345-6789-ABCD"))
	refuse("not a code", ErrBadCode, claim(ada2, "ada", "hello"))
	refuse("a code of another name", ErrCodeName, claim(ada2, "bob", code))
	refuse("a key of another player", ErrKeyHeld, claim(bobK, "ada", code))
	refuse("a key that is hers", ErrKeyLinked, claim(ada1, "ada", code))
	refuse("a code made by a key not hers", ErrNotYourKey, func() error { _, _, err := a.LinkCode(ada1, bobK); return err })
	*clock = clock.Add(CodeLife)
	refuse("an expired code", ErrCodeExpired, claim(ada2, "ada", code))
	code, _, _ = a.LinkCode(ada1, ada1)
	if _, err := a.ClaimCode(ada2, "ada", code, ""); err != nil {
		t.Fatal(err)
	}
	refuse("a used code", ErrCodeUsed, claim(carol, "ada", code))
	for range MaxLiveCodes {
		if _, _, err := a.LinkCode(ada1, ada1); err != nil {
			t.Fatal(err)
		}
	}
	refuse("a code past the live ones", ErrTooManyCodes, func() error { _, _, err := a.LinkCode(ada1, ada2); return err })
	// Keys up to MaxKeys, then no more.
	*clock = clock.Add(2 * time.Hour)
	for i := 2; i < MaxKeys; i++ {
		code, _, err := a.LinkCode(ada1, ada1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.ClaimCode("SHA256:more"+strings.Repeat(string(rune('a'+i)), 39), "ada", code, ""); err != nil {
			t.Fatalf("key %d: %v", i+1, err)
		}
		*clock = clock.Add(10 * time.Minute)
	}
	code, _, _ = a.LinkCode(ada1, ada1)
	refuse("a key past MaxKeys", ErrTooManyKeys, claim(carol, "ada", code))
	if keys, _ := a.Keys(ada1); len(keys) != MaxKeys {
		t.Errorf("ada has %d keys, want %d", len(keys), MaxKeys)
	}
}

// TestCodeLimitPerHour: a player makes at most CodesPerHour codes an hour, used or not.
func TestCodeLimitPerHour(t *testing.T) {
	d, _ := openTemp(t)
	a, clock := accountsOf(d)
	login(t, a, ada1, "ada", ada1)
	for i := range CodesPerHour {
		code, _, err := a.LinkCode(ada1, ada1)
		if err != nil {
			t.Fatalf("code %d: %v", i+1, err)
		}
		if _, err := a.ClaimCode("SHA256:k"+strings.Repeat(string(rune('a'+i)), 42), "ada", code, ""); err != nil && !errors.Is(err, ErrTooManyKeys) {
			t.Fatal(err)
		}
		*clock = clock.Add(time.Minute)
	}
	if _, _, err := a.LinkCode(ada1, ada1); !errors.Is(err, ErrTooManyCodes) {
		t.Errorf("a code past %d in an hour: %v", CodesPerHour, err)
	}
	*clock = clock.Add(time.Hour)
	if _, _, err := a.LinkCode(ada1, ada1); err != nil {
		t.Errorf("an hour later: %v", err)
	}
}

// TestReleaseAndRename: a released name stays its holder's until its date, then any key takes it;
// keep takes a release back; an operator's rename binds the new name, holds the old one back for
// good, and says the new name on the leaderboard.
func TestReleaseAndRename(t *testing.T) {
	d, _ := openTemp(t)
	a, clock := accountsOf(d)
	login(t, a, ada1, "ada", ada1)
	login(t, a, ada1, "adele", ada1)
	free, err := a.Release(ada1, "adele")
	if err != nil || !free.Equal(t0.Add(ReleaseAfter)) {
		t.Fatalf("Release: %v %v", free, err)
	}
	if _, err := a.Release(bobK, "ada"); !errors.Is(err, ErrNotYourName) {
		t.Errorf("releasing a name not yours: %v", err)
	}
	if _, err := a.Login(carol, "adele"); !errors.Is(err, ErrNameTaken) {
		t.Errorf("a released name before its date: %v", err)
	}
	if err := a.Keep(ada1, "adele"); err != nil {
		t.Fatal(err)
	}
	if err := a.Keep(ada1, "adele"); !errors.Is(err, ErrNotReleased) {
		t.Errorf("keeping a name not released: %v", err)
	}
	if _, err := a.Release(ada1, "adele"); err != nil {
		t.Fatal(err)
	}
	*clock = clock.Add(ReleaseAfter)
	login(t, a, carol, "adele", carol)
	if _, err := a.Login(ada1, "adele"); !errors.Is(err, ErrNameTaken) {
		t.Errorf("the released name after carol took it: %v", err)
	}

	login(t, a, bobK, "bob", bobK)
	playRated(t, d, 1, []record.Seat{{PlayerID: ada1, Name: "ada"}, {PlayerID: bobK, Name: "bob"}}, t0.Add(ReleaseAfter))
	if err := a.Rename("ada", "ada_lovelace", "root"); err != nil {
		t.Fatal(err)
	}
	var ren *RenamedError
	if _, err := a.Login(ada1, "ada"); !errors.As(err, &ren) || ren.To != "ada_lovelace" {
		t.Errorf("the old name for its player: %v, want a RenamedError", err)
	}
	if _, err := a.Login(carol, "ada"); !errors.Is(err, ErrNameTaken) {
		t.Errorf("the old name for another: %v", err)
	}
	login(t, a, ada1, "ada_lovelace", ada1)
	board, _ := d.Leaderboard("stonetowers", 0)
	if len(board) != 2 || board[0].Name != "ada_lovelace" {
		t.Errorf("the leaderboard after the rename: %+v", board)
	}
	if r := mustCheck(t, d); !r.Clean() {
		t.Errorf("check after the rename: %+v", r.Damaged)
	}
	for _, bad := range [][2]string{{"nobody", "x"}, {"bob", "carol_x\u0430"}, {"bob", "adele"}, {"bob", "ada"}} {
		before := dump(t, d)
		if err := a.Rename(bad[0], bad[1], "root"); err == nil {
			t.Errorf("rename %s to %s: no error", bad[0], bad[1])
		}
		unchanged(t, d, before, "a refused rename")
	}
}

// mustCheck checks d with the test's games.
func mustCheck(t *testing.T, d *DB) Report {
	t.Helper()
	r, err := d.Check(testGames)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// playRated records a rated stonetowers match of seats ended at end, seat 0 first unless
// firstWins is 2 (seat 1 first) or 0 (a draw), and returns its ID.
func playRated(t *testing.T, d *DB, firstWins int, seats []record.Seat, end time.Time) string {
	t.Helper()
	code := "R" + strings.ToUpper(spellID(uint64(end.UnixNano()))[7:])
	id, err := d.StartMatch(record.Match{Code: code, Game: "stonetowers", Options: rules.Options{"size": "8"},
		Seed: 1, Seats: seats, Started: end.Add(-time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	ranks := map[int][]int{0: {1, 1}, 1: {1, 2}, 2: {2, 1}}[firstWins]
	was := d.now
	d.now = func() time.Time { return end }
	defer func() { d.now = was }()
	if err := d.EndMatch(code, rules.Outcome{Over: true, Scores: []int{3 - ranks[0], 3 - ranks[1]}, Ranks: ranks}, false); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestVoidRecomputes: three rated matches of ada, bob and carol, the second voided: the ratings,
// the leaderboard index and the leaderboard are byte for byte those of a file where the second
// match was never played; a void of an unrated, unfinished or voided match is refused.
func TestVoidRecomputes(t *testing.T) {
	seats := map[string]record.Seat{"ada": {PlayerID: ada1, Name: "ada"}, "bob": {PlayerID: bobK, Name: "bob"},
		"carol": {PlayerID: carol, Name: "carol"}}
	pair := func(x, y string) []record.Seat { return []record.Seat{seats[x], seats[y]} }
	matches := []struct {
		seats []record.Seat
		first int
	}{
		{pair("ada", "bob"), 1}, {pair("bob", "carol"), 2}, {pair("carol", "ada"), 1}, {pair("ada", "bob"), 0},
		{pair("bob", "carol"), 1},
	}
	const voided = 1
	with, _ := openTemp(t)
	without, _ := openTemp(t)
	a, _ := accountsOf(with)
	var ids []string
	for i, m := range matches {
		end := t0.Add(time.Duration(i+1) * time.Hour)
		ids = append(ids, playRated(t, with, m.first, m.seats, end))
		if i != voided {
			playRated(t, without, m.first, m.seats, end)
		}
	}
	if err := a.Void(ids[voided], "played with a stolen key", "root"); err != nil {
		t.Fatal(err)
	}
	if m, _ := with.Match(ids[voided]); m.Rated || !m.Voided {
		t.Errorf("the voided match: rated %v, voided %v", m.Rated, m.Voided)
	}
	got, want := dump(t, with), dump(t, without)
	for _, bucket := range []string{"ratings/", "board/"} {
		for k, v := range want {
			if strings.HasPrefix(k, bucket) && got[k] != v {
				t.Errorf("%q: %q, want %q", k, got[k], v)
			}
		}
		for k := range got {
			if _, ok := want[k]; strings.HasPrefix(k, bucket) && !ok {
				t.Errorf("%q is there, and not without the match", k)
			}
		}
	}
	gb, _ := with.Leaderboard("stonetowers", 0)
	wb, _ := without.Leaderboard("stonetowers", 0)
	gj, _ := json.Marshal(gb)
	wj, _ := json.Marshal(wb)
	if string(gj) != string(wj) {
		t.Errorf("the leaderboard after the void:\n%s\nwithout the match:\n%s", gj, wj)
	}
	// The rating history too (its keys name the matches, whose IDs each file made its own).
	for _, p := range []string{ada1, bobK, carol} {
		gh, _ := with.RatingHistory(p, "stonetowers", 0)
		wh, _ := without.RatingHistory(p, "stonetowers", 0)
		same := len(gh) == len(wh)
		for i := 0; same && i < len(gh); i++ {
			same = gh[i].Rating == wh[i].Rating && gh[i].At.Equal(wh[i].At) && gh[i].Match != ids[voided]
		}
		if !same {
			t.Errorf("%s's rating history after the void:\n%+v\nwithout the match:\n%+v", p, gh, wh)
		}
	}
	if r := mustCheck(t, with); !r.Clean() {
		t.Errorf("check after the void: %+v", r.Damaged)
	}
	acts, _ := a.Actions(0)
	if len(acts) != 1 || acts[0].Kind != "void" || acts[0].Target != ids[voided] || acts[0].By != "root" {
		t.Errorf("the moderation log: %+v", acts)
	}
	before := dump(t, with)
	for _, bad := range []string{ids[voided], "nosuchmatch", ids[0] + "x"} {
		if err := a.Void(bad, "", "root"); err == nil {
			t.Errorf("void %s: no error", bad)
		}
	}
	unchanged(t, with, before, "a refused void")
}

// TestBans: a ban of a key, of a player (every key of theirs) and of an address prefix keeps them
// out until it ends, with its reason; an unban lifts it; a ban of an unknown name or key, or of a
// malformed target, is refused and changes nothing.
func TestBans(t *testing.T) {
	d, _ := openTemp(t)
	a, clock := accountsOf(d)
	login(t, a, ada1, "ada", ada1)
	login(t, a, carol, "carol", carol)
	code, _, _ := a.LinkCode(ada1, ada1)
	if _, err := a.ClaimCode(ada2, "ada", code, ""); err != nil {
		t.Fatal(err)
	}
	addr := netip.MustParseAddr("192.0.2.7")
	if _, ok := a.Banned(carol, addr); ok {
		t.Fatal("banned before any ban")
	}
	if _, err := a.Ban(carol, t0.Add(time.Hour), "spam in chat", "root"); err != nil {
		t.Fatal(err)
	}
	if b, ok := a.Banned(carol, netip.Addr{}); !ok || b.Reason != "spam in chat" || !b.Until.Equal(t0.Add(time.Hour)) {
		t.Errorf("carol's key: %+v %v", b, ok)
	}
	if _, err := a.Ban("ada", time.Time{}, "", "root"); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{ada1, ada2} {
		if b, ok := a.Banned(k, netip.Addr{}); !ok || b.Kind != record.BanPlayer || b.Name != "ada" {
			t.Errorf("ada's key %s: %+v %v", k, b, ok)
		}
	}
	if _, err := a.Ban("192.0.2.0/24", time.Time{}, "flood", "root"); err != nil {
		t.Fatal(err)
	}
	if b, ok := a.Banned("", addr); !ok || b.Target != "192.0.2.0/24" {
		t.Errorf("an address in the prefix: %+v %v", b, ok)
	}
	if _, ok := a.Banned("", netip.MustParseAddr("198.51.100.1")); ok {
		t.Error("an address out of the prefix is banned")
	}
	bans, _ := a.Bans()
	if len(bans) != 3 {
		t.Errorf("Bans = %+v", bans)
	}
	*clock = clock.Add(time.Hour)
	if _, ok := a.Banned(carol, netip.Addr{}); ok {
		t.Error("carol's ban did not end")
	}
	if err := a.Unban("ada", "root"); err != nil {
		t.Fatal(err)
	}
	if _, ok := a.Banned(ada2, netip.Addr{}); ok {
		t.Error("ada is banned after the unban")
	}
	before := dump(t, d)
	for _, bad := range []string{"nobody", "SHA256:nosuchkeyxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "SHA256:short", "300.1.2.3/8", "not a name!"} {
		if _, err := a.Ban(bad, time.Time{}, "", "root"); err == nil {
			t.Errorf("ban %q: no error", bad)
		}
	}
	if _, err := a.Ban("carol", time.Time{}, strings.Repeat("x", MaxReason+1), "root"); err == nil {
		t.Error("a ban with a reason too long: no error")
	}
	if err := a.Unban("carol", "root"); !errors.Is(err, ErrNotBanned) {
		t.Errorf("unban of a player not banned: %v", err)
	}
	unchanged(t, d, before, "a refused ban")
	acts, _ := a.Actions(0)
	if len(acts) != 4 || acts[0].Kind != "unban" || acts[3].Kind != "ban" || acts[3].Target != carol {
		t.Errorf("the moderation log: %+v", acts)
	}
}

// TestMuteKickAnnounce: a mute holds until it ends; kick and announce are logged and told to the
// watcher, once committed; an announcement too long is refused.
func TestMuteKickAnnounce(t *testing.T) {
	d, _ := openTemp(t)
	a, clock := accountsOf(d)
	login(t, a, carol, "carol", carol)
	var told []Change
	d.Watch(func(c Change) { told = append(told, c) })
	if err := a.Mute("carol", t0.Add(time.Minute), "flooding", "root"); err != nil {
		t.Fatal(err)
	}
	if m, ok := a.Muted(carol); !ok || m.Reason != "flooding" {
		t.Errorf("Muted = %+v %v", m, ok)
	}
	*clock = clock.Add(time.Minute)
	if _, ok := a.Muted(carol); ok {
		t.Error("the mute did not end")
	}
	if err := a.Unmute("carol", "root"); !errors.Is(err, ErrNotMuted) {
		t.Errorf("unmute after the end: %v", err)
	}
	if err := a.Kick("carol", "", "root"); err != nil {
		t.Fatal(err)
	}
	if err := a.Announce("restart at noon", "root"); err != nil {
		t.Fatal(err)
	}
	if err := a.Announce(strings.Repeat("x", MaxAnnounce+1), "root"); err == nil {
		t.Error("an announcement too long: no error")
	}
	if err := a.Kick("nobody", "", "root"); !errors.Is(err, ErrUnknownName) {
		t.Errorf("kick of nobody: %v", err)
	}
	if len(told) != 2 || told[0].Kind != ChangeKick || told[0].PlayerID != carol || told[1].Text != "restart at noon" {
		t.Errorf("the watcher was told %+v", told)
	}
}

// TestIgnoreAndReport: a player ignores another by name, not themselves nor nobody; a report
// keeps the room's chat, within its limits, at most ReportsPerDay a day.
func TestIgnoreAndReport(t *testing.T) {
	d, _ := openTemp(t)
	a, clock := accountsOf(d)
	login(t, a, bobK, "bob", bobK)
	login(t, a, carol, "carol", carol)
	if ig, err := a.Ignore(bobK, "Carol"); err != nil || ig.Player != carol {
		t.Fatalf("Ignore: %+v %v", ig, err)
	}
	if _, err := a.Ignore(bobK, "carol"); err != nil {
		t.Errorf("ignoring again: %v", err)
	}
	before := dump(t, d)
	for _, bad := range []struct {
		name string
		want error
	}{{"bob", ErrIgnoreSelf}, {"nobody", ErrUnknownName}, {"BAD NAME", ErrUnknownName}} {
		if _, err := a.Ignore(bobK, bad.name); !errors.Is(err, bad.want) {
			t.Errorf("ignore %q: %v, want %v", bad.name, err, bad.want)
		}
	}
	unchanged(t, d, before, "a refused ignore")
	if list, _ := a.Ignoring(bobK); len(list) != 1 || list[0].Name != "carol" {
		t.Errorf("Ignoring = %+v", list)
	}
	if _, err := a.Unignore(bobK, "carol"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Unignore(bobK, "carol"); !errors.Is(err, ErrNotIgnoring) {
		t.Errorf("unignore twice: %v", err)
	}

	chat := []record.ChatLine{{From: "carol", Text: "you are all bad", At: t0}, {Text: "carol leaves"}}
	r := record.Report{By: bobK, ByName: "bob", Text: "insults", Room: "K7QXM", Chat: chat}
	if err := a.Report("carol", r); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		name string
		r    record.Report
	}{
		{"bob", r}, {"nobody", r},
		{"carol", record.Report{By: bobK, ByName: "bob", Text: strings.Repeat("x", MaxReport+1)}},
		{"carol", record.Report{By: bobK, ByName: "bob", Chat: make([]record.ChatLine, MaxReportChat+1)}},
		{"carol", record.Report{By: bobK, ByName: "bob", Chat: []record.ChatLine{{Text: "\x1b[31mred"}}}},
		{"carol", record.Report{By: "guest-1", ByName: "~guest"}},
	} {
		if err := a.Report(bad.name, bad.r); err == nil {
			t.Errorf("report %+v: no error", bad)
		}
	}
	if err := a.Report("~gus", record.Report{By: bobK, ByName: "bob", Text: "a guest's spam"}); err != nil {
		t.Errorf("a report of a guest: %v", err)
	}
	for range ReportsPerDay - 2 {
		*clock = clock.Add(time.Minute)
		if err := a.Report("carol", r); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Report("carol", r); !errors.Is(err, ErrTooManyReports) {
		t.Errorf("a report past the day's: %v", err)
	}
	reps, _ := a.Reports(0)
	if len(reps) != ReportsPerDay || reps[0].Seq != ReportsPerDay || reps[9].Name != "carol" || len(reps[9].Chat) != 2 ||
		reps[8].Name != "~gus" || reps[8].Player != "" {
		t.Errorf("Reports: %d, newest %+v", len(reps), reps[0])
	}
	if r := mustCheck(t, d); !r.Clean() {
		t.Errorf("check: %+v", r.Damaged)
	}
}

// TestApplyRefusesUnknownKinds: a change of a kind this arcade does not know is neither applied
// nor skipped: Apply fails with ErrUnknownChange, records no position, and applies no change
// after it either, so that an upgraded arcade applies it in its turn.
func TestApplyRefusesUnknownKinds(t *testing.T) {
	d, _ := openTemp(t)
	if err := d.Apply(1, Change{Kind: ChangeClaim, PlayerID: ada1, Name: "ada", At: t0}); err != nil {
		t.Fatal(err)
	}
	skipped, err := d.ApplyAll([]Numbered{
		{2, Change{Kind: "explode", Code: "K7QXM"}},
		{3, Change{Kind: ChangeClaim, PlayerID: bobK, Name: "bob", At: t0}},
	})
	if !errors.Is(err, ErrUnknownChange) || len(skipped) != 0 {
		t.Errorf("ApplyAll: %v, %v; want ErrUnknownChange", skipped, err)
	}
	if got := d.Applied(); got != 1 {
		t.Errorf("Applied = %d, want 1", got)
	}
	if _, _, ok := d.PlayerNamed("bob"); ok {
		t.Error("the change after the unknown one was applied")
	}
}

// TestAccountsReplicate: the same changes of keys, players and operators, applied by two replicas
// in the stream's order, give the same files, and the same as a server alone doing them (Do); a
// change a replica skips is remembered with its error (Outcome).
func TestAccountsReplicate(t *testing.T) {
	alone, _ := openTemp(t)
	a, clock := accountsOf(alone)
	var history []Change
	rec := &recorder{db: alone, out: &history}
	a.w = rec
	login(t, a, ada1, "ada", ada1)
	login(t, a, bobK, "bob", bobK)
	login(t, a, carol, "carol", carol)
	code, _, _ := a.LinkCode(ada1, ada1)
	*clock = clock.Add(time.Minute)
	if _, err := a.ClaimCode(ada2, "ada", code, "phone"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []func() error{
		func() error { _, err := a.Revoke(ada1, ada1); return err },
		func() error { _, err := a.Ignore(bobK, "carol"); return err },
		func() error { return a.Report("carol", record.Report{By: bobK, ByName: "bob", Text: "spam"}) },
		func() error { _, err := a.Ban(carol, time.Time{}, "spam", "root"); return err },
		func() error { return a.Mute("bob", t0.Add(time.Hour), "", "root") },
		func() error { return a.Kick("bob", "", "root") },
		func() error { return a.Announce("hello", "root") },
		func() error { return a.Rename("bob", "robert", "root") },
		func() error { _, err := a.Release(ada1, "ada"); return err },
	} {
		if err := f(); err != nil {
			t.Fatal(err)
		}
	}
	r1, _ := openTemp(t)
	r2, _ := openTemp(t)
	for _, r := range []*DB{r1, r2} {
		applyAll(t, r, history)
	}
	d1, d2, d0 := dump(t, r1), dump(t, r2), dump(t, alone)
	delete(d1, "meta/applied")
	delete(d2, "meta/applied")
	if !maps.Equal(d1, d2) || !maps.Equal(d1, d0) {
		for k, v := range d0 {
			if d1[k] != v {
				t.Errorf("%q: alone %q, replica %q", k, v, d1[k])
			}
		}
		t.Fatal("the replicas and the server alone disagree")
	}
	// A link of a used code, published anyway (two nodes at once): skipped, with its error.
	seq := uint64(len(history) + 1)
	err := r1.Apply(seq, Change{Kind: ChangeLink, Key: carol, Hash: CodeHash(code), Name: "ada", At: t0.Add(2 * time.Minute)})
	if !errors.Is(err, ErrSkipped) || !errors.Is(r1.Outcome(seq), ErrCodeUsed) {
		t.Errorf("a used code in a replica: %v, outcome %v", err, r1.Outcome(seq))
	}
	if r1.Outcome(seq-1) != nil {
		t.Errorf("the outcome of a change applied: %v", r1.Outcome(seq-1))
	}
}

// recorder is a Writer that does each change on db and records it, as a cluster's stream would.
type recorder struct {
	db  *DB
	out *[]Change
}

func (r *recorder) Do(c Change) error {
	if err := r.db.Do(c); err != nil {
		return err
	}
	*r.out = append(*r.out, c)
	return nil
}

func (r *recorder) Bind(string, string, bool) error { return nil }
func (r *recorder) Decides() bool                   { return true }

// TestLoginKeepsTheNameRule: a name against the rule binds nothing, for a new key or a known one.
func TestLoginKeepsTheNameRule(t *testing.T) {
	d, _ := openTemp(t)
	a, _ := accountsOf(d)
	login(t, a, ada1, "ada", ada1)
	for _, bad := range []string{"ADA", "аda", ""} {
		if _, err := a.Login(ada1, bad); !errors.Is(err, sanitize.ErrBadName) {
			t.Errorf("login as %q: %v", bad, err)
		}
	}
}

// asSchema3 makes the closed database at path a file of schema 3, the release before: without the
// buckets schema 4 added.
func asSchema3(t *testing.T, path string) {
	t.Helper()
	raw, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = raw.Update(func(tx *bolt.Tx) error {
		for _, name := range accountBuckets {
			if err := tx.DeleteBucket(name); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketMeta).Put(keySchema, []byte("3"))
	})
	if cerr := raw.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestMigrateAccounts: a file of schema 3, and v0.1.0's of schema 2, opened for writing, get the
// buckets of schema 4 in one transaction: each player its first key (the key it is), listed as
// theirs; each rated match its place in the order of rated matches; the file checks clean, every
// returning key plays as before, and a void recomputes from the migrated order. A copy of schema 3
// restored into a replica is migrated the same way.
func TestMigrateAccounts(t *testing.T) {
	d, path := openTemp(t)
	a, _ := accountsOf(d)
	login(t, a, ada1, "ada", ada1)
	login(t, a, bobK, "bob", bobK)
	seats := []record.Seat{{PlayerID: ada1, Name: "ada"}, {PlayerID: bobK, Name: "bob"}}
	first := playRated(t, d, 1, seats, t0.Add(time.Hour))
	playRated(t, d, 2, seats, t0.Add(2*time.Hour))
	before, _ := d.Leaderboard("stonetowers", 0)
	d.Close()
	asSchema3(t, path)
	copyPath := filepath.Join(t.TempDir(), "schema3.db")
	raw, _ := os.ReadFile(path)
	if err := os.WriteFile(copyPath, raw, 0o600); err != nil {
		t.Fatal(err)
	}

	d = openAt(t, path)
	a, _ = accountsOf(d)
	for _, k := range []string{ada1, bobK} {
		if keys, err := a.Keys(k); err != nil || len(keys) != 1 || keys[0].Fingerprint != k || keys[0].Player != k {
			t.Errorf("the keys of %s after the migration: %+v %v", k, keys, err)
		}
	}
	login(t, a, ada1, "ada", ada1)
	if r := mustCheck(t, d); !r.Clean() {
		t.Errorf("check after the migration: %+v", r.Damaged)
	}
	if after, _ := d.Leaderboard("stonetowers", 0); !reflect.DeepEqual(before, after) {
		t.Errorf("the leaderboard changed with the migration: %+v, was %+v", after, before)
	}
	if err := a.Void(first, "", "root"); err != nil {
		t.Errorf("a void of a migrated match: %v", err)
	}

	v010 := filepath.Join(t.TempDir(), "arcade.db")
	raw, _ = os.ReadFile(v010File)
	if err := os.WriteFile(v010, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	old := openAt(t, v010)
	oa, _ := accountsOf(old)
	login(t, oa, v010Ann, "annie", v010Ann)
	if keys, _ := oa.Keys(v010Ann); len(keys) != 1 {
		t.Errorf("ann's keys after the migration of v0.1.0's file: %+v", keys)
	}
	var rated int
	_ = old.view(func(tx *bolt.Tx) error { rated = tx.Bucket(bucketRated).Stats().KeyN; return nil })
	if rated != 1 {
		t.Errorf("v0.1.0's file lists %d rated matches, want 1", rated)
	}
	if r, err := old.Check([]rules.Game{stonetowers.Game, lhexicon.Game}); err != nil || !r.Clean() {
		t.Errorf("check of v0.1.0's file migrated: %+v %v", r.Damaged, err)
	}

	replica, _ := openTemp(t)
	if _, err := replica.Restore(copyPath); err != nil {
		t.Fatalf("restore of a copy of schema 3: %v", err)
	}
	if keys, _ := replica.Keys(ada1); len(keys) != 1 {
		t.Errorf("the restored copy's keys: %+v", keys)
	}
	if r := mustCheck(t, replica); !r.Clean() {
		t.Errorf("check of the restored copy: %+v", r.Damaged)
	}
}
