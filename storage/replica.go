package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rules"
)

// A replica: in cluster mode several arcade nodes share one history of changes (a stream, in
// which every change has a position, 1 and up), and each node's file is a replica of it, made by
// applying the changes in the stream's order with Apply. A change reads nothing but the file and
// itself (no clock, nothing held in memory), so every replica that applied the same changes
// holds the same records, ratings and solo scores included, and the file's "applied" meta key
// says up to where: a backup of any node is the whole store, and knows where to go on from.

// ChangeKind says what a Change does.
type ChangeKind string

// The kinds of change, with the fields of Change each one reads. A field a kind does not read is
// ignored.
const (
	// ChangeStart: a match began in room Code. Match is its header (Game, Options, Seed, Seats,
	// Started and Casual are kept; its ID is MatchID of the change's position and At, the rest is ignored).
	ChangeStart ChangeKind = "start"
	// ChangeMove: move number Ply (0-based) of room Code's unfinished match is Move.
	ChangeMove ChangeKind = "move"
	// ChangeSeats: room Code's unfinished match has new seat holders, Seats.
	ChangeSeats ChangeKind = "seats"
	// ChangeTakeback: the moves of room Code's unfinished match from number Ply on are taken back,
	// with the reshuffles made from Ply on; Reshuffle, when set, is the takeback's own.
	ChangeTakeback ChangeKind = "takeback"
	// ChangeEnd: room Code's unfinished match ended with Outcome at At (Unrated: it changes no
	// rating), and is rated or scored as of its end (as DB.EndMatch, with At for the local
	// clock). As there, a match its moves ended (Outcome.Over, not Unrated) ended with its last
	// move when that move has a time (see endTime): the end time, and the ratings' date, come
	// from the changes either way, never from a replica's clock.
	ChangeEnd ChangeKind = "end"
	// ChangeAbandon: room Code's unfinished match is no longer the room's (as DB.Abandon).
	ChangeAbandon ChangeKind = "abandon"
	// ChangeClaim: Name is bound to the key PlayerID, the key's player created at At if it is new.
	// The cluster decided the claim already: a name bound locally to another key is bound anew.
	ChangeClaim ChangeKind = "claim"
	// ChangeBell: the bell of the key PlayerID is on (Bell) or off (as DB.SetBell).
	ChangeBell ChangeKind = "bell"
	// ChangeFence: Code. Another node keeps the room from here on; nothing changes in the store
	// (the change only moves the room's place in the history on, so that the node that kept it
	// before can write no more: package cluster).
	ChangeFence ChangeKind = "fence"

	// The changes of keys (keys.go, codes.go, names.go). ChangeClaim's Key is the key that
	// claimed; a claim written before keys had players has none, and its key is its PlayerID.

	// ChangeCode: the key Key of PlayerID made the link code of hash Hash at At (valid CodeLife).
	ChangeCode ChangeKind = "code"
	// ChangeLink: the key Key, connected as Name, claimed the code of hash Hash at At, calling
	// itself Comment: it joins the code's player.
	ChangeLink ChangeKind = "link"
	// ChangeRevoke: PlayerID removed its key Key at At.
	ChangeRevoke ChangeKind = "revoke"
	// ChangeComment: PlayerID calls its key Key Comment.
	ChangeComment ChangeKind = "comment"
	// ChangeRelease: PlayerID released its name Name at At; ChangeKeep takes that back.
	ChangeRelease ChangeKind = "release"
	ChangeKeep    ChangeKind = "keep"
	// ChangeRename: the operator By renamed the player holding Name to Target, at At.
	ChangeRename ChangeKind = "rename"

	// The changes of players about players (social.go).

	// ChangeIgnore: PlayerID ignores Target (named Name) from At; ChangeUnignore no longer.
	ChangeIgnore   ChangeKind = "ignore"
	ChangeUnignore ChangeKind = "unignore"
	// ChangeReport: Report, made at At.
	ChangeReport ChangeKind = "report"

	// The operators' changes (moderation.go, void.go), each with By, the operator, and At.

	// ChangeBan: Target ("KIND TARGET": key, player or addr; see record.Ban) is banned until
	// Until (zero: for good) for Text; a player's Name is kept for the lists. ChangeUnban lifts
	// the ban of Target.
	ChangeBan   ChangeKind = "ban"
	ChangeUnban ChangeKind = "unban"
	// ChangeMute: PlayerID (named Name) may not chat until Until (zero: for good), for Text.
	// ChangeUnmute lifts it.
	ChangeMute   ChangeKind = "mute"
	ChangeUnmute ChangeKind = "unmute"
	// ChangeKick: the sessions of PlayerID (named Name) end, for Text.
	ChangeKick ChangeKind = "kick"
	// ChangeAnnounce: Text is shown to every session.
	ChangeAnnounce ChangeKind = "announce"
	// ChangeVoid: the match ID no longer counts for ratings, for Text: its game's ratings are
	// recomputed without it.
	ChangeVoid ChangeKind = "void"
)

