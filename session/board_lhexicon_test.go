package session

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/games/gametest"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon"
)

// lhexSnapshot plays plies moves (all of them when plies < 0) of a seeded Lhex-i'-con match of
// seats players with easy bots and returns seat 0's snapshot of it with the engine. Seed 5 has
// three traps and a blank on the board after 36 moves.
func lhexSnapshot(t *testing.T, opts rules.Options, seats int, seed uint64, plies int) (rooms.Snapshot, *lhexicon.State) {
	t.Helper()
	state, moves := gametest.PlayBots(t, lhexicon.Game, opts, seats, seed, lhexicon.Easy{},
		func(i int, _ rules.Engine) bool { return plies >= 0 && i >= plies })
	names := []string{"ann", "bob", "cid", "dee"}[:seats]
	return gametest.Snapshot("L3X1C", lhexicon.Game, state, moves, names, defaultChat), state.(*lhexicon.State)
}

// lhexMid is the mid-game position of the goldens: ann to play, traps and a blank on the board.
func lhexMid(t *testing.T) (rooms.Snapshot, *lhexicon.State) {
	t.Helper()
	snap, state := lhexSnapshot(t, nil, 2, 5, 36)
	v := state.ViewOf(0)
	blank := false
	for _, tl := range v.Board {
		blank = blank || tl.IsBlank()
	}
	if state.Turn() != 0 || len(v.Traps) == 0 || !blank {
		t.Fatalf("the test position has turn %d, %d traps, a blank %v", state.Turn(), len(v.Traps), blank)
	}
	return snap, state
}

// keyMsg is the key press of k: "up", "enter", "space", "backspace", "tab" or one character.
func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	return tea.KeyPressMsg{Code: rune(k[0]), Text: k}
}

// spell types a play's keys into the room: the cursor from the centre to each hex (up or down to
// its row, then along it), the letter ('*' first for a blank; enter first on the first empty hex
// of a word not yet started) or space on a tile already there.
func spell(t *testing.T, m Model, state *lhexicon.State, mv lhexicon.Move) Model {
	t.Helper()
	hexes, _ := mv.Cells()
	cur, started := lhexicon.Centre, false
	send := func(k string) {
		next, _ := m.Update(keyMsg(k))
		m = next.(Model)
	}
	for i, h := range hexes {
		// Straight moves only: up and down by rows keep near the column, then along the row.
		for n := 0; cur.Row() != h.Row(); n++ {
			if n > 30 {
				t.Fatalf("the cursor does not reach row of %s: at %s\n%s", h, cur, plain(m.View().Content))
			}
			d := lhexicon.NW
			if cur.Row() < h.Row() {
				d = lhexicon.SW
			}
			k := "up"
			if d == lhexicon.SW {
				k = "down"
			}
			send(k)
			cur = lhexRoomCursor(t, m)
		}
		for n := 0; cur != h; n++ {
			if n > 30 {
				t.Fatalf("the cursor does not reach %s: at %s\n%s", h, cur, plain(m.View().Content))
			}
			if cur.Col() < h.Col() {
				send("right")
			} else {
				send("left")
			}
			cur = lhexRoomCursor(t, m)
		}
		tl := mv.Tiles[i]
		switch {
		case state.Board(h) != lhexicon.NoTile:
			send("space")
		case tl.IsBlank():
			send("*")
			send(tl.Spell()[:1])
		case !started:
			send("enter")
			send(tl.Spell()[:1])
		default:
			send(tl.Spell()[:1])
		}
		started = true
		cur = lhexRoomCursor(t, m)
	}
	return m
}

// lhexRoomCursor reads the cursor's hex off the board: the row whose hex has the cursor's
// brackets, the screen's second line being row a; each row is indented half a hex a row away from
// the middle, after two columns of label, two columns a hex.
func lhexRoomCursor(t *testing.T, m Model) lhexicon.Hex {
	t.Helper()
	lines := strings.Split(plain(m.View().Content), "\n")
	for r := range 15 {
		l := []rune(lines[1+r])
		for x := 0; x < min(len(l), 51); x++ {
			if l[x] == '[' {
				indent := max(r-7, 7-r)
				return lhexicon.At(r, (x-2-indent)/2)
			}
		}
	}
	t.Fatalf("no cursor on the board:\n%s", plain(m.View().Content))
	return lhexicon.NoHex
}

