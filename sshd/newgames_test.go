package sshd

import (
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session"
)

// TestNewLhexiconCommandLine: `ssh arcade new lhexicon ...` reads seats, bots, bot and the
// game's options (check, timer) against the real catalogue, the solo game included, and refuses
// bad values with a line that says what is wrong.
func TestNewLhexiconCommandLine(t *testing.T) {
	catalogue := games.Rules()
	for _, tc := range []struct {
		line         string
		seats, bots  int
		bot          string
		check, timer string
	}{
		{"new lhexicon", 2, 0, "greedy", "auto", "off"}, // greedy: the default level
		{"new lhexicon seats=1", 1, 0, "greedy", "auto", "off"},
		{"new lhexicon seats=1 check=challenge timer=competition", 1, 0, "greedy", "challenge", "competition"},
		{"new lhexicon bots=1 bot=greedy", 2, 1, "greedy", "auto", "off"},
		{"new lhexicon seats=4 bots=3 bot=hard check=challenge timer=competition", 4, 3, "hard", "challenge", "competition"},
		{"new Lhexicon SEATS=3 bots=2 bot=easy CHECK=auto timer=off", 3, 2, "easy", "auto", "off"},
	} {
		req, err := parseRequest(strings.Fields(tc.line), catalogue)
		if err != nil {
			t.Errorf("%q: %v", tc.line, err)
			continue
		}
		st := req.start
		if st.Mode != session.ModeNew || st.Game != "lhexicon" || st.Seats != tc.seats || st.Bots != tc.bots ||
			st.BotLevel != tc.bot || st.Options["check"] != tc.check || st.Options["timer"] != tc.timer {
			t.Errorf("%q: %+v", tc.line, st)
			continue
		}
		if _, err := newEngine(t, st); err != nil {
			t.Errorf("%q: the options make no match: %v", tc.line, err)
		}
	}
	refuseLines(t, catalogue, map[string]string{
		"new lhexicon seats=0":                 "seats must be",
		"new lhexicon seats=5":                 "seats must be",
		"new lhexicon bots=5":                  "bots must be",
		"new lhexicon seats=1 bots=1":          "seats=1 is the solo game",
		"new lhexicon seats=2 bots=3":          "bots must be at most 2",
		"new lhexicon bot=genius":              "bot must be one of easy, greedy, hard",
		"new lhexicon check=maybe":             "check must be one of auto, challenge",
		"new lhexicon timer=fast":              "timer must be one of off, competition",
		"new lhexicon size=8":                  "no option",
		"new lhexicon check":                   "key=value",
		"new lhexicon seats=two":               "seats must be a whole number from 1 to 4",
		"new lhexicon seats=1 timer=3 minutes": "key=value",
	})
}

// TestNewFlicflacCommandLine: `ssh arcade new flicflac ...` reads every option of RULES.md
// section 5 with its unit (20s, 1%), the defaults when none is given, and refuses values out of
// range in words.
func TestNewFlicflacCommandLine(t *testing.T) {
	catalogue := games.Rules()
	defaults := rules.Options{"size": "8", "target": "11", "timer": "20", "captors": "10", "events": "1",
		"limit": "200", "shape": "random"}
	for line, want := range map[string]rules.Options{
		"new flicflac": defaults,
		"new flicflac size=5 target=7 timer=30s captors=5s events=2% limit=100 shape=blocks bots=1 bot=hard": {
			"size": "5", "target": "7", "timer": "30", "captors": "5", "events": "2", "limit": "100", "shape": "blocks"},
		"new flicflac size=6 timer=0 captors=0 events=0 shape=cylinders": {
			"size": "6", "target": "11", "timer": "0", "captors": "0", "events": "0", "limit": "200", "shape": "cylinders"},
		"new flicflac size=7 timer=45 events=100% shape=random bots=2 bot=greedy": {
			"size": "7", "target": "11", "timer": "45", "captors": "10", "events": "100", "limit": "200", "shape": "random"},
	} {
		req, err := parseRequest(strings.Fields(line), catalogue)
		if err != nil {
			t.Errorf("%q: %v", line, err)
			continue
		}
		st := req.start
		if st.Mode != session.ModeNew || st.Game != "flicflac" || st.Seats != 2 {
			t.Errorf("%q: %+v", line, st)
			continue
		}
		got := maps.Clone(st.Options)
		for k := range got {
			if _, ok := defaults[k]; !ok {
				delete(got, k) // the room's own options (none here), not the game's
			}
		}
		if !maps.Equal(got, want) {
			t.Errorf("%q: options %v, want %v", line, st.Options, want)
		}
		if _, err := newEngine(t, st); err != nil {
			t.Errorf("%q: the options make no match: %v", line, err)
		}
	}
	if req, err := parseRequest(strings.Fields("new flicflac bots=1 bot=hard"), catalogue); err != nil ||
		req.start.Bots != 1 || req.start.BotLevel != "hard" {
		t.Errorf("bots=1 bot=hard: %+v, %v", req.start, err)
	}
	refuseLines(t, catalogue, map[string]string{
		"new flicflac size=4":          "size must be",
		"new flicflac size=9":          "size must be",
		"new flicflac target=0":        "target must be",
		"new flicflac timer=20m":       "timer must be a whole number from 0 to 600s",
		"new flicflac timer=601s":      "timer must be",
		"new flicflac captors=-1s":     "captors must be",
		"new flicflac events=101%":     "events must be",
		"new flicflac events=1s":       "events must be a whole number from 0 to 100%",
		"new flicflac limit=0":         "limit must be",
		"new flicflac shape=spheres":   "shape must be one of random, cylinders, blocks",
		"new flicflac seats=1":         "Flic Flac is played by 2: leave seats out, or seats=2",
		"new flicflac seats=3":         "Flic Flac is played by 2",
		"new flicflac bots=3":          "bots must be",
		"new flicflac bot=grandmaster": "bot must be one of easy, greedy, hard",
		"new flicflac colour=red":      "no option",
		"new flicflac size":            "key=value",
	})
}

