package session

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/coloretta"
	"github.com/arcade/arcade/rules/flicflac"
	"github.com/arcade/arcade/session/draw"
)

// roomBotNames are the names the rooms give bots: the level in brackets makes them long.
var roomBotNames = []string{"Bo (greedy bot)", "Cy (greedy bot)", "Di (greedy bot)", "Ed (greedy bot)"}

// withBots makes every seat but ann's a greedy bot, named as the rooms name them.
func withBots(snap rooms.Snapshot) rooms.Snapshot {
	seats := append([]rooms.SeatInfo(nil), snap.Seats...)
	for i := 1; i < len(seats); i++ {
		seats[i] = rooms.SeatInfo{Name: roomBotNames[i-1], Bot: "greedy", Connected: true}
	}
	snap.Seats = seats
	return snap
}

// gameScreens are, for each game, the snapshots whose screens must cut no name, note, error or key:
// in play against bots, a player gone, a player away, and the end with rematch ticks.
func gameScreens(t *testing.T) map[string]rooms.Snapshot {
	t.Helper()
	st := playedSnapshot(t, 14)
	stEnd := playedSnapshot(t, -1)
	dc, _ := disconSnapshot(t, 12)
	dcEnd, _ := disconSnapshot(t, -1)
	co, _ := colorettaMid(t, 3, 30)
	coEnd, _ := colorettaPlay(t, 3, nil, func(_ int, v coloretta.View) bool { return v.Over })
	co5End, _ := colorettaPlay(t, 5, nil, func(_ int, v coloretta.View) bool { return v.Over })
	co5Round, _ := colorettaPlay(t, 5, nil, func(_ int, v coloretta.View) bool { return v.RoundEnded })
	lx, _ := lhexMid(t)
	lxEnd, _ := lhexSnapshot(t, nil, 2, 5, -1)
	lx4, _ := lhexSnapshot(t, rules.Options{"check": "challenge", "timer": "competition"}, 4, 3, 9)
	ff, ffEnd := flicflacMid(t, 40), flicflacEnd(t)
	out := map[string]rooms.Snapshot{"lhexicon4/bots": withBots(lx4)}
	for name, snap := range map[string]rooms.Snapshot{"stonetowers": st, "discon": dc, "coloretta": co, "lhexicon": lx,
		"flicflac": ff} {
		out[name+"/bots"] = withBots(snap)
		gone := snap
		gone.Seats = append([]rooms.SeatInfo(nil), snap.Seats...)
		gone.Seats[1] = rooms.SeatInfo{Name: "bob.the.builder", Abandoned: true, GraceUntil: when}
		out[name+"/gone"] = gone
		away := snap
		away.Seats = append([]rooms.SeatInfo(nil), snap.Seats...)
		away.Seats[1] = rooms.SeatInfo{Name: "bob.the.builder", GraceUntil: time.Now().Add(90 * time.Second)}
		out[name+"/away"] = away
	}
	out["coloretta5/round"] = withBots(co5Round)
	unrated := st
	unrated.Phase, unrated.Unrated = rooms.Finished, true
	unrated.Outcome.Over, unrated.Outcome.Reason = true, "bob.the.builder left and did not come back"
	out["stonetowers/unrated"] = unrated
	for name, snap := range map[string]rooms.Snapshot{"stonetowers": stEnd, "discon": dcEnd, "coloretta": coEnd, "coloretta5": co5End,
		"lhexicon": lxEnd, "flicflac": ffEnd} {
		if snap.Phase != rooms.Finished {
			t.Fatalf("%s: the game did not end", name)
		}
		snap = withBots(snap)
		snap.Seats[0].Rematch = true
		out[name+"/end"] = snap
	}
	return out
}

// TestNoScreenCutsMeaning: at 80 x 24, no room screen of any game cuts a name, a note beside it
// (away, gone, you, the rematch tick), a line of the panel or a key of the help line with "…".
func TestNoScreenCutsMeaning(t *testing.T) {
	for name, snap := range gameScreens(t) {
		m := roomModel(t, snap)
		out := plain(m.View().Content)
		checkSize(t, m.View().Content, 80, 24)
		if strings.Contains(out, "…") {
			t.Errorf("%s: a line is cut:\n%s", name, out)
		}
		for _, want := range wantOn(snap) {
			if !strings.Contains(out, want) {
				t.Errorf("%s: %q is not on the screen:\n%s", name, want, out)
			}
		}
	}
}

// wantOn is what snap's screen must show whole: each seat's name and its notes, and a gone
// player's keys.
func wantOn(snap rooms.Snapshot) []string {
	var want []string
	if snap.Unrated {
		want = append(want, "come back")
	}
	for _, s := range snap.Seats {
		want = append(want, s.Name)
		switch {
		case s.Abandoned:
			want = append(want, "gone", "x end unrated")
		case !s.Connected && s.Bot == "":
			want = append(want, "away")
		}
		if s.Rematch {
			want = append(want, "wants a rematch")
		}
	}
	return want
}

