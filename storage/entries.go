package storage

import (
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
)

// A logEntry is a write that goes through the journal (see groupCommit.log): a match start, a
// move, a seat change, an abandon, a match end. Its apply makes the change in the database, at a checkpoint or,
// after a crash, when the database is opened; it reads nothing but the database, so that it does
// the same either way. An entry that cannot be applied (its match is gone) is skipped, at the
// checkpoint and again when replayed.
type logEntry interface {
	kind() byte
	apply(tx *bolt.Tx) error
}

// The kinds of entries, the first byte of a journal record.
const (
	kindStart   = 's'
	kindMove    = 'm'
	kindSeats   = 't'
	kindAbandon = 'a'
	kindEnd     = 'e'
)

// startEntry records the start of a match (header with its ID) as its room's unfinished match.
type startEntry struct {
	Match record.Match `json:"match"`
}

func (startEntry) kind() byte { return kindStart }

func (e startEntry) apply(tx *bolt.Tx) error {
	m := e.Match
	if err := putJSON(tx.Bucket(bucketMatches), []byte(m.ID), m); err != nil {
		return err
	}
	if err := tx.Bucket(bucketActive).Put([]byte(m.Code), []byte(m.ID)); err != nil {
		return err
	}
	by := tx.Bucket(bucketByPlayer)
	for _, s := range m.Seats {
		if s.PlayerID != "" {
			if err := by.Put(pairKey(s.PlayerID, m.ID), nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// moveEntry records move number Ply (0-based) of match ID.
type moveEntry struct {
	ID   string      `json:"id"`
	Ply  int         `json:"ply"`
	Move record.Move `json:"move"`
}

func (moveEntry) kind() byte { return kindMove }

func (e moveEntry) apply(tx *bolt.Tx) error {
	return putJSON(tx.Bucket(bucketMoves), moveKey(e.ID, e.Ply), e.Move)
}

// seatsEntry records new seat holders of match ID.
type seatsEntry struct {
	ID    string        `json:"id"`
	Seats []record.Seat `json:"seats"`
}

func (seatsEntry) kind() byte { return kindSeats }

func (e seatsEntry) apply(tx *bolt.Tx) error {
	m, err := header(tx, e.ID)
	if err != nil {
		return err
	}
	m.Seats = e.Seats
	return putJSON(tx.Bucket(bucketMatches), []byte(e.ID), m)
}

// abandonEntry forgets room Code's unfinished match as the room's.
type abandonEntry struct {
	Code string `json:"code"`
}

func (abandonEntry) kind() byte { return kindAbandon }

func (e abandonEntry) apply(tx *bolt.Tx) error {
	return tx.Bucket(bucketActive).Delete([]byte(e.Code))
}

// endEntry records the end of match ID, the unfinished match of room Code, and rates it.
type endEntry struct {
	Code    string        `json:"code"`
	ID      string        `json:"id"`
	Ended   time.Time     `json:"ended"`
	Outcome rules.Outcome `json:"outcome"`
	Unrated bool          `json:"unrated,omitempty"`
}

func (endEntry) kind() byte { return kindEnd }

// apply ends the match and, when it is rateable, rates it as of Ended. It runs once for each
// entry (the journal position is recorded in the same commit), so a match is never rated twice.
func (e endEntry) apply(tx *bolt.Tx) error {
	m, err := header(tx, e.ID)
	if err != nil {
		return err
	}
	m.Ended, m.Outcome, m.Unrated = e.Ended, e.Outcome, e.Unrated
	m.Plies = countMoves(tx, e.ID)
	if m.Rateable() {
		if err := rate(tx, m, e.Ended); err != nil {
			return err
		}
		m.Rated = true
	}
	if err := putJSON(tx.Bucket(bucketMatches), []byte(e.ID), m); err != nil {
		return err
	}
	return tx.Bucket(bucketActive).Delete([]byte(e.Code))
}

// header reads the header of match id.
func header(tx *bolt.Tx, id string) (record.Match, error) {
	var m record.Match
	ok, err := getJSON(tx.Bucket(bucketMatches), []byte(id), &m)
	if err == nil && !ok {
		err = ErrNoMatch
	}
	if err != nil {
		return m, fmt.Errorf("match %s: %w", id, err)
	}
	return m, nil
}

// encodeEntry returns e as a journal record's payload: its kind, then its JSON.
func encodeEntry(e logEntry) ([]byte, error) {
	b, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("encode %c entry: %w", e.kind(), err)
	}
	return append([]byte{e.kind()}, b...), nil
}

// decodeEntry reads a journal record's payload.
func decodeEntry(p []byte) (logEntry, error) {
	if len(p) == 0 {
		return nil, fmt.Errorf("%w: empty journal record", ErrDamaged)
	}
	var e logEntry
	var err error
	switch p[0] {
	case kindStart:
		e, err = decodeAs[startEntry](p[1:])
	case kindMove:
		e, err = decodeAs[moveEntry](p[1:])
	case kindSeats:
		e, err = decodeAs[seatsEntry](p[1:])
	case kindAbandon:
		e, err = decodeAs[abandonEntry](p[1:])
	case kindEnd:
		e, err = decodeAs[endEntry](p[1:])
	default:
		return nil, fmt.Errorf("%w: journal record of unknown kind %q", ErrDamaged, p[0])
	}
	if err != nil {
		return nil, fmt.Errorf("%w: journal record %q: %w", ErrDamaged, p, err)
	}
	return e, nil
}

func decodeAs[E logEntry](data []byte) (logEntry, error) {
	var e E
	err := json.Unmarshal(data, &e)
	return e, err
}
