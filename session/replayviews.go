package session

import (
	"iter"
	"strings"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session/draw"
)

// ReplayViews checks that match m of game g replays and returns the screens `replay ID` draws
// of it at width x height, by position: 0 before the first move, then one after each move, each
// as lines. They are a spectator's screens (the positions' rules.Spectator views: no rack, no
// hand), drawn by the replay's own code with board, a new board view of the game (the
// catalogue's), in colour unless noColor. The web companion records them as an asciicast.
func ReplayViews(m record.Match, g rules.Game, board draw.Board, noColor bool, width, height int) (iter.Seq2[int, []string], error) {
	cur, err := record.NewCursor(m, g)
	if err != nil {
		return nil, err
	}
	r := newReplayScreen(m, g, cur, board)
	st := *draw.NewStyles(noColor, false)
	return func(yield func(int, []string) bool) {
		for at := 0; at <= cur.Len(); at++ {
			r.at = at
			if !yield(at, strings.Split(r.view(st, width, height), "\n")) {
				return
			}
		}
	}, nil
}
