package main

import (
	"errors"
	"fmt"

	"github.com/arcade/arcade/inbox"
	"github.com/arcade/arcade/matchlog"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/storage"
)

// localTables are correspondence play's rooms (inbox.Tables) on a server alone: its hub, whose
// sleeping rooms wake from the database.
type localTables struct {
	hub  *rooms.Hub
	wake func(code string) (bool, error)
}

var _ inbox.Tables = localTables{}

func (t localTables) Games() []rules.Game      { return t.hub.Games() }
func (t localTables) List() []rooms.Summary    { return t.hub.List() }
func (t localTables) NewCode() (string, error) { return t.hub.NewCode() }
func (t localTables) Seed(code string) uint64  { return t.hub.Seed(code, 1) }
func (t localTables) OpenTable(tb rooms.Table) (string, error) {
	r, err := t.hub.OpenTable(tb)
	if err != nil {
		return "", err
	}
	return r.Code(), nil
}

func (t localTables) Wake(code string) error {
	ok, err := t.wake(code)
	if err == nil && !ok {
		err = fmt.Errorf("room %s has no sleeping match", code)
	}
	return err
}

// waker returns the wake of a server alone's sleeping rooms (rooms.Config.Wake, the deadlines'
// scheduler): from db, a match that does not replay set aside, as a restart sets it aside.
func waker(db *storage.DB, hub func() *rooms.Hub, logf, warnf func(string, ...any)) func(code string) (bool, error) {
	return func(code string) (bool, error) {
		ok, err := matchlog.Wake(hub(), db, code)
		switch {
		case errors.Is(err, rooms.ErrDoesNotReplay):
			if m, found, _ := db.UnfinishedMatch(code); found {
				quarantine(db, storage.Damage{ID: m.ID, Code: code, Game: m.Game, Reason: err.Error()}, warnf)
			}
		case err != nil:
			logf("cannot wake room %s: %v", code, err)
		}
		return ok, err
	}
}
