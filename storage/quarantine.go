package storage

import (
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Damage is a match (or another record) that cannot be read or replayed.
type Damage struct {
	// ID is the match's ID; for a room's entry, the ID it names (which may be what is damaged).
	// Empty for a record of no match (a player's, a standing).
	ID string
	// Code is the room of an unfinished match; empty otherwise.
	Code string
	// Game is the match's game, when its header could be read.
	Game string
	// Reason says what is wrong.
	Reason string
	// At is when the match was set aside; zero for damage found now.
	At time.Time
}

// Keys of a quarantined match's bucket (quarantine: match ID -> bucket).
var (
	keyReason  = []byte("reason")
	keyRoom    = []byte("room")
	keyAt      = []byte("at")
	keyHeader  = []byte("match") // the header as it was stored
	bucketQMov = []byte("moves") // the moves as they were stored, under their keys
)

// Quarantine sets aside the unfinished match dmg.ID of room dmg.Code, which cannot be read or
// replayed, so that it is never resumed: the room's entry is removed, and the match's header and
// moves are moved byte for byte into the quarantine bucket, under its ID (or "room CODE" when the
// room's entry names none), with the reason and the time. Nothing is deleted: the records stay in the file for inspection. Match then reports the
// match as damaged; lists and profiles leave it out. A match already set aside is set aside again
// with the new reason.
func (d *DB) Quarantine(dmg Damage) error {
	key := dmg.ID
	if key == "" {
		if dmg.Code == "" {
			return fmt.Errorf("quarantine: no match ID and no room")
		}
		key = "room " + dmg.Code // the room's entry names no match
	}
	d.mu.Lock()
	if d.active[dmg.Code] == dmg.ID {
		delete(d.active, dmg.Code)
	}
	d.mu.Unlock()
	at := d.now().UTC()
	return d.writes.do(func(tx *bolt.Tx) error {
		if dmg.Code != "" {
			active := tx.Bucket(bucketActive)
			// The room's entry goes when it names the match, or is damaged and names none.
			if id, err := binding(active, []byte(dmg.Code)); (err == nil && id == dmg.ID) || (err != nil && dmg.ID == "") {
				if err := active.Delete([]byte(dmg.Code)); err != nil {
					return err
				}
			}
		}
		q, err := tx.Bucket(bucketQuar).CreateBucketIfNotExists([]byte(key))
		if err != nil {
			return fmt.Errorf("quarantine match %s: %w", dmg.ID, err)
		}
		for k, v := range map[string]string{string(keyReason): dmg.Reason, string(keyRoom): dmg.Code,
			string(keyAt): at.Format(time.RFC3339)} {
			if err := q.Put([]byte(k), []byte(v)); err != nil {
				return err
			}
		}
		matches := tx.Bucket(bucketMatches)
		if h := matches.Get([]byte(dmg.ID)); h != nil {
			if err := q.Put(keyHeader, h); err != nil {
				return err
			}
			if err := matches.Delete([]byte(dmg.ID)); err != nil {
				return err
			}
		}
		qm, err := q.CreateBucketIfNotExists(bucketQMov)
		if err != nil {
			return err
		}
		prefix := append([]byte(dmg.ID), 0)
		moves := tx.Bucket(bucketMoves)
		var keys [][]byte
		c := moves.Cursor()
		for k, v := c.Seek(prefix); k != nil && len(k) >= len(prefix) && string(k[:len(prefix)]) == string(prefix); k, v = c.Next() {
			if err := qm.Put(k, v); err != nil {
				return err
			}
			keys = append(keys, append([]byte(nil), k...))
		}
		for _, k := range keys {
			if err := moves.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
}

// Quarantined returns the matches set aside, in the order of their IDs.
func (d *DB) Quarantined() ([]Damage, error) {
	var out []Damage
	err := d.view(func(tx *bolt.Tx) error {
		out = quarantined(tx.Bucket(bucketQuar))
		return nil
	})
	return out, err
}

// quarantined lists the matches in the quarantine bucket q.
func quarantined(q *bolt.Bucket) []Damage {
	var out []Damage
	_ = q.ForEachBucket(func(id []byte) error {
		b := q.Bucket(id)
		dmg := Damage{ID: string(id), Code: string(b.Get(keyRoom)), Reason: string(b.Get(keyReason))}
		dmg.At, _ = time.Parse(time.RFC3339, string(b.Get(keyAt)))
		if h := b.Get(keyHeader); h != nil {
			var m struct {
				Game string `json:"game"`
			}
			if decode(id, h, &m) == nil {
				dmg.Game = m.Game
			}
		}
		out = append(out, dmg)
		return nil
	})
	return out
}
