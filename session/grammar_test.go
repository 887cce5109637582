package session

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/flicflac"
	"github.com/arcade/arcade/session/draw"
)

// recordSub is a subscription that records what the room screen sends: moves and actions.
type recordSub struct {
	idleSub
	sent []string
}

func (s *recordSub) Move(_ context.Context, mv string) error {
	s.sent = append(s.sent, "move "+mv)
	return nil
}
func (s *recordSub) Chat(text string) error          { s.sent = append(s.sent, "chat "+text); return nil }
func (s *recordSub) AddBot(rules.Seat, string) error { s.sent = append(s.sent, "bot"); return nil }
func (s *recordSub) EndMatch() error                 { s.sent = append(s.sent, "end match"); return nil }
func (s *recordSub) Rematch() error                  { s.sent = append(s.sent, "rematch"); return nil }
func (s *recordSub) Resign() error                   { s.sent = append(s.sent, "resign"); return nil }
func (s *recordSub) OfferDraw() error                { s.sent = append(s.sent, "draw"); return nil }
func (s *recordSub) TakeBack() error                 { s.sent = append(s.sent, "takeback"); return nil }
func (s *recordSub) Leave()                          { s.sent = append(s.sent, "leave") }
func (s *recordSub) LeaveByChoice()                  { s.sent = append(s.sent, "left") }

// runCmd runs cmd and the commands it batches, as the program would (within a synctest bubble,
// where an error's expiry timer returns at once).
func runCmd(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	if batch, ok := cmd().(tea.BatchMsg); ok {
		for _, c := range batch {
			runCmd(c)
		}
	}
}

// grammarRoom is a room screen of snap whose subscription records what it sends.
func grammarRoom(t *testing.T, snap rooms.Snapshot) (Model, *recordSub) {
	m := roomModel(t, snap)
	sub := &recordSub{}
	m.room.sub = sub
	return m, sub
}

// sendKeys presses keys in m and runs what each sends.
func sendKeys(m Model, keys ...string) Model {
	for _, k := range keys {
		next, cmd := m.Update(keyMsg(k))
		m = next.(Model)
		runCmd(cmd)
	}
	return m
}

// grammarGame is a game on ann's turn, with keys that pick or compose something (nothing for a
// game whose turn has no step to cancel).
type grammarGame struct {
	name string
	snap rooms.Snapshot
	pick []string
}

func grammarGames(t *testing.T) []grammarGame {
	t.Helper()
	st := playedSnapshot(t, 14)
	dc, _ := disconSnapshot(t, 12)
	co, _ := colorettaMid(t, 3, 30)
	lx, _ := lhexMid(t)
	ff := flicflacMid(t, 40)
	if st.ToMove[0] != 0 || dc.ToMove[0] != 0 || co.ToMove[0] != 0 || lx.ToMove[0] != 0 || ff.ToMove[0] != 0 {
		t.Fatal("a test position is not ann's turn")
	}
	// DISCON's pick: enter on ann's home corner, where the cursor starts.
	return []grammarGame{
		{"stonetowers", st, nil},
		{"discon", dc, []string{"enter"}},
		{"coloretta", co, nil},
		{"lhexicon", lx, []string{"right", "right", "right", "enter", "p"}}, // h11 is empty; P is on the rack
		{"flicflac", ff, []string{"n"}},
	}
}

