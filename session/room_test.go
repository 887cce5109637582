package session

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/games/gametest"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/flicflac"
	"github.com/arcade/arcade/rules/lhexicon"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/session/draw"
)

// stoneSnapshot plays plies moves of the seeded Stone Towers match of playedSnapshot and returns
// Red's snapshot with the engine.
func stoneSnapshot(t *testing.T, plies int) (rooms.Snapshot, rules.Engine) {
	t.Helper()
	state, moves := gametest.PlayBots(t, stonetowers.Game, rules.Options{"size": "12", "turns": "25"}, 2, 7,
		stonetowers.Greedy{}, func(i int, _ rules.Engine) bool { return i >= plies })
	return gametest.Snapshot("K7QXM", stonetowers.Game, state, moves, []string{"ann", "bob"}, defaultChat), state
}

// seen returns snap as seat sees it.
func seen(snap rooms.Snapshot, state rules.Engine, seat rules.Seat) rooms.Snapshot {
	snap.You, snap.View = seat, state.View(seat)
	return snap
}

// TestEveryGameSaysWhoseTurn: in every game the player to move reads "Your turn" and the other
// "Waiting for" the player to move, in the same place (the panel, under the seats); a watcher
// reads who is to move. Stone Towers says what enter would do only to the player to move.
func TestEveryGameSaysWhoseTurn(t *testing.T) {
	stone, stoneState := stoneSnapshot(t, 14)
	discon, disconState := disconSnapshot(t, 12)
	colo, coloState := colorettaMid(t, 3, 30)
	for _, c := range []struct {
		name  string
		snap  rooms.Snapshot
		state rules.Engine
		other string // the waiting line of the seat not to move
	}{
		{"stonetowers", stone, stoneState, "Waiting for ann (Red)."},
		{"discon", discon, disconState, "Waiting for ann (Red)."},
		{"coloretta", colo, coloState, "Waiting for ann (Seat 1)"},
	} {
		if len(c.snap.ToMove) != 1 || c.snap.ToMove[0] != 0 {
			t.Fatalf("%s: not ann's turn", c.name)
		}
		mine := plain(roomModel(t, c.snap).View().Content)
		if strings.Count(mine, "Your turn") != 1 || strings.Contains(mine, "Waiting for") {
			t.Errorf("%s: the player to move does not read \"Your turn\" once:\n%s", c.name, mine)
		}
		theirs := plain(roomModel(t, seen(c.snap, c.state, 1)).View().Content)
		if strings.Contains(theirs, "Your turn") || !strings.Contains(words(theirs), c.other) {
			t.Errorf("%s: the player waiting does not read %q:\n%s", c.name, c.other, theirs)
		}
		watched := plain(roomModel(t, seen(c.snap, c.state, rules.Spectator)).View().Content)
		if !strings.Contains(words(watched), "ann (") || !strings.Contains(watched, " is to ") {
			t.Errorf("%s: a watcher does not read who is to move:\n%s", c.name, watched)
		}
		// The turn line is in the panel, right of the board, under the seats and a blank line.
		for _, screen := range []string{mine, theirs} {
			lines := strings.Split(screen, "\n")
			row := len(c.snap.Seats) + 2
			if row >= len(lines) || len(lines[row]) < 53 || !strings.HasPrefix(strings.TrimSpace(lines[row][50:]), "Your turn") &&
				!strings.HasPrefix(strings.TrimSpace(lines[row][50:]), "Waiting for") {
				t.Errorf("%s: the turn line is not under the seats:\n%s", c.name, screen)
			}
		}
	}
	if theirs := plain(roomModel(t, seen(stone, stoneState, 1)).View().Content); strings.Contains(theirs, "build") {
		t.Errorf("the Stone Towers player not to move is told to build:\n%s", theirs)
	}
}

// TestColorettaPromptKeepsItsParentheses: the turn line never leaves the end of a list of keys
// alone on a line.
func TestColorettaPromptKeepsItsParentheses(t *testing.T) {
	got := wrapKeepingParens("Your turn: draw (d) or pick a stack (1, 2 or 3)", 28)
	for _, l := range got {
		if strings.HasPrefix(l, "3)") || strings.Count(l, "(") != strings.Count(l, ")") {
			t.Errorf("wrapped %q", got)
		}
	}
}

