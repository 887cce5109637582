package lhexiconview

import (
	"context"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/arcade/arcade/games/gametest"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon"
	"github.com/arcade/arcade/session/draw"
)

// panelWidth is the width of the room's side panel (session), which Status is given.
const panelWidth = 28

// lhexSnapshot plays plies moves of a seeded match of seats players with easy bots (greedy when
// greedy) and returns ann's snapshot of it (seat 0) with the engine.
func lhexSnapshot(t *testing.T, opts rules.Options, seats int, plies int) (rooms.Snapshot, *lhexicon.State) {
	t.Helper()
	state, moves := gametest.PlayBots(t, lhexicon.Game, opts, seats, 7, lhexicon.Easy{},
		func(i int, _ rules.Engine) bool { return plies >= 0 && i >= plies })
	return gametest.Snapshot("LH3X1", lhexicon.Game, state, moves, []string{"ann", "bob", "cid", "dee"}[:seats], nil),
		state.(*lhexicon.State)
}

// as makes snap seat's snapshot of state.
func as(snap rooms.Snapshot, state *lhexicon.State, seat rules.Seat) rooms.Snapshot {
	snap.You, snap.View, snap.ToMove, snap.Outcome = seat, state.View(seat), state.ToMove(), state.Outcome()
	return snap
}

// press gives the board keys: "up", "enter", "space", "backspace", "esc", or one character.
func press(b *lhexBoard, snap *rooms.Snapshot, keys ...string) string {
	var out string
	for _, k := range keys {
		var msg tea.KeyPressMsg
		switch k {
		case "up":
			msg = tea.KeyPressMsg{Code: tea.KeyUp}
		case "down":
			msg = tea.KeyPressMsg{Code: tea.KeyDown}
		case "left":
			msg = tea.KeyPressMsg{Code: tea.KeyLeft}
		case "right":
			msg = tea.KeyPressMsg{Code: tea.KeyRight}
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "space":
			msg = tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
		case "backspace":
			msg = tea.KeyPressMsg{Code: tea.KeyBackspace}
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		default:
			msg = tea.KeyPressMsg{Code: rune(k[0]), Text: k}
		}
		out = b.Handle(msg, snap)
	}
	return out
}

// goTo moves the cursor to h with the arrows: up or down to its row, then along it.
func goTo(t *testing.T, b *lhexBoard, snap *rooms.Snapshot, h lhexicon.Hex) {
	t.Helper()
	for range 40 {
		switch {
		case b.cur == h:
			return
		case b.cur.Row() > h.Row():
			press(b, snap, "up")
		case b.cur.Row() < h.Row():
			press(b, snap, "down")
		case b.cur.Col() > h.Col():
			press(b, snap, "left")
		default:
			press(b, snap, "right")
		}
	}
	t.Fatalf("the cursor does not reach %s (at %s)", h, b.cur)
}

// compose spells m with the keys: the cursor to each hex, then its letter (with * for a blank;
// enter first, on the first empty hex, starts the word), or space on a tile already there; the
// last key's answer is returned after enter.
func compose(t *testing.T, b *lhexBoard, snap *rooms.Snapshot, m lhexicon.Move) string {
	t.Helper()
	v, _ := draw.ViewRef[lhexicon.View](snap)
	hexes, ok := m.Cells()
	if !ok {
		t.Fatalf("%s leaves the board", m)
	}
	for i, h := range hexes {
		goTo(t, b, snap, h)
		tl := m.Tiles[i]
		switch {
		case v.Board[h] != lhexicon.NoTile:
			press(b, snap, "space")
		case tl.IsBlank():
			press(b, snap, "*", tl.Spell()[:1])
		case !b.c.busy():
			press(b, snap, "enter", tl.Spell()[:1])
		default:
			press(b, snap, tl.Spell()[:1])
		}
		if b.c.note != "" && !strings.HasPrefix(b.c.note, "No ") {
			t.Fatalf("%s, hex %s: %s", m, h, b.c.note)
		}
	}
	return press(b, snap, "enter")
}

// firstPlay finds a play for the seat to move.
func firstPlay(t *testing.T, s *lhexicon.State) lhexicon.Move {
	t.Helper()
	var m lhexicon.Move
	found := false
	s.Generate(context.Background(), s.Turn(), func(c lhexicon.Candidate) bool {
		m, found = c.Clone().Move, true
		return len(c.Move.Tiles) < 4 // a longer word if one comes soon
	})
	if !found {
		t.Fatal("no play in the test position")
	}
	return m
}

