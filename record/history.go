package record

import (
	"time"

	"github.com/arcade/arcade/rating"
)

// RatingPoint is a player's rating in one game right after one rated match: a point of the
// player's rating history.
type RatingPoint struct {
	// Match is the ID of the rated match.
	Match string `json:"match"`
	// At is when the match ended.
	At     time.Time     `json:"at"`
	Rating rating.Rating `json:"rating"`
}