// TestChatOpensOnlyOnItsKey: tab does not open the chat; keys meant for the board after it move
// the board's cursor, and nothing is sent. On t the chat prompt shows; arrows edit or close it,
// and nothing goes out but what was typed.
func TestChatOpensOnlyOnItsKey(t *testing.T) {
	m := roomModel(t, playedSnapshot(t, 4))
	for _, k := range []tea.KeyPressMsg{{Code: tea.KeyTab}, {Code: tea.KeyLeft}, {Code: tea.KeyEnter}} {
		next, cmd := m.Update(k)
		m = next.(Model)
		if m.room.focus != focusBoard {
			t.Fatalf("%s took the focus from the board", k)
		}
		if k.Code == tea.KeyEnter {
			if cmd == nil {
				t.Error("enter on the board proposes no move")
			}
		} else if cmd != nil {
			t.Errorf("%s sends something", k)
		}
	}
	m = press(m, "t")
	if m.room.focus != focusChat || !strings.Contains(plain(m.View().Content), "chat:") {
		t.Fatalf("t shows no chat prompt:\n%s", plain(m.View().Content))
	}
	m = press(m, "h", "i")
	next, _ := m.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
	m = press(next.(Model), "X")
	if got := string(m.room.prompt.input.value); got != "hXi" {
		t.Errorf("left and X made %q of hi, want hXi", got)
	}
	next, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyUp})
	m = next.(Model)
	if m.room.focus != focusBoard || cmd != nil {
		t.Errorf("up while chatting: focus %d, command %v; want the prompt closed, nothing sent", m.room.focus, cmd)
	}
	m = press(m, "t")
	for _, k := range []tea.KeyPressMsg{{Code: tea.KeyF1}, {Code: 'x', Mod: tea.ModAlt}, {Code: tea.KeyRight}} {
		next, _ := m.Update(k)
		m = next.(Model)
	}
	if got := string(m.room.prompt.input.value); got != "" {
		t.Errorf("keys that type nothing put %q in the chat", got)
	}
}

// TestChatScrollsByWholeMessages: when the chat is longer than its room in the panel, the panel
// shows whole messages, the newest last, never the end of one.
func TestChatScrollsByWholeMessages(t *testing.T) {
	snap := playedSnapshot(t, 14)
	snap.Chat = nil
	for i := range 12 {
		snap.Chat = append(snap.Chat, rooms.ChatLine{From: "bob", Text: fmt.Sprintf("message %d is long enough to take two lines", i)})
	}
	m := roomModel(t, snap)
	out := plain(m.View().Content)
	lines := strings.Split(out, "\n")
	first := -1
	for i, l := range lines {
		if len(l) > 52 && strings.HasPrefix(strings.TrimSpace(l[50:]), "────") {
			first = i + 1
			break
		}
	}
	if first < 0 || first >= len(lines) || len(lines[first]) < 53 || !strings.HasPrefix(strings.TrimSpace(lines[first][50:]), "bob: message") {
		t.Errorf("the chat does not start with a whole message:\n%s", out)
	}
	if !strings.Contains(out, "message 11") {
		t.Errorf("the newest message is not shown:\n%s", out)
	}
}

// TestErrorsClear: an error under the board goes at the next key, or when its time is up; an
// older error's expiry does not clear a newer one.
func TestErrorsClear(t *testing.T) {
	m := roomModel(t, playedSnapshot(t, 4))
	next, cmd := m.Update(moveDoneMsg{err: fmt.Errorf("square taken")})
	m = next.(Model)
	if cmd == nil || !strings.Contains(plain(m.View().Content), "Square taken.") {
		t.Fatalf("the error is not shown as a sentence, or has no expiry:\n%s", plain(m.View().Content))
	}
	next, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
	m = next.(Model)
	if strings.Contains(plain(m.View().Content), "Square taken") {
		t.Errorf("the error stays after the next key:\n%s", plain(m.View().Content))
	}
	next, _ = m.Update(moveDoneMsg{err: fmt.Errorf("first")})
	m = next.(Model)
	old := m.room.prompt.errSeq
	next, _ = m.Update(actionMsg{err: fmt.Errorf("second")})
	m = next.(Model)
	next, _ = m.Update(errExpiredMsg{seq: old})
	m = next.(Model)
	if !strings.Contains(plain(m.View().Content), "Second.") {
		t.Errorf("the first error's expiry cleared the second:\n%s", plain(m.View().Content))
	}
	next, _ = m.Update(errExpiredMsg{seq: m.room.prompt.errSeq})
	m = next.(Model)
	if strings.Contains(plain(m.View().Content), "Second") {
		t.Errorf("the error stays after its time:\n%s", plain(m.View().Content))
	}
}

