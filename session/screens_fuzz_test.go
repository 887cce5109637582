package session

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/rating"
	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
)

// FuzzScreens drives a session's model as its program would, with a real hub, through arbitrary
// sequences of key presses, pastes, window sizes and clicks: from the lobby, from a room of each
// game where the player sits with bots (the board, the move prompt, the chat, the rules), from a
// room of bots the player watches, and from the replay of a recorded match of each game. Nothing
// panics, and after every event the screen (View and ViewLines) fits the window: within its width
// and height once it is at least the minimum (at most the maximum), within the minimum below it,
// with no control character or escape sequence but colours and styles.
func FuzzScreens(f *testing.F) {
	for _, s := range screenSeeds() {
		f.Add(s.start, encodeEvents(f, s.events...))
	}
	f.Fuzz(func(t *testing.T, start uint8, script []byte) {
		t.Parallel() // the seeds, side by side (fuzzing itself runs one input at a time)
		s := newFuzzSession(t, start)
		defer s.close()
		s.check("the first screen")
		for len(script) > 0 && !s.quit {
			var msg tea.Msg
			msg, script = decodeEvent(script)
			s.deliver(msg)
			s.pump()
			s.check(fmt.Sprintf("after %T %+v", msg, msg))
		}
	})
}

// fuzzStarts are where a fuzzed session starts: the lobby, then for each game of the catalogue a
// room where the player sits with bots, a room of bots watched, and a replay.
const startsPerGame = 3

func fuzzStart(start uint8) (Start, bool, bool) {
	ascii, noColor := start&0x40 != 0, start&0x80 != 0
	gs := games.Rules()
	i := int(start&0x3f) % (1 + startsPerGame*len(gs))
	if i == 0 {
		return Start{Mode: ModeLobby}, ascii, noColor
	}
	g := gs[(i-1)/startsPerGame]
	switch (i - 1) % startsPerGame {
	case 0:
		return Start{Mode: ModeNew, Game: g.ID, Seats: g.MinSeats, Bots: g.MinSeats - 1, BotLevel: g.Bots[0].Name}, ascii, noColor
	case 1:
		return Start{Mode: ModeNew, Game: g.ID, Seats: g.MaxSeats, Bots: g.MaxSeats, BotLevel: g.Bots[0].Name}, ascii, noColor
	}
	return Start{Mode: ModeReplay, Match: fuzzMatchID(g.ID)}, ascii, noColor
}

// startOf is the fuzz input's start byte of the i-th start (0: the lobby) of the game with ID id.
func startOf(id string, kind int) uint8 {
	for gi, g := range games.Rules() {
		if g.ID == id {
			return uint8(1 + gi*startsPerGame + kind)
		}
	}
	panic("no game " + id)
}

// fuzzSession is one session's model run by hand: messages are delivered one at a time, the
// commands run as the program would run them, and the room's wake-ups delivered as they come.
type fuzzSession struct {
	t      *testing.T
	hub    *rooms.Hub
	m      Model
	wakes  chan tea.Msg
	quit   bool
	w, h   int // the window as last reported
	ascii  bool
	pumped int
}

func newFuzzSession(t *testing.T, start uint8) *fuzzSession {
	st, ascii, noColor := fuzzStart(start)
	s := &fuzzSession{t: t, wakes: make(chan tea.Msg, 8), w: 80, h: 24, ascii: ascii}
	s.hub = rooms.NewHub(rooms.Config{Games: games.Rules(), BotDelay: -1, Logf: func(string, ...any) {}})
	s.m = New(Config{Hub: Local(s.hub), Boards: Boards(games.Boards()), Records: fuzzRecords{},
		Player: rooms.Player{ID: "SHA256:ann", Name: "ann"}, Start: st, Width: s.w, Height: s.h,
		ASCII: ascii, NoColor: noColor, Send: func(msg tea.Msg) { s.wakes <- msg }})
	s.run(s.m.Init())
	s.settle()
	return s
}

func (s *fuzzSession) close() {
	s.m.Close()
	s.hub.Shutdown("fuzzing over")
}

// deliver gives msg to the model and runs the command it returns.
func (s *fuzzSession) deliver(msg tea.Msg) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		s.w, s.h = ws.Width, ws.Height
	}
	next, cmd := s.m.Update(msg)
	s.m = next.(Model)
	s.run(cmd)
}

