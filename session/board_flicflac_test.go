package session

import (
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/games/gametest"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/flicflac"
)

// flicflacPlay plays a seeded Flic Flac match with greedy bots, ann the cylinders, until stop says
// so (or the game ends) and returns ann's snapshot of it with the engine.
func flicflacPlay(t *testing.T, stop func(i int, s *flicflac.State) bool) (rooms.Snapshot, *flicflac.State) {
	t.Helper()
	state, moves := gametest.PlayBots(t, flicflac.Game, rules.Options{"shape": "cylinders", "target": "6"}, 2, 3,
		flicflac.Greedy{}, func(i int, s rules.Engine) bool { return stop(i, s.(*flicflac.State)) })
	return gametest.Snapshot("FL1CF", flicflac.Game, state, moves, []string{"ann", "bob"}, defaultChat),
		state.(*flicflac.State)
}

// flicflacMid plays at least plies moves and stops at ann's turn, before she has moved.
func flicflacMid(t *testing.T, plies int) rooms.Snapshot {
	t.Helper()
	snap, _ := flicflacPlay(t, func(i int, s *flicflac.State) bool {
		if i < plies || s.Turn() != 0 || s.CaptorsTurn() {
			return false
		}
		v := s.ViewOf()
		for c := range flicflac.Colour(flicflac.Colours) {
			if v.Piece(0, c).Moved {
				return false
			}
		}
		return true
	})
	return snap
}

// flicflacCaptors stops at ann's first captors' turn.
func flicflacCaptors(t *testing.T) rooms.Snapshot {
	t.Helper()
	snap, s := flicflacPlay(t, func(i int, s *flicflac.State) bool { return s.Turn() == 0 && s.CaptorsTurn() })
	if !s.CaptorsTurn() {
		t.Fatal("no captors' turn for ann")
	}
	return snap
}

// flicflacEnd plays the match to its end.
func flicflacEnd(t *testing.T) rooms.Snapshot {
	t.Helper()
	snap, _ := flicflacPlay(t, func(int, *flicflac.State) bool { return false })
	return snap
}

// pressKeys sends keys (runes, or "enter") to the model.
func pressKeys(m Model, keys ...string) Model {
	for _, k := range keys {
		msg := tea.KeyPressMsg{Code: rune(k[0]), Text: k}
		if k == "enter" {
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		}
		next, _ := m.Update(msg)
		m = next.(Model)
	}
	return m
}

// TestFlicflacRoomGolden: ann's turn with her next piece picked (n): the hexes it may reach are
// marked, the line under the board says what stands under the cursor, the panel the turn.
func TestFlicflacRoomGolden(t *testing.T) {
	m := pressKeys(roomModel(t, flicflacMid(t, 40)), "n")
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
	for _, want := range []string{"picked", "Your turn: move pieces,", "Turn ", "Moved: none yet"} {
		if !strings.Contains(plain(out), want) {
			t.Errorf("the screen lacks %q", want)
		}
	}
}

// TestFlicflacPreviewGolden: with a piece picked and the cursor on a hex it may reach, the line
// under the board previews what the move would do to health, as the engine counts it: ann's blue
// cylinder to g12 would leave bob's purple block at -21, captured.
func TestFlicflacPreviewGolden(t *testing.T) {
	m := pressKeys(roomModel(t, flicflacMid(t, 40)), "n", "j")
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
	if want := "B to g12: (B) +0->+1, [P] +0->-21 captured"; !strings.Contains(plain(out), want) {
		t.Errorf("the screen lacks %q", want)
	}
}

// TestFlicflacCaptorsGolden: a captors' turn says which pieces may move, and the last end what it
// captured.
func TestFlicflacCaptorsGolden(t *testing.T) {
	out := roomModel(t, flicflacCaptors(t)).View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
	for _, want := range []string{"Your turn: captors' turn,", "Captors: ", "captured"} {
		if !strings.Contains(plain(out), want) {
			t.Errorf("the screen lacks %q", want)
		}
	}
}

func TestFlicflacEndGolden(t *testing.T) {
	checkEndScreen(t, flicflacEnd(t))
}

// TestFlicflacResignGolden: bob resigned in the middle of a match, and wants a rematch: the line
// under the board says why the match ended, the panel the score, that the match was rated, and
// the key that accepts bob's rematch.
func TestFlicflacResignGolden(t *testing.T) {
	snap := flicflacMid(t, 40)
	snap.Phase, snap.ToMove = rooms.Finished, nil
	scores := snap.Outcome.Scores
	snap.Outcome = rules.Outcome{Over: true, Scores: scores, Ranks: []int{1, 2}, Reason: "bob resigned"}
	snap.Seats[1].Resigned, snap.Seats[1].Rematch = true, true
	checkEndScreen(t, snap, "The game is over: bob resigned.", "wants a rematch:", "r to accept", "Rated match.")
}

// TestFlicflacPlainGolden: with NO_COLOR and in ASCII the board says the same with letters: no
// colour is set, every character is ASCII, and the grey of pieces due to be captured is a '!'.
func TestFlicflacPlainGolden(t *testing.T) {
	snap, s := flicflacPlay(t, func(i int, s *flicflac.State) bool {
		if s.Turn() != 0 || s.CaptorsTurn() {
			return false
		}
		v := s.ViewOf()
		for _, p := range v.Pieces {
			if p.Doomed {
				return true
			}
		}
		return false
	})
	if s.Outcome().Over {
		t.Fatal("no piece due to be captured on ann's turn")
	}
	m := New(Config{Hub: fakeHub{testGames}, Boards: testBoards, Player: rooms.Player{ID: "SHA256:x", Name: "ann"},
		Width: 80, Height: 24, NoColor: true, ASCII: true})
	m.room = newRoomScreen(nil, m.cfg.Player, testGames, testBoards)
	m.room.apply(snap)
	out := m.View().Content
	checkSize(t, out, 80, 24)
	if c := colourSGR.FindString(out); c != "" {
		t.Errorf("a colour with NO_COLOR: %q", c)
	}
	for i, r := range out {
		if r >= utf8.RuneSelf {
			t.Errorf("non-ASCII %q at byte %d", r, i)
			break
		}
	}
	if !strings.Contains(plain(out), "!") {
		t.Error("no piece is marked to be captured")
	}
	golden.RequireEqual(t, plain(out))
}

// TestWideFlicflacGolden: at 120 x 40 the board and panel are centred and nothing is cut.
func TestWideFlicflacGolden(t *testing.T) {
	out := wideScreen(t, flicflacMid(t, 40), 120, 40)
	golden.RequireEqual(t, out)
	checkCentred(t, out, 120, 2)
}

// TestFlicflacWaitingSeats: before the match, when nobody knows yet who has which shape, the
// seats of a Flic Flac room are Seat 1 and Seat 2, not the room's Red and Blue (two of the
// pieces' colours).
func TestFlicflacWaitingSeats(t *testing.T) {
	snap := rooms.Snapshot{Code: "FL1CF", GameID: "flicflac", GameName: "Flic Flac", Phase: rooms.Waiting,
		Seats: []rooms.SeatInfo{{Name: "ann", Connected: true}, {Empty: true}}, You: 0,
		Chat: []rooms.ChatLine{{Text: "ann sits down"}}}
	out := plain(roomModel(t, snap).View().Content)
	if !strings.Contains(out, "you: ann (Seat 1)") || !strings.Contains(out, "Seat 2") ||
		strings.Contains(out, "Red") || strings.Contains(out, "Blue") {
		t.Errorf("the waiting room's seats:\n%s", out)
	}
}
