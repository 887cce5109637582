package matchlog

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/storage"
)

// TestStorageDown: a failed store's errors reach the rooms as ErrStorageDown, with the cause;
// other errors as they are.
func TestStorageDown(t *testing.T) {
	failed := fmt.Errorf("append move: %w: fdatasync: input/output error", storage.ErrFailed)
	if err := storageDown(failed); !errors.Is(err, rooms.ErrStorageDown) || !errors.Is(err, storage.ErrFailed) {
		t.Errorf("failed store: %v", err)
	}
	other := errors.New("no such match")
	if err := storageDown(other); err != other {
		t.Errorf("other error: %v", err)
	}
	if err := storageDown(nil); err != nil {
		t.Errorf("nil: %v", err)
	}
}

// startLog is a Log that keeps the match started and refuses nothing.
type startLog struct {
	Log
	started record.Match
}

func (l *startLog) StartMatch(m record.Match) (string, error) { l.started = m; return "m1", nil }

// TestCasualIsRecordedAndResumed: a casual room's start is recorded Casual, which the store's
// rating step reads, and a match recorded Casual resumes as a casual room.
func TestCasualIsRecordedAndResumed(t *testing.T) {
	l := &startLog{}
	if err := (Recorder{Log: l}).Record("K7QXM", rooms.Event{Kind: rooms.EventStart, GameID: "race", Casual: true}); err != nil {
		t.Fatal(err)
	}
	if !l.started.Casual {
		t.Errorf("recorded start %+v: not casual", l.started)
	}
	hub := rooms.NewHub(rooms.Config{Games: []rules.Game{stonetowers.Game}, SeatGrace: time.Minute})
	defer hub.Shutdown("")
	seats := []record.Seat{{PlayerID: "SHA256:a", Name: "a"}, {PlayerID: "SHA256:b", Name: "b"}}
	for code, casual := range map[string]bool{"K7QXM": true, "K7QXN": false} {
		if err := Resume(hub, record.Match{Code: code, Game: stonetowers.Game.ID, Casual: casual, Seats: seats}); err != nil {
			t.Fatal(err)
		}
		r, ok := hub.Room(code)
		if !ok {
			t.Fatalf("room %s is not open", code)
		}
		sub, err := r.Join(rooms.Player{ID: "SHA256:a", Name: "a"}, false)
		if err != nil {
			t.Fatal(err)
		}
		if snap := <-sub.Updates(); snap.Casual != casual {
			t.Errorf("a match recorded casual %v resumes with Casual %v", casual, snap.Casual)
		}
		sub.Leave()
	}
}
