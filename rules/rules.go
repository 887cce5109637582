// Package rules holds the vocabulary shared by every game engine of the arcade: seats, outcomes,
// options, the engine contract and the bot contract.
//
// An engine (package rules/<game>) is a pure, deterministic value: it does no I/O, reads no clock and
// uses no global random source. All randomness comes from the seed given to New. A match is therefore
// fully described by (game, options, seats, seed, moves) and can be replayed move by move; in a game
// with hidden draws, the reshuffles its takebacks made too (Reshuffler, Reshuffle).
//
// This package and every rules/<game> package import nothing of the project outside rules and no
// charm or bbolt package.
package rules

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Seat is a player's place at the table, 0-based in turn order.
type Seat int

// Spectator is the viewer passed to Engine.View for someone who holds no seat: it sees only the
// public part of the state.
const Spectator Seat = -1

// ErrNotYourTurn is returned (wrapped) by Engine.Apply when the seat may not act now.
var ErrNotYourTurn = errors.New("it is not your turn")

// ErrGameOver is returned (wrapped) by Engine.Apply when the match has ended.
var ErrGameOver = errors.New("the game is over")

// ErrBadNotation is returned (wrapped) by Engine.Apply when a move cannot be decoded.
var ErrBadNotation = errors.New("not a move")

// Outcome is the result of a match, or its standing while it is still being played.
type Outcome struct {
	// Over reports whether the match has ended.
	Over bool
	// Scores holds each seat's score, indexed by Seat.
	Scores []int
	// Ranks holds each seat's rank when Over: 1 is first; seats that tie share a rank.
	Ranks []int
	// Reason says in words why the match ended ("all turns played"), empty while it goes on.
	Reason string
}

// Winners returns the seats ranked first. It is empty while the match goes on.
func (o Outcome) Winners() []Seat {
	var w []Seat
	if !o.Over {
		return nil
	}
	for i, r := range o.Ranks {
		if r == 1 {
			w = append(w, Seat(i))
		}
	}
	return w
}

// WinningScore returns a two-seat match's score as the winner's over the other's, when the
// score decided the match: ok is false for another number of seats or scores, and when the
// winner had not scored or was not ahead (an opponent who resigned or ran out of time).
func (o Outcome) WinningScore(winner Seat) (won, lost int, ok bool) {
	if len(o.Scores) != 2 || winner < 0 || winner > 1 {
		return 0, 0, false
	}
	won, lost = o.Scores[winner], o.Scores[1-winner]
	return won, lost, won > 0 && won >= lost
}

// Engine is the state of one match. Implementations are immutable values: Apply returns a new state
// and leaves the receiver unchanged, so a state may be handed to another goroutine (a bot, a view).
type Engine interface {
	// Game returns the ID of the game, e.g. "stonetowers".
	Game() string
	// Seats returns the number of seats at the table.
	Seats() int
	// ToMove returns the seats that may act now; empty when the match is over.
	ToMove() []Seat
	// Legal returns the legal moves of seat now, in the game's canonical notation. It is empty when
	// the seat may not act.
	Legal(seat Seat) []string
	// Apply plays move (in notation) for seat and returns the new state. A move that cannot be played
	// returns an error whose text tells a player, in plain words, why (wrapping ErrNotYourTurn,
	// ErrGameOver or ErrBadNotation where they apply); the receiver is unchanged either way.
	Apply(seat Seat, move string) (Engine, error)
	// View returns what viewer may see: a game-specific value (see the game's package), with private
	// information of other seats removed. Spectator gets the public view.
	View(viewer Seat) any
	// Outcome returns the scores, and ranks once the match is over.
	Outcome() Outcome
}

// PublicViewer is implemented by engines whose View is the same value for every viewer (games
// without hidden information and without a viewer's perspective in the view). A room then
// computes one view per state for all its players and spectators, instead of one per seat.
type PublicViewer interface {
	// PublicView marks the engine; it is never called.
	PublicView()
}

// Bot chooses moves for a seat. Implementations are safe for concurrent use by several matches.
type Bot interface {
	// Move returns a legal move for seat in state, in notation. It should return before ctx is done;
	// when ctx is done it returns the best move found so far (never an illegal one). rng is the only
	// source of randomness it may use, so a seeded match stays reproducible.
	Move(ctx context.Context, state Engine, seat Seat, rng *rand.Rand) string
}

// Game describes one game of the arcade: how to set up a match and how to play it.
type Game struct {
	// ID is the short, lower-case name used on the command line and in records, e.g. "stonetowers".
	ID string
	// Name is the name shown to players, e.g. "Stone Towers".
	Name string
	// Summary is one line describing the game for the lobby.
	Summary string
	// MinSeats and MaxSeats bound the number of seats at the table.
	MinSeats, MaxSeats int
	// DefaultSeats is the number of seats a new room of the game has when none is asked for; 0
	// means MinSeats (see StartSeats).
	DefaultSeats int
	// Options lists the room options with their defaults.
	Options []Option
	// New sets up a match with the given options (already validated by Options), number of seats and
	// seed.
	New func(opts Options, seats int, seed uint64) (Engine, error)
	// Bots lists the bot levels from weakest to strongest.
	Bots []BotLevel
	// Rules is the game's rules as plain text for the in-game help, lines of at most 76 columns.
	Rules string
	// Notation describes the move notation in one or two lines, for the `:` prompt's help.
	Notation string
}

// StartSeats returns the number of seats a new room has when none is asked for: DefaultSeats
// when it is within MinSeats and MaxSeats, else MinSeats.
func (g Game) StartSeats() int {
	if g.DefaultSeats >= g.MinSeats && g.DefaultSeats <= g.MaxSeats && g.DefaultSeats > 0 {
		return g.DefaultSeats
	}
	return g.MinSeats
}

// BotLevel is one strength of bot.
type BotLevel struct {
	// Name is shown to players, e.g. "easy".
	Name string
	// Bot plays at this level.
	Bot Bot
}

// Bot returns the bot level named name, or false.
func (g Game) Bot(name string) (BotLevel, bool) {
	for _, b := range g.Bots {
		if b.Name == name {
			return b, true
		}
	}
	return BotLevel{}, false
}

// FindGame returns the game of games whose ID is id, ignoring case.
func FindGame(games []Game, id string) (Game, bool) {
	for _, g := range games {
		if strings.EqualFold(g.ID, id) {
			return g, true
		}
	}
	return Game{}, false
}

// GameIDs lists the games' IDs, comma separated, for messages.
func GameIDs(games []Game) string {
	ids := make([]string, len(games))
	for i, g := range games {
		ids[i] = g.ID
	}
	return strings.Join(ids, ", ")
}

// Notations returns the moves in notation, in order: the usual body of Engine.Legal. A nil or
// empty list gives nil.
func Notations[M fmt.Stringer](moves []M) []string {
	if len(moves) == 0 {
		return nil
	}
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.String()
	}
	return out
}
