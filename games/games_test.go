package games

import (
	"math/rand/v2"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/games/gametest"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session/draw"
	"github.com/arcade/arcade/web/webdraw"
)

// TestEveryGameHasItsParts: every game of the catalogue has an engine and a board view, under an
// ID no other game has.
func TestEveryGameHasItsParts(t *testing.T) {
	all := All()
	if len(all) == 0 {
		t.Fatal("the catalogue is empty")
	}
	seen := map[string]bool{}
	for i, e := range all {
		g := e.Game
		switch {
		case g.ID == "" || g.Name == "":
			t.Errorf("entry %d has no game ID or name", i)
		case seen[g.ID]:
			t.Errorf("game ID %q is in the catalogue twice", g.ID)
		}
		seen[g.ID] = true
		if g.New == nil {
			t.Errorf("%s has no engine (Game.New)", g.ID)
		}
		if e.Board == nil || e.Board() == nil {
			t.Errorf("%s has no board view", g.ID)
		}
		if e.Web == nil {
			t.Errorf("%s has no web board", g.ID)
		}
	}
	if ids := IDs(); len(ids) != len(all) || len(Rules()) != len(all) || len(Boards()) != len(all) || len(WebBoards()) != len(all) {
		t.Errorf("IDs, Rules and Boards do not list the %d games: %v", len(all), ids)
	}
	if _, ok := Find("no such game"); ok {
		t.Error("Find finds a game that is not there")
	}
}

// TestStandardOptions: each game's defaults are standard, so a room nobody changed is rated, and
// every standard value is one its option allows; the target=2 Flic Flac room is casual.
func TestStandardOptions(t *testing.T) {
	for _, e := range All() {
		g := e.Game
		opts, err := g.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		if ns := g.NonStandard(opts); ns != nil {
			t.Errorf("%s: its defaults are not standard: %v", g.ID, ns)
		}
		for _, o := range g.Options {
			for _, v := range o.Standard {
				if err := o.Check(v); err != nil {
					t.Errorf("%s: standard %s=%s: %v", g.ID, o.Key, v, err)
				}
			}
		}
	}
	ff, _ := Find("flicflac")
	opts, err := ff.Game.Resolve(rules.Options{"target": "2"})
	if err != nil {
		t.Fatal(err)
	}
	if ns := ff.Game.NonStandard(opts); len(ns) != 1 || ns[0] != "target=2" {
		t.Errorf("Flic Flac target=2: NonStandard = %v", ns)
	}
}

// TestBoardsDrawMatches: each game's board view draws a new match of its game, the same match a
// few moves in, and at its end, at 80 x 24 (the room gives the board 51 x 21 cells and the side
// panel 28 columns), for the smallest and largest tables, for a player and for a spectator, in
// colour and in ASCII, and takes keys and clicks, without panicking.
func TestBoardsDrawMatches(t *testing.T) {
	for _, e := range All() {
		g := e.Game
		if e.Board == nil || g.New == nil {
			continue // TestEveryGameHasItsParts says so
		}
		opts, err := g.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: default options: %v", g.ID, err)
		}
		for _, seats := range []int{g.MinSeats, g.MaxSeats} {
			fresh, err := g.New(opts, seats, 1)
			if err != nil {
				t.Fatalf("%s with %d seats: %v", g.ID, seats, err)
			}
			names := []string{"ann", "bob", "cid", "dee", "eve", "fay", "gus", "hal"}[:seats]
			for _, plies := range []int{0, 7, -1} {
				state := play(t, fresh, plies)
				snap := gametest.Snapshot("ABCDE", g, state, nil, names, nil)
				spectator := snap
				spectator.You, spectator.View = rules.Spectator, state.View(rules.Spectator)
				drawWebBoard(t, g.ID, e.Web, &spectator)
				for _, viewer := range []rules.Seat{0, rules.Spectator} {
					snap.You, snap.View = viewer, state.View(viewer)
					for _, ascii := range []bool{false, true} {
						drawBoard(t, g.ID, e.Board(), &snap, *draw.NewStyles(ascii, ascii))
					}
				}
			}
		}
	}
}

// play plays plies random legal moves from state (all of them, to the end, when plies < 0).
func play(t *testing.T, state rules.Engine, plies int) rules.Engine {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; !state.Outcome().Over && (plies < 0 || i < plies); i++ {
		seat := state.ToMove()[0]
		legal := state.Legal(seat)
		next, err := state.Apply(seat, legal[rng.IntN(len(legal))])
		if err != nil {
			t.Fatal(err)
		}
		state = next
	}
	return state
}