// TestRatedGamesPlural: one rated game is "1 rated game".
func TestRatedGamesPlural(t *testing.T) {
	m := press(recordsModel(), "down", "down", "down", "down", "down", "enter")
	m.lobby.prof.Standings[0].Games = 1
	if out := plain(m.View().Content); !strings.Contains(out, "(1 rated game)") {
		t.Errorf("one rated game:\n%s", out)
	}
}

// TestMovePromptShowsNotation: while the move prompt is open the game's notation shows under the
// board; it goes when the prompt closes.
func TestMovePromptShowsNotation(t *testing.T) {
	m := roomModel(t, playedSnapshot(t, 4))
	first := strings.SplitN(stonetowers.Game.Notation, " ", 4)[:3]
	want := strings.Join(first, " ")
	m = press(m, ":")
	if out := plain(m.View().Content); !strings.Contains(out, want) || !strings.Contains(out, "move:") {
		t.Errorf("the move prompt does not show the notation (%q):\n%s", want, out)
	}
	m = press(m, "esc")
	if out := plain(m.View().Content); strings.Contains(out, want) {
		t.Errorf("the notation stays after the prompt closed:\n%s", out)
	}
}

// TestTurnClockShown: when the game times its turns, the player to move reads the time left, the
// others the time left of the player they wait for (whose it is, when they wait for several); the
// screen asks for a tick when that time shows its next second.
func TestTurnClockShown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		snap, state := stoneSnapshot(t, 14)
		snap.Clock = rooms.TurnClock{Seat: 0, Ends: time.Now().Add(2*time.Minute + 40*time.Second + 300*time.Millisecond)}
		m, ticks := tickingRoom(t, snap)
		if mine := words(plain(m.View().Content)); !strings.Contains(mine, "2:40 left for your turn") {
			t.Errorf("the player to move does not read the time left:\n%s", mine)
		}
		// The other player waits for ann, and reads her time under that line, not her name again.
		if theirs := words(plain(roomModel(t, seen(snap, state, 1)).View().Content)); !strings.Contains(theirs, "Waiting for ann (Red).") ||
			!strings.Contains(theirs, "2:40 left") || strings.Contains(theirs, "has 2:40") {
			t.Errorf("the other player does not read ann's time:\n%s", theirs)
		}
		// ... and when others are waited for too, whose time it is.
		many := seen(snap, state, 1)
		many.ToMove = []rules.Seat{0, 1}
		if theirs := words(plain(roomModel(t, many).View().Content)); !strings.Contains(theirs, "ann (Red) has 2:40") {
			t.Errorf("with two seats to move, the clock does not say whose it is:\n%s", theirs)
		}
		start := time.Now()
		if msg, ok := (<-ticks).(tickMsg); !ok || msg.gen != m.room.clock.gen || time.Since(start) != 300*time.Millisecond+clockLate {
			t.Errorf("tick %+v after %v, want when it shows 2:30 (0.3s, once less than 2:40 is left)", msg, time.Since(start))
		}
		m.room.stopTick()
		outlast(m.room.clock.ticks)
		snap.Clock = rooms.TurnClock{}
		if m = roomModel(t, snap); strings.Contains(plain(m.View().Content), "left for your turn") || m.room.clock.countingDown() {
			t.Error("an untimed turn shows a clock, or ticks")
		}
	})
}

// TestErrorKeepsItsExample: a two-line error never breaks inside a quoted example of notation,
// wherever the break falls.
func TestErrorKeepsItsExample(t *testing.T) {
	for pad := range 30 {
		m := roomModel(t, playedSnapshot(t, 4))
		msg := "bad move: " + strings.Repeat("x", pad) + ` write a move as a piece and its path, e.g. "R3 c4-d6" or "R1 a1-c2", or pass`
		next, _ := m.Update(moveDoneMsg{err: fmt.Errorf("%s", msg)})
		screen := plain(next.(Model).View().Content)
		for _, ex := range []string{`"R3 c4-d6"`, `"R1 a1-c2"`} {
			if !strings.Contains(screen, ex) {
				t.Fatalf("pad %d: the example %s is split:\n%s", pad, ex, screen)
			}
		}
	}
}

// rings reports whether applying snap to m's room rings the terminal's bell with the next frame.
func rings(m Model, snap rooms.Snapshot) bool {
	m.room.apply(snap)
	return m.FrameRaw() == bell && m.FrameRaw() == ""
}

