// Package storage keeps the arcade's memory in one bbolt file: players and the names bound to
// their keys, ratings and best solo scores per game, and every match with its moves, so that
// matches survive disconnects, crashes and restarts.
//
// The file is opened once, with a lock timeout; its buckets are created with it. Values are
// JSON, copied out of transactions before use. bbolt is the only on-disk format: a write returns
// once the bbolt transaction that holds it is committed to disk, and readers read the file.
//
// Writes are committed in groups (see groupCommit): the writes of every room that arrive while
// one transaction is being committed share the next transaction and its fsyncs. A transaction
// that cannot be written or synced fails its writes, and the store with them: every later write
// fails with ErrFailed until the server is restarted (what the file holds after a failed sync is
// not known, so nothing more is written to it); reads go on.
//
// Versions: the file records its schema version; Open creates a new file with SchemaVersion,
// migrates a file of an older release's schema (in one transaction) and refuses any other
// (ErrOlderSchema, ErrNewerSchema), changing nothing. A release that
// changes the layout raises SchemaVersion and brings the migration from the schema of the release
// before; testdata/v0.1.0.db is a file of the first release, which every later one must open.
//
// Damage: Open walks the file's pages before bbolt does (see verifyPages) and refuses a file whose
// structure is damaged with ErrDamaged; a panic of bbolt's while opening or reading is recovered
// and reported as ErrDamaged too. Every record is sealed with a checksum verified on read (see
// seal): a record that fails it is damaged, never used. An unfinished match that cannot be read
// or replayed is set aside with Quarantine, kept in the file for inspection; Check reads the whole
// file (the command `arcade check`).
//
// Layout (bucket: key -> value); players, names, ratings, solo, matches, moves and active hold
// sealed records, byplayer's values are the seal of nothing (names, active and byplayer since
// schema 3: v0.1.0's schema 2 stored them bare, and byplayer's values empty):
//
//	meta:       "schema" -> schema version
//	players:    key fingerprint -> player
//	names:      lower-case name -> key fingerprint (see binding)
//	ratings:    game NUL fingerprint -> standing
//	solo:       game NUL fingerprint -> best solo score (see scoreSolo)
//	matches:    match ID -> match header (record.Match without moves)
//	moves:      match ID NUL ply (8 bytes, big-endian) -> move
//	byplayer:   fingerprint NUL match ID -> the key's sum (see putIndex)
//	active:     room code -> match ID, for every unfinished match (see binding)
//	quarantine: match ID -> a bucket of the match's records set aside (see Quarantine)
//	board:      game NUL class, rating (descending), name NUL fingerprint -> empty: the
//	            standings in leaderboard order (see boardKey), kept with ratings; checked at open
//	            against its sum (under NUL "sum") and rebuilt when unsound
//	pairs:      UTC day NUL fingerprint NUL fingerprint -> rated matches of the pair that day
//	            (see farming.go); a derived count, started empty where missing
//	history:    fingerprint NUL game NUL match ID -> the player's rating after that rated match
//	            (see history.go); derived, written with the rating, started empty where missing
//
// Since schema 4, players are identities that hold one key or several (keys.go), and the
// moderation of a public server is stored (moderation.go, social.go, void.go):
//
//	keys:       key fingerprint -> the key: its player, comment, added, last used, revoked
//	held:       player NUL key fingerprint -> the seal of nothing: the player's keys, an index
//	codes:      SHA-256 of a link code -> the code: player, key that made it, made, expires, used
//	retired:    name -> a name released by its holder (free from a date) or renamed by an operator
//	ignores:    player NUL player -> an ignore: the second's chat is not shown to the first
//	reports:    sequence (8 bytes, big-endian) -> a report, with its room's chat
//	bans:       kind SP target -> a ban of a key, a player or an address
//	mutes:      player -> a mute
//	actions:    sequence (8 bytes, big-endian) -> an operator's action, the moderation log
//	rated:      game NUL sequence (8 bytes, big-endian) -> match ID: the game's rated matches in
//	            the order they were rated, from which a void recomputes the ratings
//
// Since schema 5, correspondence play (corr.go, challenges.go, follows.go):
//
//	corr:       room code -> an unfinished correspondence match: its seats and its turn
//	corrby:     player NUL room code -> the seal of nothing: a player's correspondence matches
//	due:        deadline (8 bytes, big-endian Unix seconds) room code -> the seal of nothing
//	challenges: challenge ID -> a challenge waiting for its answer
//	chalto:     "to" or "from" NUL player NUL ID, or "open" NUL ID -> the seal of nothing
//	follows:    follower NUL player -> a follow
//	prefs:      player -> the player's settings of correspondence play
package storage

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/sanitize"
)

