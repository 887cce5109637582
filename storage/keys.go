package storage

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/sanitize"
)

// A player is an identity: the fingerprint of the first key that claimed a name. Seats, ratings,
// matches and names belong to the player; the player holds one key or several (bucket keys: the
// key -> its player; held: the player's keys, an index). A new key becomes a player of its own
// when it first claims a name; another key joins a player with a one-time code that a key of
// theirs made (codes.go); a player removes a key (Revoke), which plays as a guest from then on
// unless a code links it again.

// Limits of a player's keys.
const (
	// MaxKeys is the most keys a player holds at once.
	MaxKeys = 10
	// MaxComment is the longest comment of a key, in runes.
	MaxComment = 40
)

// Errors of keys. Their texts are written for the player.
var (
	// ErrKeyRevoked: the key was removed from its player; it plays as a guest. The error is a
	// *RevokedError. It is record.ErrKeyRevoked, which the layers above match.
	ErrKeyRevoked = record.ErrKeyRevoked
	// ErrNameRenamed: an operator renamed the name; the player goes by the new one. The error is
	// a *RenamedError. It is record.ErrNameRenamed.
	ErrNameRenamed = record.ErrNameRenamed
	// ErrNotYourKey: the fingerprint names none of the player's keys.
	ErrNotYourKey = errors.New("no key of yours has that fingerprint")
	// ErrLastKey: a player's last key cannot be removed.
	ErrLastKey = errors.New("this is your only key: it cannot be removed (link another first: keys link)")
	// ErrTooManyKeys: the player holds MaxKeys keys already.
	ErrTooManyKeys = fmt.Errorf("a name holds at most %d keys: remove one first (keys revoke)", MaxKeys)
	// ErrKeyHeld: the key belongs to another player.
	ErrKeyHeld = errors.New("this key belongs to another player already; link a new key, or remove this one from that player first")
	// ErrKeyLinked: the key belongs to the player already.
	ErrKeyLinked = errors.New("this key is yours already")
	// ErrUnknownName: no player is called so.
	ErrUnknownName = errors.New("no player has that name")
)

// RevokedError is ErrKeyRevoked with what the key was and when it was removed.
type RevokedError struct {
	Name string    // the player's latest name
	At   time.Time // when the key was removed
}

func (e *RevokedError) Error() string {
	return fmt.Sprintf("this key was removed from %s on %s", e.Name, e.At.UTC().Format("2006-01-02"))
}

func (e *RevokedError) Unwrap() error { return ErrKeyRevoked }

// RenamedError is ErrNameRenamed with the new name.
type RenamedError struct{ To string }

func (e *RenamedError) Error() string { return "an operator renamed this name to " + e.To }

func (e *RenamedError) Unwrap() error { return ErrNameRenamed }

// day returns the UTC day of t, as a key's Used records it.
func day(t time.Time) time.Time { return t.UTC().Truncate(24 * time.Hour) }

// heldKey returns the held index's key of player's key fp.
func heldKey(player, fp string) []byte { return []byte(player + "\x00" + fp) }

// keyOf reads the record of the key fp: false when it has none (a key never seen, or seen as a
// guest only). tx may be read-only.
func keyOf(tx *bolt.Tx, fp string) (record.Key, bool, error) {
	var k record.Key
	ok, err := getJSON(tx.Bucket(bucketKeys), []byte(fp), &k)
	if err != nil {
		return k, false, fmt.Errorf("the key %s: %w", fp, err)
	}
	return k, ok, nil
}

// playerKeys returns the fingerprints of player's keys, as the held index lists them.
func playerKeys(tx *bolt.Tx, player string) []string {
	var out []string
	prefix := []byte(player + "\x00")
	c := tx.Bucket(bucketHeld).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		out = append(out, string(k[len(prefix):]))
	}
	return out
}

// putKey stores the key k and its entry in the held index (none when it is revoked). tx is
// writable.
func putKey(tx *bolt.Tx, k record.Key) error {
	if err := putJSON(tx.Bucket(bucketKeys), []byte(k.Fingerprint), k); err != nil {
		return err
	}
	held := tx.Bucket(bucketHeld)
	if !k.Revoked.IsZero() {
		return held.Delete(heldKey(k.Player, k.Fingerprint))
	}
	return putIndex(held, heldKey(k.Player, k.Fingerprint))
}

// playerName returns the latest name of the player id, "" when it has no record (or a damaged
// one).
func playerName(tx *bolt.Tx, id string) string {
	var p player
	if ok, err := getJSON(tx.Bucket(bucketPlayers), []byte(id), &p); !ok || err != nil {
		return ""
	}
	return p.Name
}

