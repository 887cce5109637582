package storage

import (
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/sanitize"
)

// player is the stored record of a key.
type player struct {
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	Created time.Time `json:"created"`
	// Quiet: the player turned off the bell that rings when it becomes their turn.
	Quiet bool `json:"quiet,omitempty"`
}

// Claim binds name to the key id when nobody holds it, and records the key's latest name. A name
// bound to another key fails with ErrNameTaken. name must keep to the name rule as
// sanitize.ParseName returns it (lower case, so names compare without regard to case); any other
// fails with an error wrapping sanitize.ErrBadName and binds nothing. A key keeps every name it has
// held: no other key can claim them.
//
// A binding that fails its sum (damaged on disk) is never taken for another key's: it is bound
// again to id when id's player record names it (the key's latest name), with a warning in the log;
// otherwise Claim fails with an error wrapping ErrDamaged and binds nothing, so the name goes to
// no one until its owner comes back or a backup is restored.
func (d *DB) Claim(id, name string) error {
	if id == "" {
		return fmt.Errorf("claim: empty id")
	}
	if !sanitize.ValidName(name) {
		return fmt.Errorf("claim %q: %w: %s", name, sanitize.ErrBadName, sanitize.NameRule)
	}
	key := []byte(name)
	// A read first: nearly every claim is a returning player, and needs no write.
	var owner string
	var known bool
	var damaged error
	err := d.view(func(tx *bolt.Tx) error {
		owner, damaged = binding(tx.Bucket(bucketNames), key)
		var p player
		ok, err := getJSON(tx.Bucket(bucketPlayers), []byte(id), &p)
		known = ok && err == nil && p.Name == name // a damaged record is written anew
		return nil
	})
	if err != nil {
		return err
	}
	if damaged != nil && !known {
		return fmt.Errorf("claim %q: the name's binding: %w", name, damaged)
	}
	if damaged == nil && owner != "" && owner != id {
		return ErrNameTaken
	}
	if damaged == nil && owner == id && known {
		return nil
	}
	return d.writes.do(func(tx *bolt.Tx) error {
		names := tx.Bucket(bucketNames)
		players := tx.Bucket(bucketPlayers)
		var old player
		ok, oldErr := getJSON(players, []byte(id), &old)
		switch o, err := binding(names, key); {
		case err != nil && !(ok && oldErr == nil && old.Name == name):
			return fmt.Errorf("claim %q: the name's binding: %w", name, err)
		case err != nil:
			d.log.Warn("a name's binding was damaged; bound again to the key whose latest name it is",
				"name", name, "key", id, "err", err)
		case o != "" && o != id:
			return ErrNameTaken
		}
		if err := putBinding(names, key, id); err != nil {
			return err
		}
		p := player{ID: id, Name: name, Created: d.now().UTC()}
		if ok && oldErr == nil {
			p.Created, p.Quiet = old.Created, old.Quiet
		}
		return putJSON(players, []byte(id), p)
	})
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
