package flicflacview

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/arcade/arcade/games/gametest"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/flicflac"
	"github.com/arcade/arcade/session/draw"
)

// The room's board column at 80 x 24 and its side panel's width (session).
const colW, colH, panelWidth = 51, 21, 28

// play plays a seeded Flic Flac match with greedy bots (events off unless opts say) until stop
// says so and returns ann's snapshot with the engine.
func play(t *testing.T, opts rules.Options, stop func(i int, s *flicflac.State) bool) (rooms.Snapshot, *flicflac.State) {
	t.Helper()
	if opts == nil {
		opts = rules.Options{"shape": "cylinders"}
	}
	state, moves := gametest.PlayBots(t, flicflac.Game, opts, 2, 3, flicflac.Greedy{},
		func(i int, s rules.Engine) bool { return stop(i, s.(*flicflac.State)) })
	return gametest.Snapshot("FL1CF", flicflac.Game, state, moves, []string{"ann", "bob"}, nil), state.(*flicflac.State)
}

// press gives the board one key.
func press(b *board, snap *rooms.Snapshot, k string) string {
	switch k {
	case "enter":
		return b.Handle(tea.KeyPressMsg{Code: tea.KeyEnter}, snap)
	case "right":
		return b.Handle(tea.KeyPressMsg{Code: tea.KeyRight}, snap)
	case "left":
		return b.Handle(tea.KeyPressMsg{Code: tea.KeyLeft}, snap)
	case "up":
		return b.Handle(tea.KeyPressMsg{Code: tea.KeyUp}, snap)
	case "down":
		return b.Handle(tea.KeyPressMsg{Code: tea.KeyDown}, snap)
	case "backspace":
		return b.Handle(tea.KeyPressMsg{Code: tea.KeyBackspace}, snap)
	}
	return b.Handle(tea.KeyPressMsg{Code: rune(k[0]), Text: k}, snap)
}

func plainLines(lines []string) string {
	var out []string
	for _, l := range lines {
		out = append(out, strings.TrimRight(ansi.Strip(l), " "))
	}
	return strings.Join(out, "\n")
}

