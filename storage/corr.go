package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
)

// Correspondence play (schema 4). A correspondence match's room sleeps while nobody watches it
// (package rooms): what its players' inboxes and the deadlines need is indexed here, kept in the
// same transaction as the match's start, moves, seat changes and end, from the turn the room
// gives with each (record.Match.Turn, record.Move.Turn):
//
//	corr:   code -> record.Correspondence, for every unfinished correspondence match
//	corrby: player NUL code, for each seat's player: a player's matches without a scan
//	due:    the turn's deadline as 8 bytes of big-endian Unix seconds, then the code: the
//	        deadlines in order, so that one timer serves them all (the earliest is a Seek)
var (
	bucketCorr       = []byte("corr")
	bucketCorrBy     = []byte("corrby")
	bucketDue        = []byte("due")
	bucketChallenges = []byte("challenges")
	bucketChalTo     = []byte("chalto")
	bucketFollows    = []byte("follows")
	bucketPrefs      = []byte("prefs")
	// corrBuckets are the buckets schema 4 added (see migrateCorr).
	corrBuckets = [][]byte{bucketCorr, bucketCorrBy, bucketDue, bucketChallenges, bucketChalTo,
		bucketFollows, bucketPrefs}
)

// migrateCorr brings a file of schema 3 to SchemaVersion, in the transaction tx: it creates the
// buckets schema 4 added, empty (no earlier release kept a correspondence match).
func migrateCorr(tx *bolt.Tx) error {
	for _, name := range corrBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("migrate: create bucket %s: %w", name, err)
		}
	}
	return tx.Bucket(bucketMeta).Put(keySchema, []byte(strconv.Itoa(SchemaVersion)))
}

// dueKey returns the due bucket's key of a deadline and a room code.
func dueKey(due time.Time, code string) []byte {
	k := binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(code)), uint64(max(due.Unix(), 0)))
	return append(k, code...)
}

// putCorr indexes c, a correspondence match begun (or set anew): its record, its players' entries
// and its deadline.
func putCorr(tx *bolt.Tx, c record.Correspondence) error {
	if err := putJSON(tx.Bucket(bucketCorr), []byte(c.Code), c); err != nil {
		return err
	}
	by := tx.Bucket(bucketCorrBy)
	for _, s := range c.Seats {
		if s.PlayerID != "" && s.Bot == "" {
			if err := putIndex(by, pairKey(s.PlayerID, c.Code)); err != nil {
				return err
			}
		}
	}
	return putIndex(tx.Bucket(bucketDue), dueKey(c.Turn.Due, c.Code))
}

// corrIn reads the index's record of room code's correspondence match; false when there is none.
func corrIn(tx *bolt.Tx, code string) (record.Correspondence, bool, error) {
	var c record.Correspondence
	b := tx.Bucket(bucketCorr)
	if b == nil {
		return c, false, nil // a file of schema 3, read as it is
	}
	ok, err := getJSON(b, []byte(code), &c)
	return c, ok, err
}

// dropCorr takes room code's match out of the index (it ended, or is no longer the room's).
func dropCorr(tx *bolt.Tx, code string) error {
	c, ok, err := corrIn(tx, code)
	if err != nil || !ok {
		return err // a damaged record stays, for Check to report
	}
	by := tx.Bucket(bucketCorrBy)
	for _, s := range c.Seats {
		if err := by.Delete(pairKey(s.PlayerID, code)); err != nil {
			return err
		}
	}
	if err := tx.Bucket(bucketDue).Delete(dueKey(c.Turn.Due, code)); err != nil {
		return err
	}
	return tx.Bucket(bucketCorr).Delete([]byte(code))
}

// setCorr changes room code's indexed match with change, when the index has it.
func setCorr(tx *bolt.Tx, code string, change func(*record.Correspondence)) error {
	c, ok, err := corrIn(tx, code)
	if err != nil || !ok {
		return err
	}
	if err := dropCorr(tx, code); err != nil {
		return err
	}
	change(&c)
	return putCorr(tx, c)
}

