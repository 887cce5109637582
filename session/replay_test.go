package session

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/games/gametest"
	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/coloretta"
	"github.com/arcade/arcade/rules/discon"
	"github.com/arcade/arcade/rules/flicflac"
	"github.com/arcade/arcade/rules/lhexicon"
	"github.com/arcade/arcade/rules/stonetowers"
	"github.com/arcade/arcade/session/draw"
)

// botReplay records a match of bots of game g and opens its replay.
func botReplay(t *testing.T, g rules.Game, opts rules.Options, seats, plies int, bot rules.Bot) *replayScreen {
	t.Helper()
	_, moves := gametest.PlayBots(t, g, opts, seats, 3, bot, func(i int, _ rules.Engine) bool { return i >= plies })
	m := record.Match{ID: "m1", Game: g.ID, Options: opts, Seed: 3, Started: when}
	for i := range seats {
		m.Seats = append(m.Seats, record.Seat{Name: []string{"ann", "bob", "cat", "dan"}[i]})
	}
	for _, mv := range moves {
		m.Moves = append(m.Moves, record.Move{Seat: mv.Seat, Move: mv.Move})
	}
	return replayOf(t, m, g)
}

func replayOf(t *testing.T, m record.Match, g rules.Game) *replayScreen {
	t.Helper()
	cur, err := record.NewCursor(m, g)
	if err != nil {
		t.Fatal(err)
	}
	return newReplayScreen(m, g, cur, testBoards.board(g.ID))
}

// TestReplaySteps: a DISCON turn is two moves; ↓ and ↑ step a turn, PgDn and PgUp a round (a
// turn of every seat), → and ← a move, G and g to the end and the start.
func TestReplaySteps(t *testing.T) {
	r := botReplay(t, discon.Game, rules.Options{}, 2, 20, discon.GreedyBot{})
	steps := []struct {
		key  tea.KeyPressMsg
		want int
	}{
		{tea.KeyPressMsg{Code: tea.KeyDown}, 2},
		{tea.KeyPressMsg{Code: tea.KeyRight}, 3},
		{tea.KeyPressMsg{Code: tea.KeyDown}, 4},
		{tea.KeyPressMsg{Code: tea.KeyPgDown}, 8},
		{tea.KeyPressMsg{Code: tea.KeyLeft}, 7},
		{tea.KeyPressMsg{Code: tea.KeyUp}, 6},
		{tea.KeyPressMsg{Code: tea.KeyPgUp}, 2},
		{keyPress("G"), 20},
		{tea.KeyPressMsg{Code: tea.KeyDown}, 20},
		{keyPress("g"), 0},
		{tea.KeyPressMsg{Code: tea.KeyUp}, 0},
	}
	for i, s := range steps {
		r.update(s.key)
		if r.at != s.want {
			t.Fatalf("step %d (%s): at move %d, want %d", i, s.key, r.at, s.want)
		}
	}
	r.at = 3
	if got := r.told(); !strings.HasPrefix(got, "Move 3: Green (bob) G") {
		t.Errorf("told %q", got)
	}
}

// TestReplayAutoplay: space starts autoplay, each tick of the current autoplay shows the next
// move, a stale tick does nothing, and autoplay stops at the end (space there starts again from
// the beginning).
func TestReplayAutoplay(t *testing.T) {
	r := botReplay(t, discon.Game, rules.Options{}, 2, 3, discon.GreedyBot{})
	space := tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	cmd, _ := r.update(space)
	if cmd == nil || !r.playing {
		t.Fatal("space does not start autoplay")
	}
	gen := r.gen
	r.update(replayTickMsg{gen: gen - 1})
	if r.at != 0 {
		t.Fatalf("a stale tick moved to %d", r.at)
	}
	for want := 1; want <= 3; want++ {
		cmd, _ = r.update(replayTickMsg{gen: gen})
		if r.at != want {
			t.Fatalf("tick: at %d, want %d", r.at, want)
		}
	}
	if cmd != nil || r.playing {
		t.Error("autoplay goes on at the end")
	}
	if cmd, _ = r.update(space); cmd == nil || r.at != 0 || !r.playing {
		t.Errorf("space at the end: at %d, playing %v", r.at, r.playing)
	}
	r.update(space)
	if r.playing {
		t.Error("space does not pause")
	}
}