// TestGrammarRoomKeysAlike: the room's keys do the same in every game, on the player's turn: :
// opens the move prompt, t the chat (Lhex-i'-con's too, with no word started), ? the rules, tab
// the moves; R asks and enter resigns; = offers a draw, u asks a takeback; esc with nothing
// picked asks to leave, and any other key stays.
func TestGrammarRoomKeysAlike(t *testing.T) {
	for _, g := range grammarGames(t) {
		t.Run(g.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				for _, c := range []struct {
					keys  []string
					focus focus
					sent  []string
				}{
					{[]string{":"}, focusPrompt, nil},
					{[]string{"t"}, focusChat, nil},
					{[]string{"?"}, focusRules, nil},
					{[]string{"?", "?"}, focusBoard, nil},
					{[]string{"R", "enter"}, focusBoard, []string{"resign"}},
					{[]string{"R", "R"}, focusBoard, nil},
					{[]string{"="}, focusBoard, []string{"draw"}},
					{[]string{"u"}, focusBoard, []string{"takeback"}},
					{[]string{"esc", "x"}, focusBoard, nil},
					{[]string{"esc", "enter"}, focusBoard, []string{"left"}},
				} {
					m, sub := grammarRoom(t, g.snap)
					m = sendKeys(m, c.keys...)
					if left := slices.Contains(c.sent, "left"); left != (m.room == nil) {
						t.Errorf("%v: in the room %v, sent %q", c.keys, m.room != nil, sub.sent)
						continue
					} else if left {
						continue
					}
					if m.room.focus != c.focus || !slices.Equal(sub.sent, c.sent) {
						t.Errorf("%v: focus %d, sent %q; want focus %d, sent %q", c.keys, m.room.focus, sub.sent, c.focus, c.sent)
					}
				}
				m, _ := grammarRoom(t, g.snap)
				if m = sendKeys(m, "tab"); !m.room.side.showMoves {
					t.Error("tab does not show the moves")
				}
				m, _ = grammarRoom(t, g.snap)
				if m = sendKeys(m, "R"); !strings.Contains(m.room.prompt.msg, "enter resigns") {
					t.Errorf("R asks %q", m.room.prompt.msg)
				}
				if h := helpOf(t, m.View().Content); h != "enter resign • esc play on" {
					t.Errorf("the help line while R asks: %q", h)
				}
			})
		})
	}
}

// TestGrammarBoardKeysAlike: the board's keys of the grammar do the same in every game where its
// game has the action: esc drops what is picked or composed (and asks to leave only when nothing
// is), backspace takes back a step, p passes (asked where a pass gives up a play), e ends a
// Flic Flac turn; a game without the action sends nothing for its key.
func TestGrammarBoardKeysAlike(t *testing.T) {
	for _, g := range grammarGames(t) {
		t.Run(g.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				if g.pick != nil {
					m, sub := grammarRoom(t, g.snap)
					m = sendKeys(m, g.pick...)
					if !m.room.boardTakes(escKey) || !strings.Contains(helpOf(t, m.View().Content), "esc cancel") {
						t.Fatalf("%v picks or composes nothing the board drops with esc:\n%s", g.pick, plain(m.View().Content))
					}
					m = sendKeys(m, "esc")
					if m.room.prompt.asking() || m.room.boardTakes(escKey) || len(sub.sent) != 0 {
						t.Errorf("esc after %v: asking %v, still picked %v, sent %q", g.pick, m.room.prompt.asking(), m.room.boardTakes(escKey), sub.sent)
					}
					m = sendKeys(m, g.pick...)
					m = sendKeys(m, "backspace")
					if g.name != "lhexicon" && m.room.boardTakes(escKey) {
						t.Errorf("backspace after %v leaves it picked", g.pick)
					}
					if len(sub.sent) != 0 {
						t.Errorf("backspace after %v sent %q", g.pick, sub.sent)
					}
				}
				m, sub := grammarRoom(t, g.snap)
				m = sendKeys(m, "esc")
				if !m.room.prompt.askingLeave() {
					t.Errorf("esc with nothing picked does not ask to leave")
				}
				m, sub = grammarRoom(t, g.snap)
				m = sendKeys(m, "p")
				switch g.name {
				case "stonetowers":
					if !slices.Equal(sub.sent, []string{"move pass"}) {
						t.Errorf("p sent %q, want the pass", sub.sent)
					}
				case "lhexicon":
					if len(sub.sent) != 0 || !strings.HasPrefix(m.room.prompt.msg, "Pass your turn?") {
						t.Errorf("p sent %q, asked %q; want the question first", sub.sent, m.room.prompt.msg)
					}
					if h := helpOf(t, m.View().Content); h != "enter pass • esc play on" {
						t.Errorf("the help line while p asks: %q", h)
					}
					if m = sendKeys(m, "enter"); !slices.Equal(sub.sent, []string{"move pass"}) {
						t.Errorf("enter on the question sent %q, want the pass", sub.sent)
					}
				default:
					if len(sub.sent) != 0 || m.room.prompt.asking() {
						t.Errorf("p in a game without a pass sent %q, asked %q", sub.sent, m.room.prompt.msg)
					}
				}
				m, sub = grammarRoom(t, g.snap)
				m = sendKeys(m, "e")
				want := []string(nil)
				if g.name == "flicflac" {
					want = []string{"move end"}
				}
				if !slices.Equal(sub.sent, want) || m.room.prompt.asking() {
					t.Errorf("e sent %q, asked %v; want %q", sub.sent, m.room.prompt.asking(), want)
				}
			})
		})
	}
}