// nameOwner returns the player that name is bound to ("" for none), reading retired names: a
// released name whose date has come is free. The error is that of a damaged binding.
func nameOwner(tx *bolt.Tx, name string, now time.Time) (owner string, ret retiredName, retired bool, err error) {
	owner, err = binding(tx.Bucket(bucketNames), []byte(name))
	ret, retired = retiredOf(tx, name)
	if err == nil && retired && ret.Kind == retiredReleased && !now.Before(ret.Free) {
		owner = "" // free: the next claim takes it
	}
	return owner, ret, retired, err
}

// loginCheck decides a login of the key fp with name at now, reading tx: the player the key plays
// as, and whether a claim change must be written (a new key, a name bound anew, the key's day of
// use or the player's latest name to record). It is the same decision a claim's apply makes
// (applyClaim), so that a refusal is found without writing. A name bound to another player fails
// with ErrNameTaken, unless strict is false (a cluster's bucket of names decided it).
func loginCheck(tx *bolt.Tx, fp, name string, now time.Time, strict bool) (id string, write bool, err error) {
	if !sanitize.ValidName(name) {
		return "", false, fmt.Errorf("claim %q: %w: %s", name, sanitize.ErrBadName, sanitize.NameRule)
	}
	k, known, err := keyOf(tx, fp)
	if err != nil {
		return "", false, err
	}
	id = fp
	if known {
		if !k.Revoked.IsZero() {
			return "", false, &RevokedError{Name: playerName(tx, k.Player), At: k.Revoked}
		}
		id = k.Player
	}
	owner, ret, retired, damaged := nameOwner(tx, name, now)
	latest := playerName(tx, id)
	switch {
	case retired && ret.Kind == retiredRenamed && ret.Player == id:
		return "", false, &RenamedError{To: ret.To}
	case retired && ret.Kind == retiredRenamed:
		return "", false, ErrNameTaken
	case damaged != nil && latest != name:
		return "", false, fmt.Errorf("claim %q: the name's binding: %w", name, damaged)
	case damaged == nil && strict && owner != "" && owner != id:
		return "", false, ErrNameTaken
	}
	write = !known || damaged != nil || owner != id || latest != name || k.Used.Before(day(now)) ||
		(retired && ret.Kind == retiredReleased && !now.Before(ret.Free))
	return id, write, nil
}

// LoginCheck is the read of a login (see Login) without its write: the player the key fp plays
// as under name at now, and whether a claim must be written. A cluster's store decides names in
// its bucket of names, so a name bound to another player here is not refused (strict false).
func (d *DB) LoginCheck(fp, name string, now time.Time, strict bool) (id string, write bool, err error) {
	err = d.view(func(tx *bolt.Tx) error {
		id, write, err = loginCheck(tx, fp, name, now, strict)
		return err
	})
	return id, write, err
}

// NameReleased reports whether name was released by its holder and its date has come (at now):
// the next claim takes it from them. (A cluster's node takes it over in the bucket of names, which
// holds it for them until then.)
func (d *DB) NameReleased(name string, now time.Time) bool {
	due := false
	_ = d.view(func(tx *bolt.Tx) error {
		ret, ok := retiredOf(tx, name)
		due = ok && ret.Kind == retiredReleased && !now.Before(ret.Free)
		return nil
	})
	return due
}

// Login binds name to the player of the key fp (a new key: the key itself becomes a player) and
// returns the player. A returning player needs no write, but once a day, to record the key's use.
// Name must keep to the name rule (sanitize.ErrBadName). A name bound to another player fails
// with ErrNameTaken; a removed key with a *RevokedError; a name an operator renamed with
// ErrNameTaken, or for its own player a *RenamedError. A key keeps every name it has held: no
// other key can claim them, but those released (Release) once their date has come.
//
// A binding that fails its sum (damaged on disk) is never taken for another player's: it is bound
// again to the player whose latest name it is, with a warning in the log; otherwise Login fails
// with an error wrapping ErrDamaged and binds nothing.
func (d *DB) Login(fp, name string) (string, error) {
	if fp == "" {
		return "", fmt.Errorf("claim: empty id")
	}
	now := d.now().UTC()
	id, write, err := d.LoginCheck(fp, name, now, true)
	if err != nil || !write {
		return id, err
	}
	return id, d.Do(Change{Kind: ChangeClaim, PlayerID: id, Key: fp, Name: name, At: now})
}

// Claim is Login for the key id, without the player: see Login.
func (d *DB) Claim(id, name string) error {
	_, err := d.Login(id, name)
	return err
}