// fresh plays to ann's turn (cylinders, the first mover) with nothing moved yet, after plies moves.
func fresh(t *testing.T, plies int) (rooms.Snapshot, *flicflac.State) {
	t.Helper()
	return play(t, nil, func(i int, s *flicflac.State) bool {
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
}

// applied returns snap after state plays move for ann, with the new state.
func applied(t *testing.T, snap rooms.Snapshot, state *flicflac.State, move string) (rooms.Snapshot, *flicflac.State) {
	t.Helper()
	n, err := state.Apply(0, move)
	if err != nil {
		t.Fatalf("%s: %v", move, err)
	}
	snap.View, snap.ToMove = n.View(0), n.ToMove()
	return snap, n.(*flicflac.State)
}

// TestKeysPickMoveTakeBackEnd: n picks a piece and marks where it may go; enter on one of those
// hexes proposes the move in notation; backspace (not u, the room's takeback) proposes taking it
// back; e proposes the end.
func TestKeysPickMoveTakeBackEnd(t *testing.T) {
	snap, state := fresh(t, 0)
	b := newBoard()
	if got := press(b, &snap, "n"); got != "" {
		t.Fatalf("n proposed %q", got)
	}
	v := state.ViewOf()
	if b.sel < 0 || len(v.Reach[b.sel]) == 0 {
		t.Fatalf("n picked %d, which may go nowhere", b.sel)
	}
	picked := b.sel
	target := v.Reach[picked][0]
	screen := plainLines(b.View(&snap, *draw.NewStyles(true, true), colW, colH))
	if n := strings.Count(screen, "+"); n < 2*len(v.Reach[picked]) {
		t.Errorf("%d marks for %d hexes in reach:\n%s", n, len(v.Reach[picked]), screen)
	}
	// Walk the cursor to the target with the arrows... or click it: a click is enter there.
	c := b.lay.cells[b.lay.hexCell[target]]
	got := b.Handle(tea.MouseClickMsg{X: c.col + 1, Y: c.line, Button: tea.MouseLeft}, &snap)
	want := flicflac.Move{Kind: flicflac.Place, Colour: picked, To: v.Hexes[target].Name}.String()
	if got != want {
		t.Fatalf("enter on a reached hex proposed %q, want %q", got, want)
	}
	snap, state = applied(t, snap, state, got)
	if got := press(b, &snap, "u"); got != "" {
		t.Errorf("u proposed %q: it is the room's takeback, not the board's", got)
	}
	if got := press(b, &snap, "backspace"); got != "u "+string(picked.Letter()) {
		t.Errorf("backspace proposed %q, want the take-back of %c", got, picked.Letter())
	}
	if _, err := state.Apply(0, "u "+string(picked.Letter())); err != nil {
		t.Errorf("the take-back is refused: %v", err)
	}
	if got := press(b, &snap, "e"); got != "end" {
		t.Errorf("e proposed %q", got)
	}
}

// TestKeysArrowsAndRefusals: the arrows walk the board and the homes; enter on a hex the picked
// piece cannot reach drops the pick, proposes nothing and says why; nothing is proposed off turn.
func TestKeysArrowsAndRefusals(t *testing.T) {
	snap, state := fresh(t, 0)
	b := newBoard()
	press(b, &snap, "n")
	// Every cell is reachable with the arrows from the first: a walk right then down covers
	// every line.
	seen := map[int]bool{}
	b.cur = 0
	for range b.lay.lines {
		for range 20 {
			seen[b.lay.cells[b.cur].line] = true
			press(b, &snap, "right")
		}
		press(b, &snap, "down")
	}
	if len(seen) != b.lay.lines {
		t.Errorf("the arrows reached %d lines of %d", len(seen), b.lay.lines)
	}
	// A hex far from every piece of ann's, free.
	v := state.ViewOf()
	b.sel = -1
	press(b, &snap, "n")
	reach := map[flicflac.Hex]bool{}
	for _, h := range v.Reach[b.sel] {
		reach[h] = true
	}
	for h, hv := range v.Hexes {
		if hv.Piece < 0 && !reach[flicflac.Hex(h)] {
			b.cur = b.lay.hexCell[h]
			break
		}
	}
	picked, off := b.sel, v.Hexes[b.lay.cells[b.cur].hex].Name
	if got := press(b, &snap, "enter"); got != "" || b.sel >= 0 {
		t.Errorf("enter off the reach proposed %q, pick %d", got, b.sel)
	}
	// ... and says why, under the board, until the next key.
	why := string(picked.Letter()) + " cannot go to " + off
	if h := b.hint(&v, &snap, 80); !strings.Contains(h, why) {
		t.Errorf("enter off the reach says %q, want %q", h, why)
	}
	press(b, &snap, "left")
	if h := b.hint(&v, &snap, 80); strings.Contains(h, "cannot") {
		t.Errorf("the refusal stays after the next key: %q", h)
	}
	// bob's turn: enter and n do nothing.
	snap, _ = applied(t, snap, state, "end")
	if got := press(b, &snap, "n"); got != "" || b.sel >= 0 {
		t.Errorf("n off turn: %q, pick %d", got, b.sel)
	}
}

// TestHexagonFits: every side's board fits the room's column at 80 x 24 with its legend.
func TestHexagonFits(t *testing.T) {
	for side := flicflac.MinSide; side <= flicflac.MaxSide; side++ {
		snap, _ := play(t, rules.Options{"size": strconv.Itoa(side), "shape": "blocks"},
			func(i int, _ *flicflac.State) bool { return i >= 30 })
		b := newBoard()
		for _, ascii := range []bool{false, true} {
			lines := b.View(&snap, *draw.NewStyles(true, ascii), colW, colH)
			if len(lines) > colH {
				t.Errorf("side %d: %d lines", side, len(lines))
			}
			for _, l := range lines {
				if w := draw.TextWidth(l); w > colW {
					t.Errorf("side %d: %d columns: %q", side, w, ansi.Strip(l))
				}
			}
			board := plainLines(lines[:2*side-1])
			if got := strings.Count(board, "[") - strings.Count(board, "[ ]"); got != flicflac.Colours {
				t.Errorf("side %d: %d blocks drawn", side, got)
			}
		}
	}
}

// TestRowsRedrawn: a board that keeps its rows from frame to frame draws what a new board draws,
// move after move.
func TestRowsRedrawn(t *testing.T) {
	snap, state := fresh(t, 0)
	kept := newBoard()
	st := *draw.NewStyles(false, false)
	for i := 0; i < 60 && !state.Outcome().Over; i++ {
		seat := state.ToMove()[0]
		mv := flicflac.Greedy{}.Move(context.Background(), state, seat, rand.New(rand.NewPCG(1, uint64(i))))
		n, err := state.Apply(seat, mv)
		if err != nil {
			t.Fatal(err)
		}
		state = n.(*flicflac.State)
		snap.View, snap.ToMove = state.View(0), state.ToMove()
		press(kept, &snap, "n")
		got := kept.View(&snap, st, colW, colH)
		fresh := newBoard()
		fresh.lay, fresh.cur, fresh.want, fresh.sel = kept.lay, kept.cur, kept.want, kept.sel
		fresh.note, fresh.noteView = kept.note, kept.noteView
		if want := fresh.View(&snap, st, colW, colH); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("move %d %q: kept rows differ:\n%s\nwant\n%s", i, mv, plainLines(got), plainLines(want))
		}
	}
}

// TestLastNamesTheBotWhole: the panel's last turn names a bot as every game does, with its level
// ("Bo (greedy bot)"), and never breaks the level in two.
func TestLastNamesTheBotWhole(t *testing.T) {
	snap, _ := fresh(t, 4)
	snap.Seats[1].Name, snap.Seats[1].Bot = "Bo (greedy bot)", "greedy"
	b := newBoard()
	for _, w := range []int{panelWidth, 20, 24, 60} {
		b.status = nil
		lines := plainLines(b.Status(&snap, *draw.NewStyles(true, false), w))
		if !strings.Contains(words(lines), "Last: Bo (greedy bot) moved") {
			t.Errorf("width %d: the last turn does not name Bo (greedy bot):\n%s", w, lines)
		}
		if strings.Contains(lines, "(greedy\n") {
			t.Errorf("width %d: the bot's level is broken:\n%s", w, lines)
		}
	}
}

// words is s with every run of spaces and line breaks made one space.
func words(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestNoteGoesWithTheNextMove: a refusal under the board goes when a move comes another way (the
// move prompt's), not only at the next key.
func TestNoteGoesWithTheNextMove(t *testing.T) {
	snap, state := fresh(t, 0)
	b := newBoard()
	st := *draw.NewStyles(true, false)
	b.View(&snap, st, colW, colH)
	b.cur = b.lay.hexCell[0] // a free hex at the start
	press(b, &snap, "backspace")
	if screen := plainLines(b.View(&snap, st, colW, colH)); !strings.Contains(screen, "Nothing to take back") {
		t.Fatalf("backspace with nothing moved says nothing:\n%s", screen)
	}
	v := state.ViewOf()
	var mv string
	for c := range flicflac.Colour(flicflac.Colours) {
		if len(v.Reach[c]) > 0 {
			mv = flicflac.Move{Kind: flicflac.Place, Colour: c, To: v.Hexes[v.Reach[c][0]].Name}.String()
			break
		}
	}
	snap, _ = applied(t, snap, state, mv)
	if screen := plainLines(b.View(&snap, st, colW, colH)); strings.Contains(screen, "Nothing to take back") {
		t.Errorf("the refusal stays after %s was played:\n%s", mv, screen)
	}
}

// TestLastKeepsPiecesWithTheirHexes: however narrow the panel, the last turn never parts a
// piece's letter from the hex it went to, nor a side from its score.
func TestLastKeepsPiecesWithTheirHexes(t *testing.T) {
	snap, _ := fresh(t, 4)
	b := newBoard()
	for w := 16; w <= 40; w++ {
		b.status = nil
		for _, l := range b.Status(&snap, *draw.NewStyles(true, false), w) {
			f := strings.Fields(l)
			if n := len(f); n > 0 && (len(f[n-1]) == 1 && strings.Contains("BGYORP", f[n-1]) || f[n-1] == "Blocks" || f[n-1] == "Cylinders") {
				t.Errorf("width %d: a line ends in %q, parted from what follows: %q", w, f[n-1], l)
			}
		}
	}
}

// TestHintFitsOneLine: the line that says what the keys do fits the board's column at 80 x 24
// on one line, and says what e ends.
func TestHintFitsOneLine(t *testing.T) {
	snap, _ := fresh(t, 0)
	b := newBoard()
	b.View(&snap, *draw.NewStyles(true, false), colW, colH)
	v, _ := draw.ViewRef[flicflac.View](&snap)
	hints := []string{b.hint(v, &snap, 80)}
	press(b, &snap, "n")
	hints = append(hints, b.hint(v, &snap, 80))
	for _, h := range hints {
		if n := draw.TextWidth(h); n > colW {
			t.Errorf("the hint %q is %d columns, more than %d", h, n, colW)
		}
	}
	if !strings.Contains(hints[0], "e ends turn") {
		t.Errorf("the hint %q does not say what e ends", hints[0])
	}
}

// TestLegendEntriesApart: the legend's entries are two spaces apart, so that the black hex's dot
// does not read as a separator ("r red hex  · black"), and fit the column in two lines.
func TestLegendEntriesApart(t *testing.T) {
	lines := legend(*draw.NewStyles(true, false), colW)
	if len(lines) != 2 {
		t.Errorf("the legend takes %d lines at %d columns: %q", len(lines), colW, lines)
	}
	if all := strings.Join(lines, "\n"); !strings.Contains(all, "r red hex  · black  + may go") {
		t.Errorf("the legend's entries are not apart:\n%s", all)
	}
	for _, w := range []int{20, 30, 40, 80} {
		for _, l := range legend(*draw.NewStyles(true, true), w) {
			if draw.TextWidth(l) > w {
				t.Errorf("width %d: %q is wider", w, l)
			}
		}
	}
}

// TestNextWhenNoneMaySays: n when no piece of the player's may move any more says so, rather than
// doing nothing.
func TestNextWhenNoneMaySays(t *testing.T) {
	snap, state := fresh(t, 0)
	for range flicflac.Colours {
		v := state.ViewOf()
		moved := false
		for c := range flicflac.Colour(flicflac.Colours) {
			if p := v.Piece(0, c); p.CanMove && len(v.Reach[c]) > 0 {
				snap, state = applied(t, snap, state, flicflac.Move{Kind: flicflac.Place, Colour: c, To: v.Hexes[v.Reach[c][0]].Name}.String())
				moved = true
				break
			}
		}
		if !moved {
			break
		}
	}
	b := newBoard()
	if got := press(b, &snap, "n"); got != "" || b.sel >= 0 {
		t.Fatalf("n with every piece moved: %q, pick %d", got, b.sel)
	}
	v := state.ViewOf()
	if h := b.hint(&v, &snap, 80); !strings.Contains(h, "No piece of yours may move") {
		t.Errorf("n with every piece moved says %q", h)
	}
}

// TestEnterOnAPieceNotToMoveSays: enter on the other player's piece, or on one's own that has
// moved this turn, says why nothing is picked; enter on the picked piece drops it quietly.
func TestEnterOnAPieceNotToMoveSays(t *testing.T) {
	snap, state := fresh(t, 4) // both sides have pieces on the board
	v := state.ViewOf()
	b := newBoard()
	b.View(&snap, *draw.NewStyles(true, false), colW, colH)
	var mine, theirs flicflac.Colour = -1, -1
	for c := range flicflac.Colour(flicflac.Colours) {
		if p := v.Piece(0, c); mine < 0 && p.Hex != flicflac.NoHex && len(v.Reach[c]) > 0 {
			mine = c
		}
		if p := v.Piece(1, c); theirs < 0 && p.Hex != flicflac.NoHex {
			theirs = c
		}
	}
	if mine < 0 || theirs < 0 {
		t.Fatal("no pieces on the board")
	}
	b.cur = b.lay.hexCell[v.Piece(1, theirs).Hex]
	press(b, &snap, "enter")
	if h := b.hint(&v, &snap, 80); b.sel >= 0 || !strings.Contains(h, "That is bob's piece") {
		t.Errorf("enter on bob's piece: pick %d, %q", b.sel, h)
	}
	b.cur = b.lay.hexCell[v.Piece(0, mine).Hex]
	press(b, &snap, "enter")
	if b.sel != mine {
		t.Fatalf("enter on ann's %c picks %d", mine.Letter(), b.sel)
	}
	press(b, &snap, "enter")
	if h := b.hint(&v, &snap, 80); b.sel >= 0 || b.note != "" {
		t.Errorf("enter on the picked piece: pick %d, %q", b.sel, h)
	}
	snap, state = applied(t, snap, state, flicflac.Move{Kind: flicflac.Place, Colour: mine, To: v.Hexes[v.Reach[mine][0]].Name}.String())
	v = state.ViewOf()
	b.cur = b.lay.hexCell[v.Piece(0, mine).Hex]
	press(b, &snap, "enter")
	if h := b.hint(&v, &snap, 80); b.sel >= 0 || !strings.Contains(h, "has moved this turn: backspace takes it back") {
		t.Errorf("enter on a piece moved: pick %d, %q", b.sel, h)
	}
}

// TestSpectatorLooks: a spectator has a cursor too: the arrows and a click move it, and the line
// under the board tells the piece under it (owner, health); no key of theirs proposes a move.
func TestSpectatorLooks(t *testing.T) {
	snap, state := fresh(t, 20)
	snap.You, snap.View = rules.Spectator, state.View(rules.Spectator)
	v, ok := draw.ViewRef[flicflac.View](&snap)
	if !ok {
		t.Fatal("no view for the spectator")
	}
	hex := -1
	for i, hv := range v.Hexes {
		if hv.Piece >= 0 {
			hex = i
			break
		}
	}
	if hex < 0 {
		t.Fatal("no piece on the board")
	}
	b := newBoard()
	st := *draw.NewStyles(true, true)
	b.View(&snap, st, colW, colH)
	c := b.lay.cells[b.lay.hexCell[hex]]
	if got := b.Handle(tea.MouseClickMsg{X: c.col + 1, Y: c.line, Button: tea.MouseLeft}, &snap); got != "" {
		t.Errorf("a spectator's click proposed %q", got)
	}
	screen := plainLines(b.View(&snap, st, colW, colH))
	p := v.Pieces[v.Hexes[hex].Piece]
	want := v.Hexes[hex].Name + " " + v.Hexes[hex].Colour.String() + " hex: " + shortName(&snap, p.ID.Seat) + "'s"
	if !strings.Contains(screen, want) || !strings.Contains(screen, "health") {
		t.Errorf("the spectator's screen lacks %q and the health:\n%s", want, screen)
	}
	seen := map[int]bool{b.cur: true}
	for _, k := range []string{"right", "down", "left", "up", "enter", "n", "backspace", "e", "enter"} {
		if got := press(b, &snap, k); got != "" {
			t.Errorf("a spectator's %s proposed %q", k, got)
		}
		seen[b.cur] = true
	}
	if len(seen) < 3 {
		t.Errorf("the arrows took the spectator's cursor to %d cells", len(seen))
	}
	if b.sel >= 0 {
		t.Errorf("a spectator picked %d", b.sel)
	}
}

// TestSmallBoardCentred: at size 5 the board stands in the middle of its column, not at its left,
// and a click still finds the hex drawn under it.
func TestSmallBoardCentred(t *testing.T) {
	snap, _ := play(t, rules.Options{"shape": "cylinders", "size": "5"}, func(i int, s *flicflac.State) bool {
		return i >= 10 && s.Turn() == 0 && !s.CaptorsTurn()
	})
	b := newBoard()
	st := *draw.NewStyles(true, true)
	lines := b.View(&snap, st, colW, colH)[:b.lay.lines]
	left, right := colW, colW
	for _, l := range lines {
		p := ansi.Strip(l)
		left = min(left, len(p)-len(strings.TrimLeft(p, " ")))
		right = min(right, colW-draw.TextWidth(strings.TrimRight(p, " ")))
	}
	if left < 2 || abs(left-right) > 1 {
		t.Errorf("the board has %d columns left of it and %d right:\n%s", left, right, plainLines(lines))
	}
	hex := b.lay.hexCell[0]
	c := b.lay.cells[hex]
	b.Handle(tea.MouseClickMsg{X: c.col + 1 + b.padX, Y: c.line, Button: tea.MouseLeft}, &snap)
	if b.cur != hex {
		t.Errorf("a click on a1 put the cursor on cell %d, not %d", b.cur, hex)
	}
}

// TestEscUnpicks: the board takes esc from the room only while a piece is picked, and esc drops
// the pick; with none, esc is the room's (which asks whether to leave).
func TestEscUnpicks(t *testing.T) {
	snap, _ := fresh(t, 0)
	b := newBoard()
	esc := tea.KeyPressMsg{Code: tea.KeyEscape}
	if b.TakesKey(esc, &snap) {
		t.Fatal("the board takes esc with nothing picked")
	}
	press(b, &snap, "n")
	if b.sel < 0 || !b.TakesKey(esc, &snap) {
		t.Fatalf("with piece %d picked the board does not take esc", b.sel)
	}
	if got := b.Handle(esc, &snap); got != "" || b.sel >= 0 || b.TakesKey(esc, &snap) {
		t.Errorf("esc proposed %q and left piece %d picked", got, b.sel)
	}
	if b.TakesKey(tea.KeyPressMsg{Code: 'q', Text: "q"}, &snap) {
		t.Error("the board takes q")
	}
}

// TestEndLineSaysWhy: the end line under the board gives the room's reason (a resignation), and
// no empty one when no reason is known.
func TestEndLineSaysWhy(t *testing.T) {
	snap, _ := fresh(t, 4)
	snap.Phase = rooms.Finished
	snap.ToMove = nil
	snap.Outcome = rules.Outcome{Over: true, Ranks: []int{2, 1}, Reason: "ann resigned"}
	b := newBoard()
	out := plainLines(b.View(&snap, *draw.NewStyles(true, false), colW, colH))
	if !strings.Contains(words(out), "The game is over: ann resigned.") {
		t.Errorf("the end line does not say ann resigned:\n%s", out)
	}
	snap.Outcome.Reason = ""
	out = plainLines(b.View(&snap, *draw.NewStyles(true, false), colW, colH))
	if strings.Contains(out, "over: .") || !strings.Contains(out, "The game is over.") {
		t.Errorf("with no reason, the end line is not plain \"The game is over.\":\n%s", out)
	}
}

// TestCaptorsTurnAllMoved: once every captor has moved, the turn line names no empty list of
// captors ("to move captors ."): only the end of the captors' turn is left.
func TestCaptorsTurnAllMoved(t *testing.T) {
	snap, _ := play(t, nil, func(i int, s *flicflac.State) bool {
		if !s.CaptorsTurn() {
			return false
		}
		v := s.ViewOf()
		for c := range flicflac.Colour(flicflac.Colours) {
			if v.Piece(v.Turn, c).CanMove {
				return false
			}
		}
		return true
	})
	yours, theirs := newBoard().TurnText(&snap)
	if theirs != "to end the captors' turn" || yours != "captors' turn, e ends it" {
		t.Errorf("TurnText with every captor moved = %q, %q", yours, theirs)
	}
}