// TestComposeAndPlay: the cursor, letters and space spell the generator's plays, on the empty
// board and later; enter proposes the play's own notation, which the engine accepts.
func TestComposeAndPlay(t *testing.T) {
	for _, plies := range []int{0, 5, 12} {
		snap, state := lhexSnapshot(t, nil, 2, plies)
		if state.Turn() != 0 {
			snap, state = lhexSnapshot(t, nil, 2, plies+1)
		}
		m := firstPlay(t, state)
		b := newLhexBoard()
		got := compose(t, b, &snap, m)
		if got != m.String() {
			t.Fatalf("%d plies: the keys propose %q, want %q (note %q)", plies, got, m, b.c.note)
		}
		ns, err := state.Apply(0, got)
		if err != nil {
			t.Fatalf("the engine refuses %q: %v", got, err)
		}
		// The play made, the new view drops the composition.
		next := as(snap, ns.(*lhexicon.State), 0)
		b.View(&next, *draw.NewStyles(false, false), 51, 21)
		if len(b.c.steps) != 0 {
			t.Errorf("the word stays composed after it was played")
		}
	}
}

// TestCursorZigZag: up and down keep to the cursor's column, zig-zagging between the offset rows;
// left and right stay on the row; the board's edges stop the cursor.
func TestCursorZigZag(t *testing.T) {
	snap, _ := lhexSnapshot(t, nil, 2, 0)
	b := newLhexBoard()
	b.View(&snap, *draw.NewStyles(false, false), 51, 21)
	start := b.cur
	if start.String() != "h8" {
		t.Fatalf("the cursor starts on %s, want the centre h8", start)
	}
	press(b, &snap, "up")
	first := b.cur
	if _, ok := start.DirTo(first); !ok || first.Row() != start.Row()-1 {
		t.Fatalf("up from h8 goes to %s", first)
	}
	press(b, &snap, "up")
	if screenX(b.cur) != screenX(start) || b.cur.Row() != start.Row()-2 {
		t.Errorf("up twice from h8 goes to %s, not straight up", b.cur)
	}
	press(b, &snap, "down", "down")
	if b.cur != start {
		t.Errorf("down twice comes back to %s, want h8", b.cur)
	}
	for range 20 {
		press(b, &snap, "up")
	}
	if b.cur.Row() != 0 {
		t.Errorf("up twenty times stops on %s, want row a", b.cur)
	}
	for range 20 {
		press(b, &snap, "left")
	}
	if b.cur.String() != "a1" {
		t.Errorf("left twenty times on row a stops on %s, want a1", b.cur)
	}
}

// TestUndoClearAndRefusal: backspace takes back the last hex (its tile goes back to the rack),
// esc clears the word, and a play the preview refuses is not sent and stays composed, saying why.
func TestUndoClearAndRefusal(t *testing.T) {
	snap, _ := lhexSnapshot(t, nil, 2, 0)
	v, _ := draw.ViewRef[lhexicon.View](&snap)
	b := newLhexBoard()
	st := *draw.NewStyles(true, false)
	l1, l2 := v.Rack[0].Spell()[:1], v.Rack[1].Spell()[:1]
	if v.Rack[0] == lhexicon.Blank || v.Rack[1] == lhexicon.Blank {
		t.Skip("a blank among the first tiles")
	}
	// Away from the centre: the first word must cover it.
	press(b, &snap, "left", "left", "left", "enter", l1, "right", l2)
	if len(b.c.steps) != 2 {
		t.Fatalf("%d hexes composed, want 2 (note %q)", len(b.c.steps), b.c.note)
	}
	if got := press(b, &snap, "enter"); got != "" {
		t.Fatalf("enter sends %q, a play off the centre", got)
	}
	if len(b.c.steps) != 2 || !strings.Contains(b.c.note, "centre") {
		t.Fatalf("after a refusal: %d hexes, note %q", len(b.c.steps), b.c.note)
	}
	screen := ansi.Strip(strings.Join(b.View(&snap, st, 51, 21), "\n"))
	if !strings.Contains(screen, "Not played: the first word must cover the centre") {
		t.Errorf("the screen does not say why:\n%s", screen)
	}
	if strings.Contains(b.c.note, lhexicon.ErrCentre.Error()) {
		t.Errorf("the refusal says its reason twice: %q", b.c.note)
	}
	if !strings.Contains(screen, "Rack --") {
		t.Errorf("the rack does not show the tiles placed as taken:\n%s", screen)
	}
	press(b, &snap, "backspace")
	if len(b.c.steps) != 1 || b.c.used(len(v.Rack))[1] {
		t.Errorf("backspace leaves %d hexes, the second tile used: %v", len(b.c.steps), b.c.used(len(v.Rack)))
	}
	press(b, &snap, "esc")
	if b.c.busy() {
		t.Errorf("esc leaves %d hexes composed", len(b.c.steps))
	}
	// A letter not on the rack: the blank, or a refusal.
	press(b, &snap, "enter", "z")
	hasBlank := strings.Contains(rackLine(v, &snap, st, make([]bool, 7), nil), "?0")
	if hasBlank != (len(b.c.steps) == 1) {
		t.Errorf("z with blank %v composes %d hexes (note %q)", hasBlank, len(b.c.steps), b.c.note)
	}
}