// TestGoneGolden: a player has gone; the panel says what b and x do, and the help line shows both.
func TestGoneGolden(t *testing.T) {
	snap := gameScreens(t)["discon/gone"]
	out := plain(roomModel(t, snap).View().Content)
	golden.RequireEqual(t, out)
}

// TestBotsEndGolden: the end of a Coloretta match against bots, with ann's rematch tick: names,
// scores and the tick are whole.
func TestBotsEndGolden(t *testing.T) {
	out := plain(roomModel(t, gameScreens(t)["coloretta/end"]).View().Content)
	golden.RequireEqual(t, out)
}

// TestLongErrorGolden: a move's error too long for one line goes on over a second one, whole.
func TestLongErrorGolden(t *testing.T) {
	m := roomModel(t, playedSnapshot(t, 14))
	next, _ := m.Update(moveDoneMsg{err: fmt.Errorf("bad move: %w", errors.New(longError))})
	out := plain(next.(Model).View().Content)
	checkSize(t, next.(Model).View().Content, 80, 24)
	golden.RequireEqual(t, out)
	if strings.Contains(out, "…") || !strings.Contains(out, "enter") {
		t.Errorf("the error is cut, or the help line is gone:\n%s", out)
	}
}

// longError is a game's error of two lines, with a hint (TestGameErrorsWhole has longer ones).
const longError = `"b9" is not empty: build on an empty square, or fortify one of your castles with f`

// TestGuestMatchesWhole: a guest's My matches says whole why it is empty.
func TestGuestMatchesWhole(t *testing.T) {
	m := New(Config{Hub: fakeHub{testGames}, Boards: testBoards, Records: fakeRecords{},
		Player: rooms.Player{ID: "guest", Name: "~guest-1", Guest: true}, Width: 80, Height: 24})
	m = press(m, "down", "down", "down", "down", "down", "enter")
	out := plain(m.View().Content)
	if strings.Contains(out, "…") || !strings.Contains(out, "ratings and matches.") {
		t.Errorf("the guest's line is cut:\n%s", out)
	}
}

// TestNoticesKeepBotNamesWhole: a room's notice in the chat breaks no bot's name between its
// name and its level, nor a seat's number from "seat", and a bracket that never closes still wraps within the panel.
func TestNoticesKeepBotNamesWhole(t *testing.T) {
	snap := playedSnapshot(t, 4)
	snap.Chat = []rooms.ChatLine{{Text: "the match begins: you vs Bo (greedy bot) vs Cy (greedy bot)"},
		{Text: "Bo (greedy bot) takes seat 2"},
		{Text: "an ( opened bracket that never closes goes on and on past the panel's edge"}}
	m := roomModel(t, snap)
	lines := m.room.side.chatLines(*m.st, panelWidth)
	for i, l := range lines {
		bot := i < m.room.side.chat.starts[2]
		if bot && (strings.Count(l, "(") != strings.Count(l, ")") || strings.HasPrefix(l, "(") || l == "2") || draw.TextWidth(l) > panelWidth {
			t.Errorf("chat wrapped as %q", lines)
			break
		}
	}
}

// TestGameErrorsWhole: the errors the word and combat games give for moves typed wrong, the
// longest of all (what is wrong, then how to write a move), are read whole under the board at
// 80 x 24, with the help line.
func TestGameErrorsWhole(t *testing.T) {
	lhex, lstate := lhexMid(t)
	flic, fstate := flicflacPlay(t, func(i int, s *flicflac.State) bool { return i >= 10 && s.Turn() == 0 && !s.CaptorsTurn() })
	for _, c := range []struct {
		snap  rooms.Snapshot
		state rules.Engine
		moves []string
	}{
		{lhex, lstate, []string{"h8 qat e,e", "h8 cat", "h8 cat e,e,e,e", "x", "zz top", "s", "h99 at e", "h8 at up"}},
		{flic, fstate, []string{"Z h8", "B z99", "u", "B", "end now", "u Q", "blue"}},
	} {
		for _, mv := range c.moves {
			_, err := c.state.Apply(0, mv)
			if err == nil {
				t.Fatalf("%q is played", mv)
			}
			m := roomModel(t, c.snap)
			next, _ := m.Update(moveDoneMsg{err: err})
			screen := next.(Model).View().Content
			checkSize(t, screen, 80, 24)
			out := plain(screen)
			if strings.Contains(out, "…") || !strings.Contains(out, "esc leave") {
				t.Errorf("%q: the error is cut, or the help line is gone:\n%s", mv, out)
			}
			if !strings.Contains(words(out), words(sentence(err.Error()))) {
				t.Errorf("%q: the error is not whole:\n%s\nwant %s", mv, out, sentence(err.Error()))
			}
		}
	}
}
