package session

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
)

// yoursHub is a hub whose List is list, and whose Find records the codes it is asked for; the
// room it finds records its Joins and refuses them.
type yoursHub struct {
	fakeHub
	list []rooms.Summary

	mu     sync.Mutex
	finds  []string
	joins  []rooms.Player
	watch  []bool
	joined chan struct{}
}

var errTestJoin = errors.New("test: no room behind the list")

func (h *yoursHub) List() []rooms.Summary { return h.list }

func (h *yoursHub) Find(code string, _ rooms.Player) (Room, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.finds = append(h.finds, code)
	return yoursRoom{h, code}, nil
}

type yoursRoom struct {
	h    *yoursHub
	code string
}

func (r yoursRoom) Code() string { return r.code }
func (r yoursRoom) Join(p rooms.Player, watch bool) (Sub, error) {
	r.h.mu.Lock()
	defer r.h.mu.Unlock()
	r.h.joins = append(r.h.joins, p)
	r.h.watch = append(r.h.watch, watch)
	return nil, errTestJoin
}

// yourGamesNow is the time the golden screens' clocks are read at.
var yourGamesNow = time.Date(2026, 11, 28, 1, 0, 0, 0, time.UTC)

// yourGamesList returns n of ann's unfinished matches (ann is "SHA256:x"), her turn in the
// second and fourth, among rooms that are not hers or have ended, in Hub.List's order.
func yourGamesList(n int) []rooms.Summary {
	mine := []rooms.Summary{
		{Code: "K2P9D", GameName: "Stone Towers", Phase: rooms.Playing, Seats: []string{"carol", "ann"},
			Players: []string{"SHA256:carol", "SHA256:x"}, ToMove: []rules.Seat{0}},
		{Code: "TQNFY", GameName: "Flic Flac", Phase: rooms.Playing, Seats: []string{"ann", "bob"},
			Players: []string{"SHA256:x", "SHA256:bob"}, ToMove: []rules.Seat{0},
			Clock: rooms.TurnClock{Seat: 0, Ends: yourGamesNow.Add(12 * time.Second)}},
		{Code: "7RMWX", GameName: "DISCON", Phase: rooms.Waiting, Free: 1, Seats: []string{"ann", ""},
			Players: []string{"SHA256:x", ""}},
		{Code: "C4HJE", GameName: "Coloretta", Phase: rooms.Playing, Seats: []string{"ann", "Bo (greedy bot)", "dave"},
			Players: []string{"SHA256:x", "", "SHA256:dave"}, ToMove: []rules.Seat{0}},
	}
	list := []rooms.Summary{
		{Code: "ZZZZZ", GameName: "Stone Towers", Phase: rooms.Waiting, Free: 1, Seats: []string{"eve", ""},
			Players: []string{"SHA256:eve", ""}},
		{Code: "ENDED", GameName: "Stone Towers", Phase: rooms.Finished, Seats: []string{"ann", "bob"},
			Players: []string{"SHA256:x", "SHA256:bob"}},
	}
	return append(list, mine[:n]...)
}

// yourGamesModel is ann's lobby on a w x h screen, with n unfinished matches of hers.
func yourGamesModel(w, h, n int) (Model, *yoursHub) {
	hub := &yoursHub{fakeHub: fakeHub{testGames}, list: yourGamesList(n)}
	m := New(Config{Hub: hub, Boards: testBoards, Player: rooms.Player{ID: "SHA256:x", Name: "ann"},
		Width: w, Height: h, Send: func(tea.Msg) {}})
	m.lobby.yours.now = func() time.Time { return yourGamesNow }
	return m, hub
}