// TestTypingOnGoesEast: letters typed one after another on the centre spell a word along its row,
// as a new player types one; a cursor moved first steers the word.
func TestTypingOnGoesEast(t *testing.T) {
	snap, _ := lhexSnapshot(t, nil, 2, 0)
	v, _ := draw.ViewRef[lhexicon.View](&snap)
	var letters []string
	for _, tl := range v.Rack[:3] {
		if tl == lhexicon.Blank {
			t.Skip("a blank among the first tiles")
		}
		letters = append(letters, tl.Spell()[:1])
	}
	b := newLhexBoard()
	b.View(&snap, *draw.NewStyles(false, false), 51, 21)
	start := b.cur
	press(b, &snap, append([]string{"enter"}, letters...)...)
	if len(b.c.steps) != 3 || b.c.note != "" {
		t.Fatalf("typing %v composes %d hexes (note %q)", letters, len(b.c.steps), b.c.note)
	}
	for i, s := range b.c.steps {
		if s.hex.Row() != start.Row() || s.hex.Col() != start.Col()+i {
			t.Errorf("letter %d on %s, want along the row from %s", i+1, s.hex, start)
		}
	}
	// Steered: down after the first letter, then the second letter goes there, not east.
	press(b, &snap, "esc")
	press(b, &snap, "enter", letters[0], "down", letters[1])
	if len(b.c.steps) != 2 || b.c.steps[1].hex.Row() != start.Row()+1 {
		t.Errorf("down then a letter: hexes %v, note %q", b.c.steps, b.c.note)
	}
}

// TestOtherMoves: x picks tiles and enter exchanges them; p proposes a pass, which the room asks
// about first (Ask); nothing is proposed off turn. With no word started the letters are the
// room's (t chats), and esc is not taken; a started word takes them, capitals too.
func TestOtherMoves(t *testing.T) {
	snap, state := lhexSnapshot(t, nil, 2, 0)
	v, _ := draw.ViewRef[lhexicon.View](&snap)
	b := newLhexBoard()
	give := v.Rack[0].String()
	if v.Rack[0] == lhexicon.Blank {
		press(b, &snap, "x", "*")
	} else {
		press(b, &snap, "x", give[:1])
	}
	got := press(b, &snap, "enter")
	if got != "x "+give {
		t.Fatalf("x %s enter proposes %q", give, got)
	}
	if _, err := state.Apply(0, got); err != nil {
		t.Errorf("the engine refuses %q: %v", got, err)
	}
	press(b, &snap, "esc") // (the exchange sent stays composed until the room's answer)
	if got := press(b, &snap, "p"); got != "pass" {
		t.Errorf("p proposes %q", got)
	}
	if q, yes := b.Ask("pass", &snap); !strings.HasPrefix(q, "Pass your turn?") || yes != "pass" {
		t.Errorf("a pass is not asked: %q, %q", q, yes)
	}
	if q, _ := b.Ask("x "+give, &snap); q != "" {
		t.Errorf("an exchange composed and entered is asked again: %q", q)
	}
	for _, k := range []string{"P", "X", "E", "C"} {
		if got := press(b, &snap, k); got != "" || b.c.busy() {
			t.Errorf("%s proposes %q, composes %v: a capital alone gives nothing up", k, got, b.c.busy())
		}
	}
	bob := as(snap, state, 1)
	if got := press(b, &bob, "p"); got != "" {
		t.Errorf("off turn p proposes %q", got)
	}
	tKey := tea.KeyPressMsg{Code: 't', Text: "t"}
	if b.TakesKey(tKey, &bob) || b.TakesKey(tKey, &snap) {
		t.Error("the board takes t with no word started: chat would not open")
	}
	press(b, &snap, "enter")
	if !b.TakesKey(tKey, &snap) || !b.TakesKey(tea.KeyPressMsg{Code: 'R', Text: "R"}, &snap) {
		t.Error("a started word does not take t and R: a T or an R tile could not be placed")
	}
	press(b, &snap, "esc")
	if b.TakesKey(tea.KeyPressMsg{Code: tea.KeyEscape}, &snap) {
		t.Error("the board takes esc with nothing composed: the room could not be left")
	}
}

