package session

import (
	"errors"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/session/draw"
)

// typeInto gives the prompt each character of s as a key.
func typeInto(p roomPrompt, s string) roomPrompt {
	for _, r := range s {
		p, _ = p.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return p
}

// sentMsg is what a test prompt's line sends: its text.
type sentMsg struct{ text string }

// sendText is a line's send that returns the text sent as a command's message.
func sendText(text string) tea.Cmd { return func() tea.Msg { return sentMsg{text} } }

// TestPromptGolden: the line under the board at 80 columns: the open move and chat lines with
// their text and cursor, a message too long for one line on two, an error with its mark on up
// to errorLines, cut beyond, and a question.
func TestPromptGolden(t *testing.T) {
	st := *draw.NewStyles(false, false)
	out := ""
	show := func(name string, p roomPrompt) {
		out += name + "\n" + framed(p.View(st, 80), 80)
	}
	p := newRoomPrompt()
	show("nothing said", p)
	p.open(lineMove, sendText)
	show("the move line", typeInto(p, "b e10"))
	p.open(lineChat, sendText)
	show("the chat line", typeInto(p, "good luck!"))
	p = newRoomPrompt()
	p.say("You offer a draw; it stands until your opponent moves. Your opponent reads it beside your name, and accepts it with = too.", false)
	show("a long message", p)
	p.fail(sentence("bad move: write a move as a piece and its path, e.g. \"R3 c4-d6\" or \"R1 a1-c2\", or pass; " +
		"a piece moves as far as its height, never through a tower, and a path turns at most once " +
		"(every square of it named, as in R2 a1-a2-b2), nor ends on its own colour: a tower of yours there is built up instead, " +
		"which the board shows as you move the cursor there; more than five lines of this are cut"))
	show("a long error", p)
	p = newRoomPrompt()
	p.ask("Resign? enter resigns, any other key plays on.", "resign", "play on", nil, "You play on.")
	show("a question", p)
	golden.RequireEqual(t, out)
}

// TestPromptLine: enter sends the line's text and closes it (a move clears the message, a chat
// line leaves it); an empty line sends nothing; esc and up close it unsent.
func TestPromptLine(t *testing.T) {
	for _, c := range []struct {
		kind  lineKind
		typed string
		close tea.KeyPressMsg
		sent  string
		said  string
	}{
		{lineMove, "b e10", tea.KeyPressMsg{Code: tea.KeyEnter}, "b e10", ""},
		{lineChat, "hi there", tea.KeyPressMsg{Code: tea.KeyEnter}, "hi there", "You play on."},
		{lineChat, "  ", tea.KeyPressMsg{Code: tea.KeyEnter}, "", ""},
		{lineMove, "b e10", tea.KeyPressMsg{Code: tea.KeyEscape}, "", ""},
		{lineChat, "hi", tea.KeyPressMsg{Code: tea.KeyUp}, "", ""},
	} {
		p := newRoomPrompt()
		p.say("You play on.", false)
		p.open(c.kind, sendText)
		p = typeInto(p, c.typed)
		if !p.typing() {
			t.Fatalf("%q closed the line", c.typed)
		}
		p, cmd := p.Update(c.close)
		if p.typing() {
			t.Errorf("%q then %s: the line stays open", c.typed, c.close)
		}
		var sent string
		if cmd != nil {
			sent = cmd().(sentMsg).text
		}
		if sent != c.sent || p.msg != c.said {
			t.Errorf("%q then %s: sent %q, message %q; want %q, %q", c.typed, c.close, sent, p.msg, c.sent, c.said)
		}
	}
}

// TestPromptQuestion: a question takes the next key: enter does what it asked (its command made
// only then), any other key says no, the question's own key (R) and a capital among them; either
// way it is answered, and asks no more.
func TestPromptQuestion(t *testing.T) {
	for _, c := range []struct {
		key  tea.KeyPressMsg
		then bool
		said string
	}{
		{tea.KeyPressMsg{Code: tea.KeyEnter}, true, ""},
		{tea.KeyPressMsg{Code: 'R', Text: "R"}, false, "You play on."},
		{tea.KeyPressMsg{Code: 'Y', Text: "Y"}, false, "You play on."},
		{tea.KeyPressMsg{Code: 'x', Text: "x"}, false, "You play on."},
		{tea.KeyPressMsg{Code: tea.KeyEscape}, false, "You play on."},
	} {
		made := 0
		yes := func() tea.Cmd {
			made++
			return func() tea.Msg { return sentMsg{"yes"} }
		}
		p := newRoomPrompt()
		p.ask("Resign?", "resign", "play on", yes, "You play on.")
		if !p.asking() || p.msg != "Resign?" {
			t.Fatalf("asked: asking %v, message %q", p.asking(), p.msg)
		}
		if p2, cmd := p.Update(tea.PasteMsg{Content: "R"}); !p2.asking() || cmd != nil {
			t.Error("a paste answered the question")
		}
		p, cmd := p.Update(c.key)
		if p.asking() || (cmd != nil) != c.then || p.msg != c.said || (made == 1) != c.then {
			t.Errorf("%s: asking %v, did it %v (made %d), message %q; want done, %v, %q", c.key, p.asking(), cmd != nil, made, p.msg, c.then, c.said)
		}
	}
}

// TestPromptErrorExpires: an error goes at its expiry, or at clearError; an older error's expiry
// leaves a newer one, and a message is not an error to clear.
func TestPromptErrorExpires(t *testing.T) {
	p := newRoomPrompt()
	if p.fail("First.") == nil {
		t.Fatal("an error has no expiry")
	}
	old := p.errSeq
	p.fail("Second.")
	if p, _ = p.Update(errExpiredMsg{old}); p.msg != "Second." {
		t.Errorf("the first error's expiry left %q", p.msg)
	}
	if p, _ = p.Update(errExpiredMsg{p.errSeq}); p.msg != "" {
		t.Errorf("the error stays after its expiry: %q", p.msg)
	}
	p.say("You offer a draw.", false)
	if p.clearError(); p.msg == "" {
		t.Error("clearError took a message that is no error")
	}
	p.fail(sentence(errors.New("square taken").Error()))
	if p.clearError(); p.msg != "" {
		t.Errorf("clearError left %q", p.msg)
	}
}

// TestSentenceKeepsSquares: an error's first word is capitalised unless it names a square as the
// board writes it.
func TestSentenceKeepsSquares(t *testing.T) {
	for in, want := range map[string]string{
		"f4 is occupied by a tower": "f4 is occupied by a tower.",
		"h12 is off the board":      "h12 is off the board.",
		"you cannot build there":    "You cannot build there.",
		"a move needs a piece":      "A move needs a piece.",
		"ok!":                       "Ok!",
		"f":                         "F.",
	} {
		if got := sentence(in); got != want {
			t.Errorf("sentence(%q) = %q, want %q", in, got, want)
		}
	}
}
