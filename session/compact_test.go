package session

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/games/gametest"
	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/coloretta"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/session/draw"
)

// compactSizes are the windows between a phone's terminal (60 x 20) and 80 x 24 the compact
// layouts are checked at, with short wide ones and narrow tall ones.
var compactSizes = [][2]int{
	{60, 20}, {61, 20}, {63, 21}, {64, 20}, {66, 22}, {68, 20}, {70, 22}, {72, 23}, {75, 21}, {79, 23},
	{79, 24}, {80, 23}, {100, 20}, {140, 21}, {60, 24}, {60, 30}, {64, 40}, {70, 26},
}

// timed is snap with a timed turn for the seat to move, when a match is played.
func timed(snap rooms.Snapshot) rooms.Snapshot {
	if snap.Phase == rooms.Playing && len(snap.ToMove) > 0 {
		snap.Clock = rooms.TurnClock{Seat: snap.ToMove[0], Ends: time.Now().Add(95 * time.Second)}
	}
	return snap
}

// TestCompactScreensFit: at every size from 60 x 20 to 80 x 24 (and short wide and narrow tall
// windows), every game's room screen in play, with a player gone or away, and at its end, with
// the board, the move prompt, the rules and the whole panel up, fits the window line by line,
// cuts nothing with "…", shows the board's whole grid unbroken beside or over the panel (nothing
// overlaps it), the player's name and the turn's clock; or, where the board cannot fit, says so
// whole, with the clock.
func TestCompactScreensFit(t *testing.T) {
	screens := gameScreens(t)
	names := make([]string, 0, len(screens))
	for n := range screens {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		snap := timed(screens[name])
		if snap.Phase == rooms.Finished && !snap.Unrated {
			snap.Result = rooms.EndResult{MatchID: "49kjkmm7fds", Ratings: []rooms.RatingChange{
				{Rated: true, Before: 1662.4, After: 1650.2, BeforeProvisional: true, Provisional: true}}}
		}
		for _, size := range compactSizes {
			w, h := size[0], size[1]
			for _, keys := range [][]string{nil, {":"}, {"?"}, {"tab"}, {"t"}} {
				what := fmt.Sprintf("%s at %dx%d after %q", name, w, h, keys)
				m := newTestModel(w, h)
				m.room = newRoomScreen(idleSub{}, m.cfg.Player, testGames, testBoards)
				m.room.apply(snap)
				_ = m.View() // (the layout a key meets is the one on the screen)
				m = press(m, keys...)
				screen := m.View().Content
				checkSize(t, screen, w, h)
				out := plain(screen)
				if strings.Contains(out, "…") {
					t.Errorf("%s: a line is cut:\n%s", what, out)
				}
				lay := m.room.parts.layout
				small := m.room.small
				switch {
				case small:
					if !strings.Contains(words(out), "needs a window of at least") {
						t.Errorf("%s: the board does not fit, and the screen does not say so:\n%s", what, out)
					}
				case len(keys) == 0 && lay.kind != layoutWide:
					checkGrid(t, what, m, lay, out)
				}
				if snap.Clock.Ends.IsZero() || len(keys) > 0 && keys[0] == "t" {
					continue
				}
				if clock := m.room.clock.turnLine(*m.st); !strings.Contains(out, "1:30") && !strings.Contains(words(out), words(plain(clock))) {
					t.Errorf("%s: the turn's clock is not on the screen:\n%s", what, out)
				}
			}
		}
	}
}

// checkGrid fails the test when the first lines of the board's column as the screen laid it out
// (as many as the board's smallest drawing has: its grid) are not each on the screen whole, in
// order, from the body's first line: nothing overlaps or cuts the board.
func checkGrid(t *testing.T, what string, m Model, lay roomLayout, out string) {
	t.Helper()
	if m.room.snap.Phase == rooms.Waiting || m.room.side.showsUp() {
		return
	}
	board := m.room.parts.board.lines
	lines := strings.Split(out, "\n")
	for i, g := range board[:min(len(board), lay.minH)] {
		g = strings.TrimSpace(plain(g))
		if i+1 >= len(lines) || !strings.Contains(lines[i+1], g) {
			t.Errorf("%s: the board's line %d, %q, is not whole on the screen's line %d:\n%s", what, i, g, i+1, out)
			return
		}
	}
}