// cmdWait is how long a command may take to answer before it is taken for a timer (the countdown's
// tick) and dropped; the session's other commands answer at once.
const cmdWait = 200 * time.Millisecond

// run runs cmd as the program does and delivers its message.
func (s *fuzzSession) run(cmd tea.Cmd) {
	if cmd == nil || s.quit {
		return
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(cmdWait):
		return
	}
	switch msg := msg.(type) {
	case nil:
	case tea.QuitMsg:
		s.quit = true
	case tea.BatchMsg:
		for _, c := range msg {
			s.run(c)
		}
	default:
		s.deliver(msg)
		s.settle()
	}
}

// pump delivers the wake-ups the room has sent (its snapshots), without waiting for more.
func (s *fuzzSession) pump() {
	for {
		select {
		case msg := <-s.wakes:
			s.deliver(msg)
		default:
			return
		}
	}
}

// settleWait is how long settle waits for the room's next wake-up.
const settleWait = 2 * time.Millisecond

// settle delivers the wake-ups of a room that a command has changed (a move and the bots'
// answers, a join) until none comes for settleWait, so that later keys meet the room as a player
// would see it.
func (s *fuzzSession) settle() {
	for !s.quit && s.m.room != nil {
		select {
		case msg := <-s.wakes:
			s.deliver(msg)
		case <-time.After(settleWait):
			return
		}
	}
}

// check fails the test when the screen does not fit the window.
func (s *fuzzSession) check(when string) {
	s.t.Helper()
	w, h := min(s.w, maxWidth), min(s.h, maxHeight)
	if w < minWidth || h < minHeight {
		w, h = max(w, minWidth), max(h, minHeight)
	}
	v := s.m.View()
	s.checkLines(when+": View", strings.Split(v.Content, "\n"), w, h)
	_, lines := s.m.ViewLines()
	s.checkLines(when+": ViewLines", lines, w, h)
}

func (s *fuzzSession) checkLines(when string, lines []string, w, h int) {
	s.t.Helper()
	if len(lines) > h {
		s.t.Fatalf("%s: %d lines in a window %d x %d (drawn for %d x %d):\n%s", when, len(lines), s.w, s.h, w, h, strings.Join(lines, "\n"))
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			s.t.Fatalf("%s: line %d is %d columns in a window %d x %d (drawn for %d x %d): %q", when, i, n, s.w, s.h, w, h, ansi.Strip(l))
		}
		if bare := sgr.ReplaceAllString(l, ""); strings.ContainsFunc(bare, isControl) {
			s.t.Fatalf("%s: line %d holds a control character or an escape sequence other than a colour: %q", when, i, l)
		}
		if s.ascii && strings.ContainsFunc(ansi.Strip(l), func(r rune) bool { return r > 0x7e }) {
			s.t.Fatalf("%s: line %d is not ASCII in an ASCII session: %q", when, i, ansi.Strip(l))
		}
	}
}

// sgr matches the colour and style sequences a screen may hold.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// isControl reports a C0 or C1 control character, DEL included: what a screen must not send but
// inside its colours (a pasted escape reaching another player's terminal, say).
func isControl(r rune) bool { return r < 0x20 || (r >= 0x7f && r < 0xa0) }

// The events of a script. Each starts with a byte whose low three bits say what it is:
//
//	0-2  a key by name: namedKeys[byte>>3]
//	3    a character: the next byte, a printable ASCII character or one of oddRunes
//	4    a character with modifiers (byte>>3: ctrl 1, alt 2, shift 4): the next byte, as above
//	5    a paste: the next byte is its length, then its bytes (any, UTF-8 or not)
//	6    a window size: the next two bytes, width and height (fuzzSize)
//	7    a left click: the next two bytes, column and row
var namedKeys = []tea.Key{
	{Code: tea.KeyEnter}, {Code: tea.KeyEscape}, {Code: tea.KeyTab}, {Code: tea.KeyBackspace},
	{Code: tea.KeyUp}, {Code: tea.KeyDown}, {Code: tea.KeyLeft}, {Code: tea.KeyRight},
	{Code: tea.KeyHome}, {Code: tea.KeyEnd}, {Code: tea.KeyPgUp}, {Code: tea.KeyPgDown},
	{Code: tea.KeySpace, Text: " "}, {Code: tea.KeyDelete}, {Code: tea.KeyInsert}, {Code: tea.KeyF1},
	{Code: tea.KeyTab, Mod: tea.ModShift}, {Code: 'c', Mod: tea.ModCtrl}, {Code: 'u', Mod: tea.ModCtrl},
	{Code: 'w', Mod: tea.ModCtrl}, {Code: 'h', Mod: tea.ModCtrl}, {Code: tea.KeyEnter, Mod: tea.ModAlt},
}