// corrOf is the index's record of m, a correspondence match begun with its first turn t.
func corrOf(m record.Match, t record.Turn) record.Correspondence {
	return record.Correspondence{Code: m.Code, ID: m.ID, Game: m.Game, Clock: m.Options["clock"],
		Seats: m.Seats, Turn: t, Started: m.Started}
}

// turnEntry records the turn room Code's correspondence match is at, after a takeback.
type turnEntry struct {
	Code string
	Turn record.Turn
}

func (e turnEntry) apply(tx *bolt.Tx) error {
	return setCorr(tx, e.Code, func(c *record.Correspondence) { c.Turn = e.Turn })
}

// SetTurn records the turn room code's correspondence match is at (after a takeback: a move
// carries its turn itself, record.Move.Turn).
func (d *DB) SetTurn(code string, t record.Turn) error {
	if _, err := d.activeID(code); err != nil {
		return err
	}
	return d.writes.do(turnEntry{Code: code, Turn: t}.apply)
}

// Correspondence returns the unfinished correspondence matches the player sits in, open or
// asleep, in room code order.
func (d *DB) Correspondence(player string) ([]record.Correspondence, error) {
	var out []record.Correspondence
	err := d.view(func(tx *bolt.Tx) error {
		for _, code := range corrCodes(tx, player) {
			if c, ok, err := corrIn(tx, code); err == nil && ok {
				out = append(out, c)
			}
		}
		return nil
	})
	return out, err
}

// corrCodes returns the codes of player's indexed correspondence matches. tx may be read-only.
func corrCodes(tx *bolt.Tx, player string) []string {
	by := tx.Bucket(bucketCorrBy)
	if by == nil {
		return nil
	}
	var out []string
	prefix := append([]byte(player), 0)
	cur := by.Cursor()
	for k, _ := cur.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = cur.Next() {
		out = append(out, string(k[len(prefix):]))
	}
	return out
}

// CorrespondenceOf returns room code's unfinished correspondence match as the index has it;
// false when the room has none.
func (d *DB) CorrespondenceOf(code string) (record.Correspondence, bool) {
	var c record.Correspondence
	var ok bool
	_ = d.view(func(tx *bolt.Tx) error {
		var err error
		c, ok, err = corrIn(tx, code)
		ok = ok && err == nil
		return nil
	})
	return c, ok
}

// Due returns the rooms whose correspondence turn runs out at or before by (at most limit,
// earliest first), and the deadline of the next one after by (zero when none): the one timer of
// a scheduler of deadlines needs no more.
func (d *DB) Due(by time.Time, limit int) (codes []string, next time.Time, err error) {
	err = d.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketDue)
		if b == nil {
			return nil
		}
		cur := b.Cursor()
		for k, _ := cur.First(); k != nil; k, _ = cur.Next() {
			if len(k) <= 8 {
				continue // damaged: Check reports it
			}
			at := time.Unix(int64(binary.BigEndian.Uint64(k[:8])), 0)
			if at.After(by) || len(codes) >= limit {
				next = at
				return nil
			}
			codes = append(codes, string(k[8:]))
		}
		return nil
	})
	return codes, next, err
}

// UnfinishedMatch returns room code's unfinished match with its moves; false when the room has
// none. A match that cannot be read is an error wrapping ErrDamaged.
func (d *DB) UnfinishedMatch(code string) (record.Match, bool, error) {
	var m record.Match
	var ok bool
	err := d.view(func(tx *bolt.Tx) error {
		id, err := binding(tx.Bucket(bucketActive), []byte(code))
		if err != nil || id == "" {
			return err
		}
		if m, err = loadMatch(tx, id); err != nil {
			return fmt.Errorf("match %s of room %s: %w", id, code, err)
		}
		m.Code, ok = code, true
		return nil
	})
	return m, ok, err
}