// Change is one write to the store in a form every replica applies the same way (see Apply). It
// is JSON-encodable, with short field names, as the cluster's stream carries it; which fields a
// change reads depends on its Kind (see ChangeKind).
type Change struct {
	Kind     ChangeKind    `json:"k"`
	Code     string        `json:"c,omitempty"`
	Match    *record.Match `json:"m,omitempty"`
	Ply      int           `json:"p,omitempty"`
	Move     *record.Move  `json:"mv,omitempty"`
	Seats    []record.Seat `json:"s,omitempty"`
	Outcome  rules.Outcome `json:"o,omitzero"`
	Unrated  bool          `json:"u,omitempty"`
	PlayerID string        `json:"pid,omitempty"`
	Name     string        `json:"n,omitempty"`
	Bell     bool          `json:"b,omitempty"`
	At       time.Time     `json:"at,omitzero"`
	// Of keys, players and operators (see their kinds).
	Key     string         `json:"key,omitempty"`
	Hash    string         `json:"h,omitempty"`
	Comment string         `json:"cm,omitempty"`
	Target  string         `json:"t,omitempty"`
	Text    string         `json:"x,omitempty"`
	By      string         `json:"by,omitempty"`
	Until   time.Time      `json:"until,omitzero"`
	Report  *record.Report `json:"r,omitempty"`
	ID      string         `json:"id,omitempty"`
	// Of correspondence play (see its kinds, corrchanges.go); Target and ID too.
	Turn      *record.Turn      `json:"tu,omitempty"`
	Challenge *record.Challenge `json:"ch,omitempty"`
	Answer    string            `json:"an,omitempty"`
	Prefs     *record.Prefs     `json:"pf,omitempty"`
	// Reshuffle is a takeback's reshuffle of the match's hidden draws (ChangeTakeback; nil
	// when its game has none).
	Reshuffle *rules.Reshuffle `json:"rs,omitempty"`
}

// ErrUnknownChange: a change of a kind this arcade does not know, written by a newer one. It is
// not skipped: Apply refuses it and every later change, recording no position, so that the node
// stops (package cluster) and an upgraded arcade applies it; skipping it would leave this replica
// without what every other node has.
var ErrUnknownChange = errors.New("a change of a kind this arcade does not know (a newer arcade wrote it): upgrade this node")

// ErrSkipped: a change could not be applied (a move for a room with no unfinished match, a name
// that breaks the name rule, ...). Apply skipped it, changing nothing but the position the file
// has, so that one bad change never stalls a replica; every replica skips it alike.
var ErrSkipped = errors.New("the change cannot be applied and was skipped")

// keyApplied is the meta key of the position of the last change applied, in decimal.
var keyApplied = []byte("applied")

// ErrPlyTaken: a move change numbered as a move its match has already. A match's moves are one
// chain, one move per number: a second move of a number comes from a server that wrote a room it
// no longer kept (a split brain). Apply refuses it (it wraps ErrSkipped too), keeps the move
// stored first, and records the refusal in the file, for Check to report.
var ErrPlyTaken = errors.New("the match has a move of that number already")

// prefixRefused begins the meta keys of the moves refused with ErrPlyTaken: then the change's
// position, in 20 decimal digits; the value is a refusedMove in JSON.
const prefixRefused = "refused "

// refusedMove is a move change refused with ErrPlyTaken, as the file records it.
type refusedMove struct {
	Seq   uint64      `json:"seq"`
	ID    string      `json:"id"`
	Code  string      `json:"code"`
	Ply   int         `json:"ply"`
	Kept  record.Move `json:"kept"`
	Moved record.Move `json:"refused"`
}