// oddRunes are the characters a byte outside printable ASCII stands for.
var oddRunes = []rune{'é', 'ß', 'Ж', '中', '語', '👍', '\u200b', '\u0301', '\u202e', '\ufeff', 0x1b, 0x7f, 0, '\t', '\n', '\r'}

// fuzzSizes are the window sizes a byte below len(fuzzSizes) stands for; a larger byte is itself.
var fuzzSizes = []int{0, 1, 2, 79, 80, 81, 23, 24, 25, 119, 120, 121, 319, 320, 321, 1000, 1 << 16, 1<<31 - 1, 1<<32 - 1}

func fuzzSize(b byte) int {
	if int(b) < len(fuzzSizes) {
		return fuzzSizes[b]
	}
	return int(b)
}

func fuzzRune(b byte) rune {
	if b >= 0x20 && b < 0x7f {
		return rune(b)
	}
	return oddRunes[int(b)%len(oddRunes)]
}

// decodeEvent reads one event from the front of script.
func decodeEvent(script []byte) (tea.Msg, []byte) {
	op, rest := script[0], script[1:]
	arg := func() byte {
		if len(rest) == 0 {
			return 0
		}
		b := rest[0]
		rest = rest[1:]
		return b
	}
	switch op & 7 {
	case 0, 1, 2:
		return tea.KeyPressMsg(namedKeys[int(op>>3)%len(namedKeys)]), rest
	case 3:
		r := fuzzRune(arg())
		return tea.KeyPressMsg{Code: r, Text: string(r)}, rest
	case 4:
		var mod tea.KeyMod
		if op&0x08 != 0 {
			mod |= tea.ModCtrl
		}
		if op&0x10 != 0 {
			mod |= tea.ModAlt
		}
		if op&0x20 != 0 {
			mod |= tea.ModShift
		}
		r := fuzzRune(arg())
		return tea.KeyPressMsg{Code: r, Mod: mod}, rest
	case 5:
		n := min(int(arg()), len(rest))
		text := string(rest[:n])
		return tea.PasteMsg{Content: text}, rest[n:]
	case 6:
		w := fuzzSize(arg())
		return tea.WindowSizeMsg{Width: w, Height: fuzzSize(arg())}, rest
	}
	x := int(arg())
	return tea.MouseClickMsg{X: x, Y: int(arg()), Button: tea.MouseLeft}, rest
}

// encodeEvents writes a script of events: a key by name as namedKeys's tea.Key.String ("enter",
// "esc", "up", "ctrl+c"), one character, "paste:TEXT", "size:W:H" (each a byte's size, see
// fuzzSize) or "click:X:Y".
func encodeEvents(tb testing.TB, events ...string) []byte {
	var out []byte
	for _, e := range events {
		kind, arg, _ := strings.Cut(e, ":")
		switch kind {
		case "paste":
			if len(arg) > 255 {
				tb.Fatalf("paste of %d bytes", len(arg))
			}
			out = append(append(out, 5, byte(len(arg))), arg...)
			continue
		case "size", "click":
			var a, b int
			if _, err := fmt.Sscanf(arg, "%d:%d", &a, &b); err != nil {
				tb.Fatalf("%q: %v", e, err)
			}
			if kind == "click" {
				out = append(out, 7, byte(a), byte(b))
				continue
			}
			out = append(out, 6, sizeByte(tb, a), sizeByte(tb, b))
			continue
		}
		if len(e) == 1 && e[0] >= 0x20 && e[0] < 0x7f {
			out = append(out, 3, e[0])
			continue
		}
		i := 0
		for i < len(namedKeys) && namedKeys[i].String() != e {
			i++
		}
		if i == len(namedKeys) {
			tb.Fatalf("no key %q", e)
		}
		out = append(out, byte(i<<3))
	}
	return out
}

func sizeByte(tb testing.TB, n int) byte {
	for i, s := range fuzzSizes {
		if s == n {
			return byte(i)
		}
	}
	if n < len(fuzzSizes) || n > 255 {
		tb.Fatalf("no byte stands for size %d", n)
	}
	return byte(n)
}