// tickingRoom is roomModel whose clock sends its ticks to the channel returned (its own waker's:
// a test in a synctest bubble ends with outlast).
func tickingRoom(t *testing.T, snap rooms.Snapshot) (Model, chan tea.Msg) {
	m := newTestModel(80, 24)
	m.room = newRoomScreen(nil, m.cfg.Player, testGames, testBoards)
	ticks := make(chan tea.Msg, 8)
	m.room.clock.ticks = &waker{send: func(msg tea.Msg) { ticks <- msg }}
	m.room.apply(snap)
	return m, ticks
}

// TestYourTurnRingsAndTitles: when it becomes the player's turn the terminal's bell rings once
// (not with every snapshot of that turn, nor with the bell off) and the window's title says "your
// move"; otherwise the title names the game and the room.
func TestYourTurnRingsAndTitles(t *testing.T) {
	snap, state := stoneSnapshot(t, 14) // ann (seat 0) to move
	m := roomModel(t, seen(snap, state, 1))
	if got := m.View().WindowTitle; got != "Stone Towers · K7QXM" {
		t.Errorf("title while waiting %q", got)
	}
	nextSnap, nextState := stoneSnapshot(t, 15) // bob to move
	nextSnap = seen(nextSnap, nextState, 1)
	if !rings(m, nextSnap) {
		t.Error("no bell when it became bob's turn")
	}
	if got := m.View().WindowTitle; got != "your move · Stone Towers · K7QXM" {
		t.Errorf("title on bob's turn %q", got)
	}
	if rings(m, nextSnap) {
		t.Error("the bell rang again in the same turn")
	}
	m = roomModel(t, seen(snap, state, 1))
	m.room.noBell = true
	if rings(m, nextSnap) {
		t.Error("the bell rang with the bell off")
	}
	m.room = nil
	if got := m.View().WindowTitle; got != "arcade" {
		t.Errorf("title in the lobby %q", got)
	}
}

// TestMovesPanel: tab shows the match's last moves in place of the chat, and tab again the chat;
// a move that shows what only its mover may know is shown to the others in its public form.
func TestMovesPanel(t *testing.T) {
	snap, _ := stoneSnapshot(t, 14)
	n := len(snap.Moves)
	last := fmt.Sprintf("%3d. %s %s", n, "Blue", snap.Moves[n-1].Move)
	m := roomModel(t, snap)
	if out := plain(m.View().Content); !strings.Contains(out, "tab: moves") || strings.Contains(out, last) {
		t.Fatalf("the chat's rule does not tell tab, or the moves show already:\n%s", out)
	}
	m = press(m, "tab")
	out := plain(m.View().Content)
	if !strings.Contains(out, "moves · tab: chat") || !strings.Contains(out, last) || strings.Contains(out, "good luck") {
		t.Fatalf("tab does not show the moves (%q) in place of the chat:\n%s", last, out)
	}
	// A private move: seat 1's exchange is "x 2 tiles" to seat 0, and the tiles to seat 1.
	snap.Moves = append(snap.Moves[:n:n], rooms.MoveRecord{Seat: 1, Move: "x ab", Public: "x 2 tiles"})
	m = press(roomModel(t, snap), "tab")
	if out := plain(m.View().Content); !strings.Contains(out, "Blue x 2 tiles") || strings.Contains(out, "x ab") {
		t.Errorf("seat 0 reads seat 1's private move:\n%s", out)
	}
	snap.You = 1
	m = press(roomModel(t, snap), "tab")
	if out := plain(m.View().Content); !strings.Contains(out, "Blue x ab") {
		t.Errorf("seat 1 does not read its own move:\n%s", out)
	}
	m = press(m, "tab")
	if out := plain(m.View().Content); !strings.Contains(out, "good luck") {
		t.Errorf("tab again does not bring the chat back:\n%s", out)
	}
}

// TestMovesPanelWrapsLongMoves: a move too long for the panel goes on, indented, on the next
// line, never cut; only whole moves are shown.
func TestMovesPanelWrapsLongMoves(t *testing.T) {
	snap, _ := stoneSnapshot(t, 14)
	n := len(snap.Moves)
	long := "h6 dissembling sw,se,e,e,ne,ne,e,se,sw,sw,w,nw"
	snap.Moves = append(snap.Moves[:n:n], rooms.MoveRecord{Seat: 0, Move: long})
	out := plain(press(roomModel(t, snap), "tab").View().Content)
	flat := strings.ReplaceAll(strings.Join(strings.Fields(words(out)), ""), " ", "")
	if strings.Contains(out, "…") || !strings.Contains(flat, strings.ReplaceAll(long, " ", "")) {
		t.Errorf("the long move is cut:\n%s", out)
	}
}

