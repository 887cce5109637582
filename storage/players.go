package storage

import (
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// player is the stored record of a key.
type player struct {
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	Created time.Time `json:"created"`
}

// Claim binds name to the key id when nobody holds it, and records the key's latest name. A name
// bound to another key fails with ErrNameTaken; names compare without regard to case.
func (d *DB) Claim(id, name string) error {
	if id == "" || name == "" {
		return fmt.Errorf("claim: empty id or name")
	}
	lower := []byte(strings.ToLower(name))
	// A read first: nearly every claim is a returning player, and needs no write.
	var owner string
	var known bool
	err := d.view(func(tx *bolt.Tx) error {
		owner = string(tx.Bucket(bucketNames).Get(lower))
		var p player
		ok, err := getJSON(tx.Bucket(bucketPlayers), []byte(id), &p)
		known = ok && err == nil && p.Name == name // a damaged record is written anew
		return nil
	})
	if err != nil {
		return err
	}
	if owner != "" && owner != id {
		return ErrNameTaken
	}
	if owner == id && known {
		return nil
	}
	return d.writes.do(func(tx *bolt.Tx) error {
		names := tx.Bucket(bucketNames)
		if o := names.Get(lower); o != nil && string(o) != id {
			return ErrNameTaken
		}
		if err := names.Put(lower, []byte(id)); err != nil {
			return err
		}
		players := tx.Bucket(bucketPlayers)
		p := player{ID: id, Name: name, Created: d.now().UTC()}
		var old player
		if ok, err := getJSON(players, []byte(id), &old); ok && err == nil {
			p.Created = old.Created
		}
		return putJSON(players, []byte(id), p)
	})
}
