package storage

import (
	"bytes"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
)

// checkAccounts reads the buckets of schema 4 (keys and their index, codes, retired names,
// ignores, reports, bans, mutes, the moderation log, the order of rated matches): every record's
// sum, and that the indexes agree with what they index. A file of an older schema, read-only, has
// none of them.
func checkAccounts(tx *bolt.Tx, r *Report) {
	if tx.Bucket(bucketKeys) == nil {
		return
	}
	damaged := func(format string, args ...any) {
		r.Damaged = append(r.Damaged, Damage{Reason: fmt.Sprintf(format, args...)})
	}
	for _, name := range [][]byte{bucketCodes, bucketRetired, bucketIgnores, bucketReports, bucketBans, bucketMutes, bucketActions} {
		_ = tx.Bucket(name).ForEach(func(k, v []byte) error {
			var x json.RawMessage
			r.Records++
			if err := decode(k, v, &x); err != nil {
				damaged("%s record %q: %v", name, k, err)
			}
			return nil
		})
	}
	// Keys, and the held index: an entry for every key that is not revoked, and no other.
	held := tx.Bucket(bucketHeld)
	_ = tx.Bucket(bucketKeys).ForEach(func(k, v []byte) error {
		var key record.Key
		r.Records++
		switch err := decode(k, v, &key); {
		case err != nil:
			damaged("keys record %q: %v", k, err)
		case key.Fingerprint != string(k):
			damaged("the key %q has the record of %q", k, key.Fingerprint)
		case key.Revoked.IsZero() && held.Get(heldKey(key.Player, key.Fingerprint)) == nil:
			damaged("the key %s of %s is missing from the index of players' keys", k, key.Player)
		}
		return nil
	})
	keys := tx.Bucket(bucketKeys)
	_ = held.ForEach(func(k, v []byte) error {
		if err := checkIndex(k, v, false); err != nil {
			damaged("the held entry %q: %v", k, err)
			return nil
		}
		i := bytes.IndexByte(k, 0)
		var key record.Key
		if i < 0 || decode(k[i+1:], keys.Get(k[i+1:]), &key) != nil || key.Player != string(k[:i]) || !key.Revoked.IsZero() {
			damaged("the held entry %q names no key of that player", k)
		}
		return nil
	})
	// The order of rated matches: each entry a rated match of its game, and every rated match
	// listed once.
	matches := tx.Bucket(bucketMatches)
	listed := map[string]bool{}
	_ = tx.Bucket(bucketRated).ForEach(func(k, v []byte) error {
		r.Records++
		id, err := decodeBinding(k, v, false)
		if err != nil {
			damaged("the rated entry %q: %v", k, err)
			return nil
		}
		var m record.Match
		i := bytes.IndexByte(k, 0)
		switch ok, err := getJSON(matches, []byte(id), &m); {
		case err != nil:
			// the match's own damage is reported with the match
		case !ok || !m.Rated || i < 0 || m.Game != string(k[:i]):
			damaged("the rated entry %q names %s, not a rated match of its game", k, id)
		case listed[id]:
			damaged("the rated match %s is listed twice in the order of rated matches", id)
		}
		listed[id] = true
		return nil
	})
	_ = matches.ForEach(func(k, v []byte) error {
		var m record.Match
		if decode(k, v, &m) == nil && m.Rated && !listed[m.ID] {
			damaged("the rated match %s is missing from the order of rated matches (a void would leave it out)", m.ID)
		}
		return nil
	})
}
