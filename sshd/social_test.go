package sshd

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"net"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"charm.land/log/v2"
	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/session"
	"github.com/arcade/arcade/storage"
)

// testAccounts returns the accounts of a new database of a server alone.
func testAccounts(t *testing.T) *storage.Accounts {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "arcade.db"), storage.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return storage.NewAccounts(db, db)
}

// newSigner returns a new ed25519 key.
func newSigner(t *testing.T) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// userCmd is an exec session of user with key (nil: a guest) running raw.
type userCmd struct {
	*fakeSession
	user string
	key  ssh.PublicKey
}

func (u userCmd) User() string             { return u.user }
func (u userCmd) PublicKey() ssh.PublicKey { return u.key }
func (u userCmd) LocalAddr() net.Addr      { return &net.TCPAddr{IP: net.IPv4(192, 0, 2, 9), Port: 2222} }

// run runs the plain command raw as user with key on s, and returns what it wrote and its exit
// status.
func run(t *testing.T, s *Server, user string, key ssh.PublicKey, raw string) (out, errOut string, code int) {
	t.Helper()
	f := &fakeSession{raw: raw}
	sess := userCmd{fakeSession: f, user: user, key: key}
	req, err := parseRequest(strings.Fields(raw), []rules.Game{stonetowers.Game})
	if err != nil {
		t.Fatalf("%q: %v", raw, err)
	}
	code = s.social(sess, req)
	return f.out.String(), f.stderr.String(), code
}

