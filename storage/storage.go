// Package storage keeps the arcade's memory in one bbolt file: players and the names bound to
// their keys, ratings per game, and every match with its moves, so that matches survive
// disconnects, crashes and restarts.
//
// The file is opened once, with a lock timeout, and its buckets are created at open. Values are
// JSON, copied out of transactions before use. What rooms write while they play is written in
// groups (see groupCommit): the writes of many rooms that arrive during one write share the next
// one and its fsync. Match starts, moves, seat changes, abandons and match ends go first to a
// write-ahead journal beside the file (PATH.journal.N, see journal), one append and one fdatasync
// per group, and into the database at the next checkpoint, within 10 s (see checkpointInterval); a
// crash leaves them in the journal, and Open puts them in the database before anything reads it.
// Readers of what the journal holds (Match, Unfinished, Profile, Leaderboard, Backup) wait for the
// checkpoint of what came before them.
//
// Layout (bucket: key -> value):
//
//	meta:     "schema" -> schema version; "journal" -> the journal position the database has
//	          every record before (segment and offset, 8 bytes each, big-endian)
//	players:  key fingerprint -> player
//	names:    lower-case name -> key fingerprint
//	ratings:  game NUL fingerprint -> standing
//	matches:  match ID -> match header (record.Match without moves)
//	moves:    match ID NUL ply (8 bytes, big-endian) -> move
//	byplayer: fingerprint NUL match ID -> empty
//	active:   room code -> match ID, for every unfinished match
package storage

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// SchemaVersion is the layout this package writes. A file of a later version is refused.
const SchemaVersion = 1

var (
	bucketMeta     = []byte("meta")
	bucketPlayers  = []byte("players")
	bucketNames    = []byte("names")
	bucketRatings  = []byte("ratings")
	bucketMatches  = []byte("matches")
	bucketMoves    = []byte("moves")
	bucketByPlayer = []byte("byplayer")
	bucketActive   = []byte("active")
	allBuckets     = [][]byte{bucketMeta, bucketPlayers, bucketNames, bucketRatings, bucketMatches,
		bucketMoves, bucketByPlayer, bucketActive}
	keySchema  = []byte("schema")
	keyJournal = []byte("journal")
)

// Errors of Open and of the stores. Match them with errors.Is.
var (
	// ErrLocked: another process holds the database (another server on the same data folder).
	ErrLocked = errors.New("the database is in use by another arcade server")
	// ErrDamaged: the file is not a database this version can read; it is left untouched.
	ErrDamaged = errors.New("the database file cannot be read")
	// ErrNewerSchema: the file was written by a newer arcade.
	ErrNewerSchema = errors.New("the database was written by a newer version of the arcade")
	// ErrNameTaken: the name is bound to another key.
	ErrNameTaken = errors.New("that name belongs to another key")
	// ErrNoMatch: no match has that ID.
	ErrNoMatch = errors.New("no match with that ID")
)

// DB is the arcade's database. Its methods are safe for concurrent use.
type DB struct {
	db     *bolt.DB
	now    func() time.Time
	writes *groupCommit // what rooms write while they play, committed in groups

	mu     sync.Mutex
	active map[string]string // room code -> ID of its unfinished match
	seq    uint32            // tail of match IDs made in the same millisecond
}

// Open opens (or creates) the database at path. It waits at most lockTimeout for another process
// to release the file, then fails with ErrLocked. A file that is not a bbolt database, or that
// fails bbolt's checks, fails with ErrDamaged and is never written to.
func Open(path string, lockTimeout time.Duration) (*DB, error) {
	if info, err := os.Stat(path); err == nil && info.Size() > 0 && info.Size() < 4096 {
		return nil, fmt.Errorf("%w: %s is only %d bytes", ErrDamaged, path, info.Size())
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{
		Timeout: lockTimeout,
		// Map 1 GiB of address space at once, so the map is not grown (which waits for every
		// reader) as the file grows.
		InitialMmapSize: 1 << 30,
		// Do not write the free-page list at every commit (it is rebuilt at open), and keep it in
		// a map: what etcd runs bbolt with, for the same reason (many small commits).
		NoFreelistSync: true,
		FreelistType:   bolt.FreelistMapType,
	})
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return nil, fmt.Errorf("%w: %s", ErrLocked, path)
	case errors.Is(err, bolterrors.ErrInvalid), errors.Is(err, bolterrors.ErrVersionMismatch),
		errors.Is(err, bolterrors.ErrChecksum):
		return nil, fmt.Errorf("%w: %s: %w", ErrDamaged, path, err)
	case err != nil:
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	d := &DB{db: db, now: time.Now, active: map[string]string{}}
	pos, err := d.init()
	if err != nil {
		db.Close()
		return nil, err
	}
	// The journal is read under bbolt's lock on the database: what it holds past the database's
	// position (writes answered before a crash, not yet checkpointed) goes into the database
	// before anyone reads it, and appends go on in a new segment.
	j, err := d.replay(path, pos)
	if err != nil {
		db.Close()
		return nil, err
	}
	if err := d.loadActive(); err != nil {
		j.close()
		db.Close()
		return nil, err
	}
	d.writes = newGroupCommit(db, j, appendInterval, commitInterval, checkpointInterval)
	return d, nil
}

