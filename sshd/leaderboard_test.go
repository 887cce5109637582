package sshd

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/arcade/arcade/rating"
	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
)

// soloGame may be played alone, as Lhex-i'-con: the leaderboard shows its best solo scores.
var soloGame = rules.Game{ID: "lhexicon", Name: "Lhex-i'-con", MinSeats: 1, MaxSeats: 4}

// soloRecords serves one standing of every game and two best solo scores of every game; asked
// counts the games whose solo scores were asked for.
type soloRecords struct{ asked map[string]int }

var soloDate = time.Date(2026, 11, 21, 20, 15, 0, 0, time.UTC)

func (r soloRecords) Leaderboard(game string, limit int) ([]record.Standing, error) {
	return []record.Standing{{Rank: 1, PlayerID: "SHA256:b", Name: "bob", Game: game,
		Rating: rating.Rating{R: 1662.3, RD: 95, Vol: 0.06}, Games: 14, Wins: 10, Losses: 3, Draws: 1}}, nil
}

func (r soloRecords) SoloScores(game string, limit int) ([]record.SoloScore, error) {
	r.asked[game]++
	return []record.SoloScore{
		{Rank: 1, PlayerID: "SHA256:a", Name: "ann", Game: game, Score: 143, Match: "2kq8xm4a7b5", Date: soloDate, Games: 3},
		{Rank: 2, PlayerID: "SHA256:m", Name: "alice", Game: game, Score: 97, Match: "2kq8xm4a7b2", Date: soloDate.Add(-24 * time.Hour), Games: 1},
	}, nil
}

func (soloRecords) Profile(string, int) (record.Profile, error) { return record.Profile{}, nil }
func (soloRecords) Match(string) (record.Match, error)          { return record.Match{}, nil }

// TestLeaderboardSoloPlain: the leaderboard of a game that may be played alone prints its ratings
// and then its best solo scores; a game for two or more prints its ratings only.
func TestLeaderboardSoloPlain(t *testing.T) {
	games := append(append([]rules.Game{}, testGames...), soloGame)
	recs := soloRecords{asked: map[string]int{}}
	var out bytes.Buffer
	if err := writeLeaderboard(&out, recs, games, "lhexicon", false); err != nil {
		t.Fatal(err)
	}
	want := `Lhex-i'-con
RANK  NAME  RATING  RD  GAMES  WON  LOST  DRAWN
1     bob   1662    95  14     10   3     1

Lhex-i'-con, best solo scores
RANK  NAME   SCORE  GAMES  DATE (UTC)  MATCH
1     ann    143    3      2026-11-21  2kq8xm4a7b5
2     alice  97     1      2026-11-20  2kq8xm4a7b2

A rating with ? is provisional: too few games to be sure.
`
	if out.String() != want {
		t.Errorf("leaderboard lhexicon:\n%s\nwant:\n%s", out.String(), want)
	}
	out.Reset()
	if err := writeLeaderboard(&out, recs, games, "", false); err != nil {
		t.Fatal(err)
	}
	if text := out.String(); strings.Count(text, "best solo scores") != 1 || !strings.HasPrefix(text, "Towers\n") {
		t.Errorf("leaderboard of every game:\n%s", text)
	}
	if recs.asked["towers"] != 0 {
		t.Error("the solo table of a game for two or more was read")
	}
}

// TestLeaderboardSoloJSON: the JSON of every game keeps each game's standings under its ID and
// adds the best solo scores under "solo"; the JSON of a game that may be played alone is that
// object with the game alone; the JSON of another game stays its standings.
func TestLeaderboardSoloJSON(t *testing.T) {
	games := append(append([]rules.Game{}, testGames...), soloGame)
	recs := soloRecords{asked: map[string]int{}}
	type doc struct {
		Towers   []record.Standing             `json:"towers"`
		Lhexicon []record.Standing             `json:"lhexicon"`
		Solo     map[string][]record.SoloScore `json:"solo"`
	}
	for _, only := range []string{"", "lhexicon"} {
		var out bytes.Buffer
		if err := writeLeaderboard(&out, recs, games, only, true); err != nil {
			t.Fatal(err)
		}
		var got doc
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("%q: %v\n%s", only, err, out.String())
		}
		solo := got.Solo["lhexicon"]
		if len(got.Lhexicon) != 1 || len(got.Solo) != 1 || len(solo) != 2 || solo[0].Score != 143 ||
			solo[0].Match != "2kq8xm4a7b5" || !solo[0].Date.Equal(soloDate) || solo[1].Name != "alice" {
			t.Errorf("%q: %s", only, out.String())
		}
		if (only == "") != (len(got.Towers) == 1) {
			t.Errorf("%q: towers %+v", only, got.Towers)
		}
		if only == "lhexicon" && strings.Contains(out.String(), `"towers"`) {
			t.Errorf("%q: another game in it:\n%s", only, out.String())
		}
	}
	var out bytes.Buffer
	if err := writeLeaderboard(&out, recs, games, "towers", true); err != nil {
		t.Fatal(err)
	}
	var standings []record.Standing
	if err := json.Unmarshal(out.Bytes(), &standings); err != nil || len(standings) != 1 {
		t.Errorf("leaderboard towers --json: %v\n%s", err, out.String())
	}
}
