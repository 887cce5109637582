package session

import (
	"encoding/json"
	"io"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
)

// LeaderboardSize is how many standings, and how many best solo scores, a leaderboard holds per
// game: what `leaderboard` prints and the web's API serves.
const LeaderboardSize = 50

// soloKey is the key of the best solo scores in the leaderboards' JSON, beside the games' IDs (no
// game is called so).
const soloKey = "solo"

// Leaderboards are the standings of one game or of every game, with the best solo scores of the
// games that may be played alone (MinSeats 1): what the `leaderboard` command prints and the
// web companion serves, read once by ReadLeaderboards.
type Leaderboards struct {
	// Games are the games shown, in the catalogue's order.
	Games []rules.Game
	// Ratings holds each shown game's standings, best first (never nil).
	Ratings map[string][]record.Standing
	// Solo holds the best solo scores of each shown game that may be played alone (never nil).
	Solo map[string][]record.SoloScore
	only string
}

// ReadLeaderboards reads the leaderboards of the game only, or of every game when only is "", at
// most size standings and size solo scores each.
func ReadLeaderboards(recs Records, games []rules.Game, only string, size int) (Leaderboards, error) {
	l := Leaderboards{Ratings: map[string][]record.Standing{}, Solo: map[string][]record.SoloScore{}, only: only}
	for _, g := range games {
		if only != "" && g.ID != only {
			continue
		}
		list, err := recs.Leaderboard(g.ID, size)
		if err != nil {
			return l, err
		}
		if list == nil {
			list = []record.Standing{}
		}
		l.Ratings[g.ID] = list
		l.Games = append(l.Games, g)
		if g.MinSeats != 1 {
			continue
		}
		best, err := recs.SoloScores(g.ID, size)
		if err != nil {
			return l, err
		}
		if best == nil {
			best = []record.SoloScore{}
		}
		l.Solo[g.ID] = best
	}
	return l, nil
}

// WriteJSON writes the leaderboards as `leaderboard --json` does, indented by two spaces. The
// JSON of every game is an object: each game's ID -> its standings, and "solo" -> an object of
// each game that may be played alone -> its best solo scores. The JSON of one game is its
// standings (an array), or for a game that may be played alone that object with that game alone.
func (l Leaderboards) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if l.only != "" && len(l.Solo) == 0 {
		return enc.Encode(l.Ratings[l.only])
	}
	all := map[string]any{}
	for id, list := range l.Ratings {
		all[id] = list
	}
	if len(l.Solo) > 0 {
		all[soloKey] = l.Solo
	}
	return enc.Encode(all)
}