func (r *refusedMove) Error() string {
	return fmt.Sprintf("%v: move %d of match %s in room %s is %q, and change %d made it %q", ErrPlyTaken,
		r.Ply+1, r.ID, r.Code, r.Kept.Move, r.Seq, r.Moved.Move)
}

func (r *refusedMove) Unwrap() error { return ErrPlyTaken }

// MatchID returns the ID of the match a start change at position seq, made at time at, begins:
// every replica derives the same one. It is spelt as the IDs of StartMatch (11 characters of
// idAlphabet, sorting by time), from at's milliseconds since 1970 and the low 10 bits of seq;
// two starts at the same millisecond whose positions differ by a multiple of 1,024 would get the
// same ID (Apply skips the second). at must not be before 1970.
func MatchID(seq uint64, at time.Time) string {
	return spellID(uint64(at.UnixMilli())<<10 | seq&0x3ff)
}

// spellID spells n as a match ID.
func spellID(n uint64) string {
	b := make([]byte, 11)
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = idAlphabet[n%uint64(len(idAlphabet))]
		n /= uint64(len(idAlphabet))
	}
	return string(b)
}

// Apply applies c, the change at position seq (> 0, increasing from one call to the next) of a
// shared history, in a transaction that also records seq as the position the file has (see
// Applied). It returns once that transaction is committed to disk.
//
// A change at or before the file's position is skipped, and Apply returns nil: applying a history
// again, after a crash say, changes nothing. A change that cannot apply (see ErrSkipped) changes
// nothing but the position, which is recorded, and Apply returns an error wrapping ErrSkipped.
// Any other error (the store failed, ErrFailed; the position recorded is damaged, ErrDamaged)
// leaves the position where it was: the change was not applied, and the caller should stop.
//
// Apply is meant to be called by one goroutine per DB, in the history's order; it is safe
// alongside the DB's other methods.
func (d *DB) Apply(seq uint64, c Change) error { return d.applyStart(seq, c)() }

// Numbered is a change with its position in the history.
type Numbered struct {
	Seq    uint64
	Change Change
}

// ApplyAll applies the changes of batch, in order, as Apply applies each, sharing transactions
// (a batch costs about one commit, not one each). It returns the errors of the changes skipped
// (each wrapping ErrSkipped), and the first other error: the changes from that one on may not be
// applied, and the caller should stop.
func (d *DB) ApplyAll(batch []Numbered) (skipped []error, err error) {
	waits := make([]func() error, len(batch))
	for i, n := range batch {
		waits[i] = d.applyStart(n.Seq, n.Change)
	}
	for _, wait := range waits {
		switch e := wait(); {
		case e == nil:
		case errors.Is(e, ErrSkipped):
			skipped = append(skipped, e)
		case err == nil:
			err = e
		}
	}
	return skipped, err
}

// applyStart queues the change's write (see Apply) and returns the wait for its outcome.
func (d *DB) applyStart(seq uint64, c Change) func() error {
	if seq == 0 {
		return func() error { return fmt.Errorf("apply %s change: position 0 (positions start at 1)", c.Kind) }
	}
	var after func(*DB) // what the change does to d's memory, once committed
	var applied bool
	done := d.writes.start(func(tx *bolt.Tx) error {
		after, applied = nil, false // the write may run again, in another transaction
		if u := d.unknownAt.Load(); u != 0 && seq > u {
			return fmt.Errorf("%w: change %d before it is of an unknown kind", ErrUnknownChange, u)
		}
		at, err := appliedIn(tx)
		if err != nil {
			return err
		}
		if seq <= at {
			return nil
		}
		err = safeCall(func(tx *bolt.Tx) error {
			var err error
			after, err = applyChange(tx, seq, c, d.env(false))
			return err
		}, tx)
		if errors.Is(err, ErrUnknownChange) {
			d.unknownAt.CompareAndSwap(0, seq) // and nothing after it either
			return err
		}
		if err != nil {
			return rejected{err}
		}
		applied = true
		return putApplied(tx, seq)
	})
	return func() error {
		err := <-done
		var r rejected
		switch {
		case errors.As(err, &r):
			defer d.remember(seq, r.error)
			// The change's writes were rolled back; only its position is recorded, and a move
			// refused for its number.
			var refused *refusedMove
			errors.As(r.error, &refused)
			err := d.writes.do(func(tx *bolt.Tx) error {
				at, err := appliedIn(tx)
				if err != nil || seq <= at {
					return err
				}
				if refused != nil {
					v, err := json.Marshal(refused)
					if err != nil {
						return err
					}
					if err := tx.Bucket(bucketMeta).Put(refusedKey(seq), v); err != nil {
						return err
					}
				}
				return putApplied(tx, seq)
			})
			if err != nil {
				return fmt.Errorf("apply %s change %d: record its position after it failed (%w): %w", c.Kind, seq, r.error, err)
			}
			return fmt.Errorf("apply %s change %d: %w: %w", c.Kind, seq, ErrSkipped, r.error)
		case err != nil:
			return fmt.Errorf("apply %s change %d: %w", c.Kind, seq, err)
		}
		if applied && after != nil {
			d.mu.Lock()
			after(d)
			d.mu.Unlock()
		}
		if applied {
			d.emit(c)
		}
		return nil
	}
}