// TestKeysCommands: keys link prints a code and the command that claims it; the other key claims
// it connected with the name, and plays as the player; keys lists both, marking the one in use;
// a wrong code, a reused one, a guest's claim and a revoke of the last key are refused with one
// line, exit status 1; five wrong codes from a key or an address stop its tries for a while.
func TestKeysCommands(t *testing.T) {
	a := testAccounts(t)
	var logged bytes.Buffer
	s := testServer(a)
	s.log = log.New(&logged)
	k1, k2 := newSigner(t).PublicKey(), newSigner(t).PublicKey()
	fp1, fp2 := gossh.FingerprintSHA256(k1), gossh.FingerprintSHA256(k2)
	if _, err := a.Login(fp1, "ada"); err != nil {
		t.Fatal(err)
	}
	out, _, code := run(t, s, "ada", k1, "keys link")
	m := regexp.MustCompile(`Your code: (\S+)\n`).FindStringSubmatch(out)
	if code != 0 || m == nil || !strings.Contains(out, "ssh -p 2222 ada@192.0.2.9 keys claim "+m[1]) {
		t.Fatalf("keys link: %d %q", code, out)
	}
	if strings.Contains(logged.String(), m[1]) {
		t.Errorf("the log holds the code whole: %s", logged.String())
	}
	_, errOut, code := run(t, s, "ada", nil, "keys claim "+m[1])
	if code != 1 || !strings.Contains(errOut, "a key claims a code") {
		t.Errorf("a guest's claim: %d %q", code, errOut)
	}
	out, _, code = run(t, s, "ada", k2, "keys claim "+m[1]+" work laptop")
	if code != 0 || !strings.Contains(out, "This key is ada's now") {
		t.Fatalf("keys claim: %d %q", code, out)
	}
	if p, _ := s.player(userCmd{fakeSession: &fakeSession{}, user: "ada", key: k2}); p.ID != fp1 || p.Guest {
		t.Errorf("the linked key plays as %+v, want ada's player %s", p, fp1)
	}
	out, _, _ = run(t, s, "ada", k2, "keys")
	for _, want := range []string{"  " + fp1 + "\n", "* " + fp2 + "\n    work laptop · added "} {
		if !strings.Contains(out, want) {
			t.Errorf("keys lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if len([]rune(line)) > plainWidth {
			t.Errorf("keys: a line over %d columns: %q", plainWidth, line)
		}
	}
	again, _, err := a.LinkCode(fp1, fp2)
	if err != nil {
		t.Fatal(err)
	}
	_, errOut, code = run(t, s, "ada", k2, "keys claim "+again)
	if code != 1 || !strings.Contains(errOut, "yours already") {
		t.Errorf("a claim of a key already ada's: %d %q", code, errOut)
	}
	out, _, code = run(t, s, "ada", k2, "keys revoke "+fp1)
	if code != 0 || !strings.Contains(out, "Removed "+fp1) {
		t.Fatalf("keys revoke: %d %q", code, out)
	}
	_, errOut, code = run(t, s, "ada", k2, "keys revoke "+fp2)
	if code != 1 || errOut != "arcade: this is your only key: it cannot be removed (link another first: keys link)\n" {
		t.Errorf("a revoke of the last key: %d %q", code, errOut)
	}
	_, errOut, code = run(t, s, "ada", k1, "keys")
	if code != 1 || !strings.Contains(errOut, "a guest has no keys") || !strings.Contains(errOut, "This key was removed from ada") {
		t.Errorf("keys from the removed key: %d %q", code, errOut)
	}

	k3 := newSigner(t).PublicKey()
	s.claims = claimLimiter{} // the refusals above counted against the address
	for i := range claimBurst {
		if _, errOut, code := run(t, s, "ada", k3, "keys claim 2345-6789-ABCD"); code != 1 || !strings.Contains(errOut, "not one this arcade made") {
			t.Fatalf("wrong code %d: %d %q", i+1, code, errOut)
		}
	}
	code1, _, err := a.LinkCode(fp1, fp2)
	if err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := run(t, s, "ada", k3, "keys claim "+code1); code != 1 || !strings.Contains(errOut, "too many wrong codes") {
		t.Errorf("a right code after %d wrong ones: %d %q", claimBurst, code, errOut)
	}
}

// TestIgnoreAndReportCommands: ignore NAME, the list, unignore, report; refusals say why.
func TestIgnoreAndReportCommands(t *testing.T) {
	a := testAccounts(t)
	s := testServer(a)
	kb, kc := newSigner(t).PublicKey(), newSigner(t).PublicKey()
	for i, k := range []ssh.PublicKey{kb, kc} {
		if _, err := a.Login(gossh.FingerprintSHA256(k), []string{"bob", "carol"}[i]); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		raw, out, errOut string
		code             int
	}{
		{"ignore", "You ignore nobody", "", 0},
		{"ignore carol", "You no longer see the chat of carol", "", 0},
		{"ignore", "You ignore: carol.", "", 0},
		{"ignore bob", "", "arcade: you cannot ignore yourself\n", 1},
		{"ignore zed", "", "arcade: no player has that name: zed\n", 1},
		{"unignore carol", "You see the chat of carol again", "", 0},
		{"unignore carol", "", "arcade: you do not ignore that player\n", 1},
		{"report carol " + strings.Repeat("very ", 60) + "rude", "Thank you: your report of carol", "", 0},
		{"report carol " + strings.Repeat("x", 501), "", "arcade: a report is one line of at most 500 characters\n", 1},
	} {
		out, errOut, code := run(t, s, "bob", kb, c.raw)
		if code != c.code || !strings.Contains(out, c.out) || errOut != c.errOut {
			t.Errorf("%.40q: %d %q %q, want %d %q %q", c.raw, code, out, errOut, c.code, c.out, c.errOut)
		}
	}
	if _, errOut, code := run(t, s, "gus", nil, "ignore carol"); code != 1 || !strings.HasPrefix(errOut, "arcade: a guest has no keys, ignores or reports.\nNo key was used") {
		t.Errorf("a guest's ignore: %d %q", code, errOut)
	}
	reps, _ := a.Reports(0)
	if len(reps) != 1 || reps[0].ByName != "bob" || reps[0].Name != "carol" || reps[0].Room != "" {
		t.Errorf("reports: %+v", reps)
	}
}

// TestParseSocialCommands: the command lines of keys, ignores and reports, and their refusals; a
// report's text may be longer than an argument may.
func TestParseSocialCommands(t *testing.T) {
	games := []rules.Game{stonetowers.Game}
	for _, ok := range []string{"keys", "keys list", "keys link", "keys claim ABCD-EFGH-JKMN", "keys claim ABCD old laptop",
		"keys revoke SHA256:abcdef", "keys comment SHA256:abcdef home", "keys release", "keys keep", "ignore", "ignore carol",
		"unignore carol", "report carol", "report carol " + strings.Repeat("x", 200)} {
		if _, err := parseRequest(strings.Fields(ok), games); err != nil {
			t.Errorf("%.40q: %v", ok, err)
		}
	}
	for _, bad := range []string{"keys frob", "keys link now", "keys claim", "keys revoke", "keys revoke a b", "ignore a b",
		"unignore", "report", "ignore " + strings.Repeat("x", 65), "report " + strings.Repeat("x", 65)} {
		_, err := parseRequest(strings.Fields(bad), games)
		if !errors.Is(err, errUsage) {
			t.Errorf("%.40q: %v, want a usage error", bad, err)
		}
	}
}

// TestRedactCommand: a claimed code is logged by its first two characters.
func TestRedactCommand(t *testing.T) {
	for in, want := range map[string]string{
		"keys claim K7QX-M2P9-ABCD laptop": "keys claim K7… laptop",
		"KEYS CLAIM k7qxm2p9abcd":          "KEYS CLAIM k7…",
		"keys link":                        "keys link",
		"join K7QXM":                       "join K7QXM",
	} {
		if got := redactCommand(in); got != want {
			t.Errorf("redactCommand(%q) = %q, want %q", in, got, want)
		}
	}
}

// liveServer starts a server with accounts a on 127.0.0.1, and returns its address.
func liveServer(t *testing.T, a Accounts) string {
	t.Helper()
	hub := rooms.NewHub(rooms.Config{Games: []rules.Game{stonetowers.Game}})
	t.Cleanup(func() { hub.Shutdown("") })
	srv, err := New(Config{Addr: "127.0.0.1:0", HostKey: newSigner(t), Accounts: a, Logger: log.New(&bytes.Buffer{}),
		ConnRate: 1000, ConnBurst: 1000}, session.Local(hub))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Shutdown(t.Context(), "") })
	return ln.Addr().String()
}