// TestYourGamesGolden: the lobby lists the player's unfinished matches above the menu, her turn
// first, the cursor on the first; none, one and four of them, at 80 x 24 and 60 x 20 (where
// four do not all fit beside the menu and the room that waits for players).
func TestYourGamesGolden(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {60, 20}} {
		for _, n := range []int{0, 1, 4} {
			t.Run(fmt.Sprintf("%dx%d_%d", size[0], size[1], n), func(t *testing.T) {
				m, _ := yourGamesModel(size[0], size[1], n)
				out := m.View().Content
				checkSize(t, out, size[0], size[1])
				screen := plain(out)
				if n > 0 && !strings.Contains(screen, "Your games") {
					t.Errorf("no block of the player's games:\n%s", screen)
				}
				if n == 0 && strings.Contains(screen, "Your games") {
					t.Errorf("a block of no games:\n%s", screen)
				}
				if k := strings.Index(screen, "K2P9D"); n == 4 && (k >= 0 && strings.Index(screen, "TQNFY") > k || !strings.Contains(screen, "TQNFY")) {
					t.Errorf("the player's turn is not first:\n%s", screen)
				}
				if strings.Contains(screen, "ENDED") || strings.Contains(screen, "ZZZZZ ·") {
					t.Errorf("a room that is not the player's unfinished match is listed:\n%s", screen)
				}
				golden.RequireEqual(t, screen)
			})
		}
	}
}

// TestYourGamesEnterReturns: enter on one of the player's games joins its room by its code, on
// her seat (not watching), as `join CODE` does; the arrows go from the games to the menu and
// back.
func TestYourGamesEnterReturns(t *testing.T) {
	m, hub := yourGamesModel(80, 24, 4)
	m = press(m, "down") // from the first game (TQNFY, her turn) to the second
	if !strings.Contains(plain(m.View().Content), "Coloretta C4HJE · vs Bo (greedy bot), dave · your turn · enter to return") {
		t.Fatalf("the cursor is not on the second game:\n%s", plain(m.View().Content))
	}
	next, cmd := m.Update(keyPress("enter"))
	m = next.(Model)
	if cmd == nil {
		t.Fatal("enter on a game does nothing")
	}
	msg := cmd()
	if jm, ok := msg.(joinedMsg); !ok || !errors.Is(jm.err, errTestJoin) {
		t.Fatalf("enter on a game: %#v, want the room's join", msg)
	}
	hub.mu.Lock()
	finds, joins, watch := hub.finds, hub.joins, hub.watch
	hub.mu.Unlock()
	if len(finds) != 1 || finds[0] != "C4HJE" || len(joins) != 1 || joins[0].ID != "SHA256:x" || watch[0] {
		t.Errorf("enter on C4HJE: found %v, joined as %v watching %v", finds, joins, watch)
	}

	// Up from the first game goes to the menu's last item, down from it back to the first game.
	m, _ = yourGamesModel(80, 24, 4)
	m = press(m, "up")
	if m.lobby.yours.focused() || menuItems[m.lobby.menu].label != "Quit" {
		t.Errorf("up from the first game: menu item %d, a game focused %v", m.lobby.menu, m.lobby.yours.focused())
	}
	m = press(m, "down")
	if m.lobby.yours.sel != 0 {
		t.Errorf("down from the menu's last item: game %d", m.lobby.yours.sel)
	}
	m = press(m, "down", "down", "down", "down")
	if m.lobby.yours.focused() || m.lobby.menu != 0 {
		t.Errorf("down from the last game: menu item %d, game %d", m.lobby.menu, m.lobby.yours.sel)
	}
}

// TestYourGamesNoneForAGuest: a guest, who has no key, has no block, even where a summary's
// seat would match its ID.
func TestYourGamesNoneForAGuest(t *testing.T) {
	hub := &yoursHub{fakeHub: fakeHub{testGames}, list: yourGamesList(4)}
	m := New(Config{Hub: hub, Boards: testBoards, Player: rooms.Player{ID: "SHA256:x", Name: "ann", Guest: true},
		Width: 80, Height: 24, Send: func(tea.Msg) {}})
	if screen := plain(m.View().Content); strings.Contains(screen, "Your games") {
		t.Errorf("a guest's lobby lists games:\n%s", screen)
	}
}

// TestLeftText: a time left in days and hours, hours and minutes, and below an hour as a clock
// does (a live turn's notice says seconds, not "0m").
func TestLeftText(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-time.Second:                    "0:00",
		12 * time.Second:                "0:12",
		3*time.Minute + 5*time.Second:   "3:05",
		59*time.Minute + 59*time.Second: "59:59",
		5*time.Hour + 12*time.Minute:    "5h 12m",
		52 * time.Hour:                  "2d 4h",
	} {
		if got := LeftText(d); got != want {
			t.Errorf("LeftText(%v) = %q, want %q", d, got, want)
		}
	}
}