// TestChallengeKeys: under check=challenge, the word just played may be challenged: C from the
// next player proposes "challenge" (asked first), a from a third "accept"; the panel and turn
// line say so.
func TestChallengeKeys(t *testing.T) {
	snap, state := lhexSnapshot(t, rules.Options{"check": "challenge"}, 3, 0)
	ns, err := state.Apply(0, firstPlay(t, state).String())
	if err != nil {
		t.Fatal(err)
	}
	st := ns.(*lhexicon.State)
	bob, cid := as(snap, st, 1), as(snap, st, 2)
	b := newLhexBoard()
	if yours, _ := b.TurnText(&bob); !strings.Contains(yours, "c to challenge") {
		t.Errorf("bob's turn line: %q", yours)
	}
	if yours, _ := b.TurnText(&cid); !strings.Contains(yours, "c challenges") {
		t.Errorf("cid's turn line: %q", yours)
	}
	if got := press(b, &bob, "c"); got != "challenge" {
		t.Errorf("c proposes %q", got)
	}
	if q, _ := b.Ask("challenge", &bob); !strings.Contains(q, "Challenge AVES?") && !strings.Contains(q, "Challenge ") {
		t.Errorf("a challenge is not asked: %q", q)
	}
	if got := press(b, &cid, "a"); got != "accept" {
		t.Errorf("a proposes %q", got)
	}
	panel := ansi.Strip(strings.Join(b.Status(&cid, *draw.NewStyles(true, true), panelWidth), "\n"))
	if !strings.Contains(panel, "may be challenged") {
		t.Errorf("the panel does not say the word may be challenged:\n%s", panel)
	}
}

// TestLhexASCII: without colour and in ASCII every screen of the board (a player's, a
// spectator's, composing, at the end) is plain ASCII, fits 51 x 21 and its panel 28 columns.
func TestLhexASCII(t *testing.T) {
	mid, state := lhexSnapshot(t, nil, 2, 14)
	end, _ := lhexSnapshot(t, nil, 2, -1)
	spect := as(mid, state, rules.Spectator)
	st := *draw.NewStyles(true, true)
	for name, snap := range map[string]rooms.Snapshot{"mid": mid, "end": end, "spectator": spect} {
		b := newLhexBoard()
		press(b, &snap, "left", "a", "space", "*")
		lines := b.View(&snap, st, 51, 21)
		if len(lines) > 21 {
			t.Errorf("%s: %d lines", name, len(lines))
		}
		for _, l := range append(lines, b.Status(&snap, st, panelWidth)...) {
			p := ansi.Strip(l)
			if ansi.StringWidth(p) > 51 {
				t.Errorf("%s: line too wide: %q", name, p)
			}
			for _, r := range p {
				if r > 127 {
					t.Errorf("%s: non-ASCII %q in %q", name, r, p)
					break
				}
			}
		}
		if name == "spectator" && strings.Contains(ansi.Strip(strings.Join(lines, "\n")), "Rack ") {
			t.Errorf("a spectator sees a rack")
		}
	}
}

// TestTallBoard: given the height, the board is drawn two lines a row, each tile's points under
// its letter, and a click on a row's line finds its hex.
func TestTallBoard(t *testing.T) {
	snap, state := lhexSnapshot(t, nil, 2, 6)
	b := newLhexBoard()
	st := *draw.NewStyles(true, true)
	lines := b.View(&snap, st, 51, 37)
	if !b.tall || len(lines) > 37 {
		t.Fatalf("tall %v, %d lines", b.tall, len(lines))
	}
	var h lhexicon.Hex = lhexicon.NoHex
	for x := range lhexicon.Hex(lhexicon.NumHexes) {
		if state.Board(x) != lhexicon.NoTile {
			h = x
			break
		}
	}
	col := lhexLeft + indent(h.Row()) + 2*h.Col() + 1
	letter, value := []rune(ansi.Strip(lines[2*h.Row()])), []rune(ansi.Strip(lines[2*h.Row()+1]))
	want := []rune(strconv.Itoa(state.Board(h).Value()))
	if letter[col] != rune(letterChar(state.Board(h))) || value[col] != want[0] {
		t.Errorf("%s: %q over %q at column %d, want its letter over %d", h, string(letter), string(value), col,
			state.Board(h).Value())
	}
	b.Handle(tea.MouseClickMsg{X: col, Y: 2*h.Row() + 1, Button: tea.MouseLeft}, &snap)
	if b.cur != h {
		t.Errorf("a click on %s's value line puts the cursor on %s", h, b.cur)
	}
	if b.View(&snap, st, 51, 21); b.tall {
		t.Error("the board is tall in 21 lines")
	}
}