// rejected wraps the error of a change that cannot apply, to tell it from a failed commit.
type rejected struct{ error }

func (r rejected) Unwrap() error { return r.error }

// Applied returns the position of the last change applied to the file (see Apply): 0 when none
// was, or when the position cannot be read.
func (d *DB) Applied() uint64 {
	var at uint64
	_ = d.view(func(tx *bolt.Tx) error {
		var err error
		at, err = appliedIn(tx)
		return err
	})
	return at
}

// refusedKey returns the meta key of the move refused at position seq (prefixRefused).
func refusedKey(seq uint64) []byte { return fmt.Appendf(nil, "%s%020d", prefixRefused, seq) }

// appliedIn reads the file's position (0: none recorded).
func appliedIn(tx *bolt.Tx) (uint64, error) {
	v := tx.Bucket(bucketMeta).Get(keyApplied)
	if v == nil {
		return 0, nil
	}
	n, err := strconv.ParseUint(string(v), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: the position of the changes applied is %q", ErrDamaged, v)
	}
	return n, nil
}

// putApplied records seq as the file's position. tx is writable.
func putApplied(tx *bolt.Tx, seq uint64) error {
	return tx.Bucket(bucketMeta).Put(keyApplied, []byte(strconv.FormatUint(seq, 10)))
}

