package sshd

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"

	"charm.land/log/v2"
	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/arcade/arcade/sanitize"
	"github.com/arcade/arcade/session/draw"
)

// userSession is a session of user with key (nil: none).
type userSession struct {
	ssh.Session
	user string
	key  ssh.PublicKey
}

func (u userSession) User() string             { return u.user }
func (u userSession) PublicKey() ssh.PublicKey { return u.key }
func (u userSession) RemoteAddr() net.Addr {
	return &net.TCPAddr{IP: net.ParseIP("2001:db8:1:2:3:4:5:6"), Port: 4242}
}

// fakeNames binds names as storage does: the first key to claim a name holds it, and every key
// is a player of its own. Its other methods are not called (nil Accounts).
type fakeNames struct {
	Accounts
	owner  map[string]string
	claims []string
	err    error // returned by every claim when set
}

func (f *fakeNames) Login(id, name string) (string, error) {
	f.claims = append(f.claims, name)
	if f.err != nil {
		return "", f.err
	}
	if o, ok := f.owner[name]; ok && o != id {
		return "", fmt.Errorf("claim: %w", sanitize.ErrNameTaken)
	}
	f.owner[name] = id
	return id, nil
}

func testKey(t *testing.T, seed byte) ssh.PublicKey {
	t.Helper()
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize))
	k, err := gossh.NewPublicKey(priv.Public())
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func testServer(names Accounts) *Server {
	return &Server{cfg: Config{Accounts: names}, log: log.New(&bytes.Buffer{})}
}

// TestBadNamesPlayAsGuests: a user name that breaks the name rule (lookalikes above all) binds
// nothing, with a key or without: the session is a guest with a name of the server's making, and
// the notice says why.
func TestBadNamesPlayAsGuests(t *testing.T) {
	names := &fakeNames{owner: map[string]string{}}
	s := testServer(names)
	for user, reason := range map[string]string{
		"ａｌｉｃｅ":                 "U+FF41",
		"аlice":                 "U+0430",
		"bob.smith":             "U+002E",
		"root\x1b[2J":           "U+001B",
		"":                      "empty",
		"-x":                    "starts or ends",
		"averyveryverylongname": "longer than 16",
	} {
		for _, key := range []ssh.PublicKey{testKey(t, 1), nil} {
			p, notice := s.player(userSession{user: user, key: key})
			if !p.Guest || !strings.HasPrefix(p.Name, "~guest-") || !strings.HasPrefix(p.ID, "guest-") {
				t.Errorf("%q (key %v): player %+v, want a guest named ~guest-...", user, key != nil, p)
			}
			for _, want := range []string{"is not allowed", reason, "a-z, 0-9, - and _", "You play as guest " + p.Name, "ssh NAME@host"} {
				if !strings.Contains(notice, want) {
					t.Errorf("%q (key %v): notice %q does not say %q", user, key != nil, notice, want)
				}
			}
			if strings.ContainsRune(notice, 0x1b) {
				t.Errorf("%q: the notice carries an escape: %q", user, notice)
			}
		}
	}
	if len(names.claims) > 0 {
		t.Errorf("names that break the rule were claimed: %q", names.claims)
	}
}

// TestGoodNamesBind: a name that keeps to the rule binds to the key (upper case folded); without
// a key the session is ~name, a guest, with nothing to tell.
func TestGoodNamesBind(t *testing.T) {
	names := &fakeNames{owner: map[string]string{}}
	s := testServer(names)
	key := testKey(t, 2)
	for user, want := range map[string]string{"alice": "alice", "Alice": "alice", "ann-marie_2": "ann-marie_2", "7": "7"} {
		p, notice := s.player(userSession{user: user, key: key})
		if p.Guest || p.Name != want || p.ID != gossh.FingerprintSHA256(key) || notice != "" {
			t.Errorf("%q: player %+v, notice %q; want %s bound to the key", user, p, notice, want)
		}
		if names.owner[want] != p.ID {
			t.Errorf("%q: %s is not bound to the key", user, want)
		}
	}
	p, notice := s.player(userSession{user: "Bob"})
	if !p.Guest || p.Name != "~bob" || notice != "" {
		t.Errorf("no key: player %+v, notice %q; want guest ~bob and no notice", p, notice)
	}
}

// TestTakenNameNotice: a key asking for another key's name plays as ~name, told why; a name that
// cannot be checked is not taken for a taken one.
func TestTakenNameNotice(t *testing.T) {
	names := &fakeNames{owner: map[string]string{"zoe": "SHA256:first"}}
	s := testServer(names)
	p, notice := s.player(userSession{user: "zoe", key: testKey(t, 3)})
	if !p.Guest || p.Name != "~zoe" {
		t.Errorf("player %+v, want guest ~zoe", p)
	}
	if !strings.Contains(notice, "The name zoe belongs to another key") || !strings.Contains(notice, "guest ~zoe") {
		t.Errorf("notice %q", notice)
	}
	names.err = errors.New("disk on fire")
	p, notice = s.player(userSession{user: "ann", key: testKey(t, 4)})
	if !p.Guest || !strings.Contains(notice, "cannot be checked") || strings.Contains(notice, "belongs") {
		t.Errorf("storage failing: player %+v, notice %q", p, notice)
	}
}

// TestWhoamiOneMessage: whoami says why a session is a guest in one message, wrapped at 80
// columns, and never both that no key was used and that the name is another key's.
func TestWhoamiOneMessage(t *testing.T) {
	s := testServer(&fakeNames{owner: map[string]string{"zoe": "SHA256:first"}})
	for _, tc := range []struct {
		user    string
		key     ssh.PublicKey
		want    []string
		wantNot []string
	}{
		{"zoe", testKey(t, 5), []string{"name: ~zoe (guest)", "belongs to another key"}, []string{"No key was used", "key: "}},
		{"ａｌｉｃｅ", testKey(t, 5), []string{"name: ~guest-", "is not allowed", "U+FF41"}, []string{"No key was used", "key: "}},
		{"zoe", nil, []string{"name: ~zoe (guest)", "No key was used"}, []string{"belongs", "not allowed"}},
		{"ann", testKey(t, 5), []string{"name: ann\nkey: SHA256:"}, []string{"guest"}},
	} {
		p, notice := s.player(userSession{user: tc.user, key: tc.key})
		var out bytes.Buffer
		writeWhoami(&out, p, p.ID, notice)
		text := out.String()
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%q: whoami says %q, want %q in it", tc.user, text, w)
			}
		}
		for _, w := range tc.wantNot {
			if strings.Contains(text, w) {
				t.Errorf("%q: whoami says %q, which should not hold %q", tc.user, text, w)
			}
		}
		for _, line := range strings.Split(text, "\n") {
			if draw.TextWidth(line) > 80 {
				t.Errorf("%q: whoami line wider than 80 columns: %q", tc.user, line)
			}
		}
		if notice != "" && !strings.Contains(strings.Join(strings.Fields(text), " "), notice) {
			t.Errorf("%q: whoami %q does not hold the whole notice %q", tc.user, text, notice)
		}
	}
}

// TestPlayerSource: a player carries its address as the hub's shares count it, an IPv6 /64 as
// one, keyed or guest.
func TestPlayerSource(t *testing.T) {
	s := &Server{log: log.New(&bytes.Buffer{})}
	for _, sess := range []userSession{{user: "ann"}, {user: "bad name!"}} {
		if p, _ := s.player(sess); p.Source != "2001:db8:1:2::/64" {
			t.Errorf("%q: Source %q, want 2001:db8:1:2::/64", sess.user, p.Source)
		}
	}
}
