package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/games/load"
	"github.com/arcade/arcade/rules"
)

// gameDriver returns the catalogue's driver of game, with the Stone Towers board size and turns
// given (a game without those options ignores them).
func gameDriver(game string, size, turns int) (load.Driver, error) {
	e, ok := games.Find(game)
	if !ok {
		return nil, fmt.Errorf("unknown game %q: use %s", game, gameList())
	}
	return e.Load(rules.Options{"size": strconv.Itoa(size), "turns": strconv.Itoa(turns)}), nil
}

// gameList lists the catalogue's game IDs for help and errors: "a, b or c".
func gameList() string {
	ids := games.IDs()
	if len(ids) < 2 {
		return strings.Join(ids, "")
	}
	return strings.Join(ids[:len(ids)-1], ", ") + " or " + ids[len(ids)-1]
}

// gameName is the name of game as players see it.
func gameName(game string) string {
	if e, ok := games.Find(game); ok {
		return e.Game.Name
	}
	return game
}

// takesOption reports whether game has the room option key (Stone Towers' size and turns, which
// the tool's --size and --turns set).
func takesOption(game, key string) bool {
	e, ok := games.Find(game)
	return ok && slices.ContainsFunc(e.Game.Options, func(op rules.Option) bool { return op.Key == key })
}

// validGame reports whether the play phase can play game.
func validGame(game string) bool {
	_, ok := games.Find(game)
	return ok
}
