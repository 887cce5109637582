package sshd

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	shlex "github.com/anmitsu/go-shlex"

	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/sanitize"
	"github.com/arcade/arcade/session"
)

// fuzzGames is the arcade's catalogue of games.
var fuzzGames = games.Rules()

// FuzzParseRequest feeds parseRequest the words of arbitrary command lines, split as the SSH
// server splits them (charm.land/ssh's Session.Command), after the middleware's length limit.
// Nothing panics; a refused line is a usage error of one printable line; an accepted one is a
// valid request (a known game, seats and bots in range, options a match can be set up with), and
// its canonical words parse back to the same request.
func FuzzParseRequest(f *testing.F) {
	for _, line := range []string{
		"", "help", "-h", "--help", "HELP", "whoami", "rooms", "rooms now",
		"leaderboard", "leaderboard stonetowers", "leaderboard --json", "leaderboard discon -json",
		"leaderboard coloretta --json extra", "leaderboard chess",
		"new stonetowers", "new stonetowers size=8 turns=10", "new stonetowers bots=1 bot=hard",
		"new discon seats=4 bots=3 variant=basic", "new discon variant=PREMIUM",
		"new coloretta seats=5 bots=4 bot=easy rounds=1", "new coloretta rounds=7", "new coloretta seats=1",
		"new StoneTowers SIZE=9", "new stonetowers size", "new stonetowers =3", "new stonetowers bots=3",
		"new", "new chess", `new stonetowers "size=12"`, "new stonetowers size=+9 turns=010",
		"join K7QXM", "join k7qxm", "watch K7QXM", "join", "join A B", "watch '' ",
		"replay 2k9xq4m7a8b", "replay", "replay a b",
		"dance", "\x1b[2Jdance", `join "K7 QXM"`, "join 'unterminated", `new stonetowers size=\`,
		strings.Repeat("x", 100), strings.Repeat("a ", 20),
		"inbox", "inbox --json", "inbox x", "next", "friends", "friends now", "accept x7k2m", "accept", "decline X7K2M",
		"withdraw a b", "follow bob", "follow Bob", "follow b.b", "unfollow bob", "challenge bob coloretta clock=3d",
		"challenge --open stonetowers clock=1d rating=1400-1600", "challenge bob stonetowers rating=1-2",
		"challenge bob discon bots=1", "challenge ａda coloretta", "challenge bob", "set notify=off",
		"set challenges=friends", "set challenges=maybe", "set notify=friends",
	} {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if len(line) > maxCommand {
			return // refused by commandLength before anything splits it
		}
		words, _ := shlex.Split(line, true)
		req, err := parseRequest(words, fuzzGames)
		if err != nil {
			if !errors.Is(err, errUsage) {
				t.Fatalf("%q: %v is not a usage error", line, err)
			}
			if msg := err.Error(); strings.ContainsFunc(msg, func(r rune) bool { return !unicode.IsPrint(r) }) {
				t.Fatalf("%q: the message %q is not one printable line", line, msg)
			}
			return
		}
		checkRequest(t, line, req)
		again, err := parseRequest(requestWords(req), fuzzGames)
		if err != nil || !reflect.DeepEqual(again, req) {
			t.Fatalf("%q gives %+v, written %q, which gives %+v, %v", line, req, requestWords(req), again, err)
		}
	})
}

// checkRequest fails t unless req is one the server can serve.
func checkRequest(t *testing.T, line string, req request) {
	t.Helper()
	switch req.plain {
	case "help", "whoami", "rooms":
		if req.game != "" || req.json || !reflect.DeepEqual(req.start, session.Start{}) {
			t.Fatalf("%q: %+v carries more than %s", line, req, req.plain)
		}
		return
	case "leaderboard":
		if _, ok := rules.FindGame(fuzzGames, req.game); req.game != "" && !ok {
			t.Fatalf("%q: leaderboard of unknown game %q", line, req.game)
		}
		return
	case "set":
		if ok := req.value == "on" || req.value == "off" || req.set == "challenges" && req.value == "friends"; !ok ||
			req.set != "bell" && req.set != "notify" && req.set != "challenges" {
			t.Fatalf("%q: set %q to %q", line, req.set, req.value)
		}
		return
	case "inbox", "next", "friends":
		return
	case "accept", "decline", "withdraw":
		if req.id == "" || req.id != strings.ToLower(req.id) {
			t.Fatalf("%q: challenge ID %q", line, req.id)
		}
		return
	case "follow", "unfollow":
		if n, err := sanitize.ParseName(req.name); err != nil || n != req.name {
			t.Fatalf("%q: name %q", line, req.name)
		}
		return
	case "challenge":
		if n, err := sanitize.ParseName(req.name); req.name != "" && (err != nil || n != req.name) {
			t.Fatalf("%q: name %q", line, req.name)
		}
		g, ok := rules.FindGame(fuzzGames, req.start.Game)
		if !ok || req.start.Seats != 2 || req.start.Bots != 0 || (req.name != "" && req.lo+req.hi != 0) {
			t.Fatalf("%q: challenge %+v", line, req)
		}
		if _, err := g.New(withoutClock(req.start.Options), 2, 1); err != nil {
			t.Fatalf("%q: accepted, but the match cannot be set up: %v", line, err)
		}
		return
	case "":
	default:
		t.Fatalf("%q: unknown plain command %q", line, req.plain)
	}
	st := req.start
	switch st.Mode {
	case session.ModeLobby:
		if strings.TrimSpace(line) != "" && len(shlexWords(line)) != 0 {
			t.Fatalf("%q: the lobby from a command line", line)
		}
	case session.ModeJoin, session.ModeWatch:
		if st.Code != strings.ToUpper(st.Code) {
			t.Fatalf("%q: room code %q not in upper case", line, st.Code)
		}
	case session.ModeReplay:
		if st.Match != strings.ToLower(st.Match) {
			t.Fatalf("%q: match ID %q not in lower case", line, st.Match)
		}
	case session.ModeQuick:
		if g, ok := rules.FindGame(fuzzGames, st.Game); !ok || g.ID != st.Game {
			t.Fatalf("%q: quick match of unknown game %q", line, st.Game)
		}
	case session.ModeNew:
		g, ok := rules.FindGame(fuzzGames, st.Game)
		if !ok || g.ID != st.Game {
			t.Fatalf("%q: new of unknown game %q", line, st.Game)
		}
		if st.Seats < g.MinSeats || st.Seats > g.MaxSeats || st.Bots < 0 || st.Bots > st.Seats {
			t.Fatalf("%q: %d seats, %d bots", line, st.Seats, st.Bots)
		}
		if _, ok := g.Bot(st.BotLevel); !ok {
			t.Fatalf("%q: bot level %q", line, st.BotLevel)
		}
		if _, err := g.New(maps.Clone(st.Options), st.Seats, 1); err != nil {
			t.Fatalf("%q: accepted, but the match cannot be set up: %v", line, err)
		}
	default:
		t.Fatalf("%q: unknown mode %d", line, st.Mode)
	}
}

// withoutClock returns opts without the room's clock, as a game takes them.
func withoutClock(opts rules.Options) rules.Options {
	out := maps.Clone(opts)
	delete(out, rooms.ClockOption)
	return out
}

func shlexWords(line string) []string {
	w, _ := shlex.Split(line, true)
	return w
}

// requestWords writes req as the canonical words of its command line.
func requestWords(req request) []string {
	switch req.plain {
	case "leaderboard":
		w := []string{"leaderboard"}
		if req.game != "" {
			w = append(w, req.game)
		}
		if req.json {
			w = append(w, "--json")
		}
		return w
	case "set":
		return []string{"set", req.set + "=" + req.value}
	case "inbox":
		if req.json {
			return []string{"inbox", "--json"}
		}
		return []string{"inbox"}
	case "accept", "decline", "withdraw":
		return []string{req.plain, req.id}
	case "follow", "unfollow":
		return []string{req.plain, req.name}
	case "challenge":
		w := []string{"challenge", req.name}
		if req.name == "" {
			w[1] = openFlag
		}
		w = append(w, req.start.Game)
		for _, k := range slices.Sorted(maps.Keys(req.start.Options)) {
			w = append(w, k+"="+req.start.Options[k])
		}
		if req.lo+req.hi > 0 {
			w = append(w, fmt.Sprintf("rating=%d-%d", req.lo, req.hi))
		}
		return w
	case "":
	default:
		return []string{req.plain}
	}
	st := req.start
	switch st.Mode {
	case session.ModeJoin:
		return []string{"join", st.Code}
	case session.ModeWatch:
		return []string{"watch", st.Code}
	case session.ModeReplay:
		return []string{"replay", st.Match}
	case session.ModeQuick:
		return []string{"play", st.Game}
	case session.ModeNew:
		w := []string{"new", st.Game}
		for _, k := range slices.Sorted(maps.Keys(st.Options)) {
			w = append(w, k+"="+st.Options[k])
		}
		return append(w, "seats="+strconv.Itoa(st.Seats), "bots="+strconv.Itoa(st.Bots), "bot="+st.BotLevel)
	}
	return nil
}
