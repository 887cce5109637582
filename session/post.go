package session

import (
	"slices"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
)

// Post is what sessions and plain commands need of correspondence play: a player's inbox (their
// games, open or asleep, and the challenges waiting), challenges by name and open ones, friends
// and settings. Package inbox implements it. Every refusal is an error written for the player.
type Post interface {
	// Inbox returns what waits for p.
	Inbox(p rooms.Player) (Inbox, error)
	// Games returns open (a hub's List) with p's correspondence matches whose rooms sleep
	// added, for rooms.Yours.
	Games(p rooms.Player, open []rooms.Summary) []rooms.Summary
	// Challenge challenges the player named name (or, name "", anyone whose rating in the game
	// is from lo to hi: both 0, anyone) to a match of the game and options of st (ParseNew's).
	Challenge(p rooms.Player, name string, st Start, lo, hi int) (record.Challenge, error)
	// Accept accepts the challenge id: its match begins (a correspondence clock), or its room
	// waits for both players (any other); it returns the room's code.
	Accept(p rooms.Player, id string) (string, error)
	// Decline declines the challenge id to p; Withdraw withdraws p's own.
	Decline(p rooms.Player, id string) error
	Withdraw(p rooms.Player, id string) error
	// Follow and Unfollow follow and stop following the player named name; they return the
	// name as it is bound.
	Follow(p rooms.Player, name string) (string, error)
	Unfollow(p rooms.Player, name string) (string, error)
	// Friends returns the players p follows, whether each is connected and what they play.
	Friends(p rooms.Player) ([]Friend, error)
	// Prefs returns the settings of the player with the given ID; SetPrefs changes p's.
	Prefs(id string) record.Prefs
	SetPrefs(p rooms.Player, change func(*record.Prefs)) error
}

// Inbox is what waits for a player: their unfinished matches (rooms.Yours: their move first),
// the challenges to them, the open challenges they may accept, and their own challenges waiting
// for answers.
type Inbox struct {
	Games          []rooms.Summary
	To, Open, From []record.Challenge
	// Me is the player's ID, whose seat in each game the summaries say.
	Me string
}

// Waiting reports whether a move or a challenge waits for the player: the exit status 0 of
// `inbox`.
func (in Inbox) Waiting() bool {
	return len(in.To) > 0 || len(in.Open) > 0 || slices.ContainsFunc(in.Games, func(s rooms.Summary) bool {
		return s.ToPlay(s.SeatOf(in.Me))
	})
}

// Next returns the first of the player's games where it is their move; false when none is.
func (in Inbox) Next() (rooms.Summary, bool) {
	i := slices.IndexFunc(in.Games, func(s rooms.Summary) bool { return s.ToPlay(s.SeatOf(in.Me)) })
	if i < 0 {
		return rooms.Summary{}, false
	}
	return in.Games[i], true
}

// Friend is a player someone follows, as their lobby and `friends` show them: connected
// anywhere on the server or not, and the rooms they sit in.
type Friend struct {
	Name   string
	Online bool
	Games  []rooms.Summary
}
