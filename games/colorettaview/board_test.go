package colorettaview

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/arcade/arcade/games/gametest"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/coloretta"
	"github.com/arcade/arcade/session/draw"
)

// panelWidth is the width of the room's side panel (session), which Status is given.
const panelWidth = 28

// colorettaNames are the players of the test tables, in seat order.
var colorettaNames = []string{"ann", "bob", "cid", "dee", "eve"}

// colorettaPlay plays a seeded Coloretta match of seats players with greedy bots until stop says
// so (or the game ends) and returns ann's snapshot of it with the engine.
func colorettaPlay(t *testing.T, seats int, opts rules.Options, stop func(i int, v coloretta.View) bool) (rooms.Snapshot, rules.Engine) {
	t.Helper()
	state, moves := gametest.PlayBots(t, coloretta.Game, opts, seats, 5, coloretta.Greedy,
		func(i int, s rules.Engine) bool { return stop(i, s.View(0).(coloretta.View)) })
	chat := []rooms.ChatLine{{Text: "ann sits down"}, {From: "bob", Text: "good luck!"}}
	return gametest.Snapshot("C0L0R", coloretta.Game, state, moves, colorettaNames[:seats], chat), state
}

// colorettaMid plays at least plies moves and stops at ann's turn, when she may draw.
func colorettaMid(t *testing.T, seats, plies int) (rooms.Snapshot, rules.Engine) {
	t.Helper()
	return colorettaPlay(t, seats, nil, func(i int, v coloretta.View) bool {
		return i >= plies && v.ToMove == 0 && slicesHas(v.Legal, "d")
	})
}

// press1 gives the board one key.
func press1(b *colorettaBoard, snap *rooms.Snapshot, k string) string {
	switch k {
	case "enter":
		return b.Handle(tea.KeyPressMsg{Code: tea.KeyEnter}, snap)
	case "right":
		return b.Handle(tea.KeyPressMsg{Code: tea.KeyRight}, snap)
	case "left":
		return b.Handle(tea.KeyPressMsg{Code: tea.KeyLeft}, snap)
	}
	return b.Handle(tea.KeyPressMsg{Code: rune(k[0]), Text: k}, snap)
}

// TestColorettaKeys: d draws, then 2 places the card on stack 2, and the engine takes both.
func TestColorettaKeys(t *testing.T) {
	snap, state := colorettaMid(t, 3, 0)
	b := newColorettaBoard()
	got := press1(b, &snap, "d")
	if got != "d" {
		t.Fatalf("d proposes %q", got)
	}
	state, err := state.Apply(0, got)
	if err != nil {
		t.Fatalf("the engine refuses d: %v", err)
	}
	snap.View = state.View(0)
	if got = press1(b, &snap, "2"); got != "p2" {
		t.Fatalf("2 after drawing proposes %q, want p2", got)
	}
	if _, err := state.Apply(0, got); err != nil {
		t.Errorf("the engine refuses %q: %v", got, err)
	}
	if got := press1(b, &snap, "x"); got != "" {
		t.Errorf("x proposes %q", got)
	}
}

// TestColorettaCursorAndClick: right and enter place the drawn card on stack 2; with no card
// drawn a click on a stack's line picks that stack.
func TestColorettaCursorAndClick(t *testing.T) {
	snap, state := colorettaMid(t, 3, 0)
	st, err := state.Apply(0, "d")
	if err != nil {
		t.Fatal(err)
	}
	snap.View = st.View(0)
	b := newColorettaBoard()
	press1(b, &snap, "right")
	press1(b, &snap, "right")
	press1(b, &snap, "left")
	if got := press1(b, &snap, "enter"); got != "p2" {
		t.Fatalf("right, right, left, enter proposes %q, want p2", got)
	}
	st, err = st.Apply(0, "p2")
	if err != nil {
		t.Fatal(err)
	}
	// Someone else's turn now: enter and clicks do nothing.
	snap.View, snap.ToMove = st.View(0), st.ToMove()
	click := tea.MouseClickMsg{X: 5, Y: colorettaStackTop + 1, Button: tea.MouseLeft}
	if got := b.Handle(click, &snap); got != "" {
		t.Errorf("a click out of turn proposes %q", got)
	}
	// Play on until ann may pick stack 2, then click it.
	snap, state = colorettaPlay(t, 3, nil, func(i int, v coloretta.View) bool {
		return v.ToMove == 0 && !v.HasDrawn && slicesHas(v.Legal, "t2")
	})
	if got := b.Handle(click, &snap); got != "t2" {
		t.Fatalf("a click on stack 2 proposes %q, want t2", got)
	}
	if _, err := state.Apply(0, "t2"); err != nil {
		t.Errorf("the engine refuses t2: %v", err)
	}
	if b.cur != 1 {
		t.Errorf("the cursor is on stack %d after the click, want 2", b.cur+1)
	}
}

