package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
)

// idAlphabet spells match IDs: lower-case, without look-alikes, in ASCII order so that IDs sort
// by time.
const idAlphabet = "23456789abcdefghjkmnpqrstuvwxyz"

// newID returns a new match ID: the time in milliseconds and a counter, 11 characters that sort
// in the order they were made. d.mu must be held.
func (d *DB) newID() string {
	ms := uint64(d.now().UnixMilli())
	d.seq++
	n := ms<<10 | uint64(d.seq&0x3ff)
	b := make([]byte, 11)
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = idAlphabet[n%uint64(len(idAlphabet))]
		n /= uint64(len(idAlphabet))
	}
	return string(b)
}

func moveKey(id string, ply int) []byte {
	k := make([]byte, 0, len(id)+9)
	k = append(append(k, id...), 0)
	return binary.BigEndian.AppendUint64(k, uint64(ply))
}

func pairKey(a, b string) []byte { return []byte(a + "\x00" + b) }

// StartMatch records the start of m (Code, Game, Options, Seed, Seats and Started set) as the
// unfinished match of its room, and returns its new ID.
func (d *DB) StartMatch(m record.Match) (string, error) {
	d.mu.Lock()
	m.ID = d.newID()
	d.mu.Unlock()
	m.Version, m.Moves, m.Plies = record.Version, nil, 0
	err := d.writes.do(startEntry{Match: m}.apply)
	if err != nil {
		return "", fmt.Errorf("record match start: %w", err)
	}
	if m.Turn == nil { // a correspondence match's is read from the file (activeID)
		d.mu.Lock()
		d.active[m.Code] = m.ID
		d.mu.Unlock()
	}
	return m.ID, nil
}

// activeID returns the unfinished match of the room code.
// ActiveMatch returns the ID of the room's unfinished match, or false when none is recorded.
func (d *DB) ActiveMatch(code string) (string, bool) {
	id, err := d.activeID(code)
	return id, err == nil
}

func (d *DB) activeID(code string) (string, error) {
	d.mu.Lock()
	id, ok := d.active[code]
	d.mu.Unlock()
	if ok {
		return id, nil
	}
	// A correspondence match: its binding is read from the file.
	err := d.view(func(tx *bolt.Tx) error {
		if !inCorr(tx, []byte(code)) {
			return nil
		}
		var err error
		id, err = binding(tx.Bucket(bucketActive), []byte(code))
		return err
	})
	if err != nil || id == "" {
		return "", fmt.Errorf("room %s has no match being recorded", code)
	}
	return id, nil
}

// AppendMove records move number ply (0-based) of the room's unfinished match. It returns once
// the move is on disk; concurrent calls share their commits (see groupCommit).
func (d *DB) AppendMove(code string, ply int, mv record.Move) error {
	id, err := d.activeID(code)
	if err != nil {
		return err
	}
	return d.writes.do(moveEntry{Code: code, ID: id, Ply: ply, Move: mv}.apply)
}

// TakeBack deletes the moves of the room's unfinished match from number ply (0-based) on: the
// players took them back; with them the reshuffles made at ply or after it (record.Match.
// Reshuffles), and records r, the takeback's own, when not nil. It returns once that is on disk.
func (d *DB) TakeBack(code string, ply int, r *rules.Reshuffle) error {
	id, err := d.activeID(code)
	if err != nil {
		return err
	}
	if ply < 0 {
		return fmt.Errorf("take back: ply %d", ply)
	}
	return d.writes.do(takebackEntry{ID: id, Ply: ply, Reshuffle: r}.apply)
}

// SetSeats records new seat holders of the room's unfinished match (a bot took over a seat).
func (d *DB) SetSeats(code string, seats []record.Seat) error {
	id, err := d.activeID(code)
	if err != nil {
		return err
	}
	return d.writes.do(seatsEntry{Code: code, ID: id, Seats: seats}.apply)
}

// EndMatch records the end of the room's unfinished match and, when the match is rateable (no
// bots, no guests, not abandoned), updates the players' ratings, or for a solo match the
// player's best solo score (record.Match.SoloScorable), in one commit. It returns once that is on
// disk.
func (d *DB) EndMatch(code string, out rules.Outcome, unrated bool) error {
	id, err := d.activeID(code)
	if err != nil {
		return err
	}
	err = d.writes.do(endEntry{Code: code, ID: id, Ended: d.now().UTC(), Outcome: out, Unrated: unrated, Rules: d.rules}.apply)
	if err != nil {
		return fmt.Errorf("record match end: %w", err)
	}
	d.mu.Lock()
	delete(d.active, code)
	d.mu.Unlock()
	return nil
}

