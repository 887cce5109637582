// Package record holds the arcade's records of the past: finished and unfinished matches as they
// are stored and replayed, and the standings of the leaderboards. It is shared vocabulary between
// storage, which keeps records, and the layers that show them (session, sshd); it does no I/O.
//
// A match is fully described by (game, options, seats, seed, moves, and the reshuffles of its
// takebacks in a game with hidden draws): Final runs the engine
// forward through the moves to the last position, and a Cursor steps through the positions
// while holding only a bounded number of them, whatever the match's length.
package record

import (
	"time"

	"github.com/arcade/arcade/rules"
)

// Version is the version of the match record format written now.
const Version = 1

// Seat is one seat of a recorded match.
type Seat struct {
	// PlayerID is the holder's key fingerprint; empty for a bot.
	PlayerID string `json:"player,omitempty"`
	// Name is the holder's name when the match was played (a bot's: "Ada (hard bot)").
	Name string `json:"name"`
	// Bot is the bot's level, empty for a person.
	Bot string `json:"bot,omitempty"`
	// Guest marks a player without a key.
	Guest bool `json:"guest,omitempty"`
}

// Move is one accepted move.
type Move struct {
	Seat rules.Seat `json:"seat"`
	Move string     `json:"move"`
	// At is when the move was accepted.
	At time.Time `json:"at,omitzero"`
	// Turn is the turn the move began, in a correspondence match (nil in any other, and at the
	// move that ended the match).
	Turn *Turn `json:"turn,omitempty"`
}

// Match is a recorded match: its header and its moves.
type Match struct {
	Version int           `json:"v"`
	ID      string        `json:"id"`
	Code    string        `json:"code"`
	Game    string        `json:"game"`
	Options rules.Options `json:"options"`
	Seed    uint64        `json:"seed"`
	Seats   []Seat        `json:"seats"`
	Started time.Time     `json:"started"`
	// Ended is zero while the match is unfinished. A match that its moves ended, ended with its
	// last move, even when the end was recorded later (by a room restored after a restart).
	Ended   time.Time     `json:"ended,omitzero"`
	Outcome rules.Outcome `json:"outcome"`
	// Unrated is set when the match ended without rating (abandoned).
	Unrated bool `json:"unrated,omitempty"`
	// Rated is set when the match changed ratings.
	Rated bool `json:"rated,omitempty"`
	// Voided is set when an operator voided the match: it no longer counts for ratings (Rated is
	// unset, and the ratings were recomputed without it).
	Voided bool `json:"voided,omitempty"`
	// Casual is set, with the start, when the room's settings were not all standard (options or
	// clock; docs/rules.md, "Ratings"): the match changes no rating. The room decided it from its
	// options; every node reads it from here.
	Casual bool `json:"casual,omitempty"`
	// Moves is the move log; in listings (Summary) it may be left empty.
	Moves []Move `json:"moves,omitempty"`
	// Reshuffles are the reshuffles of the match's hidden draws its takebacks made
	// (rules.Reshuffler: Lhex-i'-con's bank), in order: a replay makes each after the moves
	// before its ply (rules.Reshuffled). Empty in a game without hidden draws, or without
	// takebacks.
	Reshuffles []rules.Reshuffle `json:"reshuffles,omitempty"`
	// Plies is the number of moves, kept even where Moves is left out.
	Plies int `json:"plies"`
	// Turn is the first turn of a correspondence match, given with its start (nil for any
	// other match).
	Turn *Turn `json:"turn,omitempty"`
}

// Finished reports whether the match has ended.
func (m Match) Finished() bool { return !m.Ended.IsZero() }

// Names returns the seats' names in seat order.
func (m Match) Names() []string {
	out := make([]string, len(m.Seats))
	for i, s := range m.Seats {
		out[i] = s.Name
	}
	return out
}

// Solo reports whether the match was played alone (one seat): it has a score, not a result.
func (m Match) Solo() bool { return len(m.Seats) == 1 }

// Rateable reports whether the match may change ratings: its settings were standard (not
// Casual), it ended normally, it had two seats or more, and every seat is a player with a key (no
// bots, no guests). A solo match is never rated; see SoloScorable.
func (m Match) Rateable() bool {
	return !m.Casual && !m.Solo() && m.endedForRecords()
}

// SoloScorable reports whether the match's score may go on the solo table: a solo match of
// standard settings (not Casual) that ended normally (not abandoned), played by a player with a
// key.
func (m Match) SoloScorable() bool {
	return !m.Casual && m.Solo() && len(m.Outcome.Scores) == 1 && m.endedForRecords()
}

// endedForRecords reports whether the match ended normally and every seat is a player with a key.
func (m Match) endedForRecords() bool {
	if !m.Finished() || m.Unrated || !m.Outcome.Over || len(m.Outcome.Ranks) != len(m.Seats) {
		return false
	}
	for _, s := range m.Seats {
		if s.Bot != "" || s.Guest || s.PlayerID == "" {
			return false
		}
	}
	return true
}
