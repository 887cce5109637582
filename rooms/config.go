package rooms

import (
	"crypto/rand"
	"encoding/binary"
	"log"
	"time"

	"github.com/arcade/arcade/rules"
)

// Config configures a Hub. The zero value of every field means its default.
type Config struct {
	// Games is the catalogue of games rooms can be created for.
	Games []rules.Game
	// MaxRooms bounds the number of open rooms (default 1000); Create beyond it fails with
	// ErrTooManyRooms.
	MaxRooms int
	// SeatGrace is how long a dropped player's seat waits for them during a match (default 2m).
	// Negative means no wait: the seat is abandoned as soon as its player drops.
	SeatGrace time.Duration
	// BotDelay is the least time a bot takes for a move, so that people can follow (default 400ms).
	// Negative means no delay.
	BotDelay time.Duration
	// MoveLimit is the clock of a rated match (every seat a person with a key) whose room set
	// none (the room option "clock"): a limit per move, so that no match can stall (default
	// DefaultMoveLimit, 2m). Negative means untimed.
	MoveLimit time.Duration
	// BotTimeout is the deadline of a bot's move (default 2s).
	BotTimeout time.Duration
	// EmptyExpiry is how long a room with nobody connected lives on (default 30m). Negative means
	// forever (until Shutdown).
	EmptyExpiry time.Duration
	// JoinFailures failed Finds (unknown codes) per player ID within JoinWindow are allowed; after
	// that Find fails with ErrTooManyAttempts until the window has moved on. Defaults: 10 per
	// minute. Negative JoinFailures means no limit.
	JoinFailures int
	JoinWindow   time.Duration
	// NewSeed returns the seed of the match numbered match (1 for a room's first) in the room
	// code (default: crypto/rand, whatever the arguments). Rooms call it concurrently.
	NewSeed func(code string, match int) uint64
	// NewSalt returns fresh randomness for a takeback's reshuffle of a match's hidden draws
	// (rules.Reshuffler; default: crypto/rand). Rooms call it concurrently.
	NewSalt func() uint64
	// Logf logs what only operators should see, e.g. a bot's illegal move (default log.Printf).
	// Rooms and bots call it concurrently.
	Logf func(format string, args ...any)
	// ReserveCode, when not nil, reserves a code for a new room (a cluster's room directory
	// does it with a create-if-absent, so that two nodes never hand out one code): true when the
	// code is now the caller's; false, with an error or none, to try another. Create tries a few
	// codes, then fails. It is called without the hub's lock, concurrently.
	ReserveCode func(code string) (bool, error)
	// Shares bounds what one player or one address may hold of the hub (share.go). Its zero
	// value bounds nothing: the server's flags set it.
	Shares Shares
	// Refused, when not nil, is told the name of a share (a Shares field's limit, e.g.
	// "waiting_per_key") each time it refuses something, for metrics. It is called
	// concurrently, sometimes under the hub's lock: it must be quick and must not call the hub.
	Refused func(limit string)
	// Recorder, when not nil, persists matches: it sees every match start, accepted move, bot
	// takeover and match end before any subscriber does. Nil means no persistence.
	Recorder Recorder

	// SleepAfter is how long a correspondence match being played (Clock.Correspondence) lives on
	// with nobody connected before its room sleeps: it stops, its match unfinished as recorded,
	// and is woken when a player joins (Wake) or its deadline comes (default 10s). Negative
	// means never.
	SleepAfter time.Duration
	// Sleep, when not nil, is told the code of each room that went to sleep (so that a
	// scheduler of deadlines looks at its deadline); it is called on the room's goroutine and
	// must be quick.
	Sleep func(code string)
	// Wake, when not nil, wakes the sleeping room of a code that Find does not know: it opens
	// the room from the store (Restore) and reports true, or false when no sleeping match has
	// the code. It is called without the hub's lock, concurrently.
	Wake func(code string) bool
	// Asleep, when not nil, returns the codes of the correspondence matches the player with the
	// given ID sits in, open or asleep (the store's index): the share of unfinished matches
	// (Shares.Unfinished) counts them besides the rooms the player opened. It is called under
	// the hub's lock: it must be quick and must not call the hub.
	Asleep func(playerID string) []string
	// TurnNotice, when not nil, is told each time it becomes the move of a player with a key
	// who is not connected to the room (a correspondence player elsewhere, or not connected at
	// all), so that the player's other sessions hear of it. It is called on the room's
	// goroutine and must be quick.
	TurnNotice func(playerID string, n TurnNotice)
}

// TurnNotice says that it has become a player's move in a room they are not connected to.
type TurnNotice struct {
	Code, GameID, GameName string
	// By is the name of the player whose move made it the player's; "" at a match's start.
	By string
	// Ends is when the player's time for the move runs out; zero when the turn is untimed.
	Ends time.Time
}