// SchemaVersion is the layout this package writes. Schema 3 sealed the names' and the rooms'
// bindings; schema 4 adds the buckets of keys (a player holds several), link codes, retired
// names, moderation and the order of rated matches; schema 5 those of correspondence play
// (corr.go: the index of correspondence matches and their deadlines, challenges, follows,
// players' settings). Open migrates a file of schema 2, v0.1.0's (the first release), or of
// schema 3 or 4, to it. Development builds before v0.1.0 wrote schema 1, which is refused.
const SchemaVersion = 5

// sealedSchema is the schema that sealed the bindings (schema 3), and accountsSchema the one of
// keys and moderation (schema 4), the one before SchemaVersion.
const (
	sealedSchema   = 3
	accountsSchema = 4
)

// releaseSchema is the schema of v0.1.0, the oldest Open accepts.
const releaseSchema = 2

var (
	bucketMeta     = []byte("meta")
	bucketPlayers  = []byte("players")
	bucketNames    = []byte("names")
	bucketRatings  = []byte("ratings")
	bucketSolo     = []byte("solo")
	bucketMatches  = []byte("matches")
	bucketMoves    = []byte("moves")
	bucketByPlayer = []byte("byplayer")
	bucketActive   = []byte("active")
	bucketQuar     = []byte("quarantine")
	bucketBoard    = []byte("board")
	bucketPairs    = []byte("pairs")
	bucketHistory  = []byte("history")
	bucketKeys     = []byte("keys")
	bucketHeld     = []byte("held")
	bucketCodes    = []byte("codes")
	bucketRetired  = []byte("retired")
	bucketIgnores  = []byte("ignores")
	bucketReports  = []byte("reports")
	bucketBans     = []byte("bans")
	bucketMutes    = []byte("mutes")
	bucketActions  = []byte("actions")
	bucketRated    = []byte("rated")
	// sealedBuckets are the buckets of schemas 2 and 3.
	sealedBuckets = [][]byte{bucketMeta, bucketPlayers, bucketNames, bucketRatings, bucketSolo,
		bucketMatches, bucketMoves, bucketByPlayer, bucketActive, bucketQuar}
	// accountBuckets are the buckets schema 4 added (see migrateAccounts).
	accountBuckets = [][]byte{bucketKeys, bucketHeld, bucketCodes, bucketRetired, bucketIgnores, bucketReports,
		bucketBans, bucketMutes, bucketActions, bucketRated}
	// allBuckets are the buckets of the schema, every one created with the file.
	allBuckets = slices.Concat(sealedBuckets, accountBuckets, corrBuckets)
	// derivedBuckets hold what is computed from the other buckets: created with a new file,
	// and by Open on a file of this schema that lacks them (one written before them).
	derivedBuckets = [][]byte{bucketBoard, bucketPairs, bucketHistory}
	keySchema      = []byte("schema")
)