// refuseLines checks that each command line is refused with a usage error containing its text.
func refuseLines(t *testing.T, catalogue []rules.Game, lines map[string]string) {
	t.Helper()
	for line, want := range lines {
		_, err := parseRequest(strings.Fields(line), catalogue)
		if err == nil || !errors.Is(err, errUsage) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one containing %q", line, err, want)
		}
	}
}

// newEngine sets up the match a parsed `new` asks for, as the room does.
func newEngine(t *testing.T, st session.Start) (rules.Engine, error) {
	t.Helper()
	g, ok := rules.FindGame(games.Rules(), st.Game)
	if !ok {
		t.Fatalf("no game %q", st.Game)
	}
	return g.New(st.Options, st.Seats, 1)
}

// TestHelpWritesUnits: `help` writes an option that takes a unit with it, its default and its
// range, as the README and the lobby's form do (timer=20s, events=1%).
func TestHelpWritesUnits(t *testing.T) {
	var b strings.Builder
	writeHelp(&b, "localhost", games.Rules())
	out := b.String()
	for _, want := range []string{"timer=20s ", "(0..600s; rated: 20s)", "events=1% ", "(0..100%; rated: 0% or 1%)", "size=8 "} {
		if !strings.Contains(out, want) {
			t.Errorf("help does not write %q:\n%s", want, out)
		}
	}
}

// TestHelpListsEveryOption: `help` names every room option of every game in the catalogue with
// its default, the room's own options (seats, bots, bot, clock) with clock forms the room takes,
// and what `new GAME` opens as ParseNew opens it, so adding an option or changing a default
// cannot leave the help behind.
func TestHelpListsEveryOption(t *testing.T) {
	catalogue := games.Rules()
	var b strings.Builder
	writeHelp(&b, "localhost", catalogue)
	out := b.String()
	for _, want := range []string{"seats=N", "bots=N", "bot=LEVEL"} {
		if !strings.Contains(out, want) {
			t.Errorf("help does not name %q", want)
		}
	}
	for _, form := range []string{"off", "2m", "90s", "1h", "10m+5s", "5s", "24h"} {
		if _, err := rooms.ParseClock(form); err != nil {
			t.Errorf("help gives clock form %q, which the room refuses: %v", form, err)
		}
	}
	for _, want := range []string{"clock=off ", "clock=2m ", "clock=10m+5s ", "from 5s to 24h"} {
		if !strings.Contains(out, want) {
			t.Errorf("help does not write %q", want)
		}
	}
	for _, bad := range []string{"4s", "25h"} {
		if _, err := rooms.ParseClock(bad); err == nil {
			t.Errorf("help says clock times run from 5s to 24h, but the room takes %q", bad)
		}
	}
	for _, g := range catalogue {
		i := strings.Index(out, "\n"+g.Name+" ("+g.ID+"):")
		if i < 0 {
			t.Errorf("help has no section for %s", g.ID)
			continue
		}
		sec := out[i+1:]
		if j := strings.Index(sec, "\n\n"); j >= 0 {
			sec = sec[:j]
		}
		st, err := session.ParseNew([]string{g.ID}, catalogue)
		if err != nil {
			t.Fatalf("new %s: %v", g.ID, err)
		}
		opens := fmt.Sprintf("new %s opens %d seat", g.ID, st.Seats)
		if !strings.Contains(sec, opens) || !strings.Contains(sec, "bot="+st.BotLevel) {
			t.Errorf("%s's help does not say %q with bot=%s:\n%s", g.ID, opens, st.BotLevel, sec)
		}
		if g.MinSeats == 1 && st.Seats > 1 && !strings.Contains(sec, "seats=1 for the solo game") {
			t.Errorf("%s's help does not say how to open the solo game:\n%s", g.ID, sec)
		}
		for _, o := range g.Options {
			if !strings.Contains(sec, "  "+o.Key+"="+o.Default) {
				t.Errorf("%s's help does not name option %s with its default %s:\n%s", g.ID, o.Key, o.Default, sec)
			}
			for _, c := range o.Choices {
				if !strings.Contains(sec, c) {
					t.Errorf("%s's help does not name %s=%s", g.ID, o.Key, c)
				}
			}
			if o.IsInt() && !strings.Contains(sec, fmt.Sprintf("(%d..%d%s;", o.Min, o.Max, o.Unit)) {
				t.Errorf("%s's help does not give %s's range", g.ID, o.Key)
			}
			if !strings.Contains(sec, "rated: "+o.StandardText()+")") {
				t.Errorf("%s's help does not give %s's standard values (%s)", g.ID, o.Key, o.StandardText())
			}
		}
	}
	if strings.Contains(out, "is the solo game (seats=1) unless") {
		t.Error("help still says a game for one to N players opens the solo game")
	}
}
