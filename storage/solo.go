package storage

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
)

// scoreSolo puts m's score on the solo table (m is SoloScorable): the player's best score of the
// game is replaced when m scored more, and their count of solo matches goes up either way. A tie
// keeps the earlier match. tx is writable.
func scoreSolo(tx *bolt.Tx, m record.Match) error {
	b := tx.Bucket(bucketSolo)
	s := m.Seats[0]
	key := pairKey(m.Game, s.PlayerID)
	best := record.SoloScore{PlayerID: s.PlayerID, Game: m.Game}
	had, err := getJSON(b, key, &best)
	if err != nil {
		return fmt.Errorf("solo score of %s: %w", s.PlayerID, err)
	}
	if score := m.Outcome.Scores[0]; !had || score > best.Score {
		best.Score, best.Match, best.Date = score, m.ID, m.Ended.UTC()
	}
	best.Name = s.Name
	best.Games++
	return putJSON(b, key, best)
}

// SoloScores returns the best solo scores of game, highest first (ties: the earlier first), at
// most limit of them (0: all), ranked from 1 (ties share a rank). A damaged record is left out
// (Check reports it).
func (d *DB) SoloScores(game string, limit int) ([]record.SoloScore, error) {
	var out []record.SoloScore
	err := d.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketSolo)
		prefix := []byte(game + "\x00")
		c := b.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var s record.SoloScore
			if decode(k, v, &s) != nil {
				continue
			}
			out = append(out, s)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b record.SoloScore) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), a.Date.Compare(b.Date), strings.Compare(a.Name, b.Name))
	})
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && out[i].Score == out[i-1].Score {
			out[i].Rank = out[i-1].Rank
		}
	}
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// soloOf returns the best solo scores of the player with key id, by game. tx may be read-only.
func soloOf(tx *bolt.Tx, id string) []record.SoloScore {
	b := tx.Bucket(bucketSolo)
	var out []record.SoloScore
	suffix := []byte("\x00" + id)
	_ = b.ForEach(func(k, v []byte) error {
		var s record.SoloScore
		if bytes.HasSuffix(k, suffix) && decode(k, v, &s) == nil {
			out = append(out, s)
		}
		return nil
	})
	return out
}