// Errors of Open and of the stores. Match them with errors.Is.
var (
	// ErrLocked: another process holds the database (another server on the same data folder).
	ErrLocked = errors.New("the database is in use by another arcade server")
	// ErrDamaged: the file, or a record in it, is damaged (or the file is not a database). Open
	// leaves a damaged file untouched; a damaged record is never used.
	ErrDamaged = errors.New("the database file is damaged")
	// ErrNewerSchema: the file was written by a newer arcade. Open leaves it untouched.
	ErrNewerSchema = errors.New("the database was written by a newer version of the arcade")
	// ErrOlderSchema: the file was written by a development build before v0.1.0, whose schema no
	// release opens. Open leaves it untouched.
	ErrOlderSchema = errors.New("the database was written by a development build before v0.1.0")
	// ErrNameTaken: the name is bound to another key. It is sanitize.ErrNameTaken, which the
	// layers that report the refusal match.
	ErrNameTaken = sanitize.ErrNameTaken
	// ErrNoMatch: no match has that ID.
	ErrNoMatch = errors.New("no match with that ID")
	// ErrFailed: a commit could not be written or synced to disk. The write that met it and
	// every later one fail with it until the server is restarted.
	ErrFailed = errors.New("the database failed to write to disk; restart the server")
)

// Options are the settings of Open.
type Options struct {
	// LockTimeout is how long Open waits for another process to release the file.
	LockTimeout time.Duration
	// Logger receives what the operator should know: a failed commit. nil: nothing is logged.
	Logger *slog.Logger
	// ReadOnly opens the file for reading only, beside readers and under no writer: nothing is
	// created or written (every write fails). The file must exist.
	ReadOnly bool
	// RatingRules are the rules against farming ratings that match ends are rated under (the
	// zero value: none). The nodes of a cluster must have the same.
	RatingRules RatingRules

	// openFile opens the database file for bbolt (tests reach the file through it); nil:
	// os.OpenFile.
	openFile func(string, int, os.FileMode) (*os.File, error)
}

// DB is the arcade's database. Its methods are safe for concurrent use.
type DB struct {
	db     *bolt.DB
	now    func() time.Time
	log    *slog.Logger
	writes *groupCommit // every write, committed in groups
	boards boardCache   // first pages of the leaderboards (see Leaderboard)
	rules  RatingRules  // see Options.RatingRules

	// bare: the file is of schema 2, opened read-only, so its bindings have no sums (see
	// decodeBinding); a file opened for writing is migrated instead.
	bare bool

	mu sync.Mutex
	// active maps room codes to their unfinished matches, but those of correspondence play,
	// whose rooms sleep: theirs are read from the file (activeID), so that a sleeping match
	// costs no memory.
	active map[string]string
	seq    uint32 // tail of match IDs made in the same millisecond

	watchMu   sync.Mutex
	watcher   func(Change)  // see Watch
	skips     outcomes      // see Outcome
	unknownAt atomic.Uint64 // the position of the first change of an unknown kind (see ErrUnknownChange)
}