// countingBoard counts the calls of its board's View.
type countingBoard struct {
	draw.Board
	views int
}

func (b *countingBoard) View(snap *rooms.Snapshot, st draw.Styles, width, height int) []string {
	b.views++
	return b.Board.View(snap, st, width, height)
}

// TestClockTickDrawsOnlyThePanel: a tick of the clock draws the panel again, not the board's
// column; a move's snapshot does, the same snapshot again does not.
func TestClockTickDrawsOnlyThePanel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		snap, _ := stoneSnapshot(t, 14)
		snap.Clock = rooms.TurnClock{Seat: 0, Ends: time.Now().Add(time.Minute)}
		m := roomModel(t, snap)
		b := &countingBoard{Board: m.room.board}
		m.room.board = b
		m.room.apply(snap)
		before := m.View().Content
		views := b.views
		time.Sleep(2 * time.Second)
		next, _ := m.Update(tickMsg{gen: m.room.clock.gen})
		m = next.(Model)
		after := m.View().Content
		if b.views != views || before == after || !strings.Contains(plain(after), "0:58 left for your turn") {
			t.Errorf("after a tick: %d more board drawings (want 0), screen changed %v:\n%s", b.views-views, before != after, plain(after))
		}
		m.room.apply(snap)
		m.View()
		if b.views != views {
			t.Errorf("the same snapshot again drew the board %d times, want 0", b.views-views)
		}
		moved, _ := stoneSnapshot(t, 15)
		moved.Clock = snap.Clock
		m.room.apply(moved)
		m.View()
		if b.views != views+1 {
			t.Errorf("a move's snapshot drew the board %d times, want 1", b.views-views)
		}
	})
}

// TestClockTickFollowsTheTurn: a snapshot's clock has its own tick, and the tick asked for the
// clock before is stopped, without a frame: the turn passed to a clock that shows its next
// second sooner (a game clock in tens of seconds hands over to one in its last 70 s) has its
// tick then, not when the other clock's would have come; a move that resets a move limit has
// its tick when the new clock shows its next second, not an earlier one that would draw the
// same panel again. One tick at a time, when the panel changes: at most a frame a second.
func TestClockTickFollowsTheTurn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		snap, _ := stoneSnapshot(t, 14)
		snap.TimeControl = rooms.Clock{Game: 10 * time.Minute, Increment: 5 * time.Second}
		snap.Times = []time.Duration{5*time.Minute + 9*time.Second, 45*time.Second + 200*time.Millisecond}
		snap.Clock = rooms.TurnClock{Seat: 0, Ends: time.Now().Add(snap.Times[0])}
		m, ticks := tickingRoom(t, snap) // 5:09 shows "5:00" for 9 s
		if !m.room.clock.ticks.ticking() {
			t.Fatal("no tick for a running clock")
		}

		turn := snap // the other player's clock runs now, "0:45", "0:44" in 200ms
		turn.Clock = rooms.TurnClock{Seat: 1, Ends: time.Now().Add(snap.Times[1])}
		m.room.apply(turn)
		start := time.Now()
		msg := <-ticks
		if waited := time.Since(start); waited != 200*time.Millisecond+clockLate || msg != (tickMsg{gen: m.room.clock.gen}) {
			t.Errorf("the tick %+v came after %v, want the one asked for last (%d) after 200ms", msg, waited, m.room.clock.gen)
		}
		gen := m.room.clock.gen
		next, _ := m.Update(msg)
		m = next.(Model)
		if out := words(plain(m.View().Content)); !strings.Contains(out, "bob (Blue) has 0:44") {
			t.Errorf("after the tick, bob's time:\n%s", out)
		}
		if m.room.clock.gen != gen+1 {
			t.Error("no next tick while the clock runs")
		}

		// A move limit: 0:59.7 shows "0:59" and ticks in 700ms; a move resets it to 1:00, which
		// shows 0:59 as soon as less than a minute is left.
		snap.TimeControl, snap.Times = rooms.Clock{Move: time.Minute}, nil
		snap.Clock = rooms.TurnClock{Seat: 0, Ends: time.Now().Add(59*time.Second + 700*time.Millisecond)}
		m.room.apply(snap)
		time.Sleep(500 * time.Millisecond)
		snap.Clock = rooms.TurnClock{Seat: 1, Ends: time.Now().Add(time.Minute)}
		m.room.apply(snap)
		start = time.Now()
		if msg, ok := (<-ticks).(tickMsg); !ok || msg.gen != m.room.clock.gen || time.Since(start) != clockLate {
			t.Errorf("after the move the tick came after %v (%+v), want the new clock's next value, at once", time.Since(start), msg)
		}
		synctest.Wait()
		if len(ticks) != 0 {
			t.Errorf("%d more ticks came, want one at a time", len(ticks))
		}
		m.room.stopTick()
		outlast(m.room.clock.ticks)
	})
}