// TestChallengeOutcomeStays: the outcome of a challenge stays in the panel for a round after
// the next move has become the last.
func TestChallengeOutcomeStays(t *testing.T) {
	snap, state := lhexSnapshot(t, rules.Options{"check": "challenge"}, 2, 0)
	play := firstPlay(t, state).String()
	b := newLhexBoard()
	st := *draw.NewStyles(true, true)
	var s rules.Engine = state
	for i, mv := range []string{play, "challenge", "pass"} {
		seat := s.ToMove()[0]
		if mv == "challenge" {
			seat = 1
		}
		next, err := s.Apply(seat, mv)
		if err != nil {
			t.Fatalf("%s: %v", mv, err)
		}
		s = next
		snap = as(snap, s.(*lhexicon.State), 0)
		snap.Moves = append(snap.Moves[:i:i], rooms.MoveRecord{Seat: seat, Move: mv})
		panel := ansi.Strip(strings.Join(b.Status(&snap, st, panelWidth), " "))
		if i > 0 && !strings.Contains(panel, "challenged") {
			t.Errorf("after %s the panel does not tell the challenge: %s", mv, panel)
		}
	}
}

// TestEndedByTheRoom: a match the room ended (a resignation, a clock) says the room's reason,
// not the engine's, which has none.
func TestEndedByTheRoom(t *testing.T) {
	snap, _ := lhexSnapshot(t, nil, 2, 4)
	snap.Phase = rooms.Finished
	snap.Outcome = rules.Outcome{Over: true, Scores: []int{10, 12}, Ranks: []int{2, 1}, Reason: "ann resigned"}
	out := strings.Join(NewBoard().View(&snap, *draw.NewStyles(true, false), 51, 21), "\n")
	if !strings.Contains(out, "The game is over: ann resigned.") {
		t.Errorf("the board does not say why the match ended:\n%s", out)
	}
}

// TestNoteGoesWithTheNextMove: a refusal under the board goes when a move comes another way (the
// move prompt's "pass"), not only at the next key.
func TestNoteGoesWithTheNextMove(t *testing.T) {
	snap, state := lhexSnapshot(t, nil, 2, 0)
	b := newLhexBoard()
	st := *draw.NewStyles(true, false)
	press(b, &snap, "enter", "enter") // a word started, nothing composed
	const why = "Type a rack letter first"
	if screen := ansi.Strip(strings.Join(b.View(&snap, st, 51, 21), "\n")); !strings.Contains(screen, why) {
		t.Fatalf("enter with nothing composed says nothing:\n%s", screen)
	}
	n, err := state.Apply(0, "pass")
	if err != nil {
		t.Fatal(err)
	}
	snap = as(snap, n.(*lhexicon.State), 0)
	if screen := ansi.Strip(strings.Join(b.View(&snap, st, 51, 21), "\n")); strings.Contains(screen, why) {
		t.Errorf("the refusal stays after a pass:\n%s", screen)
	}
}

// TestNoColorWordStandsOut: without colour the word being spelled is drawn otherwise than any
// tile of the last word played, even one of 4 points or more (bold and underlined there). (The
// cursor, in reverse too, has its brackets.)
func TestNoColorWordStandsOut(t *testing.T) {
	for _, ascii := range []bool{false, true} {
		st := *draw.NewStyles(true, ascii)
		word := lhexCell{ch: 'Z', kind: cellWord}.draw(st)
		for tier := range uint8(4) {
			for _, last := range []bool{false, true} {
				if tile := (lhexCell{ch: 'Z', kind: cellTile, tier: tier, last: last}).draw(st); tile == word {
					t.Errorf("ascii %v: a tile of tier %d (last %v) is drawn as the word being spelled: %q", ascii, tier, last, tile)
				}
			}
		}
	}
}