// Open opens (or creates) the database at path. It waits at most opts.LockTimeout for another
// process to release the file, then fails with ErrLocked. A file that is not a bbolt database,
// or whose pages do not hold together, or that lacks a bucket of its schema, fails with
// ErrDamaged; a file of another schema fails with ErrOlderSchema or ErrNewerSchema. Such a file is
// never written to. A new (or empty) file gets every bucket and the current schema; a file of
// v0.1.0's schema is migrated to it, or read as it is when opened read-only. A file opened for
// writing that group or others may read is made 0600, with a warning in the log; a new one is
// created so.
func Open(path string, opts Options) (d *DB, err error) {
	if info, err := os.Stat(path); err == nil && info.Size() > 0 && info.Size() < 4096 {
		return nil, fmt.Errorf("%w: %s is only %d bytes", ErrDamaged, path, info.Size())
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	defer func() {
		if p := recover(); p != nil {
			if d != nil {
				d.Close()
			}
			d, err = nil, fmt.Errorf("%w: %s: the storage library failed on it: %v", ErrDamaged, path, p)
		}
	}()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	// Pages are walked under the lock, by a reader, before bbolt walks them as a writer.
	if _, statErr := os.Stat(path); statErr == nil {
		ro, err := boltOpen(path, opts.LockTimeout, true, nil)
		if err != nil {
			return nil, err
		}
		err = verifyPages(path)
		ro.Close()
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrDamaged, path, err)
		}
	}
	db, err := boltOpen(path, opts.LockTimeout, opts.ReadOnly, opts.openFile)
	if err != nil {
		return nil, err
	}
	d = &DB{db: db, now: time.Now, log: logger, active: map[string]string{}, rules: opts.RatingRules}
	d.writes = newGroupCommit(db, logger)
	if opts.ReadOnly {
		err = d.view(func(tx *bolt.Tx) error {
			schema, err := checkLayout(tx)
			d.bare = schema == releaseSchema
			return err
		})
	} else {
		err = d.init()
	}
	if err != nil {
		err = fmt.Errorf("%s: %w", path, err)
	} else {
		err = d.loadActive()
	}
	if err == nil && !opts.ReadOnly {
		err = closePermissions(path, logger)
	}
	if err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// boltOpen opens the bbolt file at path, telling a file held by another process and a file that
// is not a database from other failures.
func boltOpen(path string, timeout time.Duration, readOnly bool,
	openFile func(string, int, os.FileMode) (*os.File, error)) (*bolt.DB, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{
		Timeout:  timeout,
		ReadOnly: readOnly,
		// Map 1 GiB of address space at once, so the map is not grown (which waits for every
		// reader) as the file grows.
		InitialMmapSize: 1 << 30,
		// Do not write the free-page list at every commit (it is rebuilt at open), and keep it in
		// a map: what etcd runs bbolt with, for the same reason (many small commits).
		NoFreelistSync: true,
		FreelistType:   bolt.FreelistMapType,
		OpenFile:       openFile,
	})
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return nil, fmt.Errorf("%w: %s", ErrLocked, path)
	case errors.Is(err, bolterrors.ErrInvalid), errors.Is(err, bolterrors.ErrVersionMismatch),
		errors.Is(err, bolterrors.ErrChecksum):
		return nil, fmt.Errorf("%w: %s cannot be read: %w", ErrDamaged, path, err)
	case err != nil:
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return db, nil
}

