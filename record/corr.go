package record

import (
	"time"

	"github.com/arcade/arcade/rules"
)

// Turn is where a correspondence match stands between its players' visits: the seats to move
// and when their time for the move runs out. The room gives it with the match's start and each
// move; the store indexes it, so that a sleeping room's deadline fires and its players' inboxes
// say whose move it is, with no room open.
type Turn struct {
	ToMove []rules.Seat `json:"to"`
	Due    time.Time    `json:"due"`
}

// Correspondence is an unfinished correspondence match as the store indexes it, whether its room
// is open or asleep.
type Correspondence struct {
	Code    string    `json:"code"`
	ID      string    `json:"id"`
	Game    string    `json:"game"`
	Clock   string    `json:"clock"` // the clock option, "3d"
	Seats   []Seat    `json:"seats"`
	Turn    Turn      `json:"turn"`
	Started time.Time `json:"started"`
}

// SeatOf returns the seat of the player with the given ID, or -1.
func (c Correspondence) SeatOf(id string) int {
	for i, s := range c.Seats {
		if id != "" && s.PlayerID == id && s.Bot == "" {
			return i
		}
	}
	return -1
}

// Challenge is a player's invitation to a match: to a player by name, or open to anyone whose
// rating in the game is within a window. It waits, in the store, until it is accepted, declined,
// withdrawn or expires.
type Challenge struct {
	// ID names the challenge for accept and decline: a few letters, unique among the store's.
	ID string `json:"id"`
	// From is the challenger's identity, and FromName their name.
	From     string `json:"from"`
	FromName string `json:"from_name"`
	// To is the identity of the player challenged, and ToName their name; both empty for an
	// open challenge.
	To     string `json:"to,omitempty"`
	ToName string `json:"to_name,omitempty"`
	// Game and Options (the clock among them, rooms' "clock" option) are the match's.
	Game    string        `json:"game"`
	Options rules.Options `json:"options,omitempty"`
	// Min and Max bound the rating (in Game) of whoever accepts an open challenge; both zero:
	// anyone.
	Min int `json:"min,omitempty"`
	Max int `json:"max,omitempty"`
	// Made is when it was made; Expires when it lapses, unanswered.
	Made    time.Time `json:"made"`
	Expires time.Time `json:"expires"`
}

// Open reports whether the challenge is open to anyone (in its window), not to one player.
func (c Challenge) Open() bool { return c.To == "" }

// Expired reports whether the challenge has lapsed at now.
func (c Challenge) Expired(now time.Time) bool { return !now.Before(c.Expires) }

// Follow is a player someone follows: their friend, as the follower's lobby and friends list
// show them. Following is one way, and the player followed is never told.
type Follow struct {
	Player string    `json:"player"`
	Name   string    `json:"name"` // the name when followed
	At     time.Time `json:"at"`
}

// Prefs are a player's settings for correspondence play (the bell is the player record's).
type Prefs struct {
	// NoNotify: no desktop notification (OSC 9, OSC 777) when it becomes the player's move or a
	// challenge arrives; the bell and the window's title still say so.
	NoNotify bool `json:"no_notify,omitempty"`
	// Challenges says who may challenge the player by name: "" anyone, ChallengesFriends the
	// players they follow, ChallengesOff nobody.
	Challenges string `json:"challenges,omitempty"`
}

// The values of Prefs.Challenges besides "" (anyone).
const (
	ChallengesFriends = "friends"
	ChallengesOff     = "off"
)