// TestCompactLayouts: which layout each game's board gets at 60 x 20 and 70 x 22, and what the
// small windows say Stone Towers needs: a size-16 board plays from 60 x 21 on.
func TestCompactLayouts(t *testing.T) {
	screens := gameScreens(t)
	want := map[string][2]layoutKind{ // at 60 x 20, at 70 x 22
		"stonetowers/bots": {layoutBeside, layoutBeside},
		"discon/bots":      {layoutUnder, layoutBeside},
		"coloretta/bots":   {layoutUnder, layoutBeside},
		"lhexicon/bots":    {layoutBeside, layoutBeside},
		"flicflac/bots":    {layoutUnder, layoutUnder},
	}
	for name, kinds := range want {
		for i, size := range [][2]int{{60, 20}, {70, 22}} {
			m := newTestModel(size[0], size[1])
			m.room = newRoomScreen(nil, m.cfg.Player, testGames, testBoards)
			m.room.apply(screens[name])
			_ = m.View()
			if got := m.room.parts.layout.kind; got != kinds[i] {
				t.Errorf("%s at %dx%d: layout %d, want %d", name, size[0], size[1], got, kinds[i])
			}
		}
	}
	for _, c := range []struct {
		size, w, h int
		small      bool
	}{{12, 60, 20, false}, {15, 60, 20, false}, {16, 60, 20, true}, {16, 60, 21, false}, {16, 59, 21, false}} {
		m := newTestModel(c.w, c.h)
		m.room = newRoomScreen(nil, m.cfg.Player, testGames, testBoards)
		m.room.apply(stoneSized(t, c.size))
		out := words(plain(m.View().Content))
		if m.room.small != c.small {
			t.Errorf("Stone Towers size %d at %dx%d: too small %v, want %v:\n%s", c.size, c.w, c.h, m.room.small, c.small, out)
		}
		if c.small && !strings.Contains(out, "needs a window of at least 60 x 21") {
			t.Errorf("Stone Towers size %d at %dx%d does not say it needs 60 x 21:\n%s", c.size, c.w, c.h, out)
		}
	}
}

// stoneSized is Red's snapshot of a Stone Towers match on a size x size board, 14 moves in.
func stoneSized(t *testing.T, size int) rooms.Snapshot {
	t.Helper()
	snap, _ := stoneOptions(t, rules.Options{"size": fmt.Sprint(size), "turns": "25"}, 14)
	return snap
}

// stoneOptions plays plies moves of a seeded Stone Towers match with opts and returns Red's
// snapshot of it.
func stoneOptions(t *testing.T, opts rules.Options, plies int) (rooms.Snapshot, rules.Engine) {
	t.Helper()
	state, moves := gametest.PlayBots(t, stonetowers.Game, opts, 2, 7, stonetowers.Greedy{},
		func(i int, _ rules.Engine) bool { return i >= plies })
	return gametest.Snapshot("K7QXM", stonetowers.Game, state, moves, []string{"ann", "bob"}, defaultChat), state
}

// sizedModel is roomModel on a w x h window: snap's room, a frame drawn (as the program draws one
// before any key), then keys.
func sizedModel(t *testing.T, snap rooms.Snapshot, w, h int, keys ...string) Model {
	t.Helper()
	m := newTestModel(w, h)
	m.room = newRoomScreen(idleSub{}, m.cfg.Player, testGames, testBoards)
	m.room.apply(snap)
	_ = m.View()
	return press(m, keys...)
}