// init gives a new file (one without buckets) every bucket and the current schema, checks the
// layout of any other, writing nothing to one it refuses, and migrates one of v0.1.0's schema. On
// a file of the current schema it creates the derived buckets it lacks and rebuilds the
// leaderboard index when it is not sound (see syncBoard), writing nothing when all is in place.
func (d *DB) init() error {
	var isNew, current bool
	var schema int
	err := d.view(func(tx *bolt.Tx) (err error) {
		isNew = tx.ForEach(func([]byte, *bolt.Bucket) error { return errNotEmpty }) == nil
		if isNew {
			return nil
		}
		if schema, err = checkLayout(tx); err != nil {
			return err
		}
		current = schema == SchemaVersion && tx.Bucket(bucketPairs) != nil && tx.Bucket(bucketBoard) != nil &&
			tx.Bucket(bucketHistory) != nil && boardSound(tx)
		return nil
	})
	if err != nil || current {
		return err
	}
	return d.db.Update(func(tx *bolt.Tx) error {
		if isNew {
			for _, name := range allBuckets {
				if _, err := tx.CreateBucketIfNotExists(name); err != nil {
					return fmt.Errorf("create bucket %s: %w", name, err)
				}
			}
			if err := tx.Bucket(bucketMeta).Put(keySchema, []byte(strconv.Itoa(SchemaVersion))); err != nil {
				return err
			}
		}
		if schema == releaseSchema {
			if err := migrate(tx); err != nil {
				return err
			}
		}
		if schema == releaseSchema || schema == sealedSchema {
			if err := migrateAccounts(tx); err != nil {
				return err
			}
		}
		if schema == releaseSchema || schema == sealedSchema || schema == accountsSchema {
			if err := migrateCorr(tx); err != nil {
				return err
			}
		}
		for _, name := range derivedBuckets {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		return syncBoard(tx)
	})
}

// errNotEmpty stops the walk of a file's buckets at the first.
var errNotEmpty = errors.New("the file has buckets")

// checkLayout checks that the file is of the current schema or of v0.1.0's, and has its every
// bucket, and returns its schema. A file of another schema is refused with ErrOlderSchema or
// ErrNewerSchema, saying what to do; one without a schema version or a bucket is damaged (or not
// an arcade database).
func checkLayout(tx *bolt.Tx) (int, error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		return 0, fmt.Errorf("%w: it has no meta bucket (not an arcade database?)", ErrDamaged)
	}
	v := meta.Get(keySchema)
	if v == nil {
		return 0, fmt.Errorf("%w: it records no schema version (not an arcade database?)", ErrDamaged)
	}
	n, err := strconv.Atoi(string(v))
	switch {
	case err != nil || n < 1:
		return 0, fmt.Errorf("%w: schema version %q", ErrDamaged, v)
	case n > SchemaVersion:
		return 0, fmt.Errorf("%w: it has schema %d; this arcade opens schema %d to %d files only: "+
			"run the newer arcade, or restore a backup made before it ran", ErrNewerSchema, n, releaseSchema, SchemaVersion)
	case n < releaseSchema:
		return 0, fmt.Errorf("%w: it has schema %d; this arcade opens schema %d to %d files only: "+
			"start with a new data folder", ErrOlderSchema, n, releaseSchema, SchemaVersion)
	}
	want := allBuckets
	switch {
	case n < accountsSchema:
		want = sealedBuckets
	case n < SchemaVersion:
		want = slices.Concat(sealedBuckets, accountBuckets)
	}
	for _, name := range want {
		if tx.Bucket(name) == nil {
			return 0, fmt.Errorf("%w: it has no %s bucket", ErrDamaged, name)
		}
	}
	return n, nil
}

// migrate brings a file of schema 2 (v0.1.0) to schema 3, in the transaction tx: every binding
// of names and active, stored bare, is sealed (see putBinding), and every byplayer entry gets its
// key's sum (see putIndex). migrateAccounts and migrateCorr, in the same transaction, go on to SchemaVersion.
func migrate(tx *bolt.Tx) error {
	by := tx.Bucket(bucketByPlayer)
	var keys [][]byte
	_ = by.ForEach(func(k, _ []byte) error {
		keys = append(keys, slices.Clone(k))
		return nil
	})
	for _, k := range keys {
		if err := putIndex(by, k); err != nil {
			return fmt.Errorf("migrate %s: %w", bucketByPlayer, err)
		}
	}
	for _, name := range [][]byte{bucketNames, bucketActive} {
		b := tx.Bucket(name)
		var keys, values [][]byte
		_ = b.ForEach(func(k, v []byte) error {
			keys, values = append(keys, slices.Clone(k)), append(values, slices.Clone(v))
			return nil
		})
		for i, k := range keys {
			if err := putBinding(b, k, string(values[i])); err != nil {
				return fmt.Errorf("migrate %s: %w", name, err)
			}
		}
	}
	return tx.Bucket(bucketMeta).Put(keySchema, []byte(strconv.Itoa(sealedSchema)))
}