// typed is the events of typing text.
func typed(text string) []string {
	out := make([]string, len(text))
	for i := range text {
		out[i] = text[i : i+1]
	}
	return out
}

type screenSeed struct {
	start  uint8
	events []string
}

// screenSeeds are typical sessions: the lobby's pages, a match played with the board's keys and
// with typed moves in the notation's worked examples, chat, the rules, a room watched, a replay
// stepped through, and windows resized on the way.
func screenSeeds() []screenSeed {
	var seeds []screenSeed
	add := func(start uint8, events ...[]string) {
		var all []string
		for _, e := range events {
			all = append(all, e...)
		}
		seeds = append(seeds, screenSeed{start, all})
	}
	ev := func(e ...string) []string { return e }
	// The lobby: each page of the menu, the new-room form, a code typed, a replay opened.
	add(0, ev("down", "enter", "up", "right", "down", "right", "esc", "down", "down", "enter"))
	add(0, ev("down", "enter"), typed("k7qxm"), ev("backspace", "enter", "esc"))
	add(0, ev("down", "enter"), ev("paste:K7 QX\x1b[2JM"), ev("enter"))
	add(0, ev("down", "down", "enter", "r", "down", "enter", "esc"))
	add(0, ev("down", "down", "down", "enter", "right", "right", "left", "esc"))
	add(0, ev("down", "down", "down", "down", "enter", "down", "enter", "right", "G", "esc"))
	add(0, ev("down", "down", "down", "down", "down", "enter", "down", "down", "enter", "down", "esc", "esc"))
	add(0, ev("size:79:24", "size:80:23", "size:320:120", "size:1000:1000", "size:0:0", "size:80:24", "enter", "enter"))
	add(0, ev("enter", "down", "right", "right", "down", "right", "enter", "?", "esc", "esc"))
	add(0, ev("q"))
	// The rooms, one game at a time: its board's keys, the prompt with the notation's examples,
	// chat, the rules, a bot seated, leaving.
	moves := map[string][]string{
		"stonetowers": {"b e5", "f e5", "pass", "e5"},
		"discon":      {"3 d6", "3 c4-d6", "3 d6*", "1 a1-b3 leave", "pass"},
		"coloretta":   {"d", "p1", "t2", "p3"},
		"lhexicon":    {"h8 cAt e,e", "x ab?", "pass", "s h8", "challenge", "accept", "end"},
		"flicflac":    {"B a8", "u B", "blue>a8", "end"},
	}
	for _, g := range games.Rules() {
		play, watch, replay := startOf(g.ID, 0), startOf(g.ID, 1), startOf(g.ID, 2)
		add(play, ev("enter", "right", "enter", "down", "enter", "left", "left", "enter", "up", "enter", "space", "enter"))
		for _, mv := range moves[g.ID] {
			add(play, ev(":"), typed(mv), ev("enter", "enter", "right", "enter"))
		}
		add(play, ev(":", "paste:"+moves[g.ID][0], "enter", ":", "paste:\x1b]0;pwned\x07\r\n", "esc"))
		add(play, ev("t"), typed("good luck!"), ev("enter", "tab", "paste:"+strings.Repeat("spam ", 50), "enter"))
		add(play, ev("?", "down", "down", "pgdown", "up", "k", "j", "esc", "?", "q"))
		add(play, ev("B", "B", "b", "x", "r", "esc"))
		add(play, ev("size:120:40", "enter", "click:10:5", "click:40:10", "size:80:24", "enter", "size:40:1", "enter", "size:2:80", "enter"))
		add(watch, ev("enter", "right", "?", "esc", "t", "h", "i", "enter", "r", "esc"))
		add(watch, ev("size:320:120", "down", "size:81:25", "esc"))
		add(replay, ev("right", "right", "l", "space", "G", "h", "left", "g", "home", "end", "q"))
		add(replay, ev("size:100:30", "G", "size:80:24", "esc"))
		add(replay|0x40, ev("right", "G"))
		add(play|0x80, ev("enter", ":", "x", "enter"))
	}
	return seeds
}

// fuzzRecords serves the records of a few matches of each game, played by bots: the lobby's
// leaderboards and "my matches", and the replays.
type fuzzRecords struct{}

func fuzzMatchID(gameID string) string { return "fuzz" + gameID }

