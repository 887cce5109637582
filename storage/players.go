package storage

import (
	"encoding/json"
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
	err := d.db.View(func(tx *bolt.Tx) error {
		owner = string(tx.Bucket(bucketNames).Get(lower))
		if v := tx.Bucket(bucketPlayers).Get([]byte(id)); v != nil {
			var p player
			known = json.Unmarshal(v, &p) == nil && p.Name == name
		}
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
		if v := players.Get([]byte(id)); v != nil {
			var old player
			if json.Unmarshal(v, &old) == nil {
				p.Created = old.Created
			}
		}
		return putJSON(players, []byte(id), p)
	})
}

// putJSON stores v as JSON under key.
func putJSON(b *bolt.Bucket, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(key, data)
}

// getJSON reads key into v; it reports false when the key is missing. The value is decoded
// inside the transaction, so nothing of bbolt's memory is kept.
func getJSON(b *bolt.Bucket, key []byte, v any) (bool, error) {
	data := b.Get(key)
	if data == nil {
		return false, nil
	}
	return true, json.Unmarshal(data, v)
}