// lhexPlay finds a play of four letters or more for the seat to move.
func lhexPlay(t *testing.T, s *lhexicon.State) lhexicon.Move {
	t.Helper()
	var m lhexicon.Move
	found := false
	s.Generate(context.Background(), s.Turn(), func(c lhexicon.Candidate) bool {
		if len(c.Move.Tiles) >= 4 || !found {
			m, found = c.Clone().Move, true
		}
		return len(m.Tiles) < 4
	})
	if !found {
		t.Fatal("no play in the test position")
	}
	return m
}

// TestLhexiconRoomGolden: ann composes a word with the keys in mid-game (traps and a blank on the
// board): the board shows it, the rack the tiles it takes, the preview its score; nothing is
// sent, and the letters went to the board, not to chat.
func TestLhexiconRoomGolden(t *testing.T) {
	snap, state := lhexMid(t)
	mv := lhexPlay(t, state)
	m := spell(t, roomModel(t, snap), state, mv)
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
	if !strings.Contains(plain(out), "scores") || m.room.focus != focusBoard {
		t.Errorf("no preview of %s, or the focus left the board:\n%s", mv, plain(out))
	}
}

// TestLhexiconASCIIGolden: the same in ASCII without colour.
func TestLhexiconASCIIGolden(t *testing.T) {
	snap, state := lhexMid(t)
	cfg := Config{Hub: fakeHub{testGames}, Boards: testBoards, Player: rooms.Player{ID: "SHA256:x", Name: "ann"},
		Width: 80, Height: 24, NoColor: true, ASCII: true}
	m := New(cfg)
	m.room = newRoomScreen(nil, cfg.Player, testGames, testBoards)
	m.room.apply(snap)
	m = spell(t, m, state, lhexPlay(t, state))
	out := m.View().Content
	checkSize(t, out, 80, 24)
	if colourSGR.MatchString(out) {
		t.Errorf("colour with NO_COLOR: %q", colourSGR.FindString(out))
	}
	for _, r := range out {
		if r > 127 {
			t.Errorf("non-ASCII %q", r)
			break
		}
	}
	golden.RequireEqual(t, plain(out))
}

// TestLhexiconChallengeGolden: under check=challenge, bob sees ann's first word awaiting his
// answer: the panel and the board say c challenges, a accepts.
func TestLhexiconChallengeGolden(t *testing.T) {
	snap, state := lhexSnapshot(t, rules.Options{"check": "challenge"}, 2, 3, 0)
	e, err := state.Apply(0, lhexPlay(t, state).String())
	if err != nil {
		t.Fatal(err)
	}
	ns := e.(*lhexicon.State)
	snap.You, snap.View, snap.ToMove = 1, ns.View(1), ns.ToMove()
	snap.Seats[0].Name, snap.Seats[1].Name = "bob", "ann"
	out := plain(roomModel(t, snap).View().Content)
	golden.RequireEqual(t, out)
	for _, want := range []string{"may be challenged", "c challenge"} {
		if !strings.Contains(out, want) {
			t.Errorf("the screen lacks %q:\n%s", want, out)
		}
	}
}

// TestLhexiconSpectatorGolden: a spectator sees the board and how many tiles each holds, no rack.
func TestLhexiconSpectatorGolden(t *testing.T) {
	snap, state := lhexMid(t)
	snap.You, snap.View = rules.Spectator, state.View(rules.Spectator)
	out := plain(roomModel(t, snap).View().Content)
	golden.RequireEqual(t, out)
	if strings.Contains(out, "Rack ") || !strings.Contains(out, "hidden") {
		t.Errorf("the spectator's screen shows a rack:\n%s", out)
	}
}

