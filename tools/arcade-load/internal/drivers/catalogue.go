// Package drivers is what the load tool knows of each game of the arcade's catalogue: a Driver
// opens a room for it, follows its matches with the game's own engine, and tells the texts
// ("markers") on the screens that show a match has started and a move has been played. Each
// game's driver is a file here named after the game, listed in byGame; the arcade's catalogue
// (games.All) says which games there are, and every one of them must have a driver here
// (TestEveryGameHasADriver).
package drivers

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
)

// byGame makes each game's driver, by game ID, with the tool's options (Stone Towers' size and
// turns), which a driver ignores when its game has no such option.
var byGame = map[string]func(rules.Options) Driver{
	"stonetowers": newStonetowers,
	"discon":      newDiscon,
	"coloretta":   newColoretta,
	"lhexicon":    newLhexicon,
	"flicflac":    newFlicflac,
}

// For returns the catalogue's driver of game, with the Stone Towers board size and turns
// given (a game without those options ignores them), whose rooms are opened with roomOptions
// too (--room-options: "" for none; checked by CheckRoomOptions).
func For(game string, size, turns int, roomOptions string) (Driver, error) {
	if !Valid(game) {
		return nil, fmt.Errorf("unknown game %q: use %s", game, List())
	}
	d := byGame[game](rules.Options{"size": strconv.Itoa(size), "turns": strconv.Itoa(turns)})
	if extra := strings.Join(strings.Fields(roomOptions), " "); extra != "" {
		d = withRoomOptions{Driver: d, extra: extra}
	}
	return d, nil
}

// withRoomOptions is a game's driver whose rooms are opened with more options (--room-options):
// its Command is the game's, then extra.
type withRoomOptions struct {
	Driver
	extra string
}

// Command is the game's command line with the extra room options after it.
func (d withRoomOptions) Command() string { return d.Driver.Command() + " " + d.extra }

// CheckRoomOptions checks --room-options: key=value words whose keys are options of the room,
// not of the game's rules, since the tool follows each match with its own engine, built without
// them. The only one is the clock, whose value must be one the arcade takes (rooms.ParseClock, as
// the arcade reads it).
func CheckRoomOptions(roomOptions string) error {
	for _, w := range strings.Fields(roomOptions) {
		k, v, ok := strings.Cut(w, "=")
		if !ok || strings.ToLower(k) != rooms.ClockOption {
			return fmt.Errorf("--room-options %q: %q is not %s=VALUE (options of the game's rules would change the matches the tool follows)",
				roomOptions, w, rooms.ClockOption)
		}
		if _, err := rooms.ParseClock(v); err != nil {
			return fmt.Errorf("--room-options %q: %w", roomOptions, err)
		}
	}
	return nil
}

// List lists the IDs of the catalogue's games that have a driver, for help and errors: "a, b or
// c".
func List() string {
	var ids []string
	for _, id := range games.IDs() {
		if Valid(id) {
			ids = append(ids, id)
		}
	}
	if len(ids) < 2 {
		return strings.Join(ids, "")
	}
	return strings.Join(ids[:len(ids)-1], ", ") + " or " + ids[len(ids)-1]
}

// Name is the name of game as players see it.
func Name(game string) string {
	if e, ok := games.Find(game); ok {
		return e.Game.Name
	}
	return game
}

// TakesOption reports whether game has the room option key (Stone Towers' size and turns, which
// the tool's --size and --turns set).
func TakesOption(game, key string) bool {
	e, ok := games.Find(game)
	return ok && slices.ContainsFunc(e.Game.Options, func(op rules.Option) bool { return op.Key == key })
}

// Valid reports whether the play phase can play game: the arcade serves it and it has a driver.
func Valid(game string) bool {
	_, served := games.Find(game)
	return served && byGame[game] != nil
}