// replay writes the journal's records past pos into the database, from segment pos.gen on and
// as long as the segments follow each other, and returns the journal, appending to a new
// segment. Every segment there was is removed.
func (d *DB) replay(path string, pos journalPos) (*journal, error) {
	gens, err := listSegments(path)
	if err != nil {
		return nil, err
	}
	next := pos.gen + 1
	var calls []commitCall
	want := pos.gen // the segment that continues the database's records
	for _, gen := range gens {
		next = max(next, gen+1)
		if gen < pos.gen {
			continue
		}
		if gen != want {
			// A segment is missing (the database is a restored copy older than the journal
			// beside it): what follows does not continue this database, and is not replayed.
			want = 0
			continue
		}
		want++
		from := int64(0)
		if gen == pos.gen {
			from = pos.off
		}
		payloads, ends, err := readSegment(segmentPath(path, gen), from)
		if err != nil {
			return nil, err
		}
		for i, p := range payloads {
			e, err := decodeEntry(p)
			if err != nil {
				return nil, fmt.Errorf("replay journal segment %d at %d: %w", gen, ends[i], err)
			}
			calls = append(calls, commitCall{fn: e.apply, pos: journalPos{gen, ends[i]}})
		}
	}
	// The records, and the new segment as the position (even with no records: it must be after
	// every segment on disk), in one commit; the group commit skips records that fail as it did.
	calls = append(calls, commitCall{fn: func(*bolt.Tx) error { return nil }, pos: journalPos{gen: next}})
	if err := newGroupCommit(d.db, nil, 0, 0, 0).commit(calls); err != nil {
		return nil, fmt.Errorf("replay journal: %w", err)
	}
	removeSegments(path, next)
	removeUnprepared(path)
	return createJournal(path, next, segmentBytes)
}

// init creates the buckets, checks the schema version, and returns the journal position the
// database has every record before.
func (d *DB) init() (journalPos, error) {
	var pos journalPos
	err := d.db.Update(func(tx *bolt.Tx) error {
		for _, name := range allBuckets {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		meta := tx.Bucket(bucketMeta)
		if v := meta.Get(keySchema); v != nil {
			n, err := strconv.Atoi(string(v))
			if err != nil {
				return fmt.Errorf("%w: schema version %q", ErrDamaged, v)
			}
			if n > SchemaVersion {
				return fmt.Errorf("%w (schema %d; this one reads up to %d)", ErrNewerSchema, n, SchemaVersion)
			}
			// Later versions migrate older schemas here, before anything else reads them.
		}
		if v := meta.Get(keyJournal); v != nil {
			var ok bool
			if pos, ok = parseJournalPos(v); !ok {
				return fmt.Errorf("%w: journal position %x", ErrDamaged, v)
			}
		}
		return meta.Put(keySchema, []byte(strconv.Itoa(SchemaVersion)))
	})
	return pos, err
}

// loadActive reads the rooms' unfinished matches.
func (d *DB) loadActive() error {
	return d.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketActive).ForEach(func(k, v []byte) error {
			d.active[string(k)] = string(v)
			return nil
		})
	})
}

// Close closes the database. Pending writes are put in the database first; later writes fail.
func (d *DB) Close() error {
	d.writes.close()
	jerr := d.writes.journal.close()
	if err := d.db.Close(); err != nil {
		return err
	}
	return jerr
}

// Backup writes a consistent copy of the whole database to w while others go on using it, and
// returns the number of bytes written.
func (d *DB) Backup(w io.Writer) (int64, error) {
	if err := d.writes.flush(); err != nil { // the journal's writes belong in the copy
		return 0, err
	}
	var n int64
	err := d.db.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}
