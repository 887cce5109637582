package storage

import (
	"bytes"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/sanitize"
)

// Follows (bucket follows: follower NUL player -> record.Follow) are one way: the player followed
// is never told, and nothing lists a player's followers. Players' settings of correspondence play
// are in prefs (player -> record.Prefs).

// MaxFollows is the most players one follows.
const MaxFollows = 200

// Refusals of follows and settings, written for the player.
var (
	ErrFollowSelf     = errors.New("you cannot follow yourself")
	ErrNotFollowing   = errors.New("you do not follow that player")
	ErrTooManyFollows = fmt.Errorf("you follow %d players already, the most there may be: unfollow one first", MaxFollows)
	ErrBadPrefs       = errors.New("challenges= takes on, friends or off")
)

// relation is a bucket of players' relations to other players, keyed player NUL other: whom a
// player ignores (social.go), whom they follow; at most max each.
type relation struct {
	bucket                []byte
	max                   int
	self, tooMany, absent error // the refusals of oneself, of one too many, of none to remove
}

// followRelation is the relation of following.
var followRelation = relation{bucket: bucketFollows, max: MaxFollows, self: ErrFollowSelf,
	tooMany: ErrTooManyFollows, absent: ErrNotFollowing}

// add records that c.PlayerID has the relation to c.Target, as rec: refused for oneself, for a
// target that is no player, and past max; a relation there already is left as it is.
func (r relation) add(tx *bolt.Tx, c Change, rec any) error {
	switch {
	case c.Target == c.PlayerID:
		return r.self
	case playerName(tx, c.Target) == "":
		return ErrUnknownName
	}
	b, k := tx.Bucket(r.bucket), pairKey(c.PlayerID, c.Target)
	if b.Get(k) != nil {
		return nil // already: nothing changes
	}
	if r.count(tx, c.PlayerID) >= r.max {
		return r.tooMany
	}
	return putJSON(b, k, rec)
}

// remove forgets that c.PlayerID has the relation to c.Target.
func (r relation) remove(tx *bolt.Tx, c Change) error {
	b, k := tx.Bucket(r.bucket), pairKey(c.PlayerID, c.Target)
	if b.Get(k) == nil {
		return r.absent
	}
	return b.Delete(k)
}

// count counts player's relations, reading keys only.
func (r relation) count(tx *bolt.Tx, player string) int {
	n := 0
	prefix := append([]byte(player), 0)
	cur := tx.Bucket(r.bucket).Cursor()
	for k, _ := cur.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = cur.Next() {
		n++
	}
	return n
}

// applyFollow records that c.PlayerID follows c.Target (named c.Name) from c.At.
func applyFollow(tx *bolt.Tx, c Change) error {
	if c.At.IsZero() || playerName(tx, c.PlayerID) == "" {
		return errors.New("a follow needs a player with a name and a time")
	}
	return followRelation.add(tx, c, record.Follow{Player: c.Target, Name: c.Name, At: c.At.UTC()})
}

// applyUnfollow forgets that c.PlayerID follows c.Target.
func applyUnfollow(tx *bolt.Tx, c Change) error { return followRelation.remove(tx, c) }

// applyPrefs sets c.PlayerID's settings to c.Prefs.
func applyPrefs(tx *bolt.Tx, c Change) error {
	switch {
	case c.Prefs == nil:
		return errors.New("settings needed")
	case c.Prefs.Challenges != "" && c.Prefs.Challenges != record.ChallengesFriends && c.Prefs.Challenges != record.ChallengesOff:
		return ErrBadPrefs
	case playerName(tx, c.PlayerID) == "":
		return ErrNoPlayer
	}
	return putJSON(tx.Bucket(bucketPrefs), []byte(c.PlayerID), *c.Prefs)
}

// followsOf returns whom player follows. tx may be read-only.
func followsOf(tx *bolt.Tx, player string) []record.Follow {
	b := tx.Bucket(bucketFollows)
	if b == nil {
		return nil
	}
	var out []record.Follow
	prefix := append([]byte(player), 0)
	cur := b.Cursor()
	for k, v := cur.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = cur.Next() {
		var f record.Follow
		if decode(k, v, &f) == nil {
			out = append(out, f)
		}
	}
	return out
}

// follows reports whether player follows other.
func follows(tx *bolt.Tx, player, other string) bool {
	b := tx.Bucket(bucketFollows)
	return b != nil && b.Get(pairKey(player, other)) != nil
}

// prefsIn reads player's settings (the zero value when they have set none, or theirs is damaged).
func prefsIn(tx *bolt.Tx, player string) record.Prefs {
	var p record.Prefs
	if b := tx.Bucket(bucketPrefs); b != nil {
		if _, err := getJSON(b, []byte(player), &p); err != nil {
			return record.Prefs{}
		}
	}
	return p
}

// ignores reports whether who ignores whom (the bucket of ignores, social.go): whom never sees
// who's name, and who never hears of whom (challenges, friends).
func ignores(tx *bolt.Tx, who, whom string) bool {
	b := tx.Bucket(bucketIgnores)
	return b != nil && b.Get(ignoreKey(who, whom)) != nil
}

// Follows returns whom player follows, with the names they go by now.
func (d *DB) Follows(player string) ([]record.Follow, error) {
	var out []record.Follow
	err := d.view(func(tx *bolt.Tx) error {
		out = followsOf(tx, player)
		for i := range out {
			if n := playerName(tx, out[i].Player); n != "" {
				out[i].Name = n
			}
		}
		return nil
	})
	return out, err
}

// Prefs returns player's settings of correspondence play.
func (d *DB) Prefs(player string) record.Prefs {
	var p record.Prefs
	_ = d.view(func(tx *bolt.Tx) error {
		p = prefsIn(tx, player)
		return nil
	})
	return p
}

// Ignores reports whether who ignores whom (see ignores): the hook that challenges, open
// challenges and friends consult, so that a name is never shown to someone its player ignores.
func (d *DB) Ignores(who, whom string) bool {
	in := false
	_ = d.view(func(tx *bolt.Tx) error {
		in = ignores(tx, who, whom)
		return nil
	})
	return in
}

// Refuses returns the refusal of a challenge from challenger to player, named name (their
// settings or an ignore: see refusesChallenge), nil when player takes it.
func (d *DB) Refuses(player, challenger, name string) error {
	var err error
	_ = d.view(func(tx *bolt.Tx) error {
		err = refusesChallenge(tx, player, challenger, name)
		return nil
	})
	return err
}

// Player returns the player a name is bound to and the name they go by now; ErrUnknownName
// when no player holds the name (or it breaks the name rule).
func (d *DB) Player(name string) (id, current string, err error) {
	name, perr := sanitize.ParseName(name)
	if perr != nil {
		return "", "", ErrUnknownName
	}
	id, current, ok := d.PlayerNamed(name)
	switch {
	case !ok:
		return "", "", ErrUnknownName
	case current == "":
		current = name
	}
	return id, current, nil
}
