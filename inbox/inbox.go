// Package inbox is correspondence play's service (session.Post): a player's inbox (their games,
// open or asleep, and the challenges waiting), challenges by name and open ones, friends, and the
// notices that tell a player connected anywhere that it is their move or that a challenge came.
//
// It holds no state of its own: what it knows is the store's (a server's database, or a cluster
// node's store, whose writes go through the cluster's stream) and the rooms' (a hub's List). A
// correspondence challenge accepted begins its match in the store, with the player who accepted
// to move, and then wakes its room (Tables.Wake): a room that fails to open leaves the match
// asleep, to be woken by the next join, so that nothing accepted is lost.
//
// A name is never shown to a player its holder ignores: the store's Ignores is the one hook
// (storage.DB.Ignores) that open challenges, challenges by name (refused as if the player took
// none) and friends consult.
package inbox

import (
	"crypto/rand"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session"
)

// Store is what the service reads and writes of the store: storage.DB for a server alone, a
// cluster node's store in a cluster. Its refusals are errors written for the player.
type Store interface {
	// Player returns the player a name is bound to, and the name they go by now.
	Player(name string) (id, current string, err error)
	Challenges(player string, now time.Time) (to, from, open []record.Challenge, err error)
	Challenge(id string) (record.Challenge, bool, error)
	InWindow(ch record.Challenge, player string) bool
	Correspondence(player string) ([]record.Correspondence, error)
	Follows(player string) ([]record.Follow, error)
	Prefs(player string) record.Prefs
	// Ignores reports whether who ignores whom: the hook of every list that shows names.
	Ignores(who, whom string) bool
	MakeChallenge(ch record.Challenge) error
	Decline(id, by string) error
	Withdraw(id, by string) error
	// Accept takes the challenge id for by; with a match (a correspondence clock) the match
	// begins in room code.
	Accept(id, by, code string, m *record.Match) (string, error)
	Follow(player, other, name string) error
	Unfollow(player, other string) error
	SetPrefs(player string, p record.Prefs) error
}

// Tables is what the service needs of the rooms: a hub of this process, or a cluster's.
type Tables interface {
	Games() []rules.Game
	// List describes the open rooms (rooms.Hub.List), of the whole cluster in one.
	List() []rooms.Summary
	// NewCode returns a code no room and no match has, held for a match about to begin.
	NewCode() (string, error)
	// Seed returns the seed of the first match of the room of code.
	Seed(code string) uint64
	// Wake opens the room of code's correspondence match, which has just begun in the store.
	Wake(code string) error
	// OpenTable opens a room waiting for the table's players (a live challenge accepted), and
	// returns its code.
	OpenTable(t rooms.Table) (string, error)
}

// News delivers notices: to every session of a player, connected to any node, and says who is
// connected.
type News interface {
	Notify(player string, n session.Notice)
	Connected(ids []string) map[string]bool
}