// TestReplayTellsMoves: the replay lists the moves as recorded (a build and a fortify of a3) and
// tells them in words. A Coloretta draw names the card, told and in the move list.
func TestReplayTellsMoves(t *testing.T) {
	m := record.Match{ID: "m2", Game: "stonetowers", Options: rules.Options{"size": "9", "turns": "10"}, Started: when,
		Seats: []record.Seat{{Name: "ann"}, {Name: "bob"}},
		Moves: []record.Move{{Seat: 0, Move: "b a3"}, {Seat: 1, Move: "b i9"}, {Seat: 0, Move: "f a3"}}}
	r := replayOf(t, m, stonetowers.Game)
	r.at = 3
	if list := r.snapshot().Chat; len(list) != 3 || !strings.HasSuffix(list[0].Text, " b a3") ||
		!strings.HasSuffix(list[2].Text, " f a3  ◀") {
		t.Errorf("move list %+v, want b a3 first and f a3 last", list)
	}
	if got := r.told(); got != "Move 3: Red (ann) fortifies a3 to level 2" {
		t.Errorf("told %q", got)
	}
	r.at = 1
	if got := r.told(); got != "Move 1: Red (ann) builds a castle on a3" {
		t.Errorf("told %q", got)
	}
	c := botReplay(t, coloretta.Game, rules.Options{}, 3, 2, coloretta.Greedy)
	c.at = 1
	got := c.told()
	if !strings.HasPrefix(got, "Move 1: Seat 1 (ann) draws ") || strings.HasSuffix(got, "draws ") {
		t.Errorf("told %q", got)
	}
	card := strings.TrimPrefix(got, "Move 1: Seat 1 (ann) draws ")
	if list := c.snapshot().Chat; len(list) == 0 || !strings.HasPrefix(list[0].Text, "  1. Seat 1 d: "+card) {
		t.Errorf("the move list does not name the card drawn (%s): %+v", card, list)
	}
}

// TestReplayTellsWholeMoves: at 80 x 24 every move of a four-player DISCON match is told in full,
// on a second line when it is long, and the screen keeps its size.
func TestReplayTellsWholeMoves(t *testing.T) {
	r := botReplay(t, discon.Game, rules.Options{}, 4, 120, discon.GreedyBot{})
	r.match.Seats[3].Name = "a-rather-long-name"
	st := *draw.NewStyles(false, false)
	longest := 0
	for r.at = range r.cur.Len() + 1 {
		longest = max(longest, len(r.told()))
		out := r.view(st, 80, 24)
		checkSize(t, out, 80, 24)
		if n := len(strings.Split(out, "\n")); n != 24 {
			t.Fatalf("move %d: %d lines", r.at, n)
		}
		told := strings.Join(strings.Fields(r.told()), " ")
		if flat := strings.Join(strings.Fields(plain(out)), " "); !strings.Contains(flat, told) {
			t.Fatalf("move %d: the screen does not tell %q", r.at, told)
		}
	}
	if longest < 80 {
		t.Errorf("the longest move told is %d columns: the test needs one longer than a line", longest)
	}
}

// TestReplayTellsTheEndOnTime: a match that ended on time (its moves did not end it) shows at
// its last move how it ended, as the record has it: the winner and "ran out of time"; before the
// last move, the match goes on.
func TestReplayTellsTheEndOnTime(t *testing.T) {
	m := record.Match{ID: "m3", Game: "stonetowers", Options: rules.Options{"size": "9", "turns": "10", "clock": "2m"},
		Started: when, Ended: when.Add(5 * time.Minute),
		Seats:   []record.Seat{{PlayerID: "SHA256:x", Name: "ann"}, {PlayerID: "SHA256:bob", Name: "bob"}},
		Moves:   []record.Move{{Seat: 0, Move: "b a3"}, {Seat: 1, Move: "b i9"}, {Seat: 0, Move: "f a3"}},
		Outcome: rules.Outcome{Over: true, Scores: []int{4, 3}, Ranks: []int{1, 2}, Reason: "bob ran out of time"}}
	r := replayOf(t, m, stonetowers.Game)
	r.update(keyPress("G"))
	out := plain(r.view(*draw.NewStyles(false, false), 80, 24))
	for _, want := range []string{"GAME OVER", "Red (ann) wins 4-3!", "bob ran out of time"} {
		if !strings.Contains(out, want) {
			t.Errorf("the last move does not show %q:\n%s", want, out)
		}
	}
	r.update(keyPress("h"))
	if out := plain(r.view(*draw.NewStyles(false, false), 80, 24)); strings.Contains(out, "GAME OVER") || strings.Contains(out, "ran out of time") {
		t.Errorf("the match is over before its last move:\n%s", out)
	}
	m.Outcome = rules.Outcome{Over: true, Scores: []int{4, 3}, Ranks: []int{1, 1}, Reason: "bob ran out of time; ann cannot win: a draw"}
	r = replayOf(t, m, stonetowers.Game)
	r.update(keyPress("G"))
	out = plain(r.view(*draw.NewStyles(false, false), 80, 24))
	for _, want := range []string{"GAME OVER", "A draw!", "bob ran out of time; ann", "cannot win: a draw"} {
		if !strings.Contains(out, want) {
			t.Errorf("the last move of a draw on time does not show %q:\n%s", want, out)
		}
	}
}

