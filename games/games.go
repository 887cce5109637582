// Package games is the arcade's catalogue: the one list of the games it serves, in the order the
// lobby shows them, each with everything the arcade needs of it. A game lives in three places,
// all named here:
//
//   - its engine, rules/<game> (the rules, the bots, the notation; no UI);
//   - its board views, games/<game>view: the terminal's (NewBoard) and the web's (WebBoard);
//   - its line in All.
//
// cmd/arcade hands the engines to the hub (which gives the lobby, the new-room form and the ssh
// commands their list of games) and the board views to the sessions. Nothing registers itself: a
// game is served when, and only when, it has its line here, and games_test.go checks that every
// line has its engine and board view, that IDs are unique and that every board draws its game's
// matches.
//
// Adding a game: write its engine (rules/<game>, with its bots) and its board views (a NewBoard
// returning a draw.Board, and a WebBoard, a webdraw.Board) in games/<game>view, and add its line
// to All. The load tool
// (tools/arcade-load, a module of its own) needs a driver for it too, in its internal/drivers.
package games

import (
	"slices"

	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session/draw"
	"github.com/arcade/arcade/web/webdraw"

	"github.com/arcade/arcade/games/colorettaview"
	"github.com/arcade/arcade/games/disconview"
	"github.com/arcade/arcade/games/flicflacview"
	"github.com/arcade/arcade/games/lhexiconview"
	"github.com/arcade/arcade/games/stonetowersview"
	"github.com/arcade/arcade/rules/coloretta"
	"github.com/arcade/arcade/rules/discon"
	"github.com/arcade/arcade/rules/flicflac"
	"github.com/arcade/arcade/rules/lhexicon"
	"github.com/arcade/arcade/rules/stonetowers"
)

// Entry is one game of the catalogue.
type Entry struct {
	// Game is the engine: its rules, options, bots and help (rules/<game>).
	Game rules.Game
	// Board makes a new board view of the game, for one session (games/<game>view).
	Board func() draw.Board
	// Web draws the game's board for the web companion from a spectator's snapshot
	// (games/<game>view/web.go).
	Web webdraw.Board
}

// All returns the catalogue, in the order the lobby shows the games. The slice is new on each
// call.
func All() []Entry {
	return []Entry{
		{Game: stonetowers.Game, Board: stonetowersview.NewBoard, Web: stonetowersview.WebBoard},
		{Game: discon.Game, Board: disconview.NewBoard, Web: disconview.WebBoard},
		{Game: coloretta.Game, Board: colorettaview.NewBoard, Web: colorettaview.WebBoard},
		{Game: lhexicon.Game, Board: lhexiconview.NewBoard, Web: lhexiconview.WebBoard},
		{Game: flicflac.Game, Board: flicflacview.NewBoard, Web: flicflacview.WebBoard},
	}
}

// Rules returns the engines of the catalogue, in its order: the hub's Config.Games.
func Rules() []rules.Game {
	var gs []rules.Game
	for _, e := range All() {
		gs = append(gs, e.Game)
	}
	return gs
}

// Boards returns the board views of the catalogue by game ID: the sessions' Config.Boards.
func Boards() map[string]func() draw.Board {
	bs := map[string]func() draw.Board{}
	for _, e := range All() {
		bs[e.Game.ID] = e.Board
	}
	return bs
}

// WebBoards returns the web boards of the catalogue by game ID: the web companion's
// Config.Boards.
func WebBoards() map[string]webdraw.Board {
	bs := map[string]webdraw.Board{}
	for _, e := range All() {
		bs[e.Game.ID] = e.Web
	}
	return bs
}

// IDs returns the games' IDs, in the catalogue's order.
func IDs() []string {
	var ids []string
	for _, e := range All() {
		ids = append(ids, e.Game.ID)
	}
	return ids
}

// Find returns the catalogue's entry of the game with ID id, or false.
func Find(id string) (Entry, bool) {
	all := All()
	i := slices.IndexFunc(all, func(e Entry) bool { return e.Game.ID == id })
	if i < 0 {
		return Entry{}, false
	}
	return all[i], true
}