// drawBoard has b draw snap and its side panel's lines and scores, then gives it keys and clicks
// and draws again; the board must draw something.
func drawBoard(t *testing.T, id string, b draw.Board, snap *rooms.Snapshot, st draw.Styles) {
	t.Helper()
	const boardW, boardH, panelW = 51, 21, 28
	if len(b.View(snap, st, boardW, boardH)) == 0 {
		t.Errorf("%s: the board draws nothing (%d moves in, viewer %d)", id, len(snap.Moves), snap.You)
	}
	b.Status(snap, st, panelW)
	for seat := range snap.Seats {
		b.Score(snap, seat)
	}
	msgs := []tea.Msg{
		tea.MouseClickMsg{X: 10, Y: 3, Button: tea.MouseLeft}, tea.MouseClickMsg{X: 10, Y: 3, Button: tea.MouseLeft},
		tea.MouseClickMsg{X: boardW + 5, Y: boardH + 5, Button: tea.MouseLeft},
	}
	for _, k := range []rune{tea.KeyUp, tea.KeyLeft, tea.KeyEnter, tea.KeyRight, tea.KeyDown, tea.KeyEnter, tea.KeySpace, tea.KeyBackspace} {
		msgs = append(msgs, tea.KeyPressMsg{Code: k})
	}
	for _, k := range "dsLup1" {
		msgs = append(msgs, tea.KeyPressMsg{Code: k, Text: string(k)})
	}
	for _, msg := range msgs {
		b.Handle(msg, snap)
		b.View(snap, st, boardW, boardH)
	}
	if b.Bindings() == nil {
		t.Errorf("%s: the board has no bindings for the help line", id)
	}
}

// TestRulesTellMovesAndKeys: every game's rules, as its in-room '?' shows them, have a moves-and-keys
// section that names each key its board's help line shows, and fit 76 columns.
func TestRulesTellMovesAndKeys(t *testing.T) {
	for _, e := range All() {
		text := e.Game.Rules
		i := strings.Index(text, "MOVES AND KEYS")
		if i < 0 {
			t.Errorf("%s: the rules have no MOVES AND KEYS section", e.Game.ID)
			continue
		}
		section := text[i:]
		for _, b := range e.Board().Bindings() {
			k, in := b.Help().Key, section
			if len(k) > 1 { // "enter" may begin a sentence; a one-letter key's case counts
				k, in = strings.ToLower(k), strings.ToLower(section)
			}
			if k != "" && !strings.Contains(in, k) {
				t.Errorf("%s: the moves-and-keys section does not name %q (%s)", e.Game.ID, k, b.Help().Desc)
			}
		}
		for n, line := range strings.Split(text, "\n") {
			if w := len([]rune(line)); w > 76 {
				t.Errorf("%s: rules line %d is %d columns: %q", e.Game.ID, n+1, w, line)
			}
		}
	}
}

// TestRulesProseIsFilled: no line of a rules paragraph stops short where the next line's first
// word would have fitted (a sentence edited in without filling the paragraph again leaves a
// ragged line the pager shows as a gap). Tables and diagrams, whose columns are aligned with
// runs of spaces, and lines that end a sentence are left alone.
func TestRulesProseIsFilled(t *testing.T) {
	const fill = 64 // the rules are filled to about 70 columns; a line this short had room
	for _, e := range All() {
		lines := strings.Split(e.Game.Rules, "\n")
		for i := 0; i+1 < len(lines); i++ {
			a, b := lines[i], lines[i+1]
			ta, tb := strings.TrimLeft(a, " "), strings.TrimLeft(b, " ")
			if ta == "" || tb == "" || len(a)-len(ta) != len(b)-len(tb) || strings.Contains(ta, "  ") {
				continue
			}
			last := ta[len(ta)-1]
			first := tb[0]
			if !(last >= 'a' && last <= 'z') || !(first >= 'a' && first <= 'z') {
				continue
			}
			if w := strings.Fields(tb)[0]; len([]rune(a))+1+len([]rune(w)) <= fill {
				t.Errorf("%s: rules line %d stops short: %q, then %q", e.Game.ID, i+1, a, b)
			}
		}
	}
}

// drawWebBoard checks that a web board draws a spectator's snapshot as one SVG image or as HTML
// with a table, with no script and no text left unescaped.
func drawWebBoard(t *testing.T, id string, web webdraw.Board, snap *rooms.Snapshot) {
	t.Helper()
	if web == nil {
		return // TestEveryGameHasItsParts says so
	}
	out := string(web(snap))
	if out == "" {
		t.Errorf("%s: the web board draws nothing", id)
	}
	if strings.Contains(out, "<script") || strings.Contains(out, " on") && strings.Contains(out, "=\"javascript") {
		t.Errorf("%s: the web board writes a script: %s", id, out)
	}
	if !strings.Contains(out, "<svg") && !strings.Contains(out, "<table") {
		t.Errorf("%s: the web board draws neither an image nor a table", id)
	}
	if snap.View = nil; web(snap) != "" {
		t.Errorf("%s: the web board draws a snapshot without a view", id)
	}
}
