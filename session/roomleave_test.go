package session

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
)

// choiceSub records how the room screen left its room: by the player's choice (LeaveByChoice).
type choiceSub struct {
	idleSub
	chosen int
}

func (s *choiceSub) LeaveByChoice() { s.chosen++ }

// narrow draws m's screen on a window of 60 x 20 (a phone's terminal).
func narrow(m Model) string {
	next, _ := m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
	return next.(Model).View().Content
}

// flicflacPicked is ann's turn in Flic Flac with a piece picked (n).
func flicflacPicked(t *testing.T) Model {
	m := pressKeys(roomModel(t, flicflacMid(t, 40)), "n")
	if out := plain(m.View().Content); !strings.Contains(out, "picked") || !strings.Contains(out, "esc cancel") {
		t.Fatalf("n picks no piece, or the help line does not say esc cancels:\n%s", out)
	}
	return m
}

// TestEscUnpicksGolden: esc with a Flic Flac piece picked drops the pick and stays in the room,
// asking nothing; the help line then says esc leaves.
func TestEscUnpicksGolden(t *testing.T) {
	m := press(flicflacPicked(t), "esc")
	if m.room == nil {
		t.Fatal("esc with a piece picked left the room")
	}
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
	if p := plain(out); strings.Contains(p, "picked") || strings.Contains(p, "Leave the room?") || !strings.Contains(p, "esc leave") {
		t.Errorf("esc did not drop the pick, or asked to leave:\n%s", p)
	}
}

// TestEscUnpicksNarrowGolden: the same at 60 x 20.
func TestEscUnpicksNarrowGolden(t *testing.T) {
	m := press(flicflacPicked(t), "esc")
	out := narrow(m)
	checkSize(t, out, 60, 20)
	golden.RequireEqual(t, plain(out))
}

// TestLeaveQuestionGolden: esc with nothing to cancel asks a player in a match whether to leave,
// saying how long the seat waits (the room's grace, not a fixed one), and the help line says
// what the keys do now.
func TestLeaveQuestionGolden(t *testing.T) {
	snap := playedSnapshot(t, 14)
	snap.SeatGrace = 90 * time.Second
	m := press(roomModel(t, snap), "esc")
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
	for _, want := range []string{"Leave the room? Your seat waits 1:30 (enter leaves, esc stays).", "enter leave • esc stay"} {
		if !strings.Contains(words(plain(out)), want) {
			t.Errorf("the screen lacks %q:\n%s", want, plain(out))
		}
	}
}

// TestLeaveQuestionNarrowGolden: the question at 60 x 20 takes two lines, whole.
func TestLeaveQuestionNarrowGolden(t *testing.T) {
	snap := playedSnapshot(t, 14)
	snap.SeatGrace = 2 * time.Minute
	m := press(roomModel(t, snap), "esc")
	out := narrow(m)
	checkSize(t, out, 60, 20)
	golden.RequireEqual(t, plain(out))
	if !strings.Contains(words(plain(out)), "Your seat waits 2:00 (enter leaves, esc stays).") {
		t.Errorf("the question is not whole:\n%s", plain(out))
	}
}

// TestEscCancelsThenLeaves: esc drops the pick, then asks; esc again (or any other key) stays;
// only enter on the question leaves, by the player's choice. A spectator, and a player between
// matches, leave at once: they have nothing to lose.
func TestEscCancelsThenLeaves(t *testing.T) {
	m := flicflacPicked(t)
	sub := &choiceSub{}
	m.room.sub = sub
	m = press(m, "esc")
	if m.room == nil || m.room.prompt.asking() {
		t.Fatal("esc with a piece picked left the room, or asked to")
	}
	m = press(m, "esc")
	if m.room == nil || !m.room.prompt.askingLeave() {
		t.Fatal("esc with nothing to cancel did not ask whether to leave")
	}
	m = press(m, "esc")
	if m.room == nil || m.room.prompt.asking() || strings.Contains(plain(m.View().Content), "Leave the room?") {
		t.Fatal("esc on the question did not stay, or the question stayed")
	}
	m = press(m, "esc", "right")
	if m.room == nil || m.room.prompt.asking() {
		t.Fatal("another key on the question did not stay")
	}
	if sub.chosen != 0 {
		t.Fatalf("the room was left %d times while staying", sub.chosen)
	}
	// An error that comes meanwhile takes the question's place, and the question goes with it.
	m = press(m, "esc")
	next, _ := m.Update(moveDoneMsg{err: errors.New("not a move")})
	if m = press(next.(Model), "enter"); m.room == nil || m.room.prompt.asking() {
		t.Fatal("enter after an error took the question's place left the room")
	}
	m = press(m, "q", "enter")
	if m.room != nil || sub.chosen != 1 {
		t.Fatalf("enter on the question: room %v, left by choice %d times, want 1", m.room != nil, sub.chosen)
	}

	watch := flicflacMid(t, 40)
	watch.You = rules.Spectator
	m = roomModel(t, watch)
	m.room.sub = &choiceSub{}
	if m = press(m, "esc"); m.room != nil {
		t.Error("a spectator's esc did not leave at once")
	}
	over := playedSnapshot(t, -1)
	if over.Phase != rooms.Finished {
		t.Fatalf("the match is not over: %v", over.Phase)
	}
	if m = press(roomModel(t, over), "esc"); m.room != nil {
		t.Error("esc after the match did not leave at once")
	}
}

// rulesWithClock is ann's timed Flic Flac turn, 12 s left, with the rules open (?).
func rulesWithClock(t *testing.T) Model {
	snap := flicflacMid(t, 40)
	snap.Clock = rooms.TurnClock{Seat: 0, Ends: time.Now().Add(12 * time.Second)}
	m := roomModel(t, snap)
	_ = m.View() // the board has drawn, and named the seats, before the rules open
	m = press(m, "?")
	if m.room.focus != focusRules {
		t.Fatal("? did not open the rules")
	}
	return m
}

// TestRulesKeepTheClockGolden: the rules, which hide the panel, show the turn's clock in their
// title line, and it counts down as the clock ticks.
func TestRulesKeepTheClockGolden(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := rulesWithClock(t)
		out := m.View().Content
		checkSize(t, out, 80, 24)
		golden.RequireEqual(t, plain(out))
		if !strings.Contains(plain(out), "Your turn: 0:12 left") {
			t.Errorf("the rules do not show the turn's clock:\n%s", plain(out))
		}
		time.Sleep(time.Second)
		next, _ := m.Update(tickMsg{gen: m.room.clock.gen})
		if out := plain(next.(Model).View().Content); !strings.Contains(out, "Your turn: 0:11 left") {
			t.Errorf("a second later the rules' clock does not say 0:11:\n%s", out)
		}
	})
}

// TestRulesKeepTheClockNarrowGolden: the same at 60 x 20; the other player reads whose clock it
// is.
func TestRulesKeepTheClockNarrowGolden(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := rulesWithClock(t)
		out := narrow(m)
		checkSize(t, out, 60, 20)
		golden.RequireEqual(t, plain(out))
		if !strings.Contains(plain(out), "Your turn: 0:12 left") {
			t.Errorf("the rules do not show the turn's clock:\n%s", plain(out))
		}
		m.room.snap.You = 1
		if out := plain(narrow(m)); !strings.Contains(out, "ann (") || !strings.Contains(out, ") has 0:12") {
			t.Errorf("bob's rules do not say whose clock runs:\n%s", out)
		}
	})
}
