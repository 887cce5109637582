package session

import (
	"context"
	"testing"

	"github.com/arcade/arcade/teaframe"
)

// slowSub is a subscription whose moves wait until release is closed, as a move waits for its
// commit.
type slowSub struct {
	recordSub
	release chan struct{}
}

func (s *slowSub) Move(ctx context.Context, mv string) error {
	<-s.release
	return s.recordSub.Move(ctx, mv)
}

var _ teaframe.FrameHolder = Model{}

// TestHoldFrameWhileAMoveWaits: the room screen holds its frame from the enter that sends a
// move until the room has answered it, and not while the player types or after the answer.
func TestHoldFrameWhileAMoveWaits(t *testing.T) {
	snap, _ := stoneSnapshot(t, 14)
	m := roomModel(t, snap)
	sub := &slowSub{release: make(chan struct{})}
	m.room.sub = sub
	if m.HoldFrame() {
		t.Fatal("a screen that sent nothing holds its frame")
	}
	for _, k := range []string{":", "f", "4"} {
		next, _ := m.Update(keyMsg(k))
		m = next.(Model)
	}
	if m.HoldFrame() {
		t.Fatal("the frame is held while the player types")
	}
	next, cmd := m.Update(keyMsg("enter"))
	m = next.(Model)
	if cmd == nil {
		t.Fatal("enter sent no move")
	}
	if !m.HoldFrame() {
		t.Error("the frame is not held while the move waits for the room")
	}
	done := make(chan struct{})
	go func() { runCmd(cmd); close(done) }()
	if !m.HoldFrame() {
		t.Error("the frame is not held while the move waits for the room")
	}
	close(sub.release)
	<-done
	if m.HoldFrame() {
		t.Error("the frame is still held once the room has answered")
	}
	if len(sub.sent) != 1 || sub.sent[0] != "move f4" {
		t.Errorf("sent %q, want the move", sub.sent)
	}
	m.room = nil
	if m.HoldFrame() {
		t.Error("the lobby holds its frame")
	}
}
