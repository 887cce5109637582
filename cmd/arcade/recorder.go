package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/arcade/arcade/rating"
	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/storage"
)

// recorder records the rooms' matches in the store: it is the rooms.Recorder of the hub.
type recorder struct{ db matchLog }

// matchLog is what the recorder writes to: the database (storage.DB), or a cluster node's store
// (cluster.Store), whose methods have the same contracts.
type matchLog interface {
	StartMatch(m record.Match) (string, error)
	AppendMove(code string, ply int, mv record.Move) error
	SetSeats(code string, seats []record.Seat) error
	EndMatch(code string, out rules.Outcome, unrated bool) error
	TakeBack(code string, ply int) error
	ActiveMatch(code string) (string, bool)
	Ratings(game string, ids []string) ([]rating.Rating, error)
}

// Record implements rooms.Recorder. A store that has failed (storage.ErrFailed) can save nothing
// more until the restart, which the error says to the rooms (rooms.ErrStorageDown).
func (rc recorder) Record(code string, e rooms.Event) error {
	return storageDown(rc.record(code, e))
}

// storageDown returns err, wrapped in rooms.ErrStorageDown when it says the store has failed.
func storageDown(err error) error {
	if errors.Is(err, storage.ErrFailed) {
		return fmt.Errorf("%w: %w", rooms.ErrStorageDown, err)
	}
	return err
}

func (rc recorder) record(code string, e rooms.Event) error {
	switch e.Kind {
	case rooms.EventStart:
		_, err := rc.db.StartMatch(record.Match{Code: code, Game: e.GameID, Options: e.Options,
			Seed: e.Seed, Seats: seatsOf(e.Seats), Started: time.Now().UTC()})
		return err
	case rooms.EventMove:
		return rc.db.AppendMove(code, e.Ply, record.Move{Seat: e.Seat, Move: e.Move, At: time.Now().UTC()})
	case rooms.EventTakeover:
		return rc.db.SetSeats(code, seatsOf(e.Seats))
	case rooms.EventEnd:
		return rc.db.EndMatch(code, e.Outcome, e.Unrated)
	case rooms.EventTakeback:
		return rc.db.TakeBack(code, e.Ply)
	}
	return nil
}

// RecordEnd implements rooms.EndRecorder: it records the end of the room's match and says what
// that did, the match's ID and each player's rating in the game before and after. A seat whose
// rating did not change (a bot, a guest, an unrated match) is not Rated.
func (rc recorder) RecordEnd(code string, e rooms.Event) (rooms.EndResult, error) {
	id, _ := rc.db.ActiveMatch(code)
	ids := make([]string, len(e.Seats))
	for i, s := range e.Seats {
		if s.Bot == "" && !s.Guest {
			ids[i] = s.PlayerID
		}
	}
	before, errBefore := rc.db.Ratings(e.GameID, ids)
	if err := rc.Record(code, e); err != nil {
		return rooms.EndResult{}, err
	}
	res := rooms.EndResult{MatchID: id}
	after, errAfter := rc.db.Ratings(e.GameID, ids)
	if errBefore != nil || errAfter != nil {
		return res, nil // the end is recorded; the ratings are only not shown
	}
	res.Ratings = make([]rooms.RatingChange, len(ids))
	for i := range ids {
		b, a := before[i], after[i]
		res.Ratings[i] = rooms.RatingChange{Rated: ids[i] != "" && a != b, Before: b.R, After: a.R,
			BeforeProvisional: b.Provisional(), Provisional: a.Provisional()}
	}
	return res, nil
}

func seatsOf(infos []rooms.SeatInfo) []record.Seat {
	out := make([]record.Seat, len(infos))
	for i, s := range infos {
		out[i] = record.Seat{PlayerID: s.PlayerID, Name: s.Name, Bot: s.Bot, Guest: s.Guest}
		if s.Bot != "" {
			out[i].PlayerID = ""
		}
	}
	return out
}

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
		err := resumeMatch(hub, m)
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

// resumeMatch opens a room for the unfinished match m under its code (rooms.Hub.Restore).
func resumeMatch(hub *rooms.Hub, m record.Match) error {
	seats := make([]rooms.SeatInfo, len(m.Seats))
	for i, s := range m.Seats {
		seats[i] = rooms.SeatInfo{PlayerID: s.PlayerID, Name: s.Name, Bot: s.Bot, Guest: s.Guest}
	}
	moves := make([]rooms.MoveRecord, len(m.Moves))
	for i, mv := range m.Moves {
		moves[i] = rooms.MoveRecord{Seat: mv.Seat, Move: mv.Move, At: mv.At}
		if int(mv.Seat) >= 0 && int(mv.Seat) < len(m.Seats) { // else Restore refuses the move
			moves[i].Name = m.Seats[mv.Seat].Name
		}
	}
	_, err := hub.Restore(rooms.Resume{Code: m.Code, GameID: m.Game, Options: m.Options,
		Seed: m.Seed, Seats: seats, Moves: moves, Started: m.Started})
	return err
}

// quarantine sets the damaged match d aside, and says so.
func quarantine(db *storage.DB, d storage.Damage, warnf func(string, ...any)) {
	if err := db.Quarantine(d); err != nil {
		warnf("damaged: %s; not resumed, and not set aside (%v): it is tried again at the next start", describe(d), err)
		return
	}
	warnf("damaged: %s; not resumed: set aside in the database for inspection (arcade check lists it)", describe(d))
}
