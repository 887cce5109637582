package storage

import (
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
)

// An entry is a write of a room: a match start, a move, a seat change, an abandon, a match end.
// Its apply makes the change in a transaction, reading nothing but the database.
type entry interface {
	apply(tx *bolt.Tx) error
}

// startEntry records the start of a match (header with its ID) as its room's unfinished match.
type startEntry struct {
	Match record.Match
}

func (e startEntry) apply(tx *bolt.Tx) error {
	m := e.Match
	if err := putJSON(tx.Bucket(bucketMatches), []byte(m.ID), m); err != nil {
		return err
	}
	if err := putBinding(tx.Bucket(bucketActive), []byte(m.Code), m.ID); err != nil {
		return err
	}
	by := tx.Bucket(bucketByPlayer)
	for _, s := range m.Seats {
		if s.PlayerID != "" {
			if err := putIndex(by, pairKey(s.PlayerID, m.ID)); err != nil {
				return err
			}
		}
	}
	if m.Turn != nil { // a correspondence match
		return putCorr(tx, corrOf(m, *m.Turn))
	}
	return nil
}

// moveEntry records move number Ply (0-based) of match ID, room Code's.
type moveEntry struct {
	Code string
	ID   string
	Ply  int
	Move record.Move
}

func (e moveEntry) apply(tx *bolt.Tx) error {
	if err := putJSON(tx.Bucket(bucketMoves), moveKey(e.ID, e.Ply), e.Move); err != nil {
		return err
	}
	if t := e.Move.Turn; t != nil {
		return setCorr(tx, e.Code, func(c *record.Correspondence) { c.Turn = *t })
	}
	return nil
}

// takebackEntry deletes the moves of match ID from ply Ply on (a takeback), and the reshuffles
// made from Ply on; Reshuffle, when not nil, is the takeback's own, recorded in the header.
type takebackEntry struct {
	ID        string
	Ply       int
	Reshuffle *rules.Reshuffle `json:",omitempty"`
}

func (e takebackEntry) apply(tx *bolt.Tx) error {
	m, err := header(tx, e.ID)
	if err != nil {
		return err
	}
	if kept := rules.TakenBackTo(m.Reshuffles, e.Ply); len(kept) != len(m.Reshuffles) || e.Reshuffle != nil {
		if e.Reshuffle != nil {
			kept = append(kept, *e.Reshuffle)
		}
		m.Reshuffles = kept
		if err := putJSON(tx.Bucket(bucketMatches), []byte(e.ID), m); err != nil {
			return err
		}
	}
	b := tx.Bucket(bucketMoves)
	for ply := e.Ply; ; ply++ {
		k := moveKey(e.ID, ply)
		if b.Get(k) == nil {
			return nil
		}
		if err := b.Delete(k); err != nil {
			return err
		}
	}
}

// seatsEntry records new seat holders of match ID, room Code's.
type seatsEntry struct {
	Code  string
	ID    string
	Seats []record.Seat
}

func (e seatsEntry) apply(tx *bolt.Tx) error {
	m, err := header(tx, e.ID)
	if err != nil {
		return err
	}
	m.Seats = e.Seats
	if err := putJSON(tx.Bucket(bucketMatches), []byte(e.ID), m); err != nil {
		return err
	}
	return setCorr(tx, e.Code, func(c *record.Correspondence) { c.Seats = e.Seats })
}

// abandonEntry forgets room Code's unfinished match as the room's.
type abandonEntry struct {
	Code string
}

func (e abandonEntry) apply(tx *bolt.Tx) error {
	if err := dropCorr(tx, e.Code); err != nil {
		return err
	}
	return tx.Bucket(bucketActive).Delete([]byte(e.Code))
}

// endEntry records the end of match ID, the unfinished match of room Code, and rates it (or
// scores it, played alone).
type endEntry struct {
	Code    string
	ID      string
	Ended   time.Time
	Outcome rules.Outcome
	Unrated bool
	// Rules are the rules against farming the match is rated under.
	Rules RatingRules
}

// apply ends the match (see endTime) and, when it is rateable and the rules against farming
// (e.Rules) let it, rates it as of its end; otherwise it is recorded unrated. A solo match's
// score goes on the solo table instead.
func (e endEntry) apply(tx *bolt.Tx) error {
	m, err := header(tx, e.ID)
	if err != nil {
		return err
	}
	m.Plies = countMoves(tx, e.ID)
	m.Ended, m.Outcome, m.Unrated = endTime(tx, e), e.Outcome, e.Unrated
	if m.Rateable() && e.Rules.mayRate(tx, m) {
		if err := rate(tx, m, m.Ended); err != nil {
			return err
		}
		if err := e.Rules.countRated(tx, m); err != nil {
			return err
		}
		if err := putRated(tx, m.Game, m.ID); err != nil {
			return err
		}
		m.Rated = true
	}
	if m.SoloScorable() {
		if err := scoreSolo(tx, m); err != nil {
			return err
		}
	}
	if err := putJSON(tx.Bucket(bucketMatches), []byte(e.ID), m); err != nil {
		return err
	}
	if err := dropCorr(tx, e.Code); err != nil {
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
