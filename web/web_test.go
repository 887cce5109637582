package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arcade/arcade/games"
	"github.com/arcade/arcade/games/gametest"
	"github.com/arcade/arcade/matchlog"
	"github.com/arcade/arcade/record"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/lhexicon"
	"github.com/arcade/arcade/session"
	"github.com/arcade/arcade/session/draw"
	"github.com/arcade/arcade/storage"
	"github.com/arcade/arcade/web"
	"github.com/arcade/arcade/web/webdraw"
)

// arcade is a web companion over a real hub and store, served on loopback.
type arcade struct {
	t    *testing.T
	db   *storage.DB
	hub  *rooms.Hub
	web  *web.Server
	http *httptest.Server
}

// hostile is a name made to break a page that did not escape it.
const hostile = `<script>alert("x")</script>`

// start starts a companion; tweak changes its Config first. Its bots take 20 ms a move.
func start(t *testing.T, tweak func(*web.Config)) *arcade {
	t.Helper()
	return startWith(t, tweak, 20*time.Millisecond)
}

// startWith is start with bots that take botDelay a move.
func startWith(t *testing.T, tweak func(*web.Config), botDelay time.Duration) *arcade {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "arcade.db"), storage.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	hub := rooms.NewHub(rooms.Config{Games: games.Rules(), Recorder: matchlog.Recorder{Log: db}, BotDelay: botDelay,
		Logf: func(string, ...any) {}})
	cfg := web.Config{Hub: session.Local(hub), Records: db, Boards: games.Boards(), WebBoards: games.WebBoards(),
		SSH: "-p 2222 arcade.test", Online: func() int { return 3 }, Rate: 1000, Burst: 1000}
	if tweak != nil {
		tweak(&cfg)
	}
	srv, err := web.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a := &arcade{t: t, db: db, hub: hub, web: srv, http: httptest.NewServer(srv.Handler())}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx) // first: it ends the event streams, which Close would wait for
		a.http.Close()
		hub.Shutdown("")
		db.Close()
	})
	return a
}

