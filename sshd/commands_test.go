package sshd

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session"
)

var testGames = []rules.Game{{
	ID: "towers", Name: "Towers", MinSeats: 2, MaxSeats: 3,
	Options: []rules.Option{{Key: "size", Help: "board size", Default: "12", Min: 8, Max: 16}},
	Bots:    []rules.BotLevel{{Name: "easy"}, {Name: "hard"}},
}}

func TestParseRequest(t *testing.T) {
	for _, tc := range []struct {
		line  string
		plain string
		mode  session.Mode
	}{
		{"", "", session.ModeLobby},
		{"help", "help", 0},
		{"HELP", "help", 0},
		{"rooms", "rooms", 0},
		{"whoami", "whoami", 0},
		{"join k7qxm", "", session.ModeJoin},
		{"watch K7QXM", "", session.ModeWatch},
		{"play TOWERS", "", session.ModeQuick},
		{"new towers size=9 seats=3 bots=2 bot=easy", "", session.ModeNew},
	} {
		req, err := parseRequest(strings.Fields(tc.line), testGames)
		if err != nil {
			t.Errorf("%q: %v", tc.line, err)
			continue
		}
		if req.plain != tc.plain || (tc.plain == "" && req.start.Mode != tc.mode) {
			t.Errorf("%q: got %+v", tc.line, req)
		}
	}
	req, _ := parseRequest([]string{"join", "k7qxm"}, testGames)
	if req.start.Code != "K7QXM" {
		t.Errorf("join code %q, want K7QXM", req.start.Code)
	}
	if req, _ = parseRequest([]string{"play", "Towers"}, testGames); req.start.Game != "towers" {
		t.Errorf("play: game %q, want towers", req.start.Game)
	}
	req, _ = parseRequest(strings.Fields("new towers size=9 seats=3 bots=2 bot=easy"), testGames)
	if st := req.start; st.Options["size"] != "9" || st.Seats != 3 || st.Bots != 2 || st.BotLevel != "easy" {
		t.Errorf("new: %+v", st)
	}
}

func TestParseRequestErrors(t *testing.T) {
	for line, want := range map[string]string{
		"dance":                      "unknown command",
		"rooms now":                  "takes no arguments",
		"join":                       "needs a room code",
		"join A B":                   "needs a room code",
		"play":                       "play needs a game",
		"play chess":                 `no game "chess"`,
		"play towers now":            "play needs a game",
		"new":                        "new needs a game",
		"new chess":                  `no game "chess"`,
		"new towers size=7":          "size must be",
		"new towers size":            "key=value",
		"new towers colour=red":      "no option",
		"new towers seats=9":         "seats must be",
		"new towers bots=3":          "bots must be at most 2",
		"new towers bot=grandmaster": "bot must be one of easy, hard",
		"\x1b[2Jdance":               "unknown command",
		strings.Repeat("x", 100):     "too long",
		strings.Repeat("a ", 20):     "too many",
	} {
		_, err := parseRequest(strings.Fields(line), testGames)
		if err == nil || !errors.Is(err, errUsage) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one containing %q", line, err, want)
		}
		if err != nil && strings.ContainsRune(err.Error(), 0x1b) {
			t.Errorf("%q: error carries an escape: %q", line, err)
		}
	}
}

// TestWriteRooms: `rooms` gives each room's state in words, and whether its matches are rated
// or casual ("-" when the room does not say: played alone, or from a node that does not know).
func TestWriteRooms(t *testing.T) {
	now := time.Now()
	var out bytes.Buffer
	writeRooms(&out, []rooms.Summary{
		{Code: "K7QXM", GameName: "Towers", Phase: rooms.Waiting, Free: 2, Seats: []string{"ann", "", ""}, Created: now,
			Mode: rooms.ModeRated},
		{Code: "ABCDE", GameName: "Towers", Phase: rooms.Playing, Seats: []string{"ann", "bob"}, Created: now.Add(-time.Hour),
			Away: []rooms.Away{{Name: "bob", Gone: true}}, Mode: rooms.ModeCasual},
		{Code: "SOLO1", GameName: "Towers", Phase: rooms.Playing, Seats: []string{"ann"}, Created: now},
	}, now, "", false)
	for _, want := range []string{"K7QXM  Towers  waiting for 2 players  rated   ann, -, -",
		"ABCDE  Towers  bob left               casual  ann, bob", "SOLO1  Towers  playing                -       ann"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("rooms does not say %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "http") {
		t.Errorf("rooms gives links with no --public-url:\n%s", out.String())
	}
}

// TestWriteRoomsLinks: with --public-url, each room has its page's link, as an OSC 8 hyperlink
// for a terminal that takes them and plain for any other, the link's text the address either way.
func TestWriteRoomsLinks(t *testing.T) {
	now := time.Now()
	list := []rooms.Summary{{Code: "K7QXM", GameName: "Towers", Phase: rooms.Waiting, Free: 2, Seats: []string{"ann", ""}, Created: now}}
	var plain, linked bytes.Buffer
	writeRooms(&plain, list, now, "https://arcade.test", false)
	writeRooms(&linked, list, now, "https://arcade.test", true)
	if !strings.Contains(plain.String(), "https://arcade.test/r/K7QXM") || strings.Contains(plain.String(), "\x1b") {
		t.Errorf("plain links:\n%q", plain.String())
	}
	if !strings.Contains(linked.String(), "\x1b]8;;https://arcade.test/r/K7QXM\x1b\\https://arcade.test/r/K7QXM\x1b]8;;\x1b\\") {
		t.Errorf("OSC 8 links:\n%q", linked.String())
	}
}

// TestTakesHyperlinks: OSC 8 only on a PTY of a terminal known to take it, or when the client
// says so; never on a pipe unless asked.
func TestTakesHyperlinks(t *testing.T) {
	for _, c := range []struct {
		env  []string
		term string
		pty  bool
		want bool
	}{
		{nil, "xterm-kitty", true, true},
		{nil, "xterm-ghostty", true, true},
		{nil, "xterm-256color", true, false},
		{[]string{"TERM_PROGRAM=WezTerm"}, "xterm-256color", true, true},
		{[]string{"VTE_VERSION=7600"}, "xterm-256color", true, true},
		{[]string{"VTE_VERSION=4000"}, "xterm-256color", true, false},
		{nil, "xterm-kitty", false, false},
		{[]string{"ARCADE_LINKS=osc8"}, "", false, true},
		{[]string{"ARCADE_LINKS=plain"}, "xterm-kitty", true, false},
	} {
		if got := takesHyperlinks(c.env, c.term, c.pty); got != c.want {
			t.Errorf("env %v, TERM %q, pty %v: %v, want %v", c.env, c.term, c.pty, got, c.want)
		}
	}
}