// applyClaim binds c.Name to the player c.PlayerID, whose key c.Key is (a claim written before
// keys had players has no Key: its key is the player), records the key (created at c.At when
// new, used on c.At's day) and the player's latest name (the player created at c.At when new).
// In a replica (strict false) the cluster decided the name already: a name bound here to another
// player is bound anew; a removed key, a key of another player and a renamed name are refused
// either way.
func applyClaim(tx *bolt.Tx, c Change, env applyEnv) error {
	if c.PlayerID == "" || c.At.IsZero() {
		return errors.New("a claim needs a key and a time")
	}
	fp := c.Key
	if fp == "" {
		fp = c.PlayerID
	}
	k, known, err := keyOf(tx, fp)
	switch {
	case err != nil:
		return err // a damaged key plays as no one until a backup is restored (Check reports it)
	case known && k.Player != c.PlayerID:
		return fmt.Errorf("claim %q: the key %s: %w", c.Name, fp, ErrKeyHeld)
	case !known && fp != c.PlayerID:
		return fmt.Errorf("claim %q: the key %s is not linked to %s", c.Name, fp, c.PlayerID)
	}
	id, _, err := loginCheck(tx, fp, c.Name, c.At, env.strict)
	if err != nil {
		return err
	}
	if id != c.PlayerID {
		return fmt.Errorf("claim %q: the key %s plays as %s, not %s", c.Name, fp, id, c.PlayerID)
	}
	names := tx.Bucket(bucketNames)
	if _, err := binding(names, []byte(c.Name)); err != nil {
		env.warn("a name's binding was damaged; bound again to the key whose latest name it is",
			"name", c.Name, "key", c.PlayerID, "err", err)
	}
	if err := putBinding(names, []byte(c.Name), c.PlayerID); err != nil {
		return err
	}
	if ret, ok := retiredOf(tx, c.Name); ok && ret.Kind == retiredReleased && !c.At.Before(ret.Free) {
		if err := tx.Bucket(bucketRetired).Delete([]byte(c.Name)); err != nil {
			return err
		}
	}
	players := tx.Bucket(bucketPlayers)
	p := player{ID: c.PlayerID, Name: c.Name, Created: c.At.UTC()}
	var old player
	if ok, err := getJSON(players, []byte(c.PlayerID), &old); ok && err == nil {
		p.Created, p.Quiet = old.Created, old.Quiet
	}
	if err := putJSON(players, []byte(c.PlayerID), p); err != nil {
		return err
	}
	if !known {
		k = record.Key{Fingerprint: fp, Player: c.PlayerID, Added: c.At.UTC()}
	}
	k.Used = day(c.At)
	return putKey(tx, k)
}

// Keys returns the keys of player, the oldest first; removed keys are left out. A damaged key
// record is left out too (Check reports it).
func (d *DB) Keys(player string) ([]record.Key, error) {
	var out []record.Key
	err := d.view(func(tx *bolt.Tx) error {
		for _, fp := range playerKeys(tx, player) {
			if k, ok, err := keyOf(tx, fp); ok && err == nil {
				out = append(out, k)
			}
		}
		return nil
	})
	slices.SortFunc(out, func(a, b record.Key) int { return a.Added.Compare(b.Added) })
	return out, err
}

// PlayerOf returns the player the key fp plays as: its player, or fp itself for a key with no
// record; false for a removed key.
func (d *DB) PlayerOf(fp string) (string, bool) {
	id, ok := fp, true
	_ = d.view(func(tx *bolt.Tx) error {
		if k, known, err := keyOf(tx, fp); known && err == nil {
			id, ok = k.Player, k.Revoked.IsZero()
		}
		return nil
	})
	return id, ok
}

// PlayerNamed returns the player name is bound to, and that player's latest name; false when
// nobody holds it.
func (d *DB) PlayerNamed(name string) (id, latest string, ok bool) {
	_ = d.view(func(tx *bolt.Tx) error {
		owner, err := binding(tx.Bucket(bucketNames), []byte(name))
		if err == nil && owner != "" {
			id, latest, ok = owner, playerName(tx, owner), true
		}
		return nil
	})
	return id, latest, ok
}

// applyRevoke removes the key c.Key from the player c.PlayerID, at c.At: never the player's last
// key (ErrLastKey), never a key of another player (ErrNotYourKey).
func applyRevoke(tx *bolt.Tx, c Change) error {
	k, known, err := keyOf(tx, c.Key)
	if err != nil {
		return err
	}
	if !known || k.Player != c.PlayerID || !k.Revoked.IsZero() || c.At.IsZero() {
		return ErrNotYourKey
	}
	if len(playerKeys(tx, c.PlayerID)) < 2 {
		return ErrLastKey
	}
	k.Revoked = c.At.UTC()
	return putKey(tx, k)
}

// applyComment sets the comment of the key c.Key of the player c.PlayerID to c.Comment.
func applyComment(tx *bolt.Tx, c Change) error {
	k, known, err := keyOf(tx, c.Key)
	if err != nil {
		return err
	}
	if !known || k.Player != c.PlayerID || !k.Revoked.IsZero() {
		return ErrNotYourKey
	}
	if len([]rune(c.Comment)) > MaxComment || sanitize.Line(c.Comment, MaxComment) != c.Comment {
		return fmt.Errorf("a key's comment is one line of at most %d characters", MaxComment)
	}
	k.Comment = c.Comment
	return putKey(tx, k)
}