// TestClockShown: a clock shows whole seconds rounded down in its last 70 s, those rounded down
// to tens of seconds before (never more than a player has: 10:03 left after an increment shows
// 10:00, 59.5 s shows 0:59), and says when it shows its next value: once less than it shows is
// left.
func TestClockShown(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct{ raw, shown, next time.Duration }{
		{160300 * ms, 160 * time.Second, 300*ms + clockLate},
		{150 * time.Second, 150 * time.Second, clockLate},
		{603 * time.Second, 600 * time.Second, 3*time.Second + clockLate},
		{75 * time.Second, 70 * time.Second, 5*time.Second + clockLate},
		{70 * time.Second, 70 * time.Second, clockLate},
		{59500 * ms, 59 * time.Second, 500*ms + clockLate},
		{19600 * ms, 19 * time.Second, 600*ms + clockLate},
		{400 * ms, 0, 400*ms + clockLate},
		{0, 0, 0},
	} {
		if shown, next := clockShown(c.raw); shown != c.shown || next != c.next {
			t.Errorf("clockShown(%v) = %v, %v; want %v, %v", c.raw, shown, next, c.shown, c.next)
		}
		if shown, _ := clockShown(c.raw); shown > c.raw {
			t.Errorf("clockShown(%v) shows %v, more than is left", c.raw, shown)
		}
	}
}

// TestMovePromptNotationLinesWhole: at 80 x 24 each line of the notation of the games that break
// it into lines shows whole under the board while the move prompt is open, not wrapped again into
// a ragged pair.
func TestMovePromptNotationLinesWhole(t *testing.T) {
	lhex, _ := lhexMid(t)
	for _, c := range []struct {
		game rules.Game
		snap rooms.Snapshot
	}{
		{lhexicon.Game, lhex},
		{flicflac.Game, flicflacMid(t, 10)},
	} {
		m := newTestModel(80, 24)
		m.room = newRoomScreen(nil, m.cfg.Player, []rules.Game{c.game}, testBoards)
		m.room.apply(c.snap)
		m = press(m, ":")
		out := plain(m.View().Content)
		checkSize(t, m.View().Content, 80, 24)
		for _, line := range strings.Split(c.game.Notation, "\n") {
			if !strings.Contains(out, line) {
				t.Errorf("%s: the notation line %q is not whole under the board:\n%s", c.game.ID, line, out)
			}
		}
	}
}

// TestShortTurnWarnsNearItsEnd: a turn of 20 s (Flic Flac's) is not drawn as a warning from its
// start, only in its last quarter; a turn of 2 minutes warns in its last 30 s as before.
func TestShortTurnWarnsNearItsEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, c := range []struct {
			long, calm, warn time.Duration // the turn, a time left drawn plain, one drawn as a warning
		}{
			{20 * time.Second, 12 * time.Second, 4 * time.Second},
			{2 * time.Minute, 45 * time.Second, 25 * time.Second},
		} {
			snap, _ := stoneSnapshot(t, 14)
			snap.Clock = rooms.TurnClock{Seat: 0, Ends: time.Now().Add(c.long)}
			m := roomModel(t, snap)
			st := *m.st
			m.View()
			for _, at := range []struct {
				left time.Duration
				warn bool
			}{{c.long, false}, {c.calm, false}, {c.warn, true}} {
				time.Sleep(time.Until(snap.Clock.Ends.Add(-at.left)))
				out := m.View().Content
				clock := fmt.Sprintf("%d:%02d", int(at.left.Minutes()), int(at.left.Seconds())%60)
				if got := strings.Contains(out, st.Err.Render(clock)); got != at.warn {
					t.Errorf("turn of %v, %v left: drawn as a warning %v, want %v:\n%s", c.long, at.left, got, at.warn, plain(out))
				}
				if !strings.Contains(plain(out), clock+" left for your turn") {
					t.Errorf("turn of %v: %s left is not shown:\n%s", c.long, clock, plain(out))
				}
			}
		}
	})
}
