package session

import (
	"strings"
	"testing"

	"github.com/arcade/arcade/rules"
)

// TestParseNewErrorsReadAlike: the errors of `new` say what to try as the other commands' do
// (sshd: "no game \"x\"; try one of ..."), one clause after a semicolon.
func TestParseNewErrorsReadAlike(t *testing.T) {
	for args, want := range map[string]string{
		"":      "new needs a game; try one of stonetowers",
		"chess": `no game "chess"; try one of stonetowers`,
	} {
		_, err := ParseNew(strings.Fields(args), testGames)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("new %s: %v, want %q", args, err, want)
		}
	}
}

// TestParseNewSolo: a game that may be played alone has one seat by default, and takes no bots
// there; bots=N without seats= gives the creator a seat beside them.
func TestParseNewSolo(t *testing.T) {
	games := []rules.Game{{ID: "words", Name: "Words", MinSeats: 1, MaxSeats: 4,
		Bots: []rules.BotLevel{{Name: "easy"}, {Name: "hard"}}}}
	for args, want := range map[string][2]int{ // seats, bots
		"words":                 {1, 0},
		"words seats=1":         {1, 0},
		"words bots=1":          {2, 1},
		"words bots=3":          {4, 3},
		"words bots=4":          {4, 4}, // every seat a bot's: the creator watches
		"words seats=3 bots=2":  {3, 2},
		"words seats=2 bots=2":  {2, 2},
		"words seats=4 bots=0":  {4, 0},
		"words bots=1 bot=hard": {2, 1},
	} {
		st, err := ParseNew(strings.Fields(args), games)
		if err != nil || st.Seats != want[0] || st.Bots != want[1] {
			t.Errorf("new %s: %d seats, %d bots, %v; want %d seats, %d bots", args, st.Seats, st.Bots, err, want[0], want[1])
		}
	}
	for args, want := range map[string]string{
		"words seats=1 bots=1": "seats=1 is the solo game, which takes no bots; to play bots, give seats=2 or more",
		"words seats=2 bots=3": "bots must be at most 2 with 2 seats",
	} {
		if _, err := ParseNew(strings.Fields(args), games); err == nil || err.Error() != want {
			t.Errorf("new %s: %v, want %q", args, err, want)
		}
	}
}

// TestNewFormSolo: the lobby's form gives a solo game no bots; with two seats or more it does.
func TestNewFormSolo(t *testing.T) {
	games := []rules.Game{{ID: "words", Name: "Words", MinSeats: 1, MaxSeats: 4,
		Bots: []rules.BotLevel{{Name: "easy"}, {Name: "hard"}}}}
	f := newNewForm(games, false)
	field := func(label string) formField {
		for _, fl := range f.fields() {
			if fl.label == label {
				return fl
			}
		}
		t.Fatalf("no field %s in %+v", label, f.fields())
		return formField{}
	}
	field("Bots").step(1)
	if st := f.start(); st.Seats != 1 || st.Bots != 0 || field("Bots").value != "none: you play alone" {
		t.Errorf("one seat, a bot asked for: %+v, bots %q", st, field("Bots").value)
	}
	field("Seats").step(1)
	field("Bots").step(1)
	if st := f.start(); st.Seats != 2 || st.Bots != 1 {
		t.Errorf("two seats, a bot: %+v", st)
	}
	field("Bots").step(1)
	field("Seats").step(-1)
	if st := f.start(); st.Seats != 1 || st.Bots != 0 {
		t.Errorf("back to one seat with two bots: %+v", st)
	}
}

// TestNewFormGuestCap: in a guest's form an integer option stops at its GuestMax, the most a
// guest's room may have (rules.Game.CheckGuest would refuse more); with a key it goes to its Max.
func TestNewFormGuestCap(t *testing.T) {
	games := []rules.Game{{ID: "long", Name: "Long", MinSeats: 2, MaxSeats: 2, Options: []rules.Option{
		{Key: "limit", Default: "200", Min: 1, Max: 2000, GuestMax: 400},
		{Key: "size", Default: "8", Min: 4, Max: 12},
	}}}
	for _, tc := range []struct {
		guest             bool
		wantLimit, wantSz string
	}{{true, "400", "12"}, {false, "1200", "12"}} {
		f := newNewForm(games, tc.guest)
		for _, fl := range f.fields() {
			if fl.label == "Limit" || fl.label == "Size" {
				fl.step(1000)
			}
		}
		st := f.start()
		if st.Options["limit"] != tc.wantLimit || st.Options["size"] != tc.wantSz {
			t.Errorf("guest %v: stepped up, the form gives limit %s size %s, want %s and %s",
				tc.guest, st.Options["limit"], st.Options["size"], tc.wantLimit, tc.wantSz)
		}
	}
}