// TestGrammarStepBack: backspace takes back a step of the turn: Flic Flac's piece moved (the
// engine's take-back, sent), Lhex-i'-con's last letter (not sent), DISCON's pick.
func TestGrammarStepBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		snap, state := flicflacPlay(t, func(i int, s *flicflac.State) bool { return i >= 40 && s.Turn() == 0 && !s.CaptorsTurn() })
		v := state.ViewOf()
		var mv flicflac.Move
		for c := range flicflac.Colour(flicflac.Colours) {
			if p := v.Piece(0, c); p.CanMove && len(v.Reach[c]) > 0 {
				mv = flicflac.Move{Kind: flicflac.Place, Colour: c, To: v.Hexes[v.Reach[c][0]].Name}
				break
			}
		}
		next, err := state.Apply(0, mv.String())
		if err != nil {
			t.Fatal(err)
		}
		snap.View, snap.ToMove = next.View(0), next.ToMove()
		m, sub := grammarRoom(t, snap)
		sendKeys(m, "backspace")
		if want := (flicflac.Move{Kind: flicflac.TakeBack, Colour: mv.Colour}).String(); !slices.Equal(sub.sent, []string{"move " + want}) {
			t.Errorf("Flic Flac's backspace sent %q, want %q", sub.sent, want)
		}

		lx, _ := lhexMid(t)
		m, sub = grammarRoom(t, lx)
		m = sendKeys(m, "right", "right", "right", "enter", "p")
		before := plain(m.View().Content)
		m = sendKeys(m, "backspace")
		after := plain(m.View().Content)
		if !strings.Contains(before, "Rack -- Qu10 H4") || !strings.Contains(after, "Rack P3 Qu10 H4") || len(sub.sent) != 0 {
			t.Errorf("Lhex-i'-con's backspace: sent %q, rack before and after:\n%s\n%s", sub.sent, rackOf(before), rackOf(after))
		}
	})
}

// rackOf is the Lhex-i'-con screen's rack line.
func rackOf(screen string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, "Rack") {
			return l
		}
	}
	return ""
}

// TestNoCapitalGivesUp: no capital letter, nor any two of them in a row (Caps Lock on), sends a
// move or an action to the room or leaves it, in any game: on the player's turn, with a piece
// picked or a word started, and with a question asked. Capitals come as a terminal sends them
// with Caps Lock (the letter itself) and with shift (the key and its shift).
func TestNoCapitalGivesUp(t *testing.T) {
	capital := func(c rune, shifted bool) tea.KeyPressMsg {
		if shifted {
			return tea.KeyPressMsg{Code: c - 'A' + 'a', ShiftedCode: c, Mod: tea.ModShift, Text: string(c)}
		}
		return tea.KeyPressMsg{Code: c, Text: string(c)}
	}
	for _, g := range grammarGames(t) {
		for _, start := range [][]string{nil, g.pick} {
			for _, shifted := range []bool{false, true} {
				name := fmt.Sprintf("%s/%v/shift=%v", g.name, start, shifted)
				t.Run(name, func(t *testing.T) {
					synctest.Test(t, func(t *testing.T) {
						for first := 'A'; first <= 'Z'; first++ {
							m, sub := grammarRoom(t, g.snap)
							m = sendKeys(m, start...)
							for _, c := range append([]rune{first}, []rune("ABCDEFGHIJKLMNOPQRSTUVWXYZ")...) {
								next, cmd := m.Update(capital(c, shifted))
								m = next.(Model)
								runCmd(cmd)
								if len(sub.sent) != 0 || m.room == nil {
									t.Fatalf("%c then %c: sent %q (in the room %v)", first, c, sub.sent, m.room != nil)
								}
							}
						}
					})
				})
			}
		}
	}
}