// migrateAccounts brings a file of schema 3 to schema 4, in the transaction tx: it creates
// the buckets schema 4 added, gives every player its first key (the key whose fingerprint is the
// player's identity, added when the player was), and lists the rated matches of every game in the
// order they ended (see migrateRated).
func migrateAccounts(tx *bolt.Tx) error {
	for _, name := range accountBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("migrate: create bucket %s: %w", name, err)
		}
	}
	var ids [][]byte
	var players []player
	err := tx.Bucket(bucketPlayers).ForEach(func(k, v []byte) error {
		var p player
		if decode(k, v, &p) != nil {
			return nil // damaged: Check reports it, and Claim writes it anew
		}
		ids, players = append(ids, slices.Clone(k)), append(players, p)
		return nil
	})
	if err != nil {
		return err
	}
	for i, id := range ids {
		k := record.Key{Fingerprint: string(id), Player: string(id), Added: players[i].Created}
		if err := putKey(tx, k); err != nil {
			return fmt.Errorf("migrate keys: %w", err)
		}
	}
	if err := migrateRated(tx); err != nil {
		return err
	}
	return tx.Bucket(bucketMeta).Put(keySchema, []byte(strconv.Itoa(accountsSchema)))
}

// closePermissions makes the database at path, when it exists, readable and writable by its
// owner only, saying so in the log when it was open to others (a copy made with cp keeps 0644):
// it holds every player's key and name. A new file is created so (see boltOpen).
func closePermissions(path string, log *slog.Logger) error {
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm()&0o077 == 0 {
		return nil
	}
	if err := os.Chmod(path, 0o600); err != nil {
		return fmt.Errorf("%s has mode %#o, readable by others, and cannot be made 0600: %w", path, info.Mode().Perm(), err)
	}
	log.Warn("the database was open to others; its mode is now 0600", "path", path, "mode", fmt.Sprintf("%#o", info.Mode().Perm()))
	return nil
}

// view runs fn in a read transaction. A panic of bbolt's (a page damaged since Open) is an error
// wrapping ErrDamaged; bbolt has ended the transaction by then.
func (d *DB) view(fn func(*bolt.Tx) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: the storage library failed reading it: %v", ErrDamaged, p)
		}
	}()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	return d.db.View(fn)
}

// loadActive reads the rooms' unfinished matches.
func (d *DB) loadActive() error {
	return d.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketActive).ForEach(func(k, v []byte) error {
			if inCorr(tx, k) {
				return nil
			}
			if id, err := decodeBinding(k, v, d.bare); err == nil {
				d.active[string(k)] = id // a damaged entry is Unfinished's to report
			}
			return nil
		})
	})
}

// Close closes the database. Pending writes are committed first; later writes fail.
func (d *DB) Close() error {
	d.writes.close()
	return d.db.Close()
}

// Backup writes a consistent copy of the whole database to w while others go on using it, and
// returns the number of bytes written. The copy is a complete database: restoring it is putting
// it in place of the file while no server runs.
func (d *DB) Backup(w io.Writer) (int64, error) {
	return d.BackupSized(w, nil)
}

// BackupSized is Backup that first calls announce, when not nil, with the number of bytes the copy
// will have, so that a reader can tell a complete copy from one cut short. An error from announce
// ends the backup before anything is written.
func (d *DB) BackupSized(w io.Writer, announce func(size int64) error) (int64, error) {
	var n int64
	err := d.view(func(tx *bolt.Tx) error {
		if announce != nil {
			if err := announce(tx.Size()); err != nil {
				return err
			}
		}
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// ReleaseMapped tells the kernel that this process no longer needs the pages of the database
// file that it has read so far, once a server has started: bbolt rebuilds its free list at open
// by walking every page its trees reach (NoFreelistSync) and the start reads the rooms' matches,
// so a large file would otherwise stay mapped in full, counted in the server's resident memory,
// although nothing reads most of it again (a sleeping correspondence match is read when it
// wakes). The pages stay in the kernel's cache and a later read maps them again; bbolt writes
// the file with pwrite and reads it only through its map, so nothing is lost. It does nothing
// off Linux. Safe for concurrent use.
func (d *DB) ReleaseMapped() {
	_ = d.view(func(tx *bolt.Tx) error {
		releaseMapped(d.db, tx.Size())
		return nil
	})
}
