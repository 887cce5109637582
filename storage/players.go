package storage

import (
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// player is the stored record of a player: an identity, the fingerprint of its first key.
type player struct {
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	Created time.Time `json:"created"`
	// Quiet: the player turned off the bell that rings when it becomes their turn.
	Quiet bool `json:"quiet,omitempty"`
}

// ErrNoPlayer: the key has no player record (it never claimed a name).
var ErrNoPlayer = errors.New("no player with that key")

// Bell reports whether the bell rings for the key id when it becomes the player's turn: yes
// unless the player turned it off (SetBell); yes for an unknown key or a damaged record.
func (d *DB) Bell(id string) bool {
	var p player
	_ = d.view(func(tx *bolt.Tx) error {
		_, err := getJSON(tx.Bucket(bucketPlayers), []byte(id), &p)
		return err
	})
	return !p.Quiet
}

// SetBell turns on or off, for the key id, the bell that rings when it becomes the player's turn.
// The key must have claimed a name (ErrNoPlayer).
func (d *DB) SetBell(id string, on bool) error {
	return d.writes.do(func(tx *bolt.Tx) error {
		players := tx.Bucket(bucketPlayers)
		var p player
		ok, err := getJSON(players, []byte(id), &p)
		if err != nil {
			return fmt.Errorf("set bell: %w", err)
		}
		if !ok {
			return ErrNoPlayer
		}
		p.Quiet = !on
		return putJSON(players, []byte(id), p)
	})
}
