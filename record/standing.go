package record

import (
	"time"

	"github.com/arcade/arcade/rating"
)

// Standing is one player's record in one game.
type Standing struct {
	Rank     int           `json:"rank"`
	PlayerID string        `json:"player"`
	Name     string        `json:"name"`
	Game     string        `json:"game"`
	Rating   rating.Rating `json:"rating"`
	// Provisional is set while the rating is still uncertain (high deviation).
	Provisional bool      `json:"provisional"`
	Games       int       `json:"games"`
	Wins        int       `json:"wins"`
	Losses      int       `json:"losses"`
	Draws       int       `json:"draws"`
	Last        time.Time `json:"last"`
}

// SoloScore is one player's best score in one game played alone (a one-seat match). Only a
// player's best is kept: a later match replaces it only with a higher score.
type SoloScore struct {
	Rank     int    `json:"rank"`
	PlayerID string `json:"player"`
	Name     string `json:"name"`
	Game     string `json:"game"`
	Score    int    `json:"score"`
	// Match is the ID of the match that scored it, for its replay.
	Match string `json:"match"`
	// Date is when that match ended.
	Date time.Time `json:"date"`
	// Games counts the player's solo matches of the game that went on the table, the best and
	// the others.
	Games int `json:"games"`
}

// Profile is what the arcade knows of one player.
type Profile struct {
	PlayerID string    `json:"player"`
	Name     string    `json:"name"`
	Since    time.Time `json:"since"`
	// Standings holds the player's record per game, rated games only.
	Standings []Standing `json:"standings"`
	// Solo holds the player's best solo score per game, for games played alone.
	Solo []SoloScore `json:"solo,omitempty"`
	// Played counts every finished match per game of two players or more, rated or not (solo
	// matches are counted in Solo).
	Played map[string]int `json:"played"`
	// Won counts the finished matches of Played where the player ranked first.
	Won map[string]int `json:"won"`
	// Recent lists the player's latest matches, newest first, without their moves.
	Recent []Match `json:"recent"`
}