// Abandon forgets the room's unfinished match as the room's (the room will not come back); the
// record stays, unfinished.
func (d *DB) Abandon(code string) error {
	d.mu.Lock()
	delete(d.active, code)
	d.mu.Unlock()
	return d.writes.do(abandonEntry{Code: code}.apply)
}

func countMoves(tx *bolt.Tx, id string) int {
	n := 0
	prefix := append([]byte(id), 0)
	c := tx.Bucket(bucketMoves).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		n++
	}
	return n
}

// loadMatch reads match id with its moves. A header or move that fails its sum or does not
// decode, a gap in the plies (or, for a finished match, fewer or more moves than it ended with), or a match set aside (Quarantine) is an error wrapping ErrDamaged;
// a match with no record is ErrNoMatch. The errors do not name the match.
func loadMatch(tx *bolt.Tx, id string) (record.Match, error) {
	var m record.Match
	raw := tx.Bucket(bucketMatches).Get([]byte(id))
	if raw == nil {
		if b := tx.Bucket(bucketQuar).Bucket([]byte(id)); b != nil {
			return m, fmt.Errorf("%w; it was set aside: %s", ErrDamaged, b.Get(keyReason))
		}
		return m, ErrNoMatch
	}
	if err := decode([]byte(id), raw, &m); err != nil {
		return m, fmt.Errorf("its record: %w", err)
	}
	m.ID = id
	prefix := append([]byte(id), 0)
	c := tx.Bucket(bucketMoves).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		ply := len(m.Moves)
		var mv record.Move
		if err := decode(k, v, &mv); err != nil {
			return m, fmt.Errorf("move %d: %w", ply+1, err)
		}
		if !bytes.Equal(k, moveKey(id, ply)) {
			return m, fmt.Errorf("%w: move %d is missing", ErrDamaged, ply+1)
		}
		m.Moves = append(m.Moves, mv)
	}
	if m.Finished() && m.Plies != len(m.Moves) {
		// The end's record counted the moves: one lost since (its key damaged) is found here.
		return m, fmt.Errorf("%w: it ended after %d moves, %d are stored", ErrDamaged, m.Plies, len(m.Moves))
	}
	m.Plies = len(m.Moves)
	return m, nil
}

// Match returns the match with the given ID, with its moves. A match that cannot be read, or was
// set aside, is an error wrapping ErrDamaged.
func (d *DB) Match(id string) (record.Match, error) {
	var m record.Match
	err := d.view(func(tx *bolt.Tx) error {
		id := strings.ToLower(strings.TrimSpace(id))
		var err error
		if m, err = loadMatch(tx, id); err != nil && !errors.Is(err, ErrNoMatch) {
			err = fmt.Errorf("match %s: %w", id, err)
		}
		return err
	})
	return m, err
}

// Unfinished returns every room's unfinished match with its moves, to resume after a restart,
// and the ones that cannot be read, which the caller should set aside with Quarantine. An error
// is returned only when the file cannot be read at all. The correspondence matches (see
// Correspondence) are left out: their rooms sleep, and are woken one at a time
// (UnfinishedMatch) when a player comes or a deadline does.
func (d *DB) Unfinished() ([]record.Match, []Damage, error) {
	var out []record.Match
	var bad []Damage
	err := d.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketActive).ForEach(func(code, raw []byte) error {
			if inCorr(tx, code) {
				return nil
			}
			id, err := decodeBinding(code, raw, d.bare)
			if err != nil {
				bad = append(bad, Damage{Code: string(code), Reason: "the room's entry: " + err.Error()})
				return nil
			}
			m, err := loadMatch(tx, id)
			if err != nil {
				bad = append(bad, Damage{ID: id, Code: string(code), Game: m.Game, Reason: err.Error()})
				return nil
			}
			m.Code = string(code)
			out = append(out, m)
			return nil
		})
	})
	slices.SortFunc(out, func(a, b record.Match) int { return strings.Compare(a.ID, b.ID) })
	return out, bad, err
}