// dial connects as user with the auth methods given and returns the client, or the error of
// authentication, and the banners the server sent.
func dial(addr, user string, auth ...gossh.AuthMethod) (*gossh.Client, []string, error) {
	var banners []string
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: user, Auth: auth, Timeout: 10 * time.Second,
		HostKeyCallback: gossh.InsecureIgnoreHostKey(),
		BannerCallback:  func(m string) error { banners = append(banners, m); return nil }})
	return c, banners, err
}

// guestAuth is keyboard-interactive with no questions, as a guest authenticates.
var guestAuth = gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })

// TestBanRefusedAtAuthentication: a banned key is refused as it authenticates, with a banner that
// says why and until when; the connection is refused whatever it tries next (another key, no
// key); a banned address refuses guests too; a ban made after a connection authenticated refuses
// its next session; an unban lets them in again.
func TestBanRefusedAtAuthentication(t *testing.T) {
	a := testAccounts(t)
	addr := liveServer(t, a)
	carol, other, dave := newSigner(t), newSigner(t), newSigner(t)
	for i, s := range []gossh.Signer{carol, dave} {
		if _, err := a.Login(gossh.FingerprintSHA256(s.PublicKey()), []string{"carol", "dave"}[i]); err != nil {
			t.Fatal(err)
		}
	}
	until := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
	if _, err := a.Ban(gossh.FingerprintSHA256(carol.PublicKey()), until, "harassing bob", "root"); err != nil {
		t.Fatal(err)
	}
	want := "arcade: You are banned from this arcade until " + until.Format("2006-01-02 15:04 UTC") + ": harassing bob.\r\n"
	for _, auth := range [][]gossh.AuthMethod{
		{gossh.PublicKeys(carol)},
		{gossh.PublicKeys(carol, other)},
		{gossh.PublicKeys(carol), guestAuth},
	} {
		c, banners, err := dial(addr, "carol", auth...)
		if err == nil {
			c.Close()
			t.Fatalf("carol's banned key got in (%d methods)", len(auth))
		}
		if len(banners) != 1 || banners[0] != want {
			t.Errorf("banners %q, want %q", banners, want)
		}
	}
	c, _, err := dial(addr, "other", gossh.PublicKeys(other))
	if err != nil {
		t.Fatalf("another key on a connection of its own: %v", err)
	}
	c.Close()

	// A session of a key banned after its connection authenticated.
	c, _, err = dial(addr, "dave", gossh.PublicKeys(dave))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := a.Ban("dave", time.Time{}, "", "root"); err != nil {
		t.Fatal(err)
	}
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var errOut bytes.Buffer
	sess.Stderr = &errOut
	var exit *gossh.ExitError
	if err := sess.Run("whoami"); !errors.As(err, &exit) || exit.ExitStatus() != 1 || errOut.String() != "arcade: You are banned from this arcade for good.\n" {
		t.Errorf("a session after the ban: %v %q", err, errOut.String())
	}

	// An address: guests too.
	if _, err := a.Ban("127.0.0.0/8", time.Time{}, "flood", "root"); err != nil {
		t.Fatal(err)
	}
	if _, banners, err := dial(addr, "gus", guestAuth); err == nil || len(banners) != 1 || !strings.Contains(banners[0], "flood") {
		t.Errorf("a guest of a banned address: %v %q", err, banners)
	}
	if err := a.Unban("127.0.0.0/8", "root"); err != nil {
		t.Fatal(err)
	}
	c, _, err = dial(addr, "gus", guestAuth)
	if err != nil {
		t.Errorf("a guest after the unban: %v", err)
	} else {
		c.Close()
	}
}