// TestReplayTellsWholeMovesOfEveryGame: at 80 x 24 every move of a Flic Flac match (the end of a
// turn tells its captures and the end of the game) and of a Lhex-i'-con match is told in full
// between bots with their levels in their names, and the move list names the seats as the panel
// does from the first position on (Flic Flac's by their shapes).
func TestReplayTellsWholeMovesOfEveryGame(t *testing.T) {
	for _, c := range []struct {
		g     rules.Game
		opts  rules.Options
		bot   rules.Bot
		plies int
		first string // how the move list names the seat that moves first
		long  int    // the longest move told is at least this long
	}{
		// Seat 1 has the blocks: the cylinders, seat 2, begin.
		{flicflac.Game, rules.Options{"shape": "blocks", "target": "3", "events": "30"}, flicflac.Greedy{}, 400, "Cylinders", 160},
		{lhexicon.Game, rules.Options{"check": "challenge"}, lhexicon.Greedy{}, 200, "Player 1", 60},
	} {
		_, moves := gametest.PlayBots(t, c.g, c.opts, 2, 5, c.bot, func(i int, _ rules.Engine) bool { return i >= c.plies })
		m := record.Match{ID: "m3", Game: c.g.ID, Options: c.opts, Seed: 5, Started: when,
			Seats: []record.Seat{{Name: "Ada (greedy bot)", Bot: "greedy"}, {Name: "Bo (greedy bot)", Bot: "greedy"}}}
		for _, mv := range moves {
			m.Moves = append(m.Moves, record.Move{Seat: mv.Seat, Move: mv.Move})
		}
		r := replayOf(t, m, c.g)
		st := *draw.NewStyles(false, false)
		out := r.view(st, 80, 24)
		if !strings.Contains(plain(out), "1. "+c.first+" ") {
			t.Errorf("%s: the first position's move list does not name the first mover %s:\n%s", c.g.ID, c.first, plain(out))
		}
		longest := 0
		for r.at = range r.cur.Len() + 1 {
			longest = max(longest, len(r.told()))
			out := r.view(st, 80, 24)
			checkSize(t, out, 80, 24)
			if n := len(strings.Split(out, "\n")); n != 24 {
				t.Fatalf("%s: move %d: %d lines", c.g.ID, r.at, n)
			}
			told := strings.Join(strings.Fields(r.told()), " ")
			if flat := strings.Join(strings.Fields(plain(out)), " "); !strings.Contains(flat, told) {
				t.Fatalf("%s: move %d: the screen does not tell %q:\n%s", c.g.ID, r.at, told, plain(out))
			}
		}
		if longest < c.long {
			t.Errorf("%s: the longest move told is %d columns: the test needs one of %d", c.g.ID, longest, c.long)
		}
	}
}

// TestGuestLongFlicFlacRefused: a guest's `new flicflac limit=2000` (a match of about 6,000
// moves, whose replays a guest could multiply) is refused with a message that says the most a
// guest may set and what a key allows; the session stays in the lobby and no room opens.
func TestGuestLongFlicFlacRefused(t *testing.T) {
	hub := rooms.NewHub(rooms.Config{Games: []rules.Game{flicflac.Game}, BotDelay: -1, Logf: t.Logf})
	t.Cleanup(func() { hub.Shutdown("test over") })
	st, err := ParseNew([]string{"flicflac", "limit=2000", "bots=1"}, hub.Games())
	if err != nil {
		t.Fatal(err)
	}
	zoe := rooms.Player{ID: "guest-zoe", Name: "~zoe", Guest: true}
	m := New(Config{Hub: Local(hub), Boards: testBoards, Player: zoe, Start: st, Width: 80, Height: 24, Send: func(tea.Msg) {}})
	next, _ := m.Update(m.Init()())
	m = next.(Model)
	if m.room != nil || len(hub.List()) != 0 {
		t.Fatalf("a guest's room of limit=2000 opened: %d rooms", len(hub.List()))
	}
	want := "limit must be at most 400 in a guest's room (with an SSH key, up to 2000)"
	if screen := words(plain(m.View().Content)); !strings.Contains(screen, want) {
		t.Errorf("the lobby does not say %q:\n%s", want, plain(m.View().Content))
	}
}

