package rooms

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
)

// TestReserveCode: with Config.ReserveCode, a room gets only a code it accepted; when it accepts
// none, Create fails and opens nothing.
func TestReserveCode(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	refuse := true
	h, _ := newTestHub(t, Config{ReserveCode: func(code string) (bool, error) {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, code)
		if refuse {
			return false, errors.New("directory down")
		}
		return len(asked)%2 == 0, nil // every other code is taken elsewhere
	}})
	if _, err := h.Create("race", nil, 2, alice); err == nil || len(h.List()) != 0 {
		t.Fatalf("Create with every code refused: %v, %d rooms", err, len(h.List()))
	}
	mu.Lock()
	refuse, asked = false, nil
	mu.Unlock()
	r, err := h.Create("race", nil, 2, alice)
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != 2 || r.Code() != asked[1] {
		t.Fatalf("room %s, codes asked %v: want the second, which was accepted", r.Code(), asked)
	}
}

// TestRoomAndCloseRoom: Room finds a room without counting a failure against anyone; CloseRoom
// closes that one room with its notice and leaves the others open.
func TestRoomAndCloseRoom(t *testing.T) {
	h, _ := newTestHub(t, Config{JoinFailures: 1})
	a, _ := h.Create("race", nil, 2, alice)
	b, _ := h.Create("race", nil, 2, alice)
	for range 3 {
		if _, ok := h.Room("ZZZZZ"); ok {
			t.Fatal("Room found an unknown code")
		}
	}
	if _, err := h.Find(a.Code(), alice); err != nil {
		t.Fatalf("Find after unknown Room lookups: %v", err)
	}
	sub, err := a.Join(alice, false)
	if err != nil {
		t.Fatal(err)
	}
	if !h.CloseRoom(a.Code(), "moved") {
		t.Fatal("CloseRoom did not find the room")
	}
	var last Snapshot
	for s := range sub.Updates() {
		last = s
	}
	if last.Phase != Closed || last.Notice != "moved" {
		t.Fatalf("last snapshot: phase %v notice %q", last.Phase, last.Notice)
	}
	if sub.Moved() {
		t.Error("a subscription of a room closed (not moved) says the room moved")
	}
	if _, ok := h.Room(a.Code()); ok || h.CloseRoom(a.Code(), "") {
		t.Fatal("a closed room is still there")
	}
	if r, ok := h.Room(b.Code()); !ok || r != b {
		t.Fatal("CloseRoom closed another room")
	}
}

// TestMoveRoom: MoveRoom closes the room with its notice, and its subscriptions say the room
// moved, so that their sessions follow it to the server that keeps it now.
func TestMoveRoom(t *testing.T) {
	h, _ := newTestHub(t, Config{})
	a, _ := h.Create("race", nil, 2, alice)
	sub, err := a.Join(alice, false)
	if err != nil {
		t.Fatal(err)
	}
	if !h.MoveRoom(a.Code(), "kept elsewhere") {
		t.Fatal("MoveRoom did not find the room")
	}
	var last Snapshot
	for s := range sub.Updates() {
		last = s
	}
	if last.Phase != Closed || last.Notice != "kept elsewhere" || !sub.Moved() {
		t.Fatalf("last snapshot: phase %v notice %q; moved %v", last.Phase, last.Notice, sub.Moved())
	}
	if h.MoveRoom(a.Code(), "") {
		t.Fatal("MoveRoom found a room already moved")
	}
}

// cutOffRecorder refuses moves with an error that wraps ErrNotSaved and says why.
type cutOffRecorder struct{}

var errCutOff = fmt.Errorf("%w: this server has lost touch", ErrNotSaved)

func (cutOffRecorder) Record(_ string, e Event) error {
	if e.Kind == EventMove {
		return errCutOff
	}
	return nil
}

// TestRecorderSaysWhy: a Recorder's error that wraps ErrNotSaved reaches the player as it is;
// Announce puts a system line in every room.
func TestRecorderSaysWhy(t *testing.T) {
	h, _ := newTestHub(t, Config{Recorder: cutOffRecorder{}})
	_, a, b := startPair(t, h, 3)
	if err := a.Move(context.Background(), "1"); err != errCutOff {
		t.Errorf("refused move: %v, want %v", err, errCutOff)
	}
	h.Announce("the server is cut off")
	waitFor(t, b, "the announcement", func(s Snapshot) bool {
		return len(s.Chat) > 0 && s.Chat[len(s.Chat)-1].Text == "the server is cut off" && s.Chat[len(s.Chat)-1].From == ""
	})
}
