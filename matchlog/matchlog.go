// Package matchlog records the rooms' matches in a store, and brings an unfinished one back: the
// rooms.Recorder of the arcade's hub, over the database of one process (storage.DB) or a cluster
// node's store (cluster.Store).
package matchlog

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

// Recorder records the rooms' matches in Log: it is the rooms.Recorder (and EndRecorder) of the
// arcade's hub.
type Recorder struct{ Log Log }

// Log is what the recorder writes to: the database (storage.DB), or a cluster node's store
// (cluster.Store), whose methods have the same contracts.
type Log interface {
	StartMatch(m record.Match) (string, error)
	AppendMove(code string, ply int, mv record.Move) error
	SetSeats(code string, seats []record.Seat) error
	EndMatch(code string, out rules.Outcome, unrated bool) error
	TakeBack(code string, ply int, r *rules.Reshuffle) error
	SetTurn(code string, t record.Turn) error
	ActiveMatch(code string) (string, bool)
	Ratings(game string, ids []string) ([]rating.Rating, error)
}

// Record implements rooms.Recorder. A store that has failed (storage.ErrFailed) can save nothing
// more until the restart, which the error says to the rooms (rooms.ErrStorageDown).
func (rc Recorder) Record(code string, e rooms.Event) error {
	return storageDown(rc.record(code, e))
}

// storageDown returns err, wrapped in rooms.ErrStorageDown when it says the store has failed.
func storageDown(err error) error {
	if errors.Is(err, storage.ErrFailed) {
		return fmt.Errorf("%w: %w", rooms.ErrStorageDown, err)
	}
	return err
}

func (rc Recorder) record(code string, e rooms.Event) error {
	switch e.Kind {
	case rooms.EventStart:
		_, err := rc.Log.StartMatch(record.Match{Code: code, Game: e.GameID, Options: e.Options,
			Seed: e.Seed, Seats: seatsOf(e.Seats), Started: time.Now().UTC(), Turn: turnOf(e), Casual: e.Casual})
		return err
	case rooms.EventMove:
		return rc.Log.AppendMove(code, e.Ply, record.Move{Seat: e.Seat, Move: e.Move, At: time.Now().UTC(), Turn: turnOf(e)})
	case rooms.EventTakeover:
		return rc.Log.SetSeats(code, seatsOf(e.Seats))
	case rooms.EventEnd:
		return rc.Log.EndMatch(code, e.Outcome, e.Unrated)
	case rooms.EventTakeback:
		if err := rc.Log.TakeBack(code, e.Ply, e.Reshuffle); err != nil {
			return err
		}
		if t := turnOf(e); t != nil {
			return rc.Log.SetTurn(code, *t)
		}
	}
	return nil
}

// turnOf is the turn a correspondence match's event begins (rooms.Event.ToMove, Due), for the
// store's index; nil for any other match's.
func turnOf(e rooms.Event) *record.Turn {
	if e.Due.IsZero() {
		return nil
	}
	return &record.Turn{ToMove: e.ToMove, Due: e.Due.UTC()}
}

// RecordEnd implements rooms.EndRecorder: it records the end of the room's match and says what
// that did, the match's ID and each player's rating in the game before and after. A seat whose
// rating did not change (a bot, a guest, an unrated match) is not Rated.
func (rc Recorder) RecordEnd(code string, e rooms.Event) (rooms.EndResult, error) {
	id, _ := rc.Log.ActiveMatch(code)
	ids := make([]string, len(e.Seats))
	for i, s := range e.Seats {
		if s.Bot == "" && !s.Guest {
			ids[i] = s.PlayerID
		}
	}
	before, errBefore := rc.Log.Ratings(e.GameID, ids)
	if err := rc.Record(code, e); err != nil {
		return rooms.EndResult{}, err
	}
	res := rooms.EndResult{MatchID: id}
	after, errAfter := rc.Log.Ratings(e.GameID, ids)
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

// Resume opens a room for the unfinished match m under its code (rooms.Hub.Restore): after a
// restart, or on the node of a cluster that takes the room over. A match that does not replay is
// refused with an error wrapping rooms.ErrDoesNotReplay.
func Resume(hub *rooms.Hub, m record.Match) error {
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
		Seed: m.Seed, Seats: seats, Moves: moves, Started: m.Started, Casual: m.Casual,
		Reshuffles: m.Reshuffles})
	return err
}
