package session

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session/draw"
)

// framed draws a component's lines as its golden files show them: each cut or padded to w
// columns between bars, so that the file shows the width too.
func framed(lines []string, w int) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString("│" + draw.Fit(l, w) + "│\n")
	}
	return plain(b.String())
}

// testPanel returns a room's panel and clock showing snap, as a room shows them its snapshot.
func testPanel(snap rooms.Snapshot) *roomPanel {
	s, board := &snap, testBoards.board(snap.GameID)
	clock := &roomClock{}
	clock.show(s, board)
	p := newRoomPanel()
	p.show(s, board, clock, false)
	return &p
}

// TestPanelGolden: the panel of a match being played, at the narrowest window's width: the seats
// with their scores, whose turn it is, what the board says, then the chat under its rule.
func TestPanelGolden(t *testing.T) {
	p := testPanel(playedSnapshot(t, 14))
	golden.RequireEqual(t, framed(p.View(*draw.NewStyles(false, false), panelWidth, 20), panelWidth))
}

// TestPanelMovesGolden: tab shows the match's last moves at the panel's foot, in place of the
// chat, whole moves only; tab again brings the chat back.
func TestPanelMovesGolden(t *testing.T) {
	st := *draw.NewStyles(false, false)
	p := testPanel(playedSnapshot(t, 14))
	chat := framed(p.View(st, panelWidth, 20), panelWidth)
	moved, cmd := p.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if cmd != nil || !moved.showMoves {
		t.Fatalf("tab: moves shown %v, command %v", moved.showMoves, cmd)
	}
	golden.RequireEqual(t, framed(moved.View(st, panelWidth, 20), panelWidth))
	back, _ := moved.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if got := framed(back.View(st, panelWidth, 20), panelWidth); got != chat {
		t.Errorf("tab again:\n%s\nwant the chat again:\n%s", got, chat)
	}
	if other, _ := p.Update(tea.KeyPressMsg{Code: 'x', Text: "x"}); other.showMoves {
		t.Error("a key not the panel's shows the moves")
	}
}

// TestPanelEndGolden: the end of a rated match, in the panel as wide as a wide window gives it:
// GAME OVER, who won and why, each player's rating change and the replay's key.
func TestPanelEndGolden(t *testing.T) {
	snap := playedSnapshot(t, -1)
	snap.Result = rooms.EndResult{MatchID: "49jvyf2yr3d", Ratings: []rooms.RatingChange{
		{Rated: true, Before: 1662.4, After: 1650.2, BeforeProvisional: true, Provisional: true},
		{Rated: true, Before: 1540, After: 1552.3}}}
	snap.Seats[1].Rematch = true
	p := testPanel(snap)
	golden.RequireEqual(t, framed(p.View(*draw.NewStyles(false, false), panelWideWidth, 22), panelWideWidth))
}

// TestPanelSeatNotesGolden: a seat's notes ("away" with its countdown, "takeback?") go to a
// second line under the name when they do not fit beside it; under the seats, how many watch. A
// gone player's seat says what b and x do.
func TestPanelSeatNotesGolden(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := *draw.NewStyles(false, false)
		snap := playedSnapshot(t, 14)
		snap.Spectators = 2
		snap.Seats[1].Connected, snap.Seats[1].GraceUntil = false, time.Now().Add(90*time.Second)
		snap.Seats[0].TakeBack = true
		away := framed(testPanel(snap).View(st, panelWidth, 16), panelWidth)
		snap.Seats[1] = rooms.SeatInfo{Name: "bob", Abandoned: true, GraceUntil: time.Now()}
		gone := framed(testPanel(snap).View(st, panelWidth, 16), panelWidth)
		golden.RequireEqual(t, away+"\n"+gone)
	})
}

// TestPanelKeepsTheChat: the chat, wrapped once, is kept from frame to frame while neither it
// nor the width changes; the seats' labels are drawn once, until relabel.
func TestPanelKeepsTheChat(t *testing.T) {
	st := *draw.NewStyles(false, false)
	p := testPanel(playedSnapshot(t, 14))
	p.View(st, panelWidth, 20)
	lines, label := p.chat.lines, p.labels[0]
	p.View(st, panelWidth, 20)
	if &p.chat.lines[0] != &lines[0] {
		t.Error("the chat was wrapped again for the same chat and width")
	}
	if p.relabel(); p.labels != nil {
		t.Error("relabel kept the labels")
	}
	p.View(st, panelWidth, 20)
	if p.labels[0] != label {
		t.Errorf("label drawn again as %q, want %q", p.labels[0], label)
	}
}

// TestResultScore: the result line gives a two-seat match's score, the winner's first, only when
// the score decided it.
func TestResultScore(t *testing.T) {
	for _, c := range []struct {
		scores       []int
		first, seats int
		want         string
	}{
		{[]int{26, 33}, 1, 2, " 33-26"},
		{[]int{33, 26}, 0, 2, " 33-26"},
		{[]int{1, 4}, 0, 2, ""}, // won by a resignation, behind
		{[]int{0, 0}, 0, 2, ""},
		{[]int{5, 3, 2}, 0, 3, ""},
		{nil, 0, 2, ""},
	} {
		if got := score(rules.Outcome{Over: true, Scores: c.scores}, c.first, c.seats); got != c.want {
			t.Errorf("score(%v, %d, %d) = %q, want %q", c.scores, c.first, c.seats, got, c.want)
		}
	}
}