// TestReplayViewerHoldsBoundedPositions: the replay of a Flic Flac match of about 6,000 moves
// holds at most record.MaxCheckpoints+record.CursorWindow positions, stepped, jumped and autoplayed
// through, and shows the same screens as at its first opening.
func TestReplayViewerHoldsBoundedPositions(t *testing.T) {
	opts := rules.Options{"limit": "2000", "target": "99", "timer": "0", "captors": "0"}
	r := botReplay(t, flicflac.Game, opts, 2, 6000, gametest.Idler{})
	if n := r.cur.Len(); n < 5000 {
		t.Fatalf("the match has %d moves; the test needs about 6,000", n)
	}
	most := record.MaxCheckpoints + record.CursorWindow
	st := *draw.NewStyles(false, false)
	first := r.view(st, 80, 24)
	keys := []string{"G", "h", "k", "b", "g", "l", "j", "f", "G", "g"}
	for i := range 400 {
		r.update(keyPress(keys[i%len(keys)]))
		if i%7 == 0 {
			r.update(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
			r.update(replayTickMsg{gen: r.gen})
		}
		r.view(st, 80, 24)
		if n := r.cur.Held(); n > most {
			t.Fatalf("after %d keys, at move %d: the replay holds %d positions, want at most %d", i+1, r.at, n, most)
		}
	}
	r.update(keyPress("g"))
	r.stop()
	if got := r.view(st, 80, 24); got != first {
		t.Errorf("the first position after a walk through the match:\n%s\nwant:\n%s", plain(got), plain(first))
	}
}

// finishedReplay is the replay of a finished Stone Towers match of ann and bob, at its end.
func finishedReplay(t *testing.T, rated, casual bool) *replayScreen {
	t.Helper()
	snap := playedSnapshot(t, -1)
	m := record.Match{ID: "2kq8xm4a7b2", Game: "stonetowers", Options: rules.Options{"size": "12", "turns": "25"},
		Seed: 7, Started: when, Ended: when.Add(20 * time.Minute), Outcome: snap.Outcome, Rated: rated, Casual: casual,
		Seats: []record.Seat{{PlayerID: "SHA256:x", Name: "ann"}, {PlayerID: "SHA256:bob", Name: "bob"}}}
	for _, mv := range snap.Moves {
		m.Moves = append(m.Moves, record.Move{Seat: mv.Seat, Move: mv.Move})
	}
	r := replayOf(t, m, stonetowers.Game)
	r.update(keyPress("G"))
	return r
}

// TestReplayRatedGolden: a replay says whether its match was rated, under the board from the
// first move and in the result at the end, as the room said it.
func TestReplayRatedGolden(t *testing.T) {
	out := finishedReplay(t, true, false).view(*draw.NewStyles(false, false), 80, 24)
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out))
	for _, want := range []string{"ann vs bob · rated", "Rated match."} {
		if !strings.Contains(plain(out), want) {
			t.Errorf("the replay of a rated match lacks %q:\n%s", want, plain(out))
		}
	}
	casual := plain(finishedReplay(t, false, true).view(*draw.NewStyles(false, false), 80, 24))
	for _, want := range []string{"ann vs bob · casual", "Casual match: not rated."} {
		if !strings.Contains(casual, want) {
			t.Errorf("the replay of a casual match lacks %q:\n%s", want, casual)
		}
	}
}

// TestRecordMode: what a replay says of a match's rating, from its record.
func TestRecordMode(t *testing.T) {
	keys := []record.Seat{{PlayerID: "SHA256:a", Name: "a"}, {PlayerID: "SHA256:b", Name: "b"}}
	bot := []record.Seat{{PlayerID: "SHA256:a", Name: "a"}, {Name: "Bo (easy bot)", Bot: "easy"}}
	over := rules.Outcome{Over: true, Scores: []int{2, 1}, Ranks: []int{1, 2}}
	for _, c := range []struct {
		m    record.Match
		want string
	}{
		{record.Match{Seats: keys, Ended: when, Outcome: over, Rated: true}, "rated"},
		{record.Match{Seats: keys, Ended: when, Outcome: over, Casual: true}, "casual"},
		{record.Match{Seats: keys, Casual: true}, "casual"},
		{record.Match{Seats: keys}, ""}, // unfinished: it may still be rated
		{record.Match{Seats: bot}, "casual"},
		{record.Match{Seats: bot, Ended: when, Outcome: over}, "casual"},
		{record.Match{Seats: keys, Ended: when, Outcome: over}, "not rated"}, // the rules against farming
		{record.Match{Seats: keys, Ended: when, Outcome: rules.Outcome{Over: true}, Unrated: true}, "casual"},
		{record.Match{Seats: keys[:1], Ended: when, Outcome: rules.Outcome{Over: true, Scores: []int{9}}}, ""},
	} {
		if got := recordMode(c.m); got != c.want {
			t.Errorf("recordMode(%+v) = %q, want %q", c.m, got, c.want)
		}
	}
}
