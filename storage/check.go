package storage

import (
	"bytes"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/rules"
)

// Report is what Check found in the file.
type Report struct {
	// Pages holds what bbolt's own check (Tx.Check) found, at most maxPageFaults of it; empty
	// when the pages hold together.
	Pages []string
	// Matches is the number of matches read whole and replayed with their game's rules.
	Matches int
	// Records is the number of records read: players, names' bindings, standings, best solo
	// scores, match headers, moves, rooms' entries, keys, codes, retired names, ignores,
	// reports, bans, mutes, operators' actions and the order of rated matches (the entries of
	// byplayer and held, indexes, are checked, not counted).
	Records int
	// Damaged lists the matches and records that cannot be read or replayed, and the matches
	// whose moves did not come as one chain: a move refused because its match had a move of that
	// number already (ErrPlyTaken: two servers wrote the room).
	Damaged []Damage
	// Quarantined lists the matches an earlier start set aside (see Quarantine).
	Quarantined []Damage
}

// Clean reports whether the file holds nothing damaged, now or set aside earlier.
func (r Report) Clean() bool {
	return len(r.Pages) == 0 && len(r.Damaged) == 0 && len(r.Quarantined) == 0
}

// maxPageFaults bounds the faults of bbolt's check that a Report keeps.
const maxPageFaults = 20

// Check reads the whole file in one read transaction: bbolt's check of its pages, every record's
// checksum, the derived buckets (see checkDerived), every match, replayed with its game from games (a match of a game not in games is
// damaged: it cannot be replayed), and the moves Apply refused for a number their match had
// (ErrPlyTaken). It writes nothing, and runs on a read-only DB. The error is
// for a file that cannot be read at all.
func (d *DB) Check(games []rules.Game) (Report, error) {
	var r Report
	err := d.view(func(tx *bolt.Tx) error {
		for fault := range tx.Check() {
			if len(r.Pages) < maxPageFaults {
				r.Pages = append(r.Pages, fault.Error())
			}
		}
		if len(r.Pages) > 0 {
			return nil // records read from pages that do not hold together prove nothing
		}
		for _, name := range [][]byte{bucketPlayers, bucketRatings, bucketSolo} {
			_ = tx.Bucket(name).ForEach(func(k, v []byte) error {
				var x json.RawMessage
				r.Records++
				if err := decode(k, v, &x); err != nil {
					r.Damaged = append(r.Damaged, Damage{Reason: fmt.Sprintf("%s record %q: %v", name, k, err)})
				}
				return nil
			})
		}
		d.checkNames(tx, &r)
		checkAccounts(tx, &r)
		checkDerived(tx, &r)
		d.checkMatches(tx, games, &r)
		checkRefused(tx, &r)
		r.Quarantined = quarantined(tx.Bucket(bucketQuar))
		return nil
	})
	return r, err
}

// checkMatches reads and replays every match, and reads the rooms' entries, finding the moves and
// entries of no match.
func (d *DB) checkMatches(tx *bolt.Tx, games []rules.Game, r *Report) {
	matches, moves := tx.Bucket(bucketMatches), tx.Bucket(bucketMoves)
	_ = matches.ForEach(func(k, _ []byte) error {
		id := string(k)
		m, err := loadMatch(tx, id)
		r.Records += 1 + len(m.Moves)
		if err == nil {
			if g, ok := rules.FindGame(games, m.Game); !ok {
				err = fmt.Errorf("its game %q is not in this arcade", m.Game)
			} else if _, rerr := m.Final(g); rerr != nil {
				err = fmt.Errorf("it does not replay: %w", rerr)
			}
		}
		if err != nil {
			r.Damaged = append(r.Damaged, Damage{ID: id, Game: m.Game, Reason: err.Error()})
			return nil
		}
		r.Matches++
		return nil
	})
	// Moves under the ID of no match: a key damaged (loadMatch finds the gap it leaves), or a
	// header lost.
	var last []byte
	_ = moves.ForEach(func(k, _ []byte) error {
		if len(k) < 9 || k[len(k)-9] != 0 {
			r.Damaged = append(r.Damaged, Damage{Reason: fmt.Sprintf("a move under the key %q, which names no match and ply", k)})
			return nil
		}
		id := k[:len(k)-9]
		if bytes.Equal(id, last) {
			return nil
		}
		last = append(last[:0], id...)
		if matches.Get(id) == nil {
			r.Damaged = append(r.Damaged, Damage{ID: string(id), Reason: "moves stored under the ID of no match"})
		}
		return nil
	})
	_ = tx.Bucket(bucketActive).ForEach(func(code, raw []byte) error {
		r.Records++
		id, err := decodeBinding(code, raw, d.bare)
		switch {
		case err != nil:
			r.Damaged = append(r.Damaged, Damage{Code: string(code), Reason: "the room's entry: " + err.Error()})
		case matches.Get([]byte(id)) == nil:
			r.Damaged = append(r.Damaged, Damage{ID: id, Code: string(code),
				Reason: "the room's unfinished match has no record"})
		}
		return nil
	})
}

// checkNames reads every name's binding, and every entry of byplayer: one that fails its sum is
// damaged (Claim binds the name to no one but the key whose latest name it is).
func (d *DB) checkNames(tx *bolt.Tx, r *Report) {
	_ = tx.Bucket(bucketNames).ForEach(func(name, raw []byte) error {
		r.Records++
		if _, err := decodeBinding(name, raw, d.bare); err != nil {
			r.Damaged = append(r.Damaged, Damage{Reason: fmt.Sprintf("the binding of the name %q: %v", name, err)})
		}
		return nil
	})
	_ = tx.Bucket(bucketByPlayer).ForEach(func(k, raw []byte) error {
		if err := checkIndex(k, raw, d.bare); err != nil {
			r.Damaged = append(r.Damaged, Damage{Reason: fmt.Sprintf("the byplayer entry %q: %v", k, err)})
		}
		return nil
	})
}

// checkRefused reports the moves Apply refused because their match had a move of that number
// (ErrPlyTaken): the match's history forked, though its file holds one chain.
func checkRefused(tx *bolt.Tx, r *Report) {
	c := tx.Bucket(bucketMeta).Cursor()
	prefix := []byte(prefixRefused)
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var m refusedMove
		if err := json.Unmarshal(v, &m); err != nil {
			r.Damaged = append(r.Damaged, Damage{Reason: fmt.Sprintf("the record %q of a refused move: %v", k, err)})
			continue
		}
		r.Damaged = append(r.Damaged, Damage{ID: m.ID, Code: m.Code, Reason: fmt.Sprintf(
			"two moves %d came for it (two servers wrote the room): %q was kept, %q (change %d) refused",
			m.Ply+1, m.Kept.Move, m.Moved.Move, m.Seq)})
	}
}
