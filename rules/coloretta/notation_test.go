package coloretta

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/arcade/arcade/rules"
)

func TestNotationRoundTrip(t *testing.T) {
	all := []Move{{Kind: Draw}}
	for i := range MaxStacks {
		all = append(all, Move{Kind: Place, Stack: i}, Move{Kind: Take, Stack: i})
	}
	for _, m := range all {
		got, err := ParseMove(m.String())
		if err != nil || got != m {
			t.Errorf("ParseMove(%q) = %v, %v", m.String(), got, err)
		}
	}
	for in, want := range map[string]string{"D": "d", " p3 ": "p3", "T2": "t2"} {
		m, err := ParseMove(in)
		if err != nil || m.String() != want {
			t.Errorf("ParseMove(%q) = %v, %v; want %s", in, m, err, want)
		}
	}
	for _, bad := range []string{"", "x", "p", "p0", "p6", "t10", "d1", "pp", "take 1", "\x1b[2J"} {
		if _, err := ParseMove(bad); !errors.Is(err, rules.ErrBadNotation) {
			t.Errorf("ParseMove(%q): %v", bad, err)
		}
	}
	if _, err := ParseMove("\x1b[2J"); strings.ContainsRune(err.Error(), 0x1b) {
		t.Error("error echoes an escape character")
	}
}

func TestKeyMove(t *testing.T) {
	s := newState(t, 3)
	v := s.ViewOf(rules.Seat(s.turn))
	for key, want := range map[string]string{"d": "d", "2": "t2", "5": "t5"} {
		if m, ok := v.KeyMove(key); !ok || m != want {
			t.Errorf("key %q: %q %v, want %q", key, m, ok, want)
		}
	}
	if _, ok := v.KeyMove("x"); ok {
		t.Error("key x maps to a move")
	}
	s = play(t, s, "d")
	v = s.ViewOf(rules.Seat(s.turn))
	if m, ok := v.KeyMove("3"); !ok || m != "p3" {
		t.Errorf("key 3 after a draw: %q", m)
	}
	if !strings.HasPrefix(v.Prompt, "place the ") || !strings.Contains(v.Prompt, "(1, 2 or 3)") {
		t.Errorf("prompt %q", v.Prompt)
	}
	if o := s.ViewOf(rules.Seat((s.turn + 1) % 3)); o.Prompt != "" || len(o.Legal) != 0 {
		t.Errorf("other seat's view has prompt %q legal %v", o.Prompt, o.Legal)
	}
}

func TestViewIsPublic(t *testing.T) {
	s := newState(t, 4)
	s = play(t, s, "d", "p2", "d", "p2", "d", "p4", "t2")
	a, b := s.ViewOf(0), s.ViewOf(rules.Spectator)
	a.Viewer, a.Legal, a.Prompt = b.Viewer, b.Legal, b.Prompt
	if !equalViews(a, b) {
		t.Fatal("a seat sees more than a spectator")
	}
	if a.LastMove != "t2" || int(a.LastSeat) != s.lastSeat || a.Stacks[1].PickedBy != a.LastSeat {
		t.Fatalf("last move %q by %d", a.LastMove, a.LastSeat)
	}
	if got := s.View(rules.Spectator); got == nil {
		t.Fatal("View returned nil")
	}
	if _, ok := s.View(0).(View); !ok {
		t.Fatal("View is not a View")
	}
	p := a.Players[a.LastSeat]
	if p.Hand.Size() != 3 || p.Score.Total != points(&p.Hand) {
		t.Fatalf("picker %+v", p)
	}
}

func equalViews(a, b View) bool {
	return a.DeckSize == b.DeckSize && a.Drawn == b.Drawn && len(a.Stacks) == len(b.Stacks) &&
		a.ToMove == b.ToMove && len(a.Players) == len(b.Players) && a.Players[0].Hand == b.Players[0].Hand
}

func TestGameDescription(t *testing.T) {
	if Game.ID != "coloretta" || Game.MinSeats != 2 || Game.MaxSeats != 5 || Game.New == nil ||
		Game.Notation == "" || Game.Summary == "" {
		t.Fatalf("Game = %+v", Game)
	}
	for i, l := range strings.Split(Game.Rules, "\n") {
		if n := utf8.RuneCountInString(l); n > 76 {
			t.Errorf("rules line %d has %d columns", i+1, n)
		}
	}
	names := []string{}
	for _, b := range Game.Bots {
		names = append(names, b.Name)
	}
	if strings.Join(names, " ") != "easy greedy hard" {
		t.Fatalf("bots %v", names)
	}
}
