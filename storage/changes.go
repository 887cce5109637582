package storage

import (
	"log/slog"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// The changes of keys, players and operators are written the same way by a server alone and by
// a cluster's replica: Do applies one to the database (a server alone), Apply applies the one a
// cluster's stream delivers; both run applyChange, so that a refusal is the same error either way.
// Try finds that error without writing, so that a cluster's node refuses a change before it
// publishes it; Outcome gives the error of a change a replica skipped, so that the node that
// published it can say why.

// applyEnv is what applyChange reads besides the transaction and the change.
type applyEnv struct {
	rules RatingRules
	// strict: a claim of a name bound to another player is refused (a server alone); false in a
	// replica, whose cluster decided names already.
	strict bool
	log    *slog.Logger
}

// warn logs what the operator should know of a change applied.
func (e applyEnv) warn(msg string, args ...any) {
	if e.log != nil {
		e.log.Warn(msg, args...)
	}
}

// env returns the environment of the changes d applies; strict for a server alone (Do, Try).
func (d *DB) env(strict bool) applyEnv {
	return applyEnv{rules: d.rules, strict: strict, log: d.log}
}

// Do applies c to the database of a server alone, in the group commit, and returns once it is
// committed, or the error that refused it (nothing written). The change's time (At) is the
// caller's; the position of a replica (Apply) is not touched. The watcher (Watch) is told of c
// once it is committed.
func (d *DB) Do(c Change) error {
	var after func(*DB)
	err := d.writes.do(func(tx *bolt.Tx) error {
		after = nil
		return safeCall(func(tx *bolt.Tx) error {
			var err error
			after, err = applyChange(tx, 0, c, d.env(true))
			return err
		}, tx)
	})
	if err != nil {
		return err
	}
	if after != nil {
		d.mu.Lock()
		after(d)
		d.mu.Unlock()
	}
	d.emit(c)
	return nil
}

// Try returns the error applying c now would meet, writing nothing: its transaction is rolled
// back. strict is as for a claim (see applyEnv); a cluster's node tries a change on its replica
// before it publishes it.
func (d *DB) Try(c Change, strict bool) error {
	tx, err := d.db.Begin(true)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	return safeCall(func(tx *bolt.Tx) error {
		_, err := applyChange(tx, 0, c, d.env(strict))
		return err
	}, tx)
}

// Watch has d call f after each change of the kinds that act on sessions (ChangeKick,
// ChangeBan, ChangeRevoke, ChangeAnnounce) is committed, by Do or by Apply, on the goroutine that
// waited for it. f must return quickly and must not write to d. A later call replaces f.
func (d *DB) Watch(f func(Change)) {
	d.watchMu.Lock()
	d.watcher = f
	d.watchMu.Unlock()
}

// watched are the kinds of change a watcher is told of.
var watched = map[ChangeKind]bool{ChangeKick: true, ChangeBan: true, ChangeRevoke: true, ChangeAnnounce: true}

// emit tells the watcher of c, when it is of a watched kind.
func (d *DB) emit(c Change) {
	if !watched[c.Kind] {
		return
	}
	d.watchMu.Lock()
	f := d.watcher
	d.watchMu.Unlock()
	if f != nil {
		f(c)
	}
}

// maxOutcomes is the number of skipped changes whose errors Outcome remembers.
const maxOutcomes = 1024

// outcomes remembers the errors of the latest changes Apply skipped, by position.
type outcomes struct {
	mu    sync.Mutex
	errs  map[uint64]error
	order []uint64
}

// remember records that the change at seq was skipped with err.
func (d *DB) remember(seq uint64, err error) {
	o := &d.skips
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.errs == nil {
		o.errs = map[uint64]error{}
	}
	if _, ok := o.errs[seq]; !ok {
		o.order = append(o.order, seq)
	}
	o.errs[seq] = err
	if len(o.order) > maxOutcomes {
		delete(o.errs, o.order[0])
		o.order = o.order[1:]
	}
}

// Outcome returns the error of the change at position seq if Apply skipped it lately (among the
// last maxOutcomes skipped), nil otherwise: the change applied, or long ago.
func (d *DB) Outcome(seq uint64) error {
	d.skips.mu.Lock()
	defer d.skips.mu.Unlock()
	return d.skips.errs[seq]
}