// applyChange makes the writes of c, at position seq, in tx, reading nothing but tx and c (and
// rating a match's end under env's rules), and
// returns what it does to the DB's memory once committed (nil: nothing). An error is a change
// that cannot apply; its writes are rolled back with tx.
func applyChange(tx *bolt.Tx, seq uint64, c Change, env applyEnv) (func(*DB), error) {
	rr := env.rules
	switch c.Kind {
	case ChangeStart:
		if c.Match == nil || c.Code == "" || c.At.IsZero() {
			return nil, errors.New("a start needs a room code, a match and a time")
		}
		h := c.Match
		m := record.Match{Version: record.Version, ID: MatchID(seq, c.At), Code: c.Code, Game: h.Game,
			Options: h.Options, Seed: h.Seed, Seats: h.Seats, Started: h.Started, Turn: h.Turn, Casual: h.Casual}
		if tx.Bucket(bucketMatches).Get([]byte(m.ID)) != nil {
			return nil, fmt.Errorf("match ID %s is taken", m.ID)
		}
		if err := (startEntry{Match: m}).apply(tx); err != nil {
			return nil, err
		}
		if m.Turn != nil {
			return nil, nil // a correspondence match's binding is read from the file (activeID)
		}
		return func(d *DB) { d.active[m.Code] = m.ID }, nil
	case ChangeMove:
		id, err := activeIn(tx, c.Code)
		if err != nil {
			return nil, err
		}
		if c.Move == nil {
			return nil, errors.New("a move change without its move")
		}
		n := countMoves(tx, id)
		if c.Ply < 0 || c.Ply > n {
			return nil, fmt.Errorf("move %d of match %s, which has %d", c.Ply+1, id, n)
		}
		if c.Ply < n {
			r := &refusedMove{Seq: seq, ID: id, Code: c.Code, Ply: c.Ply, Moved: *c.Move}
			if _, err := getJSON(tx.Bucket(bucketMoves), moveKey(id, c.Ply), &r.Kept); err != nil {
				return nil, fmt.Errorf("move %d of match %s: %w", c.Ply+1, id, err)
			}
			return nil, r
		}
		return nil, moveEntry{Code: c.Code, ID: id, Ply: c.Ply, Move: *c.Move}.apply(tx)
	case ChangeSeats:
		id, err := activeIn(tx, c.Code)
		if err != nil {
			return nil, err
		}
		return nil, seatsEntry{Code: c.Code, ID: id, Seats: c.Seats}.apply(tx)
	case ChangeTakeback:
		id, err := activeIn(tx, c.Code)
		if err != nil {
			return nil, err
		}
		if c.Ply < 0 {
			return nil, fmt.Errorf("take back: ply %d", c.Ply)
		}
		return nil, takebackEntry{ID: id, Ply: c.Ply, Reshuffle: c.Reshuffle}.apply(tx)
	case ChangeEnd:
		id, err := activeIn(tx, c.Code)
		if err != nil {
			return nil, err
		}
		if c.At.IsZero() {
			return nil, errors.New("an end needs a time")
		}
		e := endEntry{Code: c.Code, ID: id, Ended: c.At.UTC(), Outcome: c.Outcome, Unrated: c.Unrated, Rules: rr}
		if err := e.apply(tx); err != nil {
			return nil, err
		}
		return func(d *DB) { delete(d.active, c.Code) }, nil
	case ChangeAbandon:
		if err := (abandonEntry{Code: c.Code}).apply(tx); err != nil {
			return nil, err
		}
		return func(d *DB) { delete(d.active, c.Code) }, nil
	case ChangeClaim:
		return nil, applyClaim(tx, c, env)
	case ChangeFence:
		return nil, nil // nothing changes in the store
	case ChangeBell:
		return nil, applyBell(tx, c)
	case ChangeUndecodable:
		return nil, errors.New("the change could not be read")
	case ChangeAnswer:
		return applyAnswer(tx, seq, c)
	}
	if apply, ok := accountChanges[c.Kind]; ok {
		return nil, apply(tx, c)
	}
	if apply, ok := corrChanges[c.Kind]; ok {
		return nil, apply(tx, c)
	}
	return nil, fmt.Errorf("%w: %q", ErrUnknownChange, c.Kind)
}

// ChangeUndecodable is the kind a cluster gives a message of its stream that does not decode as a
// change: it is skipped, so that the position moves on (no arcade could apply it).
const ChangeUndecodable ChangeKind = "undecodable"

// accountChanges apply the changes of keys, players and operators, which touch nothing of the
// DB's memory.
var accountChanges = map[ChangeKind]func(*bolt.Tx, Change) error{
	ChangeCode:     applyCode,
	ChangeLink:     applyLink,
	ChangeRevoke:   applyRevoke,
	ChangeComment:  applyComment,
	ChangeRelease:  applyRelease,
	ChangeKeep:     applyKeep,
	ChangeRename:   applyRename,
	ChangeIgnore:   applyIgnore,
	ChangeUnignore: applyUnignore,
	ChangeReport:   applyReport,
	ChangeBan:      applyBan,
	ChangeUnban:    applyUnban,
	ChangeMute:     applyMute,
	ChangeUnmute:   applyUnmute,
	ChangeKick:     applyKick,
	ChangeAnnounce: applyAnnounce,
	ChangeVoid:     applyVoid,
}

// activeIn returns the ID of room code's unfinished match, as the file has it.
func activeIn(tx *bolt.Tx, code string) (string, error) {
	id, err := binding(tx.Bucket(bucketActive), []byte(code))
	if err != nil {
		return "", fmt.Errorf("room %s: %w", code, err)
	}
	if id == "" {
		return "", fmt.Errorf("room %s has no match being recorded", code)
	}
	return id, nil
}

// applyBell is SetBell's write.
func applyBell(tx *bolt.Tx, c Change) error {
	players := tx.Bucket(bucketPlayers)
	var p player
	ok, err := getJSON(players, []byte(c.PlayerID), &p)
	if err != nil {
		return fmt.Errorf("set bell: %w", err)
	}
	if !ok {
		return fmt.Errorf("set bell of %q: %w", c.PlayerID, ErrNoPlayer)
	}
	p.Quiet = !c.Bell
	return putJSON(players, []byte(c.PlayerID), p)
}