// TestGrammarHelpLinesAlike: every help line of every game writes the grammar's keys as the
// grammar does (draw.KeyMap: "bksp undo", "p pass", "u takeback"...), in the grammar's order.
func TestGrammarHelpLinesAlike(t *testing.T) {
	k := &draw.KeyMap
	order := []key.Binding{k.StepBack, k.Pass, k.EndTurn, k.Prompt, k.TakeBack, k.Draw, k.Resign, k.Chat, k.Rules}
	for _, s := range helpStates(t) {
		m := s.model
		var line []key.Binding
		line = m.room.helpKeys(line)
		last := -1
		for _, b := range line {
			i := slices.IndexFunc(order, func(g key.Binding) bool { return g.Help().Key == b.Help().Key })
			if i < 0 {
				continue
			}
			if b.Help() != order[i].Help() {
				t.Errorf("%s: the help line says %q %q, the grammar %q %q", s.name, b.Help().Key, b.Help().Desc, order[i].Help().Key, order[i].Help().Desc)
			}
			if i < last {
				t.Errorf("%s: %q out of the grammar's order", s.name, b.Help().Key)
			}
			last = i
		}
	}
}

// helpState is a room screen whose help line the goldens keep.
type helpState struct {
	name  string
	model Model
}

// helpStates are the room screens of every game whose help lines differ: on the player's turn,
// with something picked or composed, watching, a question asked, the waiting room, the end.
func helpStates(t *testing.T) []helpState {
	t.Helper()
	var out []helpState
	add := func(name string, m Model, keys ...string) {
		out = append(out, helpState{name, pressAll(m, keys...)})
	}
	for _, g := range grammarGames(t) {
		add(g.name+" turn", roomModel(t, g.snap))
		if g.pick != nil {
			m := roomModel(t, g.snap)
			for _, k := range g.pick {
				next, _ := m.Update(keyMsg(k))
				m = next.(Model)
			}
			add(g.name+" picked", m)
		}
		sp := g.snap
		sp.You = rules.Spectator
		add(g.name+" watching", roomModel(t, sp))
	}
	lx, _ := lhexMid(t)
	add("lhexicon exchange", roomModel(t, lx), "x")
	solo, _ := lhexSnapshot(t, nil, 1, 4, 2)
	add("lhexicon solo end asked", roomModel(t, solo), "e")
	add("lhexicon pass asked", roomModel(t, lx), "p")
	st := playedSnapshot(t, 14)
	add("resign asked", roomModel(t, st), "R")
	add("leave asked", roomModel(t, st), "esc")
	add("chat open", roomModel(t, st), "t")
	add("rules", roomModel(t, st), "?")
	wait := st
	wait.Phase = rooms.Waiting
	wait.Seats = append([]rooms.SeatInfo(nil), st.Seats...)
	wait.Seats[1] = rooms.SeatInfo{Empty: true}
	add("waiting", roomModel(t, wait))
	add("finished", roomModel(t, playedSnapshot(t, -1)))
	gone := st
	gone.Seats = append([]rooms.SeatInfo(nil), st.Seats...)
	gone.Seats[1] = rooms.SeatInfo{Name: "bob", Abandoned: true}
	add("a player gone", roomModel(t, gone))
	return out
}

// TestHelpLinesGolden: the help line of every game's screens at 80 x 24 and 60 x 20 (a phone's
// terminal: the match's keys, the move prompt, chat and rules make way, in that order, before
// the line is cut).
func TestHelpLinesGolden(t *testing.T) {
	var b strings.Builder
	for _, s := range helpStates(t) {
		wide := helpOf(t, s.model.View().Content)
		narrowLine := helpOf(t, narrow(s.model))
		fmt.Fprintf(&b, "%s\n  80: %s\n  60: %s\n", s.name, wide, narrowLine)
		if strings.Contains(wide, "…") {
			t.Errorf("%s: the help line is cut at 80 columns: %q", s.name, wide)
		}
	}
	golden.RequireEqual(t, b.String())
}

// TestResignQuestionGolden: R asks before resigning, saying enter resigns; the help line says what
// the two answers do; at 80 x 24 and 60 x 20.
func TestResignQuestionGolden(t *testing.T) {
	snap := playedSnapshot(t, 14)
	m := press(roomModel(t, snap), "R")
	out := m.View().Content
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, plain(out)+"\n\n"+plain(narrow(m)))
	if !strings.Contains(words(plain(out)), "Resign? enter resigns, any other key plays on.") {
		t.Errorf("R does not ask:\n%s", plain(out))
	}
}