// TestCompactGolden: every game's room in play and at its end at 60 x 20 (a phone's terminal),
// some at 70 x 22; the whole panel in the board's place (tab, when it is under the board); the
// message of a board too large for the window (Stone Towers size 16); the lobby, the new-room
// form, a leaderboard and a replay at 60 x 20. Each fits its window and cuts nothing with "…".
func TestCompactGolden(t *testing.T) {
	lhex, lstate := lhexMid(t)
	coloDrawn, cstate := colorettaMid(t, 5, 22)
	cstate, err := cstate.Apply(0, "d")
	if err != nil {
		t.Fatal(err)
	}
	coloDrawn.View, coloDrawn.ToMove = cstate.View(0), cstate.ToMove()
	stEnd, dcEnd, lxEnd := playedSnapshot(t, -1), first(disconSnapshot(t, -1)), first(lhexSnapshot(t, nil, 2, 5, -1))
	coEnd, _ := colorettaPlay(t, 4, rules.Options{"rounds": "2"}, func(int, coloretta.View) bool { return false })
	screens := []struct {
		name string
		snap rooms.Snapshot
		w, h int
		keys []string
		then func(Model) Model
	}{
		{name: "stonetowers_play", snap: playedSnapshot(t, 14), w: 60, h: 20},
		{name: "stonetowers_play", snap: playedSnapshot(t, 14), w: 70, h: 22},
		{name: "stonetowers_size15", snap: stoneSized(t, 15), w: 60, h: 20},
		{name: "stonetowers_end", snap: stEnd, w: 60, h: 20},
		{name: "stonetowers_size16", snap: stoneSized(t, 16), w: 60, h: 20},
		{name: "discon_play", snap: first(disconSnapshot(t, 12)), w: 60, h: 20},
		{name: "discon_play", snap: first(disconSnapshot(t, 12)), w: 70, h: 22},
		{name: "discon_end", snap: dcEnd, w: 60, h: 20},
		{name: "coloretta_play", snap: first(colorettaMid(t, 3, 30)), w: 60, h: 20},
		{name: "coloretta_drawn5", snap: coloDrawn, w: 60, h: 20},
		{name: "coloretta_end", snap: coEnd, w: 60, h: 20},
		{name: "lhexicon_play", snap: lhex, w: 60, h: 20, then: func(m Model) Model { return spell(t, m, lstate, lhexPlay(t, lstate)) }},
		{name: "lhexicon_end", snap: lxEnd, w: 60, h: 20},
		{name: "lhexicon_hint", snap: casual(lhex), w: 60, h: 20, keys: []string{"h"}},
		{name: "flicflac_play", snap: flicflacMid(t, 40), w: 60, h: 20, keys: []string{"n"}},
		{name: "flicflac_preview", snap: flicflacMid(t, 40), w: 60, h: 20, keys: []string{"n", "j"}},
		{name: "flicflac_panel", snap: flicflacMid(t, 40), w: 60, h: 20, keys: []string{"tab"}},
		{name: "flicflac_end", snap: flicflacEnd(t), w: 60, h: 20},
	}
	for _, c := range screens {
		t.Run(fmt.Sprintf("%s_%dx%d", c.name, c.w, c.h), func(t *testing.T) {
			m := sizedModel(t, c.snap, c.w, c.h, c.keys...)
			if c.then != nil {
				m = c.then(m)
			}
			checkCompact(t, m.View().Content, c.w, c.h)
		})
	}
	lobby := map[string][]string{"lobby": nil, "newform": {"down", "enter", "down", "right", "down", "down", "right"},
		"leaderboard": {"down", "down", "down", "down", "enter"}}
	for name, keys := range lobby {
		t.Run(name+"_60x20", func(t *testing.T) {
			m := New(Config{Hub: fakeHub{append(testGames, soloGame)}, Boards: testBoards, Records: fakeRecords{},
				Player: rooms.Player{ID: "SHA256:x", Name: "ann"}, Width: 60, Height: 20})
			checkCompact(t, press(m, keys...).View().Content, 60, 20)
		})
	}
	t.Run("replay_60x20", func(t *testing.T) {
		snap := playedSnapshot(t, 12)
		match := record.Match{ID: "2kq8xm4a7b2", Game: "stonetowers", Options: rules.Options{"size": "12", "turns": "25"},
			Seed: 7, Started: when, Seats: []record.Seat{{PlayerID: "SHA256:x", Name: "ann"}, {Name: "Bo (greedy bot)", Bot: "greedy"}}}
		for _, mv := range snap.Moves {
			match.Moves = append(match.Moves, record.Move{Seat: mv.Seat, Move: mv.Move})
		}
		r := replayOf(t, match, stonetowers.Game)
		r.update(keyPress("G"))
		checkCompact(t, r.view(*draw.NewStyles(false, false), 60, 20), 60, 20)
	})
}

// checkCompact checks a screen's size and that nothing is cut with "…", and compares it with the
// test's golden file.
func checkCompact(t *testing.T, screen string, w, h int) {
	t.Helper()
	checkSize(t, screen, w, h)
	out := plain(screen)
	if strings.Contains(out, "…") {
		t.Errorf("a line is cut:\n%s", out)
	}
	golden.RequireEqual(t, out)
}

// casual is snap in a casual room.
func casual(snap rooms.Snapshot) rooms.Snapshot {
	snap.Casual = true
	return snap
}

// first is a pair's first value.
func first[A, B any](a A, _ B) A { return a }

