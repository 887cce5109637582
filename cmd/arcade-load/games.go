package main

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/coloretta"
	"github.com/arcade/arcade/rules/discon"
	"github.com/arcade/arcade/rules/stonetowers"
)

// driver is what the play phase knows of one game: how to open a room for it, how to build the
// same engine as the room (to choose legal moves), and what text on the screens shows that a
// match has started and that a move has been played.
type driver interface {
	// command is the command line that opens a two-seat room for the game.
	command() string
	// engine returns the match numbered match (1 for a room's first) of the room code, as the
	// server builds it.
	engine(code string, match int) (rules.Engine, error)
	// startMarker is a text both screens show when state (a new match) has begun.
	startMarker(state rules.Engine) string
	// marker is a text the opponent's screen shows once the move that led to state has been
	// played, on a line the move changed; name is the mover's name.
	marker(state rules.Engine, name string) string
	// seeded reports whether the game's set-up or cards depend on the match's seed: the server
	// must then derive seeds from room codes (arcade --load-test-seeds) for the tool to follow.
	seeded() bool
}

// gameDriver returns the driver of game, with the Stone Towers board size and turns given.
func gameDriver(game string, size, turns int) (driver, error) {
	switch game {
	case stonetowers.Game.ID:
		return stoneDriver{size: size, turns: turns}, nil
	case discon.Game.ID:
		return disconDriver{}, nil
	case coloretta.Game.ID:
		return colorettaDriver{}, nil
	}
	return nil, fmt.Errorf("unknown game %q: use %s, %s or %s", game, stonetowers.Game.ID, discon.Game.ID, coloretta.Game.ID)
}

// gameName is the name of game as players see it.
func gameName(game string) string {
	for _, g := range []rules.Game{stonetowers.Game, discon.Game, coloretta.Game} {
		if g.ID == game {
			return g.Name
		}
	}
	return game
}

// pickMove returns a random legal move of seat in state. Stone Towers' moves are chosen from its
// typed list, and only the chosen one is written out in notation: writing out every legal move at
// every ply had been a third of the tool's CPU. The choice is the same as from state.Legal.
func pickMove(state rules.Engine, seat rules.Seat, rng *rand.Rand) string {
	if st, ok := state.(*stonetowers.State); ok {
		moves := st.LegalMoves(seat)
		return moves[rng.IntN(len(moves))].String()
	}
	legal := state.Legal(seat)
	return legal[rng.IntN(len(legal))]
}

// validGame reports whether the play phase can play game.
func validGame(game string) bool {
	_, err := gameDriver(game, 12, 60)
	return err == nil
}

// gameOver is what every screen shows when a match has ended: the marker of a match's last move.
const gameOver = "GAME OVER"

// stoneDriver plays Stone Towers, whose matches have no hidden or random part.
type stoneDriver struct{ size, turns int }

func (d stoneDriver) command() string {
	return fmt.Sprintf("new stonetowers size=%d turns=%d", d.size, d.turns)
}

func (d stoneDriver) engine(string, int) (rules.Engine, error) {
	return stonetowers.Game.New(rules.Options{"size": strconv.Itoa(d.size), "turns": strconv.Itoa(d.turns)}, 2, 1)
}

func (d stoneDriver) startMarker(state rules.Engine) string { return d.marker(state, "") }

// marker is the side panel's count of turns left, which every move changes. It is read from the
// state, not from its View, which works out every square's influence.
func (d stoneDriver) marker(state rules.Engine, _ string) string {
	st := state.(*stonetowers.State)
	return fmt.Sprintf("Turns left: R %d · B %d", st.TurnsLeft(stonetowers.Red), st.TurnsLeft(stonetowers.Blue))
}

func (stoneDriver) seeded() bool { return false }

// disconDriver plays DISCON (the default variant), whose discs are laid out from the seed.
type disconDriver struct{}

func (disconDriver) command() string { return "new discon" }

func (disconDriver) engine(code string, match int) (rules.Engine, error) {
	return discon.Game.New(rules.Options{}, 2, rules.DerivedSeed(code, match))
}

func (d disconDriver) startMarker(state rules.Engine) string { return d.marker(state, "") }

// marker is the side panel's turn line ("Red: 2 moves left"): a seat has two moves a turn, so
// every move changes it.
func (disconDriver) marker(state rules.Engine, _ string) string {
	st := state.(*discon.State) // its Turn and MovesLeft: the whole View cost the tool a sixth of its CPU
	if st.Turn() < 0 {
		return gameOver
	}
	s := "s"
	if st.MovesLeft() == 1 {
		s = ""
	}
	return fmt.Sprintf("%s: %d move%s left", discon.SeatName(st.Turn()), st.MovesLeft(), s)
}

func (disconDriver) seeded() bool { return true }

// colorettaDriver plays Coloretta, whose deck is shuffled from the seed.
type colorettaDriver struct{}

func (colorettaDriver) command() string { return "new coloretta" }

func (colorettaDriver) engine(code string, match int) (rules.Engine, error) {
	return coloretta.Game.New(rules.Options{}, 2, rules.DerivedSeed(code, match))
}

// startMarker is the side panel's deck count at the start.
func (colorettaDriver) startMarker(state rules.Engine) string {
	return fmt.Sprintf("Deck %d", state.View(rules.Spectator).(coloretta.View).DeckSize)
}

// marker is the side panel's last-move line, "Last: NAME drew red", cut after the name (the rest
// may wrap): the same player's draw and placement still change the line.
func (colorettaDriver) marker(state rules.Engine, name string) string {
	if state.Outcome().Over {
		return gameOver
	}
	return "Last: " + name
}

func (colorettaDriver) seeded() bool { return true }