// Recorder persists what happens in rooms (the storage layer implements it).
//
// Record is called on the room's goroutine, so it should be quick (e.g. a batched commit); it is
// called for one room at a time but for many rooms concurrently. For an EventMove an error refuses
// the move: the player gets ErrNotSaved and nothing changes (a bot tries again a second later),
// or ErrStorageDown when the error wraps it (bots then wait for the restart). An error that wraps
// ErrNotSaved reaches the player as it is, so its text should be written for them.
// Errors for the other events are logged and the room goes on.
type Recorder interface {
	Record(code string, e Event) error
}

// EndRecorder is implemented by Recorders that say what recording a match's end did: the match's
// ID and the players' ratings before and after. A room records its ends with RecordEnd instead of
// Record and shows the result (Snapshot.Result).
type EndRecorder interface {
	RecordEnd(code string, e Event) (EndResult, error)
}

// EndResult is what recording a match's end did.
type EndResult struct {
	// MatchID names the match, for its replay; "" when it is not known.
	MatchID string
	// Ratings holds each seat's rating in the game before and after the match, in seat order;
	// Rated is false for a seat whose rating the match did not change (a bot, a guest, an
	// unrated match). Nil when nothing is known.
	Ratings []RatingChange
}

// RatingChange is a player's rating before and after a match, on the Glicko scale (1500 a new
// player's), each with whether it was still provisional.
type RatingChange struct {
	Rated                          bool
	Before, After                  float64
	BeforeProvisional, Provisional bool
}

// EventKind says what an Event records.
type EventKind int

const (
	// EventStart: a match began (Seats, Options, Seed, Match are set).
	EventStart EventKind = iota + 1
	// EventMove: a move was accepted (Ply, Seat, Move; Outcome is the standing after it).
	EventMove
	// EventTakeover: a bot took over an abandoned seat (Seat, Seats).
	EventTakeover
	// EventEnd: a match ended (Outcome, Unrated).
	EventEnd
	// EventTakeback: the moves from number Ply on were taken back (Reshuffle: and the match's
	// hidden draws shuffled anew, in a game that has them).
	EventTakeback
)

// Event is one thing a Recorder records. Fields not listed for its Kind hold the match's current
// values. The Recorder must not modify it.
type Event struct {
	Kind    EventKind
	GameID  string
	Match   int // 1 for a room's first match, 2 for its first rematch...
	Options rules.Options
	Seed    uint64
	Seats   []SeatInfo
	Ply     int // number of the move, 0-based
	Seat    rules.Seat
	Move    string
	Outcome rules.Outcome
	Unrated bool
	// ToMove and Due describe the turn a correspondence match's start or move begins: the seats
	// to move and when their time runs out. Both are zero for any other match, and at the move
	// that ends a match.
	ToMove []rules.Seat
	Due    time.Time
	// Casual: the room's settings are not all standard (Casual), so the match changes no
	// rating, whoever plays it. Set on every event; a Recorder records it with the start.
	Casual bool
	// Reshuffle, with EventTakeback in a game whose engine is a rules.Reshuffler, is the
	// reshuffle the takeback made at Ply (nil otherwise): a replay or a resume makes it again
	// (rules.Reshuffled), after the moves before it, the reshuffles at Ply and after it forgotten
	// (rules.TakenBackTo).
	Reshuffle *rules.Reshuffle
}

// withDefaults returns c with its defaults filled in.
func (c Config) withDefaults() Config {
	if c.MaxRooms <= 0 {
		c.MaxRooms = 1000
	}
	c.SeatGrace = duration(c.SeatGrace, 2*time.Minute)
	c.BotDelay = duration(c.BotDelay, 400*time.Millisecond)
	c.MoveLimit = duration(c.MoveLimit, DefaultMoveLimit)
	if c.BotTimeout <= 0 {
		c.BotTimeout = 2 * time.Second
	}
	if c.EmptyExpiry == 0 {
		c.EmptyExpiry = 30 * time.Minute
	} // negative stays: never
	if c.SleepAfter == 0 {
		c.SleepAfter = 10 * time.Second
	}
	if c.JoinFailures == 0 {
		c.JoinFailures = 10
	}
	if c.JoinWindow <= 0 {
		c.JoinWindow = time.Minute
	}
	if c.NewSeed == nil {
		c.NewSeed = cryptoSeed
	}
	if c.NewSalt == nil {
		c.NewSalt = func() uint64 { return cryptoSeed("", 0) }
	}
	if c.Logf == nil {
		c.Logf = log.Printf
	}
	if c.Refused == nil {
		c.Refused = func(string) {}
	}
	return c
}

// duration returns def for zero, zero for negative, and d otherwise.
func duration(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}

func cryptoSeed(string, int) uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}