// TestCompactLobbyFits: at every size from 60 x 20 to 80 x 24, every page of the lobby (its
// menu, forms and lists, the help and a game's rules, the leaderboards, the player's matches),
// and a replay of each layout's game, fit the window and cut nothing with "…".
func TestCompactLobbyFits(t *testing.T) {
	pages := map[string][]string{
		"menu": nil, "new": {"down", "enter"}, "new form": {"down", "enter", "down", "right", "down", "down", "right"},
		"join": {"down", "down", "enter"}, "rooms": {"down", "down", "down", "enter"},
		"leaderboard": {"down", "down", "down", "down", "enter"}, "solo": {"down", "down", "down", "down", "enter", "right", "right", "right"},
		"mine":  {"down", "down", "down", "down", "down", "enter"},
		"help":  {"down", "down", "down", "down", "down", "down", "enter", "down"},
		"rules": {"down", "down", "down", "down", "down", "down", "enter", "down", "enter", " "},
		"quick": {"enter"},
	}
	snap := playedSnapshot(t, 12)
	match := record.Match{ID: "2kq8xm4a7b2", Game: "stonetowers", Options: rules.Options{"size": "12", "turns": "25"},
		Seed: 7, Started: when, Seats: []record.Seat{{PlayerID: "SHA256:x", Name: "annabelle"}, {Name: "Bo (greedy bot)", Bot: "greedy"}}}
	for _, mv := range snap.Moves {
		match.Moves = append(match.Moves, record.Move{Seat: mv.Seat, Move: mv.Move})
	}
	for _, size := range compactSizes {
		w, h := size[0], size[1]
		for name, keys := range pages {
			m := New(Config{Hub: listHub{fakeHub{everyGame}, 40}, Boards: testBoards, Records: fakeRecords{},
				Player: rooms.Player{ID: "SHA256:x", Name: "ann"}, Width: w, Height: h})
			screen := press(m, keys...).View().Content
			checkSize(t, screen, w, h)
			if out := plain(screen); strings.Contains(out, "…") {
				t.Errorf("%s at %dx%d: a line is cut:\n%s", name, w, h, out)
			}
		}
		r := replayOf(t, match, stonetowers.Game)
		if out := words(plain(r.view(*draw.NewStyles(false, false), 44, 14))); !strings.Contains(out, "needs a window of at least") ||
			!strings.Contains(out, "esc goes back to the lobby.") {
			t.Errorf("a replay too large for its window does not say so, or where esc goes:\n%s", out)
		}
		for _, k := range []string{"", "G"} {
			if k != "" {
				r.update(keyPress(k))
			}
			screen := r.view(*draw.NewStyles(false, false), w, h)
			checkSize(t, screen, w, h)
			if out := plain(screen); strings.Contains(out, "…") {
				t.Errorf("the replay at %dx%d: a line is cut:\n%s", w, h, out)
			}
		}
	}
}

// TestPanelUpCycle: where the panel is under the board (DISCON at 60 x 20), tab shows the whole
// panel in the board's place with the chat, tab again with the moves, and again the board; esc
// takes the panel away, and so does a key meant for the board, which does nothing else (no
// piece is picked unseen). Each screen drawn from the parts is a fresh drawing's.
func TestPanelUpCycle(t *testing.T) {
	m := sizedModel(t, first(disconSnapshot(t, 12)), 60, 20)
	st := *m.st
	step := func(k string, want ...string) {
		t.Helper()
		m = press(m, k)
		out := plain(m.View().Content)
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("after %s the screen lacks %q:\n%s", k, w, out)
			}
		}
		checkFresh(t, "after "+k, m.room, st, 60, 20)
	}
	step("tab", "chat · tab: moves", "tab moves", "esc board")
	step("tab", "moves · tab: board", "tab board")
	step("tab", "    a   b   c", "tab panel")
	step("tab", "chat · tab: moves")
	step("esc", "    a   b   c", "tab panel", "esc leave")
	step("tab", "chat · tab: moves")
	step("enter", "    a   b   c", "esc leave") // the panel goes; no piece is picked
	if m.room.boardTakes(escKey) {
		t.Error("enter on the panel picked a piece on the board")
	}
}

// TestBoardsFitTheirMinSize: every game's board, drawn in its smallest size (draw.Sizer), draws
// within it, its lines whole: in play, a player gone or away, and at the end.
func TestBoardsFitTheirMinSize(t *testing.T) {
	st := *draw.NewStyles(false, false)
	for name, snap := range gameScreens(t) {
		b := testBoards.board(snap.GameID)
		s, ok := b.(draw.Sizer)
		if !ok {
			t.Errorf("%s: the board does not say its smallest size", name)
			continue
		}
		w, h := s.MinSize(&snap)
		lines := trimBlankTail(b.View(&snap, st, w, h))
		if len(lines) > h || drawnWidth(lines) > w {
			t.Errorf("%s: drawn in %d x %d, the board takes %d x %d:\n%s", name, w, h, drawnWidth(lines), len(lines),
				plain(strings.Join(lines, "\n")))
		}
		if out := plain(strings.Join(lines, "\n")); strings.Contains(out, "…") {
			t.Errorf("%s: a line is cut:\n%s", name, out)
		}
	}
}
