// Package wire encodes what crosses between arcade nodes: room snapshots and the errors of rooms.
//
// Snapshots travel as encoding/gob; the game's view (rooms.Snapshot.View, an any) needs its
// concrete type registered on both nodes first (Register). Errors travel as an Error: the text as
// it was, plus a code for each of the rooms' and rules' exported sentinel errors it wraps, so that
// errors.Is still works on the other node and the player reads exactly the same message.
package wire

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"reflect"
	"sync"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
)

var (
	registerMu sync.Mutex
	registered = map[reflect.Type]bool{}
)

// Register registers with encoding/gob the concrete types of the views of games (those of
// View(rules.Spectator) and View(0) of a match made with the games' default options), so that
// snapshots holding them can be encoded and decoded. Both nodes must register the same games
// before exchanging snapshots. It is idempotent and safe for concurrent use; it returns an error
// when a game cannot make a match with its default options.
func Register(games []rules.Game) error {
	registerMu.Lock()
	defer registerMu.Unlock()
	for _, g := range games {
		opts, err := g.Resolve(nil)
		if err != nil {
			return fmt.Errorf("register %s: options: %w", g.ID, err)
		}
		e, err := g.New(opts, g.StartSeats(), 1)
		if err != nil {
			return fmt.Errorf("register %s: new match: %w", g.ID, err)
		}
		for _, v := range []any{e.View(rules.Spectator), e.View(0)} {
			if v == nil {
				continue
			}
			t := reflect.TypeOf(v)
			if registered[t] {
				continue
			}
			gob.Register(v)
			registered[t] = true
		}
	}
	return nil
}

// EncodeSnapshot encodes s with gob. Its view's type must have been registered (Register).
func EncodeSnapshot(s rooms.Snapshot) ([]byte, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&s); err != nil {
		return nil, fmt.Errorf("encode snapshot of room %s: %w", s.Code, err)
	}
	return buf.Bytes(), nil
}

// DecodeSnapshot decodes a snapshot that EncodeSnapshot encoded. Every field survives the trip
// but for what gob cannot tell apart: an empty slice or map comes back nil, and times lose their
// monotonic clock reading (they stay Equal).
func DecodeSnapshot(b []byte) (rooms.Snapshot, error) {
	var s rooms.Snapshot
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&s); err != nil {
		return rooms.Snapshot{}, fmt.Errorf("decode snapshot: %w", err)
	}
	return s, nil
}

// sentinels lists the errors that keep their identity across nodes, by code. A code never
// changes meaning: nodes of different builds may talk.
var sentinels = []struct {
	code string
	err  error
}{
	{"rooms.ErrNoRoom", rooms.ErrNoRoom},
	{"rooms.ErrTooManyRooms", rooms.ErrTooManyRooms},
	{"rooms.ErrTooManyAttempts", rooms.ErrTooManyAttempts},
	{"rooms.ErrNoSuchGame", rooms.ErrNoSuchGame},
	{"rooms.ErrBadSeats", rooms.ErrBadSeats},
	{"rooms.ErrShuttingDown", rooms.ErrShuttingDown},
	{"rooms.ErrRoomClosed", rooms.ErrRoomClosed},
	{"rooms.ErrNoPlayer", rooms.ErrNoPlayer},
	{"rooms.ErrLeft", rooms.ErrLeft},
	{"rooms.ErrReplaced", rooms.ErrReplaced},
	{"rooms.ErrNotSeated", rooms.ErrNotSeated},
	{"rooms.ErrSlowDown", rooms.ErrSlowDown},
	{"rooms.ErrEmptyChat", rooms.ErrEmptyChat},
	{"rooms.ErrNoSuchSeat", rooms.ErrNoSuchSeat},
	{"rooms.ErrSeatTaken", rooms.ErrSeatTaken},
	{"rooms.ErrInGrace", rooms.ErrInGrace},
	{"rooms.ErrNoSuchBot", rooms.ErrNoSuchBot},
	{"rooms.ErrNotPlaying", rooms.ErrNotPlaying},
	{"rooms.ErrNotFinished", rooms.ErrNotFinished},
	{"rooms.ErrNotAbandoned", rooms.ErrNotAbandoned},
	{"rooms.ErrNotSaved", rooms.ErrNotSaved},
	{"rooms.ErrStorageDown", rooms.ErrStorageDown},
	{"rooms.ErrDrawTwoPlayers", rooms.ErrDrawTwoPlayers},
	{"rooms.ErrBotPlaysOn", rooms.ErrBotPlaysOn},
	{"rooms.ErrNotAPerson", rooms.ErrNotAPerson},
	{"rooms.ErrTakebackRated", rooms.ErrTakebackRated},
	{"rooms.ErrNothingToTakeBack", rooms.ErrNothingToTakeBack},
	{"rooms.ErrBadClock", rooms.ErrBadClock},
	{"rooms.ErrSeeking", rooms.ErrSeeking},
	{"rooms.ErrDoesNotReplay", rooms.ErrDoesNotReplay},
	{"rooms.ErrRoomShare", rooms.ErrRoomShare},
	{"rooms.ErrAddrRoomShare", rooms.ErrAddrRoomShare},
	{"rooms.ErrUnfinishedShare", rooms.ErrUnfinishedShare},
	{"rooms.ErrTooManySpectators", rooms.ErrTooManySpectators},
	{"rules.ErrNotYourTurn", rules.ErrNotYourTurn},
	{"rules.ErrGameOver", rules.ErrGameOver},
	{"rules.ErrBadNotation", rules.ErrBadNotation},
	{"context.DeadlineExceeded", context.DeadlineExceeded},
	{"context.Canceled", context.Canceled},
}

// Sentinels returns the errors that keep their identity across nodes (errors.Is), each once.
func Sentinels() []error {
	out := make([]error, len(sentinels))
	for i, s := range sentinels {
		out[i] = s.err
	}
	return out
}

// Error is an error as it crosses nodes; its zero value is no error. It encodes with
// encoding/json and encoding/gob.
type Error struct {
	// Text is the error's message, as is.
	Text string `json:"text,omitempty"`
	// Codes name the sentinel errors the error wraps (see Sentinels), in the order of Sentinels.
	Codes []string `json:"codes,omitempty"`
}

// EncodeError returns err as it crosses nodes; nil gives the zero Error.
func EncodeError(err error) Error {
	if err == nil {
		return Error{}
	}
	e := Error{Text: err.Error()}
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			e.Codes = append(e.Codes, s.code)
		}
	}
	return e
}

// IsZero reports whether e is no error.
func (e Error) IsZero() bool { return e.Text == "" && len(e.Codes) == 0 }

// Err returns the error e carries, nil for the zero Error: its Error() is e.Text and errors.Is
// holds for each sentinel named by e.Codes (codes this build does not know are ignored).
func (e Error) Err() error {
	if e.IsZero() {
		return nil
	}
	re := &remoteError{text: e.Text}
	for _, c := range e.Codes {
		for _, s := range sentinels {
			if s.code == c {
				re.wrapped = append(re.wrapped, s.err)
			}
		}
	}
	return re
}

// remoteError is an error that came from another node.
type remoteError struct {
	text    string
	wrapped []error
}

func (e *remoteError) Error() string   { return e.text }
func (e *remoteError) Unwrap() []error { return e.wrapped }