func TestLhexiconEndGolden(t *testing.T) {
	snap, _ := lhexSnapshot(t, nil, 2, 5, -1)
	checkEndScreen(t, snap)
}

// TestWideLhexiconGolden: at 120 x 40 the board and panel are centred and nothing is cut.
func TestWideLhexiconGolden(t *testing.T) {
	snap, _ := lhexMid(t)
	out := wideScreen(t, snap, 120, 40)
	golden.RequireEqual(t, out)
	checkCentred(t, out, 120, 2)
}

// TestLhexiconLettersAreTiles: on the player's turn with no word started, t opens the chat as in
// every game; once a word is started (enter) the letters are tiles, t and R among them, not chat
// nor resign (the help line drops "t chat"), and esc clears the word before it leaves the room.
func TestLhexiconLettersAreTiles(t *testing.T) {
	snap, _ := lhexMid(t)
	m := press(roomModel(t, snap), "t")
	if m.room.focus != focusChat {
		t.Fatalf("t on ann's turn with no word started does not open the chat:\n%s", plain(m.View().Content))
	}
	m = press(m, "esc")
	for _, k := range []string{"right", "right", "right", "enter", "p"} { // h11 is empty; P is on the rack
		next, _ := m.Update(keyMsg(k))
		m = next.(Model)
	}
	out := plain(m.View().Content)
	if !strings.Contains(out, "Rack -- ") {
		t.Fatalf("p did not place the P:\n%s", out)
	}
	if m.room.focus != focusBoard || strings.Contains(out, "t chat") {
		t.Fatalf("a word started: focus %v, help line with t chat:\n%s", m.room.focus, out)
	}
	m = press(m, "t", "R")
	if m.room.focus != focusBoard || m.room.prompt.asking() {
		t.Fatalf("t and R in a word: focus %v, asking %v (%q)", m.room.focus, m.room.prompt.asking(), m.room.prompt.msg)
	}
	if _, leave := m.room.update(keyMsg("esc")); leave {
		t.Errorf("esc with letters placed leaves the room")
	}
	if _, leave := m.room.update(keyMsg("esc")); leave || !m.room.prompt.askingLeave() {
		t.Errorf("esc with nothing composed does not ask whether to leave the room")
	}
	if _, leave := m.room.update(keyMsg("enter")); !leave {
		t.Errorf("enter on the question does not leave the room")
	}
}

// TestLhexiconSoloEndGolden: a solo game's end gives the score, not "a draw".
func TestLhexiconSoloEndGolden(t *testing.T) {
	snap, state := lhexSnapshot(t, nil, 1, 4, -1)
	checkEndScreen(t, snap, fmt.Sprintf("ann scored %d.", state.Scores()[0]))
}

// TestLhexiconHintGolden: in a casual room, h on ann's turn with nothing composed suggests a play
// the engine finds for her rack, on the line under the rack, and puts the cursor on its first
// hex; the keys' line offers h. Nothing is sent.
func TestLhexiconHintGolden(t *testing.T) {
	snap, _ := lhexMid(t)
	snap.Casual = true
	m := pressKeys(roomModel(t, snap), "h")
	out := plain(m.View().Content)
	checkSize(t, m.View().Content, 80, 24)
	golden.RequireEqual(t, out)
	for _, want := range []string{"Hint: ", "h suggests a word", "· casual"} {
		if !strings.Contains(out, want) {
			t.Errorf("the screen lacks %q", want)
		}
	}
}

// TestLhexiconHintRated: in a rated room h says hints are for casual rooms, suggests nothing, and
// the keys' line does not offer it.
func TestLhexiconHintRated(t *testing.T) {
	snap, _ := lhexMid(t)
	m := pressKeys(roomModel(t, snap), "h")
	out := plain(m.View().Content)
	if !strings.Contains(out, "Hints are for casual rooms: this match is rated.") || strings.Contains(out, "Hint:") ||
		strings.Contains(out, "h suggests") {
		t.Errorf("h in a rated room:\n%s", out)
	}
}
