package main

import (
	"errors"

	"github.com/arcade/arcade/matchlog"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/storage"
)

// resume brings back every unfinished match under its room code. A match that cannot be read or
// does not replay is set aside in the database (storage's Quarantine) and reported on warnf; one
// whose game this arcade no longer has is reported and left as it is, to come back with its game.
func resume(db *storage.DB, hub *rooms.Hub, logf, warnf func(string, ...any)) (int, error) {
	open, damaged, err := db.Unfinished()
	if err != nil {
		return 0, err
	}
	for _, d := range damaged {
		quarantine(db, d, warnf)
	}
	n := 0
	for _, m := range open {
		err := matchlog.Resume(hub, m)
		switch {
		case errors.Is(err, rooms.ErrDoesNotReplay):
			quarantine(db, storage.Damage{ID: m.ID, Code: m.Code, Game: m.Game, Reason: err.Error()}, warnf)
		case err != nil:
			logf("cannot resume match %s in room %s: %v", m.ID, m.Code, err)
		default:
			n++
		}
	}
	return n, nil
}

// quarantine sets the damaged match d aside, and says so.
func quarantine(db *storage.DB, d storage.Damage, warnf func(string, ...any)) {
	if err := db.Quarantine(d); err != nil {
		warnf("damaged: %s; not resumed, and not set aside (%v): it is tried again at the next start", describe(d), err)
		return
	}
	warnf("damaged: %s; not resumed: set aside in the database for inspection (arcade check lists it)", describe(d))
}