// slicesHas reports whether ss holds s.
func slicesHas(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestColorettaASCII: without colour and in ASCII the board and status are plain ASCII, fit the
// board's 51 columns and show every colour by its letter.
func TestColorettaASCII(t *testing.T) {
	snap, _ := colorettaMid(t, 5, 22)
	b := newColorettaBoard()
	st := *draw.NewStyles(true, true)
	lines := append(b.View(&snap, st, 51, 21), b.Status(&snap, st, panelWidth)...)
	if n := len(b.View(&snap, st, 51, 21)); n > 21 {
		t.Errorf("the board has %d lines", n)
	}
	for _, l := range lines {
		if l != ansi.Strip(l) && !strings.Contains(l, "\x1b[1m") && !strings.Contains(l, "\x1b[7m") {
			t.Errorf("colour without NO_COLOR styles: %q", l)
		}
		p := ansi.Strip(l)
		if ansi.StringWidth(p) > 51 {
			t.Errorf("line too wide: %q", p)
		}
		for _, r := range p {
			if r > 127 {
				t.Errorf("non-ASCII %q in %q", r, p)
				break
			}
		}
	}
	// Every card kind keeps its letter without colour.
	for c := coloretta.Red; c <= coloretta.Orange; c++ {
		card := coloretta.ColourCard(c)
		if got := ansi.Strip(cardStyle(st, card).Render(card.Label())); got != fmt.Sprintf("%c", card.Letter()) {
			t.Errorf("%v shows as %q", c, got)
		}
	}
}

// TestCardPaints: the cards' paints draw as their lipgloss styles do, with colour and without,
// bold or not.
func TestCardPaints(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		st := *draw.NewStyles(noColor, false)
		cards := []coloretta.Card{coloretta.Wild}
		for c := range coloretta.NumColours {
			cards = append(cards, coloretta.ColourCard(coloretta.Colour(c)))
		}
		for _, card := range cards {
			for _, p := range []draw.Paint{cardStyle(st, card), cardStyle(st, card).Bold(true)} {
				for _, s := range []string{"", " ", "R", "+2", "a b", "·", "two\nlines", "tab\t"} {
					if got, want := p.Render(s), p.Style().Render(s); got != want {
						t.Errorf("noColor %v %v: Render(%q) = %q, lipgloss %q", noColor, card, s, got, want)
					}
				}
			}
		}
	}
}

// TestLastMoveKeepsWordsTogether: the last-move line leaves no stack number alone on a line, and
// keeps "Last: NAME" whole on its first.
func TestLastMoveKeepsWordsTogether(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"Last: Bo (greedy bot) put red on 1", []string{"Last: Bo (greedy bot) put", "red on 1"}},
		{"Last: Bo (greedy bot) put yellow on 1", []string{"Last: Bo (greedy bot) put", "yellow on 1"}},
		{"Last: ~guest-1234 put red on 1", []string{"Last: ~guest-1234 put red", "on 1"}},
		{"Last: bob drew red", []string{"Last: bob drew red"}},
		{"Last: averyveryverylongname drew", []string{"Last: averyveryverylongname", "drew"}},
	} {
		if got := wrapNoWidow(c.in, panelWidth); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrapNoWidow(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