// fuzzMatches are the recorded matches by ID: one per game, 40 moves of bots (a whole match of
// Stone Towers on its smallest board).
var fuzzMatches = sync.OnceValue(func() map[string]record.Match {
	out := map[string]record.Match{}
	seats := []record.Seat{{PlayerID: "SHA256:ann", Name: "ann"}, {PlayerID: "SHA256:bob", Name: "bob"}}
	when := time.Date(2026, 11, 21, 20, 15, 0, 0, time.UTC)
	for _, g := range games.Rules() {
		opts, err := g.Resolve(rules.Options{})
		if err != nil {
			panic(err)
		}
		if g.ID == "stonetowers" {
			opts["size"], opts["turns"] = "8", "20"
		}
		state, err := g.New(opts, len(seats), 7)
		if err != nil {
			panic(err)
		}
		m := record.Match{Version: record.Version, ID: fuzzMatchID(g.ID), Game: g.ID, Options: opts, Seed: 7,
			Seats: seats, Started: when}
		for i := 0; i < 40 && !state.Outcome().Over; i++ {
			seat := state.ToMove()[0]
			mv := g.Bots[0].Bot.Move(context.Background(), state, seat, rand.New(rand.NewPCG(7, uint64(i))))
			if state, err = state.Apply(seat, mv); err != nil {
				panic(err)
			}
			m.Moves = append(m.Moves, record.Move{Seat: seat, Move: mv})
		}
		m.Outcome, m.Plies = state.Outcome(), len(m.Moves)
		if m.Outcome.Over {
			m.Ended = when.Add(time.Hour)
		}
		out[m.ID] = m
	}
	return out
})

func (fuzzRecords) Leaderboard(game string, limit int) ([]record.Standing, error) {
	return []record.Standing{
		{Rank: 1, PlayerID: "SHA256:bob", Name: "bob", Game: game, Rating: rating.Rating{R: 1662.3, RD: 95, Vol: 0.06}, Games: 14, Wins: 10, Losses: 3, Draws: 1},
		{Rank: 2, PlayerID: "SHA256:ann", Name: "ann", Game: game, Rating: rating.Rating{R: 1540.2, RD: 120, Vol: 0.06}, Provisional: true, Games: 4, Wins: 2, Losses: 2},
	}, nil
}

func (fuzzRecords) SoloScores(game string, limit int) ([]record.SoloScore, error) {
	return []record.SoloScore{
		{Rank: 1, PlayerID: "SHA256:ann", Name: "ann", Game: game, Score: 143, Match: fuzzMatchID(game), Games: 3},
		{Rank: 2, PlayerID: "SHA256:bob", Name: "bob", Game: game, Score: 97, Match: fuzzMatchID(game), Games: 1},
	}, nil
}

func (fuzzRecords) Profile(id string, recent int) (record.Profile, error) {
	p := record.Profile{PlayerID: id, Name: "ann", Played: map[string]int{}, Won: map[string]int{}}
	for _, g := range games.Rules() {
		m := fuzzMatches()[fuzzMatchID(g.ID)]
		m.Moves = nil
		p.Recent = append(p.Recent, m)
		p.Played[g.ID]++
		p.Standings = append(p.Standings, record.Standing{Game: g.ID, Rating: rating.Rating{R: 1540.2, RD: 120}, Games: 1})
	}
	return p, nil
}

func (fuzzRecords) Match(id string) (record.Match, error) {
	m, ok := fuzzMatches()[id]
	if !ok {
		return record.Match{}, fmt.Errorf("no match %q", id)
	}
	return m, nil
}

// TestScreenFindings replays what FuzzScreens found, each fixed since (testdata/fuzz/FuzzScreens
// holds the inputs as found).
func TestScreenFindings(t *testing.T) {
	for _, c := range []struct {
		name   string
		start  uint8
		events []string
	}{
		// The move prompt opened and left empty: the notation's help, two lines in Stone Towers,
		// stood on the message line and pushed the screen one line past the window.
		{"notation help on one line", startOf("stonetowers", 0), []string{":", "enter"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newFuzzSession(t, c.start)
			defer s.close()
			for script := encodeEvents(t, c.events...); len(script) > 0; {
				var msg tea.Msg
				msg, script = decodeEvent(script)
				s.deliver(msg)
				s.pump()
				s.check(fmt.Sprintf("after %+v", msg))
			}
		})
	}
}
