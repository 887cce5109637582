package inbox

import (
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arcade/arcade/matchlog"
	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/coloretta"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/session"
	"github.com/arcade/arcade/storage"
)

// tables are a hub of this process with its sleeping rooms in db, as a server alone has them.
type tables struct {
	hub *rooms.Hub
	db  *storage.DB
}

func (t tables) Games() []rules.Game      { return t.hub.Games() }
func (t tables) List() []rooms.Summary    { return t.hub.List() }
func (t tables) NewCode() (string, error) { return t.hub.NewCode() }
func (t tables) Seed(code string) uint64  { return t.hub.Seed(code, 1) }
func (t tables) Wake(code string) error {
	ok, err := matchlog.Wake(t.hub, t.db, code)
	if err == nil && !ok {
		err = errors.New("nothing to wake")
	}
	return err
}
func (t tables) OpenTable(tb rooms.Table) (string, error) {
	r, err := t.hub.OpenTable(tb)
	if err != nil {
		return "", err
	}
	return r.Code(), nil
}

// news records the notices.
type news struct {
	mu  sync.Mutex
	got map[string][]session.Notice
	on  map[string]bool
}

func (n *news) Notify(player string, nt session.Notice) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.got[player] = append(n.got[player], nt)
}

func (n *news) Connected(ids []string) map[string]bool {
	out := map[string]bool{}
	for _, id := range ids {
		if n.on[id] {
			out[id] = true
		}
	}
	return out
}

func (n *news) of(player string) []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []string
	for _, nt := range n.got[player] {
		out = append(out, nt.Text)
	}
	return out
}

var (
	ada   = rooms.Player{ID: "SHA256:ada", Name: "ada"}
	bob   = rooms.Player{ID: "SHA256:bob", Name: "bob"}
	carol = rooms.Player{ID: "SHA256:carol", Name: "carol"}
	gus   = rooms.Player{ID: "guest-1", Name: "~gus", Guest: true}
)

// service returns a service over a new database and a hub of Stone Towers and Coloretta, with
// ada, bob and carol's names claimed.
func service(t *testing.T, maxUnfinished int) (*Service, *storage.DB, *rooms.Hub, *news) {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "arcade.db"), storage.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, p := range []rooms.Player{ada, bob, carol} {
		if err := db.Claim(p.ID, p.Name); err != nil {
			t.Fatal(err)
		}
	}
	var hub *rooms.Hub
	nw := &news{got: map[string][]session.Notice{}, on: map[string]bool{}}
	var svc *Service
	hub = rooms.NewHub(rooms.Config{Games: []rules.Game{stonetowers.Game, coloretta.Game}, Recorder: matchlog.Recorder{Log: db},
		BotDelay: -1, Logf: t.Logf, SleepAfter: -1,
		ReserveCode: func(code string) (bool, error) { _, taken := db.ActiveMatch(code); return !taken, nil },
		Wake: func(code string) bool {
			ok, _ := matchlog.Wake(hub, db, code)
			return ok
		},
		TurnNotice: func(id string, n rooms.TurnNotice) { svc.TurnNotice(id, n) }})
	t.Cleanup(func() { hub.Shutdown("over") })
	svc = New(Config{Store: db, Tables: tables{hub: hub, db: db}, News: nw, MaxUnfinished: maxUnfinished, Logf: t.Logf})
	return svc, db, hub, nw
}

// start is a Start of the game with a correspondence clock.
func start(game, clock string) session.Start {
	return session.Start{Mode: session.ModeNew, Game: game, Options: rules.Options{rooms.ClockOption: clock}, Seats: 2}
}