// inCorr reports whether room code's unfinished match is in the index of correspondence play
// (Unfinished and the DB's memory leave those out). tx may be read-only.
func inCorr(tx *bolt.Tx, code []byte) bool {
	b := tx.Bucket(bucketCorr)
	return b != nil && b.Get(code) != nil
}

// checkCorr reads every record of correspondence play and its indexes: a record that fails its
// sum, an index entry that does, or one that names no record (a player's entry or a deadline of
// no indexed match, an indexed match no room has unfinished, a challenge's entry of no
// challenge), is damaged.
func checkCorr(tx *bolt.Tx, r *Report) {
	if tx.Bucket(bucketCorr) == nil {
		return // a file of schema 3, read as it is
	}
	for _, name := range [][]byte{bucketChallenges, bucketFollows, bucketPrefs} {
		_ = tx.Bucket(name).ForEach(func(k, v []byte) error {
			var x any
			r.Records++
			if err := decode(k, v, &x); err != nil {
				r.Damaged = append(r.Damaged, Damage{Reason: fmt.Sprintf("%s record %q: %v", name, k, err)})
			}
			return nil
		})
	}
	active := tx.Bucket(bucketActive)
	_ = tx.Bucket(bucketCorr).ForEach(func(k, v []byte) error {
		r.Records++
		var c record.Correspondence
		switch err := decode(k, v, &c); {
		case err != nil:
			r.Damaged = append(r.Damaged, Damage{Code: string(k), Reason: "its correspondence record: " + err.Error()})
		case active.Get(k) == nil:
			r.Damaged = append(r.Damaged, Damage{ID: c.ID, Code: string(k), Reason: "a correspondence record of no unfinished match"})
		case tx.Bucket(bucketDue).Get(dueKey(c.Turn.Due, c.Code)) == nil:
			r.Damaged = append(r.Damaged, Damage{ID: c.ID, Code: string(k), Reason: "a correspondence match without its deadline"})
		}
		return nil
	})
	corr := tx.Bucket(bucketCorr)
	indexes := []struct {
		name []byte
		code func(k []byte) []byte
	}{
		{bucketCorrBy, func(k []byte) []byte {
			if i := bytes.IndexByte(k, 0); i >= 0 {
				return k[i+1:]
			}
			return nil
		}},
		{bucketDue, func(k []byte) []byte {
			if len(k) > 8 {
				return k[8:]
			}
			return nil
		}},
	}
	for _, ix := range indexes {
		_ = tx.Bucket(ix.name).ForEach(func(k, raw []byte) error {
			code := ix.code(k)
			switch err := checkIndex(k, raw, false); {
			case err != nil:
				r.Damaged = append(r.Damaged, Damage{Reason: fmt.Sprintf("the %s entry %q: %v", ix.name, k, err)})
			case code == nil || corr.Get(code) == nil:
				r.Damaged = append(r.Damaged, Damage{Reason: fmt.Sprintf("the %s entry %q names no correspondence match", ix.name, k)})
			}
			return nil
		})
	}
	challenges := tx.Bucket(bucketChallenges)
	_ = tx.Bucket(bucketChalTo).ForEach(func(k, raw []byte) error {
		id := k[bytes.LastIndexByte(k, 0)+1:]
		switch err := checkIndex(k, raw, false); {
		case err != nil:
			r.Damaged = append(r.Damaged, Damage{Reason: fmt.Sprintf("the %s entry %q: %v", bucketChalTo, k, err)})
		case challenges.Get(id) == nil:
			r.Damaged = append(r.Damaged, Damage{Reason: fmt.Sprintf("the %s entry %q names no challenge", bucketChalTo, k)})
		}
		return nil
	})
}

// CorrespondenceCodes returns the room codes of the unfinished correspondence matches the player
// sits in, reading the index alone (the share of unfinished matches counts them).
func (d *DB) CorrespondenceCodes(player string) []string {
	var out []string
	_ = d.view(func(tx *bolt.Tx) error {
		out = corrCodes(tx, player)
		return nil
	})
	return out
}
