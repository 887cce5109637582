package storage

import (
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/sanitize"
)

// A name leaves its player in two ways, each recorded in the bucket retired: its holder releases
// it (keys release), and it is free ReleaseAfter later, unless they keep it meanwhile; or an
// operator renames the player, and the old name is held back for good (nobody may claim it, and
// its player is told the new one).

// ReleaseAfter is how long a released name stays its holder's.
const ReleaseAfter = 30 * 24 * time.Hour

// The kinds of retired name.
const (
	retiredReleased = "released"
	retiredRenamed  = "renamed"
)

// retiredName is a name's record in the bucket retired.
type retiredName struct {
	Kind   string    `json:"kind"`
	Player string    `json:"player"`
	At     time.Time `json:"at"`
	// Free is when a released name becomes free.
	Free time.Time `json:"free,omitzero"`
	// To is a renamed name's new name.
	To string `json:"to,omitempty"`
	// By is the operator who renamed.
	By string `json:"by,omitempty"`
}

// Errors of names.
var (
	// ErrNotYourName: the name is not bound to the player.
	ErrNotYourName = errors.New("that name is not yours")
	// ErrNotReleased: keep of a name that was not released.
	ErrNotReleased = errors.New("that name is not released")
)

// retiredOf reads the retired record of name; a damaged one counts as none (Check reports it).
func retiredOf(tx *bolt.Tx, name string) (retiredName, bool) {
	var r retiredName
	b := tx.Bucket(bucketRetired)
	if b == nil { // a read-only file of an older schema
		return r, false
	}
	ok, err := getJSON(b, []byte(name), &r)
	return r, ok && err == nil
}

// ReleasedUntil returns when name, released by its holder, becomes free; zero when it is not
// released.
func (d *DB) ReleasedUntil(name string) (free time.Time) {
	_ = d.view(func(tx *bolt.Tx) error {
		if r, ok := retiredOf(tx, name); ok && r.Kind == retiredReleased {
			free = r.Free
		}
		return nil
	})
	return free
}

// applyRelease releases c.Name, bound to c.PlayerID: it is free ReleaseAfter after c.At. A name
// released already keeps its date.
func applyRelease(tx *bolt.Tx, c Change) error {
	if err := ownName(tx, c.PlayerID, c.Name); err != nil {
		return err
	}
	if r, ok := retiredOf(tx, c.Name); ok && r.Kind == retiredReleased {
		return nil
	}
	return putJSON(tx.Bucket(bucketRetired), []byte(c.Name),
		retiredName{Kind: retiredReleased, Player: c.PlayerID, At: c.At.UTC(), Free: c.At.UTC().Add(ReleaseAfter)})
}

// applyKeep takes back the release of c.Name by c.PlayerID.
func applyKeep(tx *bolt.Tx, c Change) error {
	if err := ownName(tx, c.PlayerID, c.Name); err != nil {
		return err
	}
	if r, ok := retiredOf(tx, c.Name); !ok || r.Kind != retiredReleased {
		return ErrNotReleased
	}
	return tx.Bucket(bucketRetired).Delete([]byte(c.Name))
}

// ownName checks that name is bound to player (and not renamed).
func ownName(tx *bolt.Tx, player, name string) error {
	owner, err := binding(tx.Bucket(bucketNames), []byte(name))
	if err != nil {
		return err
	}
	if r, ok := retiredOf(tx, name); owner != player || (ok && r.Kind == retiredRenamed) {
		return ErrNotYourName
	}
	return nil
}

// applyRename renames the player holding c.Name to c.Target, for the operator c.By: the new name
// is bound to them, the old one held back for good (see retiredName), and their latest name,
// standings and best solo scores say the new name. The new name must keep to the name rule and be
// free (or the player's already).
func applyRename(tx *bolt.Tx, c Change) error {
	names := tx.Bucket(bucketNames)
	owner, err := binding(names, []byte(c.Name))
	if err != nil {
		return err
	}
	if r, ok := retiredOf(tx, c.Name); owner == "" || (ok && r.Kind == retiredRenamed) {
		return fmt.Errorf("rename %s: %w", c.Name, ErrUnknownName)
	}
	if !sanitize.ValidName(c.Target) {
		return fmt.Errorf("rename to %q: %w: %s", c.Target, sanitize.ErrBadName, sanitize.NameRule)
	}
	if c.Target == c.Name {
		return fmt.Errorf("rename %s: the new name is the old one", c.Name)
	}
	to, err := binding(names, []byte(c.Target))
	if err != nil {
		return err
	}
	if r, ok := retiredOf(tx, c.Target); (to != "" && to != owner) || (ok && r.Player != owner) {
		return fmt.Errorf("rename %s to %s: %w", c.Name, c.Target, ErrNameTaken)
	}
	if err := putBinding(names, []byte(c.Target), owner); err != nil {
		return err
	}
	retired := tx.Bucket(bucketRetired)
	if err := retired.Delete([]byte(c.Target)); err != nil {
		return err
	}
	if err := putJSON(retired, []byte(c.Name), retiredName{Kind: retiredRenamed, Player: owner, At: c.At.UTC(),
		To: c.Target, By: c.By}); err != nil {
		return err
	}
	players := tx.Bucket(bucketPlayers)
	var p player
	if ok, err := getJSON(players, []byte(owner), &p); ok && err == nil && p.Name == c.Name {
		p.Name = c.Target
		if err := putJSON(players, []byte(owner), p); err != nil {
			return err
		}
	}
	if err := renameStandings(tx, owner, c.Name, c.Target); err != nil {
		return err
	}
	return logAction(tx, record.Action{Kind: "rename", Target: c.Name, Text: c.Target, By: c.By, At: c.At})
}

// renameStandings gives the standings and best solo scores of player that say the name from the
// name to, moving their entries in the leaderboard index.
func renameStandings(tx *bolt.Tx, player, from, to string) error {
	ratings := tx.Bucket(bucketRatings)
	type found struct {
		game string
		st   record.Standing
	}
	var all []found
	for game, v := range standingsOf(tx, player) {
		var st record.Standing
		if decode(pairKey(game, player), v, &st) == nil && st.Name == from {
			all = append(all, found{game, st})
		}
	}
	for _, f := range all {
		after := f.st
		after.Name = to
		if err := putJSON(ratings, pairKey(f.game, player), after); err != nil {
			return err
		}
		before := f.st
		if err := boardMove(tx, f.game, player, &before, after); err != nil {
			return err
		}
	}
	solo := tx.Bucket(bucketSolo)
	for _, s := range soloOf(tx, player) {
		if s.Name != from {
			continue
		}
		s.Name = to
		if err := putJSON(solo, pairKey(s.Game, player), s); err != nil {
			return err
		}
	}
	return nil
}

// renamedTo follows the renames of name, held by player, to the name it goes by now (name itself
// when it was not renamed).
func renamedTo(tx *bolt.Tx, player, name string) string {
	for range 16 { // renames cannot loop (a renamed name is never bound again), but bound the walk
		r, ok := retiredOf(tx, name)
		if !ok || r.Kind != retiredRenamed || r.Player != player {
			break
		}
		name = r.To
	}
	return name
}