// TestChallengeAcceptedBegins: a correspondence challenge accepted begins its match in the store
// with the player who accepted to move, opens its room, and tells the challenger; the players'
// inboxes say whose move it is; a move tells the other player, who is not in the room.
func TestChallengeAcceptedBegins(t *testing.T) {
	svc, db, hub, nw := service(t, 0)
	c, err := svc.Challenge(ada, "BOB", start("coloretta", "3d"), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if c.ToName != "bob" || c.Expires.Sub(c.Made) != storage.ChallengeLife {
		t.Errorf("challenge %+v", c)
	}
	if got := nw.of(bob.ID); len(got) != 1 || got[0] != "ada challenges you to Coloretta, clock=3d" {
		t.Errorf("bob's notices %q", got)
	}
	in, err := svc.Inbox(bob)
	if err != nil || len(in.To) != 1 || !in.Waiting() {
		t.Fatalf("bob's inbox %+v %v", in, err)
	}
	if in, _ := svc.Inbox(ada); len(in.From) != 1 || in.Waiting() {
		t.Errorf("ada's inbox %+v", in)
	}
	code, err := svc.Accept(bob, strings.ToUpper(c.ID))
	if err != nil {
		t.Fatal(err)
	}
	r, ok := hub.Room(code)
	if !ok {
		t.Fatal("the room did not open")
	}
	cr, ok := db.CorrespondenceOf(code)
	if !ok || cr.Seats[cr.Turn.ToMove[0]].PlayerID != bob.ID {
		t.Errorf("the match: %+v, bob does not move first", cr)
	}
	if got := nw.of(ada.ID); len(got) != 1 || !strings.Contains(got[0], "bob accepted your challenge to Coloretta, clock=3d: room "+code) {
		t.Errorf("ada's notices %q", got)
	}
	if in, _ := svc.Inbox(bob); len(in.Games) != 1 || !in.Waiting() || len(in.To) != 0 {
		t.Errorf("bob's inbox after the accept %+v", in)
	}
	if in, _ := svc.Inbox(ada); len(in.Games) != 1 || in.Waiting() {
		t.Errorf("ada's inbox after the accept %+v", in)
	}
	s, err := r.Join(bob, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Move(t.Context(), "d"); err != nil {
		t.Fatal(err)
	}
	if err := s.Move(t.Context(), "p1"); err != nil {
		t.Fatal(err)
	}
	if got := nw.of(ada.ID); len(got) != 2 || !strings.HasPrefix(got[1], "bob moved in Coloretta "+code+": your move, 2d 23h left") {
		t.Errorf("ada's notices after bob's move %q", got)
	}
	if in, _ := svc.Inbox(ada); !in.Waiting() {
		t.Errorf("ada's move does not wait for her: %+v", in)
	}
}

// TestChallengeRefusalsOfTheService: a guest, an unknown name, a game not of two, bots, and the
// player's own name are refused, and a decline tells the challenger.
func TestChallengeRefusalsOfTheService(t *testing.T) {
	svc, _, _, nw := service(t, 0)
	for _, c := range []struct {
		p    rooms.Player
		name string
		st   session.Start
		want string
	}{
		{gus, "bob", start("coloretta", "3d"), "a guest"},
		{ada, "nobody", start("coloretta", "3d"), "no player has that name"},
		{ada, "bob", session.Start{Game: "coloretta", Bots: 1}, "no bots"},
		{ada, "ada", start("coloretta", "3d"), "yourself"},
	} {
		if _, err := svc.Challenge(c.p, c.name, c.st, 0, 0); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s challenges %s: %v, want %q", c.p.Name, c.name, err, c.want)
		}
	}
	c, err := svc.Challenge(ada, "bob", start("stonetowers", "1d"), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Decline(carol, c.ID); err == nil {
		t.Error("carol declined bob's challenge")
	}
	if err := svc.Decline(bob, c.ID); err != nil {
		t.Fatal(err)
	}
	if got := nw.of(ada.ID); len(got) != 1 || got[0] != "bob declined your challenge to Stone Towers, clock=1d" {
		t.Errorf("ada's notices %q", got)
	}
	if _, err := svc.Accept(bob, c.ID); !errors.Is(err, ErrNoChallenge) {
		t.Errorf("accepting a declined challenge: %v", err)
	}
	if _, err := svc.Inbox(gus); !errors.Is(err, ErrGuest) {
		t.Errorf("a guest's inbox: %v", err)
	}
}

// TestUnfinishedLimit: a player with as many unfinished matches as the limit can neither make a
// challenge nor accept one, and the one challenged is refused when their challenger has as many.
func TestUnfinishedLimit(t *testing.T) {
	svc, _, _, _ := service(t, 2)
	for range 2 {
		c, err := svc.Challenge(ada, "bob", start("stonetowers", "3d"), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Accept(bob, c.ID); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Challenge(ada, "carol", start("stonetowers", "3d"), 0, 0); err == nil ||
		!strings.Contains(err.Error(), "you already have 2 unfinished matches") {
		t.Errorf("ada's third: %v", err)
	}
	c, err := svc.Challenge(carol, "ada", start("stonetowers", "3d"), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Accept(ada, c.ID); err == nil || !strings.Contains(err.Error(), "unfinished matches") {
		t.Errorf("ada accepts a third: %v", err)
	}
	c, err = svc.Challenge(carol, "", start("stonetowers", "3d"), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Accept(bob, c.ID); err == nil {
		t.Error("bob accepts a third")
	}
}

// TestOpenChallengesAndIgnores: an open challenge shows to the players in its window, not to one
// who ignores its challenger or whom its challenger ignores; a friend who ignores the follower
// shows as not connected, in no room.
func TestOpenChallengesAndIgnores(t *testing.T) {
	svc, db, hub, nw := service(t, 0)
	if _, err := svc.Challenge(ada, "", start("stonetowers", "3d"), 1400, 1600); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Challenge(ada, "", start("coloretta", "3d"), 1700, 1800); err != nil {
		t.Fatal(err)
	}
	if in, _ := svc.Inbox(bob); len(in.Open) != 1 || in.Open[0].Game != "stonetowers" || !in.Waiting() {
		t.Errorf("bob's open challenges %+v", in.Open)
	}
	svc.cfg.Store = ignoring{DB: db, who: map[[2]string]bool{{carol.ID, ada.ID}: true}}
	if in, _ := svc.Inbox(carol); len(in.Open) != 0 {
		t.Errorf("carol ignores ada, and sees %+v", in.Open)
	}

	if _, err := svc.Follow(ada, "carol"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Follow(ada, "bob"); err != nil {
		t.Fatal(err)
	}
	nw.on[carol.ID], nw.on[bob.ID] = true, true
	r, err := hub.Create("stonetowers", nil, 2, carol)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Join(carol, false); err != nil {
		t.Fatal(err)
	}
	fs, err := svc.Friends(ada)
	if err != nil || len(fs) != 2 {
		t.Fatalf("ada's friends %+v %v", fs, err)
	}
	for _, f := range fs {
		switch f.Name {
		case "carol":
			if f.Online || len(f.Games) != 0 {
				t.Errorf("carol, who ignores ada, is shown to her: %+v", f)
			}
		case "bob":
			if !f.Online {
				t.Errorf("bob: %+v", f)
			}
		}
	}
	if fs, _ := svc.Friends(bob); len(fs) != 0 {
		t.Errorf("bob follows %+v: following is one way", fs)
	}
	if err := svc.SetPrefs(bob, func(p *record.Prefs) { p.Challenges = record.ChallengesFriends }); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Challenge(ada, "bob", start("stonetowers", "3d"), 0, 0); err == nil || !strings.Contains(err.Error(), "only from the players they follow") {
		t.Errorf("bob takes his friends' challenges only: %v", err)
	}
}

// ignoring is a store in which some players ignore others (the moderation of players, issue 36,
// keeps them; the store's own refusals of them are tested in package storage).
type ignoring struct {
	*storage.DB
	who map[[2]string]bool
}

func (s ignoring) Ignores(who, whom string) bool { return s.who[[2]string{who, whom}] }

// TestGamesOfAnotherNode: a correspondence room open on another node of a cluster, whose
// summary says no turn, is told with the index's turn: its player's next finds it.
func TestGamesOfAnotherNode(t *testing.T) {
	svc, db, hub, _ := service(t, 0)
	c, err := svc.Challenge(ada, "bob", start("coloretta", "3d"), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	code, err := svc.Accept(bob, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	cr, _ := db.CorrespondenceOf(code)
	remote := []rooms.Summary{{Code: code, GameID: "coloretta", GameName: "Coloretta", Phase: rooms.Playing,
		Seats: []string{cr.Seats[0].Name, cr.Seats[1].Name}, Players: []string{cr.Seats[0].PlayerID, cr.Seats[1].PlayerID}}}
	hub.CloseRoom(code, "moved")
	games := svc.Games(bob, remote)
	if len(games) != 1 || !games[0].ToPlay(games[0].SeatOf(bob.ID)) || !games[0].Clock.Ends.Equal(cr.Turn.Due) {
		t.Errorf("bob's games %+v", games)
	}
	if remote[0].ToMove != nil {
		t.Error("the list given was changed")
	}
}