// get fetches path and returns its status and body.
func (a *arcade) get(path string) (int, string) {
	a.t.Helper()
	resp, err := http.Get(a.http.URL + path)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// page fetches path, wants status, and returns the body.
func (a *arcade) page(path string, status int) string {
	a.t.Helper()
	code, body := a.get(path)
	if code != status {
		a.t.Fatalf("GET %s: %d, want %d: %.300s", path, code, status, body)
	}
	return body
}

// recordMatch stores a finished Stone Towers match of two keyed players (rated), played by
// greedy bots on a small board, and returns its ID.
func (a *arcade) recordMatch(code string, seats []record.Seat) string {
	a.t.Helper()
	g, _ := games.Find("stonetowers")
	opts, err := g.Game.Resolve(rules.Options{"size": "8", "turns": "10"})
	if err != nil {
		a.t.Fatal(err)
	}
	bot, _ := g.Game.Bot("greedy")
	state, moves := gametest.PlayBots(a.t, g.Game, opts, 2, 7, bot.Bot, func(int, rules.Engine) bool { return false })
	start := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	id, err := a.db.StartMatch(record.Match{Code: code, Game: g.Game.ID, Options: opts, Seed: 7, Seats: seats, Started: start})
	if err != nil {
		a.t.Fatal(err)
	}
	for i, mv := range moves {
		if err := a.db.AppendMove(code, i, record.Move{Seat: mv.Seat, Move: mv.Move, At: start.Add(time.Duration(i) * time.Second)}); err != nil {
			a.t.Fatal(err)
		}
	}
	if err := a.db.EndMatch(code, state.Outcome(), false); err != nil {
		a.t.Fatal(err)
	}
	return id
}

// recordLong stores a finished Flic Flac match of the easy bot against itself, of up to plies
// moves, and returns its ID.
func (a *arcade) recordLong(code string, plies int) string {
	a.t.Helper()
	g, _ := games.Find("flicflac")
	opts, err := g.Game.Resolve(rules.Options{"limit": "2000", "target": "99"})
	if err != nil {
		a.t.Fatal(err)
	}
	_, moves := gametest.PlayBots(a.t, g.Game, opts, 2, 9, g.Game.Bots[0].Bot, func(i int, _ rules.Engine) bool { return i >= plies })
	start := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	id, err := a.db.StartMatch(record.Match{Code: code, Game: g.Game.ID, Options: opts, Seed: 9, Started: start,
		Seats: []record.Seat{{Name: "Ada (easy bot)", Bot: "easy"}, {Name: "Bo (easy bot)", Bot: "easy"}}})
	if err != nil {
		a.t.Fatal(err)
	}
	for i, mv := range moves {
		if err := a.db.AppendMove(code, i, record.Move{Seat: mv.Seat, Move: mv.Move}); err != nil {
			a.t.Fatal(err)
		}
	}
	if err := a.db.EndMatch(code, rules.Outcome{Over: true, Scores: []int{1, 1}, Ranks: []int{1, 1}, Reason: "agreed"}, true); err != nil {
		a.t.Fatal(err)
	}
	return id
}

// players are two keyed players with names bound, as the SSH side binds them.
func (a *arcade) players() []record.Seat {
	a.t.Helper()
	for _, n := range []string{"ann", "bob"} {
		if err := a.db.Claim("SHA256:"+n, n); err != nil {
			a.t.Fatal(err)
		}
	}
	return []record.Seat{{PlayerID: "SHA256:ann", Name: "ann"}, {PlayerID: "SHA256:bob", Name: "bob"}}
}

// botRoom opens a room of game whose seats are all bots, watched by a spectator named watcher,
// and returns the room and the spectator's subscription.
func (a *arcade) botRoom(game string, opts rules.Options, seats int, watcher string) (*rooms.Room, *rooms.Sub) {
	a.t.Helper()
	p := rooms.Player{ID: "SHA256:" + watcher, Name: watcher}
	room, err := a.hub.Create(game, opts, seats, p)
	if err != nil {
		a.t.Fatal(err)
	}
	sub, err := room.Join(p, true)
	if err != nil {
		a.t.Fatal(err)
	}
	for i := range seats {
		if err := sub.AddBot(rules.Seat(i), "easy"); err != nil {
			a.t.Fatal(err)
		}
	}
	a.t.Cleanup(sub.Leave)
	return room, sub
}

// TestPages: every page answers, with its headings and what it is about.
func TestPages(t *testing.T) {
	a := start(t, nil)
	id := a.recordMatch("ROOMA", a.players())
	room, _ := a.botRoom("stonetowers", rules.Options{"size": "8"}, 2, "cat")

	home := a.page("/", http.StatusOK)
	for _, want := range []string{"<h1>The arcade, live</h1>", "3 players online", "/r/" + room.Code(), "/m/" + id, `href="/@ann"`, "<h2>Newest finished matches</h2>"} {
		if !strings.Contains(home, want) {
			t.Errorf("the front page lacks %q", want)
		}
	}
	if lb := a.page("/leaderboard/stonetowers", http.StatusOK); !strings.Contains(lb, `<a href="/@ann">ann</a>`) || !strings.Contains(lb, "<th scope=\"col\">Rating</th>") {
		t.Errorf("the leaderboard lacks ann or its table: %.500s", lb)
	}
	a.page("/leaderboard/", http.StatusOK)
	a.page("/leaderboard/lhexicon", http.StatusOK)
	a.page("/leaderboard/nosuchgame", http.StatusNotFound)
	a.page("/leaderboard/stonetowers?page=0", http.StatusBadRequest)
	a.page("/leaderboard/stonetowers?page=2", http.StatusOK)

	prof := a.page("/@ann", http.StatusOK)
	for _, want := range []string{"<h1>ann</h1>", "<svg class=\"chart\"", "/m/" + id, "Stone Towers"} {
		if !strings.Contains(prof, want) {
			t.Errorf("ann's page lacks %q", want)
		}
	}
	a.page("/@nobody", http.StatusNotFound)
	a.page("/@"+hostile, http.StatusNotFound)
	a.page("/nothing", http.StatusNotFound)

	m := a.page("/m/"+id, http.StatusOK)
	for _, want := range []string{"<svg class=\"board\"", "Next move", "/m/" + id + ".cast", "role=\"img\""} {
		if want == "Next move" {
			continue // at the end there is no next
		}
		if !strings.Contains(m, want) {
			t.Errorf("the match's page lacks %q", want)
		}
	}
	step := a.page("/m/"+id+"?at=1", http.StatusOK)
	if !strings.Contains(step, "Move 1 of") || !strings.Contains(step, "Move 1: Red (ann)") || !strings.Contains(step, `rel="next"`) {
		t.Errorf("the match at move 1: %.2000s", step)
	}
	a.page("/m/"+id+"?at=999", http.StatusBadRequest)
	a.page("/m/nosuchmatch", http.StatusNotFound)
	if cast := a.page("/m/"+id+".cast", http.StatusOK); !strings.HasPrefix(cast, `{"version":2,"width":80,"height":24`) {
		t.Errorf("the cast begins %.100s", cast)
	}

	live := a.page("/r/"+room.Code(), http.StatusOK)
	for _, want := range []string{"<h1>Stone Towers · room " + room.Code() + "</h1>", `data-stream="/r/` + room.Code() + `/events"`, "<h2>Seats</h2>", "<svg class=\"board\""} {
		if !strings.Contains(live, want) {
			t.Errorf("the room's page lacks %q", want)
		}
	}
	a.page("/r/ZZZZZ", http.StatusNotFound)
	a.page("/r/"+hostile, http.StatusNotFound)

	for _, path := range []string{"/api/leaderboard", "/api/leaderboard/stonetowers", "/api/rooms", "/api/rooms/" + room.Code(),
		"/api/players/ann", "/api/matches", "/api/matches/" + id} {
		var v any
		if err := json.Unmarshal([]byte(a.page(path, http.StatusOK)), &v); err != nil {
			t.Errorf("%s is not JSON: %v", path, err)
		}
	}
	for _, path := range []string{"/api/leaderboard/nosuchgame", "/api/rooms/ZZZZZ", "/api/players/nobody", "/api/matches/nosuch"} {
		a.page(path, http.StatusNotFound)
	}
	for _, path := range []string{"/static/style.css", "/static/live.js", "/static/player/asciinema-player.min.js", "/static/player/LICENSE"} {
		a.page(path, http.StatusOK)
	}
	a.page("/static/", http.StatusNotFound)
}

// TestPagesAreSmall: a page is under 50 KB before its assets, a long match's too.
func TestPagesAreSmall(t *testing.T) {
	a := start(t, nil)
	id := a.recordMatch("ROOMA", a.players())
	long := a.recordLong("ROOMB", 1000)
	room, _ := a.botRoom("discon", nil, 4, "cat")
	for _, path := range []string{"/", "/leaderboard/stonetowers", "/@ann", "/m/" + id, "/r/" + room.Code(),
		"/m/" + long, "/m/" + long + "?at=500", "/m/" + long + "?at=0"} {
		if body := a.page(path, http.StatusOK); len(body) > 50_000 {
			t.Errorf("%s is %d bytes", path, len(body))
		}
	}
}

// TestHostileNamesAreEscaped: a name written to break the page is shown as text on every page
// that shows it, and never as markup.
func TestHostileNamesAreEscaped(t *testing.T) {
	a := start(t, nil)
	id := a.recordMatch("ROOMA", []record.Seat{{Name: hostile, Guest: true, PlayerID: "guest-1"}, {Name: "Bo (easy bot)", Bot: "easy"}})
	p := rooms.Player{ID: "SHA256:eve", Name: hostile}
	room, err := a.hub.Create("stonetowers", nil, 2, p)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := room.Join(p, false)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Leave()
	for _, path := range []string{"/", "/m/" + id, "/r/" + room.Code(), "/api/rooms", "/api/rooms/" + room.Code(), "/api/matches/" + id} {
		body := a.page(path, http.StatusOK)
		if strings.Contains(body, "<script>alert") {
			t.Errorf("%s has the name as markup", path)
		}
		if !strings.Contains(body, "&lt;script&gt;") && !strings.Contains(body, `\u003cscript\u003e`) {
			t.Errorf("%s does not show the name at all: %.300s", path, body)
		}
	}
}

// TestNoChatOnTheWeb: what players say in a room never reaches a page, a stream or the API.
func TestNoChatOnTheWeb(t *testing.T) {
	a := start(t, nil)
	room, sub := a.botRoom("stonetowers", nil, 2, "cat")
	if err := sub.Chat("the-secret-word is swordfish"); err != nil {
		t.Fatal(err)
	}
	ev := a.events("/r/"+room.Code()+"/events", 1)
	for _, body := range []string{a.page("/r/"+room.Code(), http.StatusOK), a.page("/api/rooms/"+room.Code(), http.StatusOK), ev[0]} {
		if strings.Contains(body, "swordfish") {
			t.Errorf("the chat is on the web: %.300s", body)
		}
	}
}

// events reads n message events of an event stream and returns their data.
func (a *arcade) events(path string, n int) []string {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.http.URL+path, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		a.t.Fatalf("%s: %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	return readEvents(a.t, resp.Body, n)
}

// readEvents reads n message events (not "now" nor pings) from an event stream.
func readEvents(t testing.TB, r io.Reader, n int) []string {
	t.Helper()
	out, err := scanEvents(r, n)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// scanEvents is readEvents for any goroutine: fewer than n events is an error.
func scanEvents(r io.Reader, n int) ([]string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var out []string
	var data []string
	name := ""
	for len(out) < n && sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if name == "" && data != nil {
				out = append(out, strings.Join(data, "\n"))
			}
			data, name = nil, ""
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = append(data, strings.TrimPrefix(line, "data: "))
		}
	}
	if len(out) < n {
		return out, fmt.Errorf("%d events of %d: %v", len(out), n, sc.Err())
	}
	return out, nil
}

// TestSpectatorsViewOnly: the web boards are only ever given a spectator's snapshot, whose view
// holds no rack: a Lhex-i'-con room of bots, its page and its stream.
func TestSpectatorsViewOnly(t *testing.T) {
	var seen atomic.Int64
	a := start(t, func(c *web.Config) {
		boards := map[string]webdraw.Board{}
		for id, b := range games.WebBoards() {
			boards[id] = b
		}
		inner := boards["lhexicon"]
		boards["lhexicon"] = func(snap *rooms.Snapshot) template.HTML {
			seen.Add(1)
			if snap.You != rules.Spectator {
				t.Errorf("the web board is given seat %d's snapshot", snap.You)
			}
			if v, ok := draw.ViewRef[lhexicon.View](snap); !ok || v.Rack != nil || v.Viewer != rules.Spectator {
				t.Errorf("the view is not a spectator's: %v", ok)
			}
			return inner(snap)
		}
		c.WebBoards = boards
	})
	room, _ := a.botRoom("lhexicon", nil, 2, "cat")
	a.page("/r/"+room.Code(), http.StatusOK)
	a.events("/r/"+room.Code()+"/events", 2)
	if seen.Load() == 0 {
		t.Error("the web board was never asked")
	}
}
