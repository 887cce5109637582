package session

import (
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session/draw"
)

// testClock returns a room's clock showing snap.
func testClock(snap rooms.Snapshot) *roomClock {
	c := &roomClock{}
	c.show(&snap, testBoards.board(snap.GameID))
	return c
}

// TestClockGolden: the clock's lines under the turn lines, at the narrowest panel's width: the
// player to move reads the time left for the turn, the other the time left of the player waited
// for, or whose it is when several are to move; a game clock adds every player's time; an untimed
// turn has the blank line alone.
func TestClockGolden(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := *draw.NewStyles(false, false)
		snap, state := stoneSnapshot(t, 14) // ann (seat 0) to move
		snap.Clock = rooms.TurnClock{Seat: 0, Ends: time.Now().Add(2*time.Minute + 40*time.Second + 300*time.Millisecond)}
		theirs := seen(snap, state, 1)
		many := theirs
		many.ToMove = []rules.Seat{0, 1}
		game := snap
		game.TimeControl = rooms.Clock{Game: 10 * time.Minute, Increment: 5 * time.Second}
		game.Times = []time.Duration{5*time.Minute + 9*time.Second, 45*time.Second + 200*time.Millisecond}
		game.Clock = rooms.TurnClock{Seat: 1, Ends: time.Now().Add(game.Times[1])}
		game.ToMove = []rules.Seat{1}
		untimed := snap
		untimed.Clock = rooms.TurnClock{}
		out := ""
		for _, c := range []struct {
			name string
			snap rooms.Snapshot
		}{
			{"your turn, 2:40.3 left (shown in tens of seconds)", snap},
			{"waiting for ann", theirs},
			{"waiting for ann and bob", many},
			{"a game clock, bob's running", game},
			{"untimed", untimed},
		} {
			out += c.name + "\n" + framed(testClock(c.snap).View(st, panelWidth), panelWidth)
		}
		golden.RequireEqual(t, out)
	})
}

// TestClockUpdate: the tick asked for last asks for the next while the clock runs; a stale tick,
// sent before a newer was asked for, does nothing; the session's waker sends the tick asked for
// last, and only it, from one goroutine; a clock that is not running asks for none.
func TestClockUpdate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		snap, _ := stoneSnapshot(t, 14)
		snap.Clock = rooms.TurnClock{Seat: 0, Ends: time.Now().Add(time.Minute)}
		c, ticks := tickingClock(snap)
		c.tick()
		if !c.ticks.ticking() {
			t.Fatal("no tick for a running clock")
		}
		stale := tickMsg{gen: c.gen}
		c.tick()
		gen := c.gen
		c.Update(stale)
		if c.gen != gen {
			t.Errorf("a stale tick asked for another: generation %d, want %d", c.gen, gen)
		}
		c.Update(tickMsg{gen: c.gen})
		if c.gen != gen+1 {
			t.Errorf("the current tick: generation %d, want %d", c.gen, gen+1)
		}
		start := time.Now()
		if msg := <-ticks; msg != (tickMsg{gen: c.gen}) || time.Since(start) != clockLate {
			t.Errorf("the timer sent %+v after %v, want the tick asked for last (%d) once 1:00 is no longer left", msg, time.Since(start), c.gen)
		}
		synctest.Wait()
		if len(ticks) != 0 {
			t.Errorf("%d more ticks sent, want only the last asked for", len(ticks))
		}
		c.stopTick()
		snap.Clock = rooms.TurnClock{}
		untimed, _ := tickingClock(snap)
		if untimed.tick(); untimed.ticks.ticking() || untimed.countingDown() {
			t.Error("an untimed turn ticks")
		}
		outlast(c.ticks)
	})
}

// tickingClock is testClock whose ticks are sent to the channel returned (its own waker's: a
// test in a synctest bubble ends with outlast).
func tickingClock(snap rooms.Snapshot) (*roomClock, chan tea.Msg) {
	c := testClock(snap)
	ticks := make(chan tea.Msg, 8)
	c.ticks = &waker{send: func(msg tea.Msg) { ticks <- msg }}
	return c, ticks
}