// Config configures a Service.
type Config struct {
	Store  Store
	Tables Tables
	News   News
	// MaxUnfinished bounds the unfinished matches one player sits in, open or asleep (default
	// 50): a challenge that would make more is refused, made or accepted.
	MaxUnfinished int
	// Logf logs what the operator should know (default: nothing).
	Logf func(format string, args ...any)
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Service is correspondence play's service (session.Post). Safe for concurrent use.
type Service struct{ cfg Config }

var _ session.Post = (*Service)(nil)

// New returns the service of cfg.
func New(cfg Config) *Service {
	if cfg.MaxUnfinished <= 0 {
		cfg.MaxUnfinished = 50
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Service{cfg: cfg}
}

// Refusals of the service, written for the player.
var (
	ErrGuest       = errors.New("a guest has no challenges nor friends: connect with an SSH key and a name (ssh NAME@host)")
	ErrNoSuchName  = errors.New("no player has that name")
	ErrNotForTwo   = errors.New("a challenge is a match of two players")
	ErrNoBots      = errors.New("a challenge has no bots: for a match against bots, new GAME bots=N")
	ErrNoChallenge = errors.New("no challenge has that ID (it may have been answered, withdrawn or expired)")
)

// game returns the catalogue's game of the ID.
func (s *Service) game(id string) (rules.Game, bool) {
	return rules.FindGame(s.cfg.Tables.Games(), id)
}

// Games returns open with p's correspondence matches whose rooms sleep added (their turn and
// deadline as the store's index has them), for rooms.Yours; a correspondence room open on
// another node of a cluster, whose summary says no turn, gets the index's. open is not changed.
func (s *Service) Games(p rooms.Player, open []rooms.Summary) []rooms.Summary {
	if p.Guest {
		return open
	}
	asleep, err := s.cfg.Store.Correspondence(p.ID)
	if err != nil {
		s.cfg.Logf("inbox: %s's correspondence: %v", p.ID, err)
		return open
	}
	out := slices.Clip(open) // appended to, and its elements changed: a copy of theirs at need
	changed := false
	for _, c := range asleep {
		i := slices.IndexFunc(open, func(o rooms.Summary) bool { return o.Code == c.Code })
		switch {
		case i < 0:
			out = append(out, s.summaryOf(c))
		case open[i].Phase == rooms.Playing && len(open[i].ToMove) == 0:
			// Awake on another node, whose summary does not say whose move it is: the index
			// does, as of the replica.
			if !changed {
				out, changed = slices.Clone(out), true
			}
			asleep := s.summaryOf(c)
			out[i].ToMove, out[i].Clock = asleep.ToMove, asleep.Clock
		}
	}
	return out
}

// summaryOf is the summary of a sleeping correspondence match.
func (s *Service) summaryOf(c record.Correspondence) rooms.Summary {
	sum := rooms.Summary{Code: c.Code, GameID: c.Game, GameName: c.Game, Phase: rooms.Playing, Created: c.Started,
		ToMove: c.Turn.ToMove, Seats: make([]string, len(c.Seats)), Players: make([]string, len(c.Seats))}
	if g, ok := s.game(c.Game); ok {
		sum.GameName = g.Name
	}
	for i, seat := range c.Seats {
		sum.Seats[i] = seat.Name
		if seat.Bot == "" && !seat.Guest {
			sum.Players[i] = seat.PlayerID
		}
	}
	if len(c.Turn.ToMove) > 0 {
		sum.Clock = rooms.TurnClock{Seat: c.Turn.ToMove[0], Ends: c.Turn.Due}
	}
	return sum
}

// unfinished counts the unfinished matches the player sits in, open or asleep.
func (s *Service) unfinished(id string, list []rooms.Summary) int {
	return len(rooms.Yours(s.Games(rooms.Player{ID: id}, list), id))
}

// Inbox returns what waits for p: their games (rooms.Yours: their move first), the challenges to
// them (but those of a player they ignore), the open ones in their window (but those of a
// player either ignores), and their own.
func (s *Service) Inbox(p rooms.Player) (session.Inbox, error) {
	if p.Guest {
		return session.Inbox{}, ErrGuest
	}
	in := session.Inbox{Me: p.ID, Games: rooms.Yours(s.Games(p, s.cfg.Tables.List()), p.ID)}
	to, from, open, err := s.cfg.Store.Challenges(p.ID, s.cfg.Now())
	if err != nil {
		return in, fmt.Errorf("your challenges cannot be read right now: %w", err)
	}
	st := s.cfg.Store
	in.From = from
	for _, c := range to {
		if !st.Ignores(p.ID, c.From) {
			in.To = append(in.To, c)
		}
	}
	for _, c := range open {
		if !st.Ignores(p.ID, c.From) && !st.Ignores(c.From, p.ID) && st.InWindow(c, p.ID) {
			in.Open = append(in.Open, c)
		}
	}
	return in, nil
}

// challengeID returns a new challenge ID: 5 of the match IDs' letters, from crypto/rand.
func challengeID() string {
	const alphabet = "23456789abcdefghjkmnpqrstuvwxyz"
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// Challenge challenges the player named name (name "": anyone rated lo to hi in the game; both
// 0: anyone) to a two-player match of st's game and options (ParseNew's: the clock among them).
// The player challenged, connected anywhere, is told at once.
func (s *Service) Challenge(p rooms.Player, name string, st session.Start, lo, hi int) (record.Challenge, error) {
	if p.Guest {
		return record.Challenge{}, ErrGuest
	}
	g, ok := s.game(st.Game)
	switch {
	case !ok:
		return record.Challenge{}, fmt.Errorf("no game %q", st.Game)
	case g.MinSeats > 2 || g.MaxSeats < 2:
		return record.Challenge{}, ErrNotForTwo
	case st.Bots > 0:
		return record.Challenge{}, ErrNoBots
	}
	if n := s.unfinished(p.ID, s.cfg.Tables.List()); n >= s.cfg.MaxUnfinished {
		return record.Challenge{}, fmt.Errorf("you already have %d unfinished matches, the most there may be: finish one first", n)
	}
	ch := record.Challenge{From: p.ID, FromName: p.Name, Game: g.ID, Options: maps.Clone(st.Options), Min: lo, Max: hi}
	if name != "" {
		id, current, err := s.cfg.Store.Player(name)
		if err != nil {
			return record.Challenge{}, ErrNoSuchName
		}
		ch.To, ch.ToName, ch.Min, ch.Max = id, current, 0, 0
	}
	var err error
	for range 3 { // a new ID if one is taken
		ch.ID = challengeID()
		if err = s.cfg.Store.MakeChallenge(ch); err == nil || !strings.Contains(err.Error(), "is taken") {
			break
		}
	}
	if err != nil {
		return record.Challenge{}, err
	}
	if made, ok, _ := s.cfg.Store.Challenge(ch.ID); ok {
		ch = made
	}
	if ch.To != "" {
		s.cfg.News.Notify(ch.To, session.Notice{Kind: session.NoticeChallenge, Title: "challenge from " + p.Name,
			Text: fmt.Sprintf("%s challenges you to %s", p.Name, matchText(g, ch.Options))})
	}
	return ch, nil
}

// matchText says a match's game and clock: "Coloretta, clock=3d".
func matchText(g rules.Game, opts rules.Options) string {
	if c := opts[rooms.ClockOption]; c != "" {
		return g.Name + ", clock=" + c
	}
	return g.Name
}

// Accept accepts the challenge id for p and returns its room's code. A correspondence match
// begins in the store, p to move (the seats are arranged so), and its room is woken; a live one
// gets a room that waits for both players. The challenger is told, connected anywhere.
func (s *Service) Accept(p rooms.Player, id string) (string, error) {
	if p.Guest {
		return "", ErrGuest
	}
	id = strings.ToLower(strings.TrimSpace(id))
	ch, ok, err := s.cfg.Store.Challenge(id)
	if err != nil {
		return "", fmt.Errorf("the challenge cannot be read right now: %w", err)
	}
	if !ok {
		return "", ErrNoChallenge
	}
	g, ok := s.game(ch.Game)
	if !ok {
		return "", fmt.Errorf("this arcade no longer has the game %q", ch.Game)
	}
	list := s.cfg.Tables.List()
	if n := s.unfinished(p.ID, list); n >= s.cfg.MaxUnfinished {
		return "", fmt.Errorf("you already have %d unfinished matches, the most there may be: finish one first", n)
	}
	if s.unfinished(ch.From, list) >= s.cfg.MaxUnfinished {
		return "", fmt.Errorf("%s has as many unfinished matches as one may: try again once they finish one", ch.FromName)
	}
	clock, _ := rooms.ParseClock(ch.Options[rooms.ClockOption])
	me := record.Seat{PlayerID: p.ID, Name: p.Name}
	them := record.Seat{PlayerID: ch.From, Name: ch.FromName}
	if !clock.Correspondence() {
		if _, err := s.cfg.Store.Accept(id, p.ID, "", nil); err != nil {
			return "", err
		}
		code, err := s.cfg.Tables.OpenTable(rooms.Table{Game: ch.Game, Options: ch.Options,
			Players: []rooms.Player{{ID: ch.From, Name: ch.FromName}, {ID: p.ID, Name: p.Name}}})
		if err != nil {
			return "", fmt.Errorf("the challenge is accepted, but its room could not open: %w", err)
		}
		s.cfg.News.Notify(ch.From, session.Notice{Kind: session.NoticeAnswer, Code: code,
			Title: p.Name + " accepted · " + g.Name + " · " + code,
			Text:  fmt.Sprintf("%s accepted your challenge to %s: room %s waits for you", p.Name, matchText(g, ch.Options), code)})
		return code, nil
	}
	code, err := s.cfg.Tables.NewCode()
	if err != nil {
		return "", err
	}
	seed := s.cfg.Tables.Seed(code)
	opts := maps.Clone(ch.Options)
	delete(opts, rooms.ClockOption)
	eng, err := g.New(opts, 2, seed)
	if err != nil {
		return "", fmt.Errorf("the match cannot begin: %w", err)
	}
	seats := []record.Seat{me, them}
	to := eng.ToMove()
	if len(to) > 0 && to[0] == 1 {
		seats = []record.Seat{them, me} // p moves first
	}
	m := record.Match{Game: ch.Game, Options: ch.Options, Seed: seed, Seats: seats,
		Turn: &record.Turn{ToMove: to, Due: s.cfg.Now().Add(clock.Move).UTC()}}
	if _, err := s.cfg.Store.Accept(id, p.ID, code, &m); err != nil {
		return "", err
	}
	if err := s.cfg.Tables.Wake(code); err != nil {
		s.cfg.Logf("inbox: room %s of the challenge %s accepted did not open: %v; it opens when a player joins", code, id, err)
	}
	s.cfg.News.Notify(ch.From, session.Notice{Kind: session.NoticeAnswer, Code: code,
		Title: p.Name + " accepted · " + g.Name + " · " + code,
		Text:  fmt.Sprintf("%s accepted your challenge to %s: room %s, %s to move", p.Name, matchText(g, ch.Options), code, p.Name)})
	return code, nil
}

// Decline declines the challenge id to p; the challenger is told.
func (s *Service) Decline(p rooms.Player, id string) error {
	if p.Guest {
		return ErrGuest
	}
	id = strings.ToLower(strings.TrimSpace(id))
	ch, ok, _ := s.cfg.Store.Challenge(id)
	if err := s.cfg.Store.Decline(id, p.ID); err != nil {
		return err
	}
	if ok {
		name := ch.Game
		if g, ok := s.game(ch.Game); ok {
			name = matchText(g, ch.Options)
		}
		s.cfg.News.Notify(ch.From, session.Notice{Kind: session.NoticeAnswer, Title: p.Name + " declined",
			Text: fmt.Sprintf("%s declined your challenge to %s", p.Name, name)})
	}
	return nil
}

// Withdraw withdraws p's challenge id.
func (s *Service) Withdraw(p rooms.Player, id string) error {
	if p.Guest {
		return ErrGuest
	}
	return s.cfg.Store.Withdraw(strings.ToLower(strings.TrimSpace(id)), p.ID)
}

// Follow has p follow the player named name, and returns the name as bound.
func (s *Service) Follow(p rooms.Player, name string) (string, error) {
	if p.Guest {
		return "", ErrGuest
	}
	id, current, err := s.cfg.Store.Player(name)
	if err != nil {
		return "", ErrNoSuchName
	}
	return current, s.cfg.Store.Follow(p.ID, id, current)
}

// Unfollow has p stop following the player named name.
func (s *Service) Unfollow(p rooms.Player, name string) (string, error) {
	if p.Guest {
		return "", ErrGuest
	}
	id, current, err := s.cfg.Store.Player(name)
	if err != nil {
		return "", ErrNoSuchName
	}
	return current, s.cfg.Store.Unfollow(p.ID, id)
}

// Friends returns the players p follows, in the order they were followed: connected anywhere or
// not, and the open rooms they sit in. A player who ignores p shows as not connected, in none.
func (s *Service) Friends(p rooms.Player) ([]session.Friend, error) {
	if p.Guest {
		return nil, ErrGuest
	}
	fs, err := s.cfg.Store.Follows(p.ID)
	if err != nil {
		return nil, fmt.Errorf("your friends cannot be read right now: %w", err)
	}
	ids := make([]string, len(fs))
	for i, f := range fs {
		ids[i] = f.Player
	}
	online := s.cfg.News.Connected(ids)
	list := s.cfg.Tables.List()
	out := make([]session.Friend, len(fs))
	for i, f := range fs {
		out[i] = session.Friend{Name: f.Name}
		if s.cfg.Store.Ignores(f.Player, p.ID) {
			continue // never shown to a player they ignore
		}
		out[i].Online = online[f.Player]
		for _, r := range list {
			if (r.Phase == rooms.Waiting || r.Phase == rooms.Playing) && r.SeatOf(f.Player) >= 0 {
				out[i].Games = append(out[i].Games, r)
			}
		}
	}
	return out, nil
}

// Prefs returns the settings of the player with the given ID.
func (s *Service) Prefs(id string) record.Prefs { return s.cfg.Store.Prefs(id) }

// SetPrefs changes p's settings.
func (s *Service) SetPrefs(p rooms.Player, change func(*record.Prefs)) error {
	if p.Guest {
		return ErrGuest
	}
	pr := s.cfg.Store.Prefs(p.ID)
	change(&pr)
	return s.cfg.Store.SetPrefs(p.ID, pr)
}

// TurnNotice tells a player connected anywhere that it has become their move in a room they are
// not connected to (the rooms' Config.TurnNotice). It is called on the room's goroutine: it
// only hands the notice on.
func (s *Service) TurnNotice(player string, n rooms.TurnNotice) {
	text := fmt.Sprintf("%s %s begins: your move", n.GameName, n.Code)
	if n.By != "" {
		text = fmt.Sprintf("%s moved in %s %s: your move", n.By, n.GameName, n.Code)
	}
	if !n.Ends.IsZero() {
		text += ", " + session.LeftText(time.Until(n.Ends)) + " left"
	}
	s.cfg.News.Notify(player, session.Notice{Kind: session.NoticeTurn, Code: n.Code, Text: text,
		Title: "your move · " + n.GameName + " · " + n.Code})
}
